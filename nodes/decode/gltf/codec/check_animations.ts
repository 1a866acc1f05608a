/**
 * The animation part of the glTF structure check: samplers and channels, a channel's target property,
 * and each sampler's keys against the property it animates.
 *
 * @module
 */
import { FLOAT, formatOf } from "./check.ts";
import type { Checker, Json } from "./checker.ts";
import { describeAccessor, formatName } from "./check_scene.ts";

/**
 * Every animation's samplers and channels: indices, interpolations, target paths (a channel animating a
 * property glTF does not define, or through `KHR_animation_pointer`, is left out with a repair), and the
 * keys of each played channel's sampler.
 */
export function checkAnimations(c: Checker): void {
  c.list("animations").forEach((animation, a) => {
    const path = `/animations/${a}`;
    const samplers = Array.isArray(animation.samplers)
      ? animation.samplers
      : c.fail(`${path}/samplers`, "an array", animation.samplers);
    samplers.forEach((value, s) => {
      const sampler = c.object(value, `${path}/samplers/${s}`);
      for (const key of ["input", "output"]) {
        if (c.index(sampler, key, `${path}/samplers/${s}`, "accessors") === undefined) {
          c.fail(`${path}/samplers/${s}/${key}`, "an accessor index", undefined);
        }
      }
      c.openEnum(sampler, "interpolation", `${path}/samplers/${s}`, ["LINEAR", "STEP", "CUBICSPLINE"], () => {
        delete sampler.interpolation;
        return "is not a glTF interpolation; left to the default, LINEAR";
      });
    });
    const channels = Array.isArray(animation.channels)
      ? animation.channels
      : c.fail(`${path}/channels`, "an array", animation.channels);
    const unplayable = new Set<unknown>();
    channels.forEach((value, index) => {
      const at = `${path}/channels/${index}`;
      const channel = c.object(value, at);
      const s = c.int(channel, "sampler", at, samplers.length);
      const target = c.object(channel.target, `${at}/target`);
      c.index(target, "node", `${at}/target`, "nodes");
      if (target.path === undefined) {
        // glTF requires the path; with none there is nothing to animate, as a viewer finds.
        unplayable.add(value);
        c.repaired(`${at}/target`, "names no path (glTF requires one); the channel is left out");
      }
      c.openEnum(target, "path", `${at}/target`, TARGET_PATHS, () => {
        // Viewers skip a channel whose property they do not know: so does the decode.
        unplayable.add(value);
        return "is not a property glTF animates; the channel is left out";
      });
      if (target.path === "pointer") {
        // glTF-Transform reads no KHR_animation_pointer channel: dropped without a word when not listed.
        unplayable.add(value);
        c.repaired(
          `${at}/target/path`,
          "animates through KHR_animation_pointer, which partgraph does not read; " +
            "the channel is left out",
        );
      }
      if (unplayable.has(value)) return;
      // Viewers skip morph weights of a node without morph targets, and so does the export: not checked.
      if (target.path === "weights" && !hasMorphTargets(c, target.node)) return;
      if (s !== undefined) checkSamplerData(c, samplers[s] as Json, `${path}/samplers/${s}`, target.path);
    });
    if (unplayable.size) animation.channels = channels.filter((channel) => !unplayable.has(channel));
  });
}

/** Whether node `index` (when given) draws a mesh with morph targets. */
function hasMorphTargets(c: Checker, index: unknown): boolean {
  const mesh = index === undefined
    ? undefined
    : c.list("meshes")[c.list("nodes")[index as number].mesh as number];
  return !!mesh && (mesh.primitives as Json[]).some((p) => Array.isArray(p.targets) && p.targets.length > 0);
}

/** The properties an animation channel may target. */
const TARGET_PATHS = ["translation", "rotation", "scale", "weights", "pointer"];

const FLOAT_FORMAT = `${FLOAT}`;

/** Normalized integer formats glTF allows for rotation and weight keys. */
const NORMALIZED = ["5120n", "5121n", "5122n", "5123n"];
/** Integer formats `KHR_mesh_quantization` adds for translation and scale keys. */
const QUANTIZED = ["5120", "5121", "5122", "5123", ...NORMALIZED];

/** The accessor type and formats of each animated property's keys (glTF 2.0 § 3.11, Animations). */
const KEY_FORMATS: Readonly<Record<string, { type: string; formats: string[]; quantized: string[] }>> = {
  translation: { type: "VEC3", formats: [FLOAT_FORMAT], quantized: QUANTIZED },
  rotation: { type: "VEC4", formats: [FLOAT_FORMAT, ...NORMALIZED], quantized: [] },
  scale: { type: "VEC3", formats: [FLOAT_FORMAT], quantized: QUANTIZED },
  weights: { type: "SCALAR", formats: [FLOAT_FORMAT, ...NORMALIZED], quantized: [] },
};

/**
 * A sampler's keys and values, refused here, at the input's path, rather than in the export's check
 * of its output: times are float scalars, values of the type and format the animated property takes
 * (a rotation of three floats was decoded and then refused on export), one per key (three for a cubic
 * spline), or for morph `weights` one per target and key. (A `pointer`'s values depend on what it
 * points at: not checked.)
 */
function checkSamplerData(c: Checker, sampler: Json, path: string, targetPath: unknown): void {
  if (targetPath === "pointer") return;
  const accessors = c.list("accessors");
  const input = accessors[sampler.input as number], output = accessors[sampler.output as number];
  if (input.type !== "SCALAR" || formatOf(input) !== FLOAT_FORMAT) {
    c.fail(`${path}/input`, "an accessor of type SCALAR in FLOAT", describeAccessor(sampler.input, input));
  }
  const rule = KEY_FORMATS[targetPath as string];
  const quantized = (c.json.extensionsUsed as string[] | undefined)?.includes("KHR_mesh_quantization");
  const formats = [...rule.formats, ...(quantized ? rule.quantized : [])];
  if (output.type !== rule.type || !formats.includes(formatOf(output))) {
    c.fail(
      `${path}/output`,
      `an accessor of type ${rule.type} in ${formats.map(formatName).join(", ")} for ${targetPath} keys`,
      describeAccessor(sampler.output, output),
    );
  }
  const keys = input.count as number;
  const values = output.count as number;
  const perKey = keys * (sampler.interpolation === "CUBICSPLINE" ? 3 : 1);
  const fits = targetPath === "weights" ? values % perKey === 0 : values === perKey;
  if (!fits) {
    c.fail(
      `${path}/output`,
      `${targetPath === "weights" ? "a multiple of " : ""}${perKey} values for ${keys} key(s)`,
      `accessor ${sampler.output} of ${values}`,
    );
  }
}
