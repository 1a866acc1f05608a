/**
 * Coarse low-poly aircraft written as quantizers write `KHR_mesh_quantization` files (gltfpack's
 * defaults): positions as unsigned shorts of 14 or 16 bits scaled back by their node (translation to the
 * mesh's corner, a uniform scale), normals as normalized signed bytes, texture coordinates as normalized
 * unsigned shorts or as 12-bit integers under a `KHR_texture_transform` scale; positions in 8-byte and
 * normals in 4-byte strides. Each file carries one habit of a tool that met it later (or a careless
 * quantizer), on some of the meshes, with its clean twin:
 *
 * - `unlisted`: `KHR_mesh_quantization` left out of `extensionsUsed` and `extensionsRequired` (a tool that
 *   rebuilt the lists from the extension objects it found: this extension has none);
 * - `normal-flag`: normals in signed bytes without `normalized: true`;
 * - `byte-stride`: positions and normals interleaved byte to byte (a 6-byte position, a 3-byte normal:
 *   stride 9, where glTF wants steps of 4);
 * - `uv-flag`: texture coordinates in the short's whole range without `normalized: true`;
 * - `uv-transform-lost`: 12-bit texture coordinates whose texture transform a tool dropped;
 * - `no-dequant`: a mesh node's dequantizing scale and offset dropped (transforms flattened by a tool
 *   that kept the integers);
 * - `clean`: none.
 *
 * @module
 */
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";
import { box, type Json, Writer } from "../decode/gltf_exporter_parts.ts";

/** The habits generated. */
export const QUANT_HABITS = [
  "clean",
  "unlisted",
  "normal-flag",
  "byte-stride",
  "uv-flag",
  "uv-transform-lost",
  "no-dequant",
] as const;
/** One of {@link QUANT_HABITS}. */
export type QuantHabit = typeof QUANT_HABITS[number];

/** One generated file and its clean twin. */
export interface QuantFile {
  readonly habit: QuantHabit;
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly clean: Uint8Array;
  /** Names of the meshes (and their nodes) the habit is on. */
  readonly habitOn: readonly string[];
  readonly variant: string;
}

const PARTS: { name: string; place: number[]; size: number[] }[] = [
  { name: "fuselage", place: [0, 0, 0], size: [1.1, 1.3, 8] },
  { name: "wing_L", place: [3, 0.2, 0.4], size: [5.5, 0.2, 1.5] },
  { name: "wing_R", place: [-3, 0.2, 0.4], size: [5.5, 0.2, 1.5] },
  { name: "stabilizer", place: [0, 0.3, -3.7], size: [3.2, 0.1, 0.8] },
  { name: "fin", place: [0, 1.2, -3.7], size: [0.1, 1.6, 1] },
  { name: "rudder", place: [0, 1.2, -4.3], size: [0.06, 1.5, 0.3] },
  { name: "elevator", place: [0, 0.3, -4.2], size: [3, 0.05, 0.3] },
  { name: "aileron_L", place: [4.2, 0.2, -0.5], size: [1.8, 0.06, 0.3] },
  { name: "aileron_R", place: [-4.2, 0.2, -0.5], size: [1.8, 0.06, 0.3] },
];

/** The file's meshes as meant: positions, normals, UVs and indices per part, and its node's turn. */
interface Part {
  name: string;
  place: number[];
  turn: number[];
  positions: Float32Array;
  normals: Float32Array;
  uvs: Float32Array;
  indices: number[];
}

/** How a file writes its parts (per part where it says so). */
interface Style {
  positionBits: number;
  /** Per part: 12-bit UVs under a texture transform (else normalized shorts). */
  uvTransform: boolean[];
  unlisted: boolean;
  normalFlag: boolean[];
  byteStride: boolean[];
  uvFlag: boolean[];
  transformLost: boolean[];
  noDequant: boolean[];
}

function turnAbout(axis: number[], degrees: number): number[] {
  const h = (degrees * Math.PI) / 360;
  return [axis[0] * Math.sin(h), axis[1] * Math.sin(h), axis[2] * Math.sin(h), Math.cos(h)];
}

function rotate(q: number[], v: number[]): number[] {
  const [x, y, z, w] = q;
  const t = [2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])];
  return [
    v[0] + w * t[0] + (y * t[2] - z * t[1]),
    v[1] + w * t[1] + (z * t[0] - x * t[2]),
    v[2] + w * t[2] + (x * t[1] - y * t[0]),
  ];
}

function write(parts: Part[], style: Style, generator: string): Uint8Array {
  const w = new Writer();
  const scale = Math.max(...parts.map((p) => {
    let most = 0;
    for (let k = 0; k < 3; k++) {
      const values = p.positions.filter((_, i) => i % 3 === k);
      most = Math.max(most, Math.max(...values) - Math.min(...values));
    }
    return most;
  })) / (2 ** style.positionBits - 1);
  const image = w.image([180, 120, 60, 255]);
  parts.forEach((part, p) => {
    const count = part.positions.length / 3;
    const min = [0, 1, 2].map((k) => Math.min(...part.positions.filter((_, i) => i % 3 === k)));
    const q = new Uint16Array(count * 3);
    for (let i = 0; i < q.length; i++) q[i] = Math.round((part.positions[i] - min[i % 3]) / scale);
    const qmax = [0, 1, 2].map((k) => Math.max(...q.filter((_, i) => i % 3 === k)));
    const n = new Int8Array(count * 3);
    for (let i = 0; i < n.length; i++) n[i] = Math.round(part.normals[i] * 127);
    const positionDef = { componentType: 5123, count, type: "VEC3", min: [0, 0, 0], max: qmax };
    const normalDef: Json = { componentType: 5120, count, type: "VEC3", normalized: true };
    if (style.normalFlag[p]) delete normalDef.normalized;
    let position: number, normal: number;
    if (style.byteStride[p]) {
      const bytes = new Uint8Array(count * 9);
      const view = new DataView(bytes.buffer);
      for (let v = 0; v < count; v++) {
        for (let k = 0; k < 3; k++) view.setUint16(9 * v + 2 * k, q[3 * v + k], true);
        for (let k = 0; k < 3; k++) view.setInt8(9 * v + 6 + k, n[3 * v + k]);
      }
      const at = w.view(bytes, { byteStride: 9, target: 34962 });
      position = w.accessor({ bufferView: at, byteOffset: 0, ...positionDef });
      normal = w.accessor({ bufferView: at, byteOffset: 6, ...normalDef });
    } else {
      const padded = new Uint16Array(count * 4);
      for (let v = 0; v < count; v++) padded.set(q.subarray(3 * v, 3 * v + 3), 4 * v);
      position = w.accessor({
        bufferView: w.view(new Uint8Array(padded.buffer), { byteStride: 8, target: 34962 }),
        ...positionDef,
      });
      const normals = new Int8Array(count * 4);
      for (let v = 0; v < count; v++) normals.set(n.subarray(3 * v, 3 * v + 3), 4 * v);
      normal = w.accessor({
        bufferView: w.view(new Uint8Array(normals.buffer), { byteStride: 4, target: 34962 }),
        ...normalDef,
      });
    }
    const bits = style.uvTransform[p] ? 12 : 16;
    const uv = new Uint16Array(count * 2);
    for (let i = 0; i < uv.length; i++) uv[i] = Math.round(part.uvs[i] * (2 ** bits - 1));
    const uvDef: Json = { componentType: 5123, count, type: "VEC2" };
    if (!style.uvTransform[p] && !style.uvFlag[p]) uvDef.normalized = true;
    const texcoord = w.accessor({
      bufferView: w.view(new Uint8Array(uv.buffer), { target: 34962 }),
      ...uvDef,
    });
    const info: Json = { index: w.texture(image) };
    if (style.uvTransform[p] && !style.transformLost[p]) {
      const s = 1 / (2 ** bits - 1);
      info.extensions = { KHR_texture_transform: { scale: [s, s] } };
      w.use("KHR_texture_transform");
    }
    const material = w.material({
      name: `${part.name}_mat`,
      pbrMetallicRoughness: { baseColorTexture: info, metallicFactor: 0 },
    });
    const mesh = w.json.meshes.push({
      name: part.name,
      primitives: [{
        attributes: { POSITION: position, NORMAL: normal, TEXCOORD_0: texcoord },
        indices: w.indices(part.indices),
        material,
      }],
    }) - 1;
    const node: Json = { name: part.name, mesh };
    if (style.noDequant[p]) node.translation = part.place;
    else {
      node.translation = part.place.map((v, k) => v + rotate(part.turn, min)[k]);
      node.scale = [scale, scale, scale];
    }
    if (part.turn[3] < 1) node.rotation = part.turn;
    w.node(node);
  });
  if (!style.unlisted) {
    w.use("KHR_mesh_quantization");
    w.json.extensionsRequired = ["KHR_mesh_quantization"];
  }
  return w.glb(generator);
}

/** Case `seed` of `habit`. */
export async function quantFile(habit: QuantHabit, seed: number): Promise<QuantFile> {
  await loadPngEncoder();
  const random = prng(Math.imul(seed, 0x2545f491) + QUANT_HABITS.indexOf(habit) * 104729);
  const count = 5 + Math.floor(random() * (PARTS.length - 4));
  const parts: Part[] = PARTS.slice(0, count).map((def) => {
    const { positions, normals, uvs, indices } = box(def.size);
    // A modeller's nudges, per corner, so the faces' split copies of a corner stay together.
    const nudges = new Map<string, number[]>();
    for (let i = 0; i < positions.length; i += 3) {
      const key = `${positions[i]},${positions[i + 1]},${positions[i + 2]}`;
      if (!nudges.has(key)) nudges.set(key, [0, 1, 2].map(() => 1 + (random() - 0.5) * 0.04));
      for (let k = 0; k < 3; k++) positions[i + k] *= nudges.get(key)![k];
    }
    const turn = /wing/.test(def.name)
      ? turnAbout([0, 0, 1], (def.place[0] > 0 ? 1 : -1) * (2 + random() * 5))
      : [0, 0, 0, 1];
    return { name: def.name, place: def.place, turn, positions, normals, uvs, indices };
  });
  const none = () => parts.map(() => false);
  const clean: Style = {
    positionBits: random() < 0.6 ? 14 : 16,
    uvTransform: parts.map(() => random() < 0.5),
    unlisted: false,
    normalFlag: none(),
    byteStride: none(),
    uvFlag: none(),
    transformLost: none(),
    noDequant: none(),
  };
  // The habit's parts: one to all of them, the fuselage always among the clean ones but for `unlisted`.
  const on = new Set<number>();
  const wanted = 1 + Math.floor(random() * (count - 1));
  while (on.size < wanted) on.add(1 + Math.floor(random() * (count - 1)));
  const written: Style = { ...clean, uvTransform: [...clean.uvTransform] };
  const mark = (
    key: "normalFlag" | "byteStride" | "uvFlag" | "transformLost" | "noDequant",
  ) => (written[key] = parts.map((_, p) => on.has(p)));
  if (habit === "unlisted") written.unlisted = true;
  else if (habit === "normal-flag") mark("normalFlag");
  else if (habit === "byte-stride") mark("byteStride");
  else if (habit === "uv-flag") {
    for (const p of on) clean.uvTransform[p] = written.uvTransform[p] = false;
    mark("uvFlag");
  } else if (habit === "uv-transform-lost") {
    for (const p of on) clean.uvTransform[p] = written.uvTransform[p] = true;
    mark("transformLost");
  } else if (habit === "no-dequant") mark("noDequant");
  const generator = ["gltfpack 0.21", "glTF-Transform v4.1.0", "meshoptimizer"][Math.floor(random() * 3)];
  const bytes = write(parts, habit === "clean" ? clean : written, generator);
  const twin = habit === "clean" ? bytes : write(parts, clean, generator);
  const habitOn = habit === "unlisted" || habit === "clean" ? [] : [...on].sort().map((p) => parts[p].name);
  return {
    habit,
    name: `quantized-${habit}-${seed}.glb`,
    bytes,
    clean: twin,
    habitOn,
    variant: `${count} parts, ${clean.positionBits}-bit positions, ${generator}`,
  };
}
