/**
 * A generator of glTF files with nodes but no scene, as hand-written files and minimal exporters write
 * them (glTF allows it): no `scenes` at all, an empty `scenes` list, or `"scene": 0` with no list behind
 * it; one to six parts, some with children, some sharing a mesh, as `.gltf` (an embedded buffer) or
 * `.glb`. Seeded: the same seed gives the same bytes. A control habit keeps its scene, to show the reading
 * of files that have one is unchanged.
 *
 * @module
 */
import { prng as random } from "../support/prng.ts";

/**
 * How a file leaves its scene out (or, for `control`, keeps it). Asked for by name only (not drawn at
 * random, so the seeds above keep their files): `unlinked`, a scene that lists all roots but the last (an
 * exporter that unlinked a part), and `nulled-parent`, a node with children written as `null` (a damaged
 * file: its children are then in no scene).
 */
export type ScenelessHabit = "absent" | "empty" | "dangling-index" | "control" | "unlinked" | "nulled-parent";

/** One generated file: its name (the extension tells `decode.auto` the container), bytes and truth. */
export interface ScenelessFile {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly habit: ScenelessHabit;
  /** Names of the nodes that carry a mesh: each must come out drawn. */
  readonly meshNodes: readonly string[];
}

const HABITS: readonly ScenelessHabit[] = ["absent", "empty", "dangling-index", "control"];
const PARTS = ["Fuselage", "Wing_L", "Wing_R", "Aileron_L", "Rudder", "Elevator", "Gear", "Prop"];

/** Case `index` of `seed`; `forced`, a habit in place of the seed's. */
export function scenelessFile(seed: number, index: number, forced?: ScenelessHabit): ScenelessFile {
  const rand = random(seed * 1000 + index);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const habit = forced ?? pick(HABITS);
  if (forced) rand();
  // One quad per mesh: a box's face, a few units across, somewhere near the origin.
  const meshCount = 1 + Math.floor(rand() * 3);
  const floats: number[] = [];
  for (let m = 0; m < meshCount; m++) {
    const [x, y, z, s] = [rand() * 10 - 5, rand() * 4 - 2, rand() * 10 - 5, 0.5 + rand() * 3];
    floats.push(x, y, z, x + s, y, z, x + s, y, z + s, x, y, z + s);
  }
  const positions = new Float32Array(floats);
  const indices = new Uint16Array([0, 1, 2, 0, 2, 3]);
  const bin = new Uint8Array(positions.byteLength + indices.byteLength);
  bin.set(new Uint8Array(positions.buffer), 0);
  bin.set(new Uint8Array(indices.buffer), positions.byteLength);
  const accessors: Record<string, unknown>[] = [
    { bufferView: 1, componentType: 5123, count: 6, type: "SCALAR" },
  ];
  const meshes = [];
  for (let m = 0; m < meshCount; m++) {
    const p = floats.slice(m * 12, m * 12 + 12);
    const axis = (k: number) => [p[k], p[k + 3], p[k + 6], p[k + 9]];
    accessors.push({
      bufferView: 0,
      byteOffset: m * 48,
      componentType: 5126,
      count: 4,
      type: "VEC3",
      min: [0, 1, 2].map((k) => Math.min(...axis(k))),
      max: [0, 1, 2].map((k) => Math.max(...axis(k))),
    });
    meshes.push({ primitives: [{ attributes: { POSITION: m + 1 }, indices: 0 }] });
  }
  // Parts: some are children of an earlier part (a hinge under its wing), some share a mesh.
  const count = 1 + Math.floor(rand() * 6);
  const nodes: Record<string, unknown>[] = [];
  const meshNodes: string[] = [];
  for (let n = 0; n < count; n++) {
    const name = `${PARTS[n % PARTS.length]}${n >= PARTS.length ? `_${n}` : ""}`;
    const node: Record<string, unknown> = { name };
    if (rand() < 0.8) {
      node.mesh = Math.floor(rand() * meshCount);
      meshNodes.push(name);
    }
    if (rand() < 0.4) node.translation = [rand() * 2 - 1, rand() - 0.5, rand() * 2 - 1];
    if (n > 0 && rand() < 0.4) {
      const parent = nodes[Math.floor(rand() * n)];
      parent.children = [...(parent.children as number[] ?? []), n];
    }
    nodes.push(node);
  }
  const children = new Set(nodes.flatMap((n) => (n.children as number[] | undefined) ?? []));
  const roots = nodes.flatMap((_, i) => children.has(i) ? [] : [i]);
  const json: Record<string, unknown> = {
    asset: { version: "2.0", generator: pick(["hand-written", "obj2gltf-lite", "custom exporter 0.3"]) },
    accessors,
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: positions.byteLength },
      { buffer: 0, byteOffset: positions.byteLength, byteLength: indices.byteLength },
    ],
    buffers: [{ byteLength: bin.byteLength }],
    meshes,
    nodes,
  };
  if (habit === "empty") json.scenes = [];
  if (habit === "dangling-index") json.scene = 0;
  if (habit === "control") Object.assign(json, { scene: 0, scenes: [{ nodes: roots }] });
  if (habit === "unlinked") json.scenes = [{ nodes: roots.slice(0, Math.max(1, roots.length - 1)) }];
  const parents = nodes.flatMap((n, i) => n.children ? [i] : []);
  if (habit === "nulled-parent") {
    json.scenes = [{ nodes: roots }];
    if (parents.length) {
      const gone = pick(parents);
      const name = nodes[gone].name as string;
      if (meshNodes.includes(name)) meshNodes.splice(meshNodes.indexOf(name), 1);
      (nodes as unknown[])[gone] = null;
    }
  }
  const glb = rand() < 0.5;
  const name = `sceneless_${seed}_${index}.${glb ? "glb" : "gltf"}`;
  if (!glb) {
    (json.buffers as Record<string, unknown>[])[0].uri = "data:application/octet-stream;base64," +
      btoa(String.fromCharCode(...bin));
    return { name, bytes: new TextEncoder().encode(JSON.stringify(json)), habit, meshNodes };
  }
  return { name, bytes: packGlb(json, bin), habit, meshNodes };
}

/** A GLB of `json` and its binary chunk, each padded to four bytes. */
function packGlb(json: unknown, bin: Uint8Array): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = Math.ceil(text.length / 4) * 4;
  const binLength = Math.ceil(bin.length / 4) * 4;
  const out = new Uint8Array(12 + 8 + jsonLength + 8 + binLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, out.length, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jsonLength);
  out.set(text, 20);
  view.setUint32(20 + jsonLength, binLength, true);
  view.setUint32(24 + jsonLength, 0x004e4942, true);
  out.set(bin, 28 + jsonLength);
  return out;
}
