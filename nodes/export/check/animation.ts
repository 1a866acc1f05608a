/**
 * Animations of a written glTF: channel targets (no two channels of one animation on the same
 * node and path, weights only on nodes with morph targets), sampler accessor formats and counts per
 * interpolation, and the data checks of times (non-negative, strictly increasing) and rotations
 * (unit quaternions).
 *
 * @module
 */
import { collection, int, type Json, keys, object, shaped } from "./json.ts";
import { type AccessorLayout, FLOAT } from "./layout.ts";
import type { MeshFacts } from "./mesh.ts";
import type { NodeFacts } from "./nodes.ts";
import type { Plan, Usages } from "./plan.ts";
import { outside } from "./verdict.ts";

const ANIMATION_KEYS = keys("channels", "samplers");
const SAMPLER_KEYS = keys("input", "output", "interpolation");
const CHANNEL_KEYS = keys("sampler", "target");
const INTERPOLATIONS = new Set(["LINEAR", "STEP", "CUBICSPLINE"]);
/** Output formats per target path (float, or normalized integers where glTF allows them). */
const OUTPUT_FORMATS: Readonly<Record<string, (a: AccessorLayout) => boolean>> = {
  translation: (a) => a.type === "VEC3" && a.componentType === FLOAT,
  scale: (a) => a.type === "VEC3" && a.componentType === FLOAT,
  rotation: (a) =>
    a.type === "VEC4" && (a.componentType === FLOAT || (a.normalized && a.componentType <= 5123)),
  weights: (a) =>
    a.type === "SCALAR" && (a.componentType === FLOAT || (a.normalized && a.componentType <= 5123)),
};

/** Reads every animation, adding time and rotation checks to `plan`. */
export function readAnimations(
  root: Json,
  nodes: readonly NodeFacts[],
  meshes: readonly MeshFacts[],
  accessors: readonly AccessorLayout[],
  usages: Usages,
  plan: Plan,
): void {
  const samplerAccessor = (value: unknown, pointer: string, usage: "input" | "output") => {
    const index = int(value, pointer, accessors.length);
    usages.accessor(index, accessors[index], usage, pointer);
    return accessors[index];
  };
  collection(root, "animations").forEach((value, a) => {
    const pointer = `/animations/${a}`;
    const animation = shaped(value, pointer, ANIMATION_KEYS);
    const samplers = animation.samplers, channels = animation.channels;
    if (!Array.isArray(samplers) || !samplers.length || !Array.isArray(channels) || !channels.length) {
      outside("animation without channels or samplers", pointer);
    }
    const read = samplers.map((item, s) => {
      const at = `${pointer}/samplers/${s}`;
      const sampler = shaped(item, at, SAMPLER_KEYS);
      const interpolation = sampler.interpolation ?? "LINEAR";
      if (!INTERPOLATIONS.has(interpolation as string)) outside("interpolation", `${at}/interpolation`);
      const input = samplerAccessor(sampler.input, `${at}/input`, "input");
      const output = samplerAccessor(sampler.output, `${at}/output`, "output");
      if (input.type !== "SCALAR" || input.componentType !== FLOAT || !input.min || !input.max) {
        outside("animation input format or bounds", `${at}/input`);
      }
      // One key is valid for LINEAR and STEP, two are needed for CUBICSPLINE; a single key is left to the validator.
      if (input.count < 2) outside("animation with fewer than two keys", `${at}/input`);
      plan.times.push({ accessor: input, pointer: `${at}/input` });
      return { input, output, cubic: interpolation === "CUBICSPLINE", at, rotation: false };
    });
    const targets = new Set<string>();
    channels.forEach((item, c) => {
      const at = `${pointer}/channels/${c}`;
      const channel = shaped(item, at, CHANNEL_KEYS);
      const sampler = read[int(channel.sampler, `${at}/sampler`, read.length)];
      const target = object(channel.target, `${at}/target`);
      for (const key in target) {
        if (key !== "node" && key !== "path" && key !== "extras") {
          outside("channel target property", `${at}/target/${key}`);
        }
      }
      const node = int(target.node, `${at}/target/node`, nodes.length);
      const path = target.path as string;
      if (!OUTPUT_FORMATS[path]) outside("channel target path", `${at}/target/path`);
      if (targets.has(`${node} ${path}`)) outside("two channels on one target", at);
      targets.add(`${node} ${path}`);
      const mesh = nodes[node].mesh;
      const perKey = path === "weights" ? (mesh === undefined ? 0 : meshes[mesh].targets) : 1;
      if (perKey < 1) outside("weights channel on a node without morph targets", at);
      if (!OUTPUT_FORMATS[path](sampler.output)) outside("animation output format", `${sampler.at}/output`);
      if (sampler.output.count !== sampler.input.count * perKey * (sampler.cubic ? 3 : 1)) {
        outside("animation output count", `${sampler.at}/output`);
      }
      if (path === "rotation" && !sampler.rotation) {
        sampler.rotation = true;
        plan.rotations.push({
          accessor: sampler.output,
          pointer: `${sampler.at}/output`,
          cubic: sampler.cubic,
        });
      }
    });
  });
}
