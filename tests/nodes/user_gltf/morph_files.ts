/**
 * Morph targets as real files carry them, counts out of step: Sketchfab's and old exporters' `weights`
 * longer or shorter than the targets (a mesh's, a node's), primitives of one mesh with different target
 * counts (a shape key on one material's faces only, as an old Blender or a merge tool wrote it),
 * `extras.targetNames` longer or shorter than the targets (targets stripped by an optimizer, names
 * left), a target that moves nothing written as a sparse accessor of count 0, weights on a mesh with no
 * targets. Each file's truth is what viewers show (three.js's GLTFLoader: weight i drives target i of
 * every primitive having one, a missing weight is 0, a weight past the targets drives nothing), so a
 * decode can be judged right, warned or silently wrong.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";

/** Every habit the generator makes (`consistent` is the control: counts in step). */
export const MORPH_KINDS = [
  "consistent",
  "weights-longer",
  "weights-shorter",
  "weights-empty",
  "node-weights-longer",
  "node-weights-shorter",
  "targets-differ",
  "names-longer",
  "names-shorter",
  "sparse-zero-count",
  "weights-without-targets",
  "animated-weights-longer",
  "animated-weights-shorter",
] as const;

/** A kind of {@link MORPH_KINDS}. */
export type MorphKind = typeof MORPH_KINDS[number];

/** What a decode of one mesh (drawn by one node) must give. */
export interface MorphMeshTruth {
  readonly mesh: string;
  readonly node: string;
  /** The mesh's default weights, one per target (absent: the file gives none and none are needed). */
  readonly weights?: readonly number[];
  /** The node's weights, one per target, when the file gives the node any. */
  readonly nodeWeights?: readonly number[];
  /** Per primitive, per target, its 4 vertices' position deltas (12 numbers). */
  readonly deltas: readonly (readonly (readonly number[])[])[];
  /** `extras.targetNames`, one per target, when the file names them. */
  readonly names?: readonly string[];
  /** A weights animation's values on the node, one per target per key (three per key in a cubic spline). */
  readonly animation?: readonly number[];
  /** A warning must match this (naming the mesh or node) when the file was out of step. */
  readonly warns?: RegExp;
}

/** One generated file. */
export interface MorphGltf {
  readonly kind: MorphKind;
  readonly detail: string;
  readonly bytes: Uint8Array;
  readonly name: string;
  readonly meshes: readonly MorphMeshTruth[];
}

// deno-lint-ignore no-explicit-any
type Json = any;

const MESH_NAMES = ["Face", "Head.001", "Body_mesh", "Object_7", "mouth", "Wing_L", "polySurface12"];
const TARGET_NAMES = ["Smile", "Blink_L", "Blink_R", "jawOpen", "Key 1", "mouthFunnel", "Flap_Down"];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Makes the file of `kind` for `seed`: one or two meshes of 1–3 quads, 1–4 targets each. */
export function morphGltf(kind: MorphKind, seed: number): MorphGltf {
  const rnd = prng(seed * 104729 + MORPH_KINDS.indexOf(kind) * 31);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const round = (v: number) => Math.fround(Math.round(v * 1000) / 1000);
  const bin: number[] = [];
  const views: Json[] = [];
  const accessors: Json[] = [];
  const floats = (values: readonly number[], type: string, count: number, extra: Json = {}) => {
    const offset = bin.length;
    const bytes = new Uint8Array(new Float32Array(values).buffer);
    bin.push(...bytes);
    views.push({ buffer: 0, byteOffset: offset, byteLength: bytes.length });
    const min = [0, 1, 2].map((c) => Math.min(...values.filter((_, i) => i % 3 === c)));
    const max = [0, 1, 2].map((c) => Math.max(...values.filter((_, i) => i % 3 === c)));
    accessors.push({ bufferView: views.length - 1, componentType: 5126, count, type, min, max, ...extra });
    return accessors.length - 1;
  };
  const scalars = (values: readonly number[]) => {
    const offset = bin.length;
    bin.push(...new Uint8Array(new Float32Array(values).buffer));
    views.push({ buffer: 0, byteOffset: offset, byteLength: values.length * 4 });
    const [min, max] = [[Math.min(...values)], [Math.max(...values)]];
    accessors.push({
      bufferView: views.length - 1,
      componentType: 5126,
      count: values.length,
      type: "SCALAR",
      min,
      max,
    });
    return accessors.length - 1;
  };
  const channels: Json[] = [];
  const samplers: Json[] = [];
  const indices = () => {
    const offset = bin.length;
    bin.push(...new Uint8Array(new Uint16Array([0, 1, 2, 0, 2, 3, 0, 0]).buffer));
    views.push({ buffer: 0, byteOffset: offset, byteLength: 12 });
    accessors.push({ bufferView: views.length - 1, componentType: 5123, count: 6, type: "SCALAR" });
    return accessors.length - 1;
  };
  const meshCount = 1 + Math.floor(rnd() * 2);
  const meshes: Json[] = [];
  const nodes: Json[] = [];
  const truths: MorphMeshTruth[] = [];
  const details: string[] = [];
  for (let m = 0; m < meshCount; m++) {
    const meshName = `${pick(MESH_NAMES)}${m ? `_${m}` : ""}`;
    const nodeName = `${meshName}_node`;
    const primitiveCount = 1 + Math.floor(rnd() * 3);
    const targetCount = kind === "weights-without-targets" ? 0 : 1 + Math.floor(rnd() * 4);
    // The primitives' own counts: all alike but in targets-differ, where some have fewer.
    const counts = Array.from(
      { length: primitiveCount },
      (_, p) =>
        kind === "targets-differ" && p > 0 && rnd() < 0.7 ? Math.floor(rnd() * targetCount) : targetCount,
    );
    if (kind === "targets-differ" && counts.every((c) => c === targetCount) && primitiveCount > 1) {
      counts[primitiveCount - 1] = targetCount - 1;
    }
    if (kind === "targets-differ" && primitiveCount === 1) {
      // One primitive cannot differ from itself: give the mesh a second one with fewer targets.
      counts.push(Math.max(0, targetCount - 1 - Math.floor(rnd() * targetCount)));
    }
    const zeroSparse = kind === "sparse-zero-count" ? Math.floor(rnd() * targetCount) : -1;
    const deltas: number[][][] = [];
    const primitives = counts.map((count, p) => {
      const base = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0].map((v, i) => round(i % 3 === 0 ? v + p * 1.5 : v));
      const position = floats(base, "VEC3", 4);
      const own: number[][] = [];
      const targets: Json[] = [];
      for (let t = 0; t < count; t++) {
        if (t === zeroSparse) {
          // A shape key moving nothing on these faces, as a sparse accessor listing no vertex.
          own.push(Array(12).fill(0));
          accessors.push({
            componentType: 5126,
            count: 4,
            type: "VEC3",
            min: [0, 0, 0],
            max: [0, 0, 0],
            sparse: { count: 0, indices: { bufferView: 0, componentType: 5125 }, values: { bufferView: 0 } },
          });
          targets.push({ POSITION: accessors.length - 1 });
          continue;
        }
        const d = Array.from({ length: 12 }, () => round((rnd() - 0.5) * 0.8));
        own.push(d);
        targets.push({ POSITION: floats(d, "VEC3", 4) });
      }
      deltas.push(own);
      const primitive: Json = { attributes: { POSITION: position }, indices: indices() };
      if (targets.length) primitive.targets = targets;
      return primitive;
    });
    // What viewers show: the most targets any primitive has, the short ones' missing targets moving nothing.
    const shown = Math.max(...counts);
    const shownDeltas = deltas.map((
      own,
    ) => [...own, ...Array.from({ length: shown - own.length }, () => Array(12).fill(0))]);
    const weights = Array.from({ length: shown }, () => round(rnd()));
    const mesh: Json = { name: meshName, primitives };
    const node: Json = { name: nodeName, mesh: m };
    let truthWeights: number[] | undefined = shown ? weights : undefined;
    let nodeWeights: number[] | undefined;
    let names: string[] | undefined;
    let warns: RegExp | undefined;
    let animation: number[] | undefined;
    const namesOf = (n: number) => Array.from({ length: n }, (_, i) => `${pick(TARGET_NAMES)}${i}`);
    if (kind === "consistent") {
      mesh.weights = weights;
      if (rnd() < 0.5) mesh.extras = { targetNames: names = namesOf(shown) };
      if (rnd() < 0.5) node.weights = nodeWeights = weights.map(() => round(rnd()));
    } else if (kind === "weights-longer") {
      const extra = 1 + Math.floor(rnd() * 3);
      mesh.weights = [...weights, ...Array.from({ length: extra }, () => round(rnd()))];
      warns = new RegExp(escape(meshName));
      details.push(`${meshName}: ${shown} targets, ${mesh.weights.length} weights`);
    } else if (kind === "weights-shorter" || kind === "weights-empty") {
      const given = kind === "weights-empty" ? 0 : Math.floor(rnd() * shown);
      mesh.weights = weights.slice(0, given);
      truthWeights = weights.map((w, i) => i < given ? w : 0);
      warns = new RegExp(escape(meshName));
      details.push(`${meshName}: ${shown} targets, ${given} weights`);
    } else if (kind === "node-weights-longer" || kind === "node-weights-shorter") {
      mesh.weights = weights;
      const own = weights.map(() => round(rnd()));
      const given = kind === "node-weights-longer"
        ? shown + 1 + Math.floor(rnd() * 3)
        : Math.floor(rnd() * shown);
      node.weights = Array.from({ length: given }, (_, i) => i < shown ? own[i] : round(rnd()));
      nodeWeights = own.map((w, i) => i < given ? w : 0);
      warns = new RegExp(escape(nodeName));
      details.push(`${nodeName}: ${shown} targets, ${given} node weights`);
    } else if (kind === "targets-differ") {
      mesh.weights = weights;
      if (rnd() < 0.5) mesh.extras = { targetNames: names = namesOf(shown) };
      warns = new RegExp(escape(meshName));
      details.push(`${meshName}: primitives with ${counts.join(", ")} targets`);
    } else if (kind === "names-longer" || kind === "names-shorter") {
      mesh.weights = weights;
      const all = namesOf(shown + 3);
      const given = kind === "names-longer" ? shown + 1 + Math.floor(rnd() * 3) : Math.floor(rnd() * shown);
      mesh.extras = { targetNames: all.slice(0, given) };
      // Some exporters name each target's POSITION accessor (Blender's importer reads it past the list).
      const accessorNamed = kind === "names-shorter" && rnd() < 0.5;
      if (accessorNamed) {
        for (const [i, target] of (primitives[0].targets ?? []).entries()) {
          accessors[target.POSITION].name = `${meshName}_shape${i}`;
        }
      }
      // Blender's importer: names by index, the accessor's name or `target_<i>` past the list, the rest ignored.
      names = Array.from(
        { length: shown },
        (_, i) => i < given ? all[i] : accessorNamed ? `${meshName}_shape${i}` : `target_${i}`,
      );
      warns = new RegExp(escape(meshName));
      details.push(`${meshName}: ${shown} targets, ${given} names`);
    } else if (kind === "sparse-zero-count") {
      mesh.weights = weights;
      details.push(`${meshName}: target ${zeroSparse} sparse, count 0`);
    } else if (kind === "weights-without-targets") {
      // An exporter writing the shape key values of a mesh whose keys it dropped.
      mesh.weights = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => round(rnd()));
      truthWeights = undefined;
      warns = new RegExp(escape(meshName));
      details.push(`${meshName}: no targets, ${mesh.weights.length} weights`);
    } else if (kind === "animated-weights-longer" || kind === "animated-weights-shorter") {
      // A shape key animation keyed for more targets than the mesh kept (an optimizer stripped some), or
      // fewer (an exporter keying only the animated ones): three.js reads each key's first values.
      mesh.weights = weights;
      const keys = 2 + Math.floor(rnd() * 3);
      const interpolation = pick(["LINEAR", "STEP", "CUBICSPLINE"]);
      const per = interpolation === "CUBICSPLINE" ? 3 : 1;
      const written = kind === "animated-weights-longer"
        ? shown + 1 + Math.floor(rnd() * 2)
        : Math.max(1, shown - 1 - Math.floor(rnd() * (shown - 1)));
      // One target cannot be keyed for fewer: that mesh is left unanimated.
      if (written !== shown) {
        const values = Array.from({ length: keys * per * written }, () => round(rnd()));
        animation = [];
        for (let k = 0; k < keys * per; k++) {
          for (let t = 0; t < shown; t++) animation.push(t < written ? values[k * written + t] : 0);
        }
        let time = 0;
        const times = Array.from({ length: keys }, () => time = round(time + 0.2 + rnd()));
        samplers.push({ input: scalars(times), output: scalars(values), interpolation });
        channels.push({ sampler: samplers.length - 1, target: { node: m, path: "weights" } });
        warns = new RegExp(escape(nodeName));
        details.push(`${nodeName}: ${shown} targets, ${written} keyed (${interpolation})`);
      }
    }
    meshes.push(mesh);
    nodes.push(node);
    truths.push({
      mesh: meshName,
      node: nodeName,
      weights: truthWeights,
      nodeWeights,
      deltas: shownDeltas,
      names,
      animation,
      warns,
    });
  }
  while (bin.length % 4) bin.push(0);
  const json: Json = {
    asset: {
      version: "2.0",
      generator: pick(["Sketchfab-12.68.0", "Khronos glTF Blender I/O v1.2.75", "FBX2glTF"]),
    },
    scene: 0,
    scenes: [{ nodes: nodes.map((_, i) => i) }],
    nodes,
    meshes,
    accessors,
    ...(channels.length ? { animations: [{ name: "Key Action", channels, samplers }] } : {}),
    bufferViews: views,
    buffers: [{
      byteLength: bin.length,
      uri: `data:application/octet-stream;base64,${new Uint8Array(bin).toBase64()}`,
    }],
  };
  return {
    kind,
    detail: details.join("; ") || `${meshCount} meshes`,
    bytes: new TextEncoder().encode(JSON.stringify(json)),
    name: `${kind}_${seed}.gltf`,
    meshes: truths,
  };
}
