/**
 * Test-side readers for decoded Carnivores scenes: the corners of a source face, and vertex
 * positions of a morph-animated mesh at a time — written independently of the decoder, from the
 * glTF data alone, so tests can compare them with numbers computed from the fixture inputs.
 *
 * @module
 */
import type { Animation, Document, Mesh, Node, Primitive } from "@gltf-transform/core";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";

/** The decoded model node (the one carrying `extras.partgraph.carnivores`). */
export function modelNode(doc: Document): Node {
  const node = doc.getRoot().listNodes().find((n) => getPartgraphExtras(n).carnivores);
  if (!node) throw new Error("no node with extras.partgraph.carnivores");
  return node;
}

/** Summary extras the decoder wrote on the model node. */
// deno-lint-ignore no-explicit-any
export function summaryOf(doc: Document): any {
  return getPartgraphExtras(modelNode(doc)).carnivores;
}

/** One corner of a source face as found in the scene. */
export interface Corner {
  position: number[];
  uv?: number[];
  primitive: Primitive;
  vertex: number;
}

/**
 * The three corners of source face `face`, in the file's corner order (v1, v2, v3), read through the
 * primitive's triangle list (glTF order is v1, v3, v2).
 */
export function faceCorners(mesh: Mesh, face: number): Corner[] {
  for (const primitive of mesh.listPrimitives()) {
    // deno-lint-ignore no-explicit-any
    const faces: number[] = (getPartgraphExtras(primitive).carnivores as any).faces;
    const t = faces.indexOf(face);
    if (t < 0) continue;
    const indices = primitive.getIndices()!;
    const position = primitive.getAttribute("POSITION")!;
    const uv = primitive.getAttribute("TEXCOORD_0");
    return [0, 2, 1].map((slot) => {
      const vertex = indices.getScalar(t * 3 + slot);
      return {
        position: position.getElement(vertex, [] as number[]),
        uv: uv?.getElement(vertex, [] as number[]),
        primitive,
        vertex,
      };
    });
  }
  throw new Error(`face ${face} not found`);
}

/** Weights of an animation's weights channel at time `t` (linear or step), read from its sampler. */
export function weightsAt(animation: Animation, t: number): number[] {
  const sampler = animation.listChannels()[0].getSampler()!;
  const times = Array.from(sampler.getInput()!.getArray()!);
  const output = sampler.getOutput()!;
  const n = output.getCount() / times.length;
  const key = (k: number) => Array.from({ length: n }, (_, i) => output.getScalar(k * n + i));
  if (t <= times[0]) return key(0);
  if (t >= times[times.length - 1]) return key(times.length - 1);
  let k = 0;
  while (times[k + 1] <= t) k++;
  if (sampler.getInterpolation() === "STEP" || times[k] === t) return key(k);
  const f = (t - times[k]) / (times[k + 1] - times[k]);
  const [a, b] = [key(k), key(k + 1)];
  return a.map((w, i) => w * (1 - f) + b[i] * f);
}

/** Position of `vertex` of `primitive` with morph `weights` applied. */
export function morphedPosition(primitive: Primitive, vertex: number, weights: readonly number[]): number[] {
  const out = primitive.getAttribute("POSITION")!.getElement(vertex, [] as number[]);
  primitive.listTargets().forEach((target, i) => {
    if (!weights[i]) return;
    const delta = target.getAttribute("POSITION")!.getElement(vertex, [] as number[]);
    for (let k = 0; k < 3; k++) out[k] += weights[i] * delta[k];
  });
  return out;
}

/** Asserts two vectors agree within `eps`, with a readable message. */
export function near(actual: readonly number[], expected: readonly number[], eps = 1e-5, what = ""): void {
  const ok = actual.length === expected.length && actual.every((a, i) => Math.abs(a - expected[i]) <= eps);
  if (!ok) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}
