/**
 * A model packed as Microsoft Flight Simulator's exporters pack it (Asobo's packing): one
 * interleaved vertex pool of 36-byte vertices (float positions, signed-byte normals flagged not
 * normalized and tangents flagged so, half-float texture coordinates and colours filed as `SHORT` and
 * `UNSIGNED_SHORT`), one index list all primitives share, each primitive's part of it given by
 * `extras.ASOBO_primitive`, triangles wound against their normals, and materials carrying
 * `ASOBO_material_*` extensions. Built from a unit box so tests can compare with the box.
 *
 * @module
 */
import { encode } from "fast-png";
import { glbOf } from "./shapes.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** The box's faces: outward normal, and the four corners counter-clockwise seen from outside. */
const FACES: readonly { normal: number[]; corners: number[][] }[] = [
  { normal: [0, 0, 1], corners: [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]] },
  { normal: [0, 0, -1], corners: [[1, 0, 0], [0, 0, 0], [0, 1, 0], [1, 1, 0]] },
  { normal: [1, 0, 0], corners: [[1, 0, 1], [1, 0, 0], [1, 1, 0], [1, 1, 1]] },
  { normal: [-1, 0, 0], corners: [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 0]] },
  { normal: [0, 1, 0], corners: [[0, 1, 1], [1, 1, 1], [1, 1, 0], [0, 1, 0]] },
  { normal: [0, -1, 0], corners: [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]] },
];
/** Each corner's texture coordinates (exact in half precision). */
const CORNER_UVS = [[0, 0], [0.25, 0], [0.25, 0.5], [0, 0.5]];
const STRIDE = 36;

/** The 16 bits of a half float of `value` (a normal number or 0, exact in half precision). */
export function floatToHalf(value: number): number {
  if (value === 0) return 0;
  const sign = value < 0 ? 0x8000 : 0;
  const exponent = Math.floor(Math.log2(Math.abs(value)));
  const fraction = Math.round((Math.abs(value) / 2 ** exponent - 1) * 1024);
  return sign | ((exponent + 15) << 10) | fraction;
}

/** How the packed box is built; every field optional. */
export interface PackedBoxOptions {
  /** Wind triangles as glTF does (counter-clockwise seen from outside) instead of the packing's way. */
  readonly glTFWinding?: boolean;
  /** Leave out every `ASOBO_` marker (extensions and extras), so the file does not say it is packed. */
  readonly unmarked?: boolean;
  /** Changes the JSON before it is written. */
  readonly edit?: (json: Json) => void;
}

/**
 * The packed box: mesh `box` with primitives `body` (faces 0–3: StartIndex 0, 8 triangles), `glass`
 * (faces 4–5: StartIndex 24, 4 triangles, indices relative to BaseVertexIndex 16) and `click_spot`
 * (face 0 again, material `ASOBO_material_invisible`); `body` tiles its texture 4 × 2 by
 * `ASOBO_material_UV_options`. Vertex v of face f is 4f + v; its colour is (f/8, 0.5, 1, 1).
 */
export function packedBoxGlb(options: PackedBoxOptions = {}): Uint8Array {
  const vertexCount = 4 * FACES.length;
  const pool = new ArrayBuffer(vertexCount * STRIDE);
  const view = new DataView(pool);
  FACES.forEach(({ normal, corners }, f) => {
    corners.forEach((corner, c) => {
      const at = (4 * f + c) * STRIDE;
      corner.forEach((value, k) => view.setFloat32(at + 4 * k, value, true));
      normal.forEach((value, k) => view.setInt8(at + 12 + k, 127 * value));
      view.setInt8(at + 15, 0);
      // Tangent along the face's first edge, handedness −1 (as a byte, −127).
      const edge = corners[1].map((value, k) => value - corners[0][k]);
      edge.forEach((value, k) => view.setInt8(at + 16 + k, 127 * value));
      view.setInt8(at + 19, -127);
      CORNER_UVS[c].forEach((value, k) => view.setUint16(at + 20 + 2 * k, floatToHalf(value), true));
      CORNER_UVS[c].forEach((value, k) => view.setUint16(at + 24 + 2 * k, floatToHalf(value / 2), true));
      [f / 8, 0.5, 1, 1].forEach((value, k) => view.setUint16(at + 28 + 2 * k, floatToHalf(value), true));
    });
  });
  const triangles = (f: number, base: number) => {
    const v = 4 * f - base;
    const quads = [[v, v + 1, v + 2], [v, v + 2, v + 3]];
    return options.glTFWinding ? quads.flat() : quads.flatMap(([a, b, c]) => [a, c, b]);
  };
  const indices = [
    ...[0, 1, 2, 3].flatMap((f) => triangles(f, 0)),
    ...[4, 5].flatMap((f) => triangles(f, 16)),
  ];
  const indexBytes = new Uint8Array(new Uint16Array(indices).buffer);
  const png = encode({ width: 2, height: 2, data: new Uint8Array(16).fill(180), channels: 4 });
  const bin = new Uint8Array(align(pool.byteLength) + align(indexBytes.length) + align(png.length));
  bin.set(new Uint8Array(pool), 0);
  const indexAt = align(pool.byteLength), pngAt = indexAt + align(indexBytes.length);
  bin.set(indexBytes, indexAt);
  bin.set(png, pngAt);
  const attribute = (offset: number, componentType: number, type: string) => ({
    bufferView: 0,
    byteOffset: offset,
    componentType,
    count: vertexCount,
    type,
    normalized: false,
  });
  const packing = (start: number, count: number, base?: number) =>
    options.unmarked ? undefined : {
      ASOBO_primitive: {
        PrimitiveCount: count,
        VertexType: "VertexND",
        VertexVersion: 1,
        ...(start ? { StartIndex: start } : {}),
        ...(base ? { BaseVertexIndex: base } : {}),
      },
    };
  const attributes = { POSITION: 0, NORMAL: 1, TANGENT: 2, TEXCOORD_0: 3, TEXCOORD_1: 4, COLOR_0: 5 };
  const json: Json = {
    asset: { version: "2.0", generator: "Babylon.js glTF exporter for 3dsmax 2023 v20221031.2" },
    ...(options.unmarked ? {} : {
      extensionsUsed: [
        "ASOBO_normal_map_convention",
        "ASOBO_material_invisible",
        "ASOBO_material_UV_options",
      ],
      extensions: { ASOBO_normal_map_convention: { tangent_space_convention: "DirectX" } },
    }),
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ name: "box", mesh: 0, translation: [0, 2, 0] }],
    meshes: [{
      name: "box",
      primitives: [
        { attributes, indices: 6, material: 0, extras: packing(0, 8) },
        { attributes, indices: 6, material: 1, extras: packing(24, 4, 16) },
        { attributes, indices: 6, material: 2, extras: packing(0, 2) },
      ],
    }],
    materials: [
      {
        name: "body",
        pbrMetallicRoughness: { baseColorTexture: { index: 0 } },
        extensions: options.unmarked ? undefined : {
          ASOBO_material_UV_options: { UVTilingU: 4, UVTilingV: 2, AOUseUV2: false },
        },
      },
      { name: "glass", alphaMode: "BLEND", pbrMetallicRoughness: { baseColorFactor: [0.8, 0.9, 1, 0.3] } },
      { name: "click_spot", extensions: options.unmarked ? undefined : { ASOBO_material_invisible: {} } },
    ],
    textures: [{ source: 0 }],
    images: [{ bufferView: 2, mimeType: "image/png" }],
    buffers: [{ byteLength: bin.length }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: pool.byteLength, byteStride: STRIDE, target: 34962 },
      { buffer: 0, byteOffset: indexAt, byteLength: indexBytes.length, target: 34963 },
      { buffer: 0, byteOffset: pngAt, byteLength: png.length },
    ],
    accessors: [
      {
        ...attribute(0, 5126, "VEC3"),
        min: [0, 0, 0],
        max: [1, 1, 1],
      },
      attribute(12, 5120, "VEC4"),
      { ...attribute(16, 5120, "VEC4"), normalized: true },
      attribute(20, 5122, "VEC2"),
      attribute(24, 5122, "VEC2"),
      attribute(28, 5123, "VEC4"),
      { bufferView: 1, componentType: 5123, count: indices.length, type: "SCALAR" },
    ],
  };
  for (const mesh of json.meshes) {
    for (const primitive of mesh.primitives) if (primitive.extras === undefined) delete primitive.extras;
  }
  for (const material of json.materials) if (material.extensions === undefined) delete material.extensions;
  options.edit?.(json);
  return glbOf(json, bin);
}

function align(length: number): number {
  return Math.ceil(length / 4) * 4;
}

/** The box's face count, for tests. */
export const PACKED_BOX_FACES: number = FACES.length;

/** One part for {@link packedPartsGlb}: a node of its own, positions in metres, triangles. */
export interface PackedPart {
  readonly name: string;
  readonly positions: Float32Array;
  readonly indices: Uint32Array;
}

/**
 * Parts packed as Flight Simulator packs an aircraft: one node per part, all of them in one
 * interleaved vertex pool (positions, signed-byte normals — area-weighted from the triangles as
 * given — and half-float UVs) and one index view, each mesh's accessors a window on them, each part's
 * mesh split into two primitives (its triangles' first and second halves, materials `paint` and
 * `trim`) sharing its index list by `StartIndex` and `PrimitiveCount`, every triangle wound the other
 * way.
 */
export function packedPartsGlb(parts: readonly PackedPart[]): Uint8Array {
  const vertices = parts.reduce((n, part) => n + part.positions.length / 3, 0);
  const pool = new DataView(new ArrayBuffer(vertices * 24));
  const indices: number[] = [];
  const accessors: Json[] = [], meshes: Json[] = [];
  let first = 0;
  for (const part of parts) {
    const count = part.positions.length / 3;
    const normals = vertexNormals(part.positions, part.indices);
    for (let v = 0; v < count; v++) {
      const at = (first + v) * 24;
      for (let k = 0; k < 3; k++) {
        pool.setFloat32(at + 4 * k, part.positions[3 * v + k], true);
        pool.setInt8(at + 12 + k, Math.round(127 * normals[3 * v + k]));
        if (k < 2) {
          pool.setUint16(at + 16 + 2 * k, floatToHalf(((part.positions[3 * v + 2 * k] % 1) + 1) % 1), true);
        }
      }
    }
    const attributes = {
      POSITION: accessors.length,
      NORMAL: accessors.length + 1,
      TEXCOORD_0: accessors.length + 2,
    };
    const min = [0, 1, 2].map((k) => Math.min(...part.positions.filter((_, i) => i % 3 === k)));
    const max = [0, 1, 2].map((k) => Math.max(...part.positions.filter((_, i) => i % 3 === k)));
    accessors.push(
      { bufferView: 0, byteOffset: first * 24, componentType: 5126, count, type: "VEC3", min, max },
      { bufferView: 0, byteOffset: first * 24 + 12, componentType: 5120, count, type: "VEC4" },
      { bufferView: 0, byteOffset: first * 24 + 16, componentType: 5122, count, type: "VEC2" },
    );
    const triangles = part.indices.length / 3, half = Math.floor(triangles / 2);
    const list = accessors.push({
      bufferView: 1,
      byteOffset: 2 * indices.length,
      componentType: 5123,
      count: part.indices.length,
      type: "SCALAR",
    }) - 1;
    for (let t = 0; t < triangles; t++) {
      const [a, b, c] = part.indices.subarray(3 * t, 3 * t + 3);
      indices.push(a, c, b);
    }
    const primitive = (material: number, from: number, to: number) => ({
      attributes,
      indices: list,
      material,
      extras: {
        ASOBO_primitive: {
          StartIndex: 3 * from,
          PrimitiveCount: to - from,
          BaseVertexIndex: 0,
          VertexType: "VertexND",
        },
      },
    });
    meshes.push({ name: part.name, primitives: [primitive(0, 0, half), primitive(1, half, triangles)] });
    first += count;
  }
  const indexBytes = new Uint8Array(new Uint16Array(indices).buffer);
  const bin = new Uint8Array(pool.byteLength + align(indexBytes.length));
  bin.set(new Uint8Array(pool.buffer), 0);
  bin.set(indexBytes, pool.byteLength);
  const json: Json = {
    asset: { version: "2.0", generator: "Babylon.js glTF exporter for 3dsmax 2023 v20221031.2" },
    extensionsUsed: ["ASOBO_normal_map_convention"],
    scene: 0,
    scenes: [{ nodes: parts.map((_, i) => i) }],
    nodes: parts.map((part, i) => ({ name: part.name, mesh: i })),
    meshes,
    materials: [{ name: "paint" }, { name: "trim" }],
    buffers: [{ byteLength: bin.length }],
    bufferViews: [
      { buffer: 0, byteLength: pool.byteLength, byteStride: 24, target: 34962 },
      { buffer: 0, byteOffset: pool.byteLength, byteLength: indexBytes.length, target: 34963 },
    ],
    accessors,
  };
  return glbOf(json, bin);
}

/** Unit vertex normals, each the area-weighted sum of its triangles' (by their winding). */
function vertexNormals(positions: Float32Array, indices: Uint32Array): Float32Array {
  const sums = new Float64Array(positions.length);
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t], indices[t + 1], indices[t + 2]].map((i) => 3 * i);
    const u = [0, 1, 2].map((k) => positions[b + k] - positions[a + k]);
    const v = [0, 1, 2].map((k) => positions[c + k] - positions[a + k]);
    const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    for (const i of [a, b, c]) for (let k = 0; k < 3; k++) sums[i + k] += n[k];
  }
  const out = new Float32Array(positions.length);
  for (let i = 0; i < out.length; i += 3) {
    const length = Math.hypot(sums[i], sums[i + 1], sums[i + 2]) || 1;
    for (let k = 0; k < 3; k++) out[i + k] = sums[i + k] / length;
  }
  return out;
}

/** How {@link packedSkinnedGlb} packs its skin: Asobo's `BLEND4` or `BLEND1` vertices. */
export interface PackedSkinOptions {
  /** 4: four joints, four half-float weights (48-byte vertices); 1: four joints, one float weight (44). */
  readonly blend: 4 | 1;
  /** Changes the JSON before it is written. */
  readonly edit?: (json: Json) => void;
}

/** The skinned box's joints: `hull` at the origin, `lid` (its child) at y = 1. */
export const PACKED_SKIN_JOINTS = ["hull", "lid"] as const;

/**
 * The weights {@link packedSkinnedGlb} gives vertex v (of face f = v >> 2): a top-face (+Y) vertex
 * 0.75 `lid` and 0.25 `hull` under BLEND4 (`lid` alone under BLEND1), every other vertex `hull` alone.
 */
export function packedSkinWeights(blend: 4 | 1, v: number): { joints: number[]; weights: number[] } {
  if (v >> 2 !== 4) return { joints: [0, 0, 0, 0], weights: [1, 0, 0, 0] };
  return blend === 4
    ? { joints: [1, 0, 0, 0], weights: [0.75, 0.25, 0, 0] }
    : { joints: [1, 0, 0, 0], weights: [1, 0, 0, 0] };
}

/** The skinned box's vertex colour of face f, as the unsigned bytes the packing stores. */
export function packedSkinColour(f: number): number[] {
  return [40 * f, 128, 255, 200];
}

/**
 * The unit box skinned and packed as Flight Simulator packs a skinned mesh (the `BLEND4`/`BLEND1`
 * vertices of Asobo's Blender exporter: `BufferViewVertex4Blend`, 48 bytes, or
 * `BufferViewVertex1Blend`, 44): float positions, signed-byte tangents and normals, half-float UVs,
 * joints as unsigned shorts, weights as four half floats filed as unnormalized `UNSIGNED_SHORT`
 * (BLEND4) or one float filed as `SCALAR` (BLEND1), and colours as unsigned bytes filed as `BYTE`.
 * One primitive (`ASOBO_primitive` VertexType `BLEND4`/`BLEND1`), wound the packing's way; skin
 * {@link PACKED_SKIN_JOINTS}, weights {@link packedSkinWeights}, colours {@link packedSkinColour}.
 */
export function packedSkinnedGlb(options: PackedSkinOptions): Uint8Array {
  const { blend } = options;
  const stride = blend === 4 ? 48 : 44, colourAt = blend === 4 ? 44 : 40;
  const vertexCount = 4 * FACES.length;
  const pool = new DataView(new ArrayBuffer(vertexCount * stride));
  const indices: number[] = [];
  FACES.forEach(({ normal, corners }, f) => {
    corners.forEach((corner, c) => {
      const v = 4 * f + c, at = v * stride;
      corner.forEach((value, k) => pool.setFloat32(at + 4 * k, value, true));
      const edge = corners[1].map((value, k) => value - corners[0][k]);
      edge.forEach((value, k) => pool.setInt8(at + 12 + k, 127 * value));
      pool.setInt8(at + 15, 127);
      normal.forEach((value, k) => pool.setInt8(at + 16 + k, 127 * value));
      CORNER_UVS[c].forEach((value, k) => pool.setUint16(at + 20 + 2 * k, floatToHalf(value), true));
      CORNER_UVS[c].forEach((value, k) => pool.setUint16(at + 24 + 2 * k, floatToHalf(value / 2), true));
      const { joints, weights } = packedSkinWeights(blend, v);
      joints.forEach((joint, k) => pool.setUint16(at + 28 + 2 * k, joint, true));
      if (blend === 4) weights.forEach((w, k) => pool.setUint16(at + 36 + 2 * k, floatToHalf(w), true));
      else pool.setFloat32(at + 36, weights[0], true);
      packedSkinColour(f).forEach((value, k) => pool.setUint8(at + colourAt + k, value));
    });
    const v = 4 * f;
    indices.push(v, v + 2, v + 1, v, v + 3, v + 2);
  });
  const indexBytes = new Uint8Array(new Uint16Array(indices).buffer);
  // Inverse bind matrices (column-major): hull identity, lid a translation by −1 along y.
  const inverseBinds = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  const lidBind = inverseBinds.slice();
  lidBind[13] = -1;
  const ibm = new Uint8Array(new Float32Array([...inverseBinds, ...lidBind]).buffer);
  const indexAt = align(pool.byteLength), ibmAt = indexAt + align(indexBytes.length);
  const bin = new Uint8Array(ibmAt + ibm.length);
  bin.set(new Uint8Array(pool.buffer), 0);
  bin.set(indexBytes, indexAt);
  bin.set(ibm, ibmAt);
  const attribute = (offset: number, componentType: number, type: string, normalized = false) => ({
    bufferView: 0,
    byteOffset: offset,
    componentType,
    count: vertexCount,
    type,
    normalized,
  });
  const vertexType = `BLEND${blend}`;
  const json: Json = {
    asset: {
      version: "2.0",
      generator: "Khronos glTF Blender I/O v3.6.27 and Asobo Studio MSFS Blender I/O v1.3.3",
    },
    extensionsUsed: ["ASOBO_normal_map_convention"],
    extensions: { ASOBO_normal_map_convention: { tangent_space_convention: "DirectX" } },
    scene: 0,
    scenes: [{ nodes: [0, 1] }],
    nodes: [
      { name: "box", mesh: 0, skin: 0 },
      { name: PACKED_SKIN_JOINTS[0], children: [2] },
      { name: PACKED_SKIN_JOINTS[1], translation: [0, 1, 0] },
    ],
    skins: [{ joints: [1, 2], inverseBindMatrices: 9, skeleton: 1 }],
    meshes: [{
      name: "box",
      primitives: [{
        attributes: {
          POSITION: 0,
          TANGENT: 1,
          NORMAL: 2,
          TEXCOORD_0: 3,
          TEXCOORD_1: 4,
          JOINTS_0: 5,
          WEIGHTS_0: 6,
          COLOR_0: 7,
        },
        indices: 8,
        material: 0,
        extras: {
          ASOBO_primitive: { PrimitiveCount: indices.length / 3, VertexType: vertexType, VertexVersion: 1 },
        },
      }],
    }],
    materials: [{ name: "skin" }],
    buffers: [{ byteLength: bin.length }],
    bufferViews: [
      {
        buffer: 0,
        byteLength: pool.byteLength,
        byteStride: stride,
        target: 34962,
        name: blend === 4 ? "BufferViewVertex4Blend" : "BufferViewVertex1Blend",
      },
      {
        buffer: 0,
        byteOffset: indexAt,
        byteLength: indexBytes.length,
        target: 34963,
        name: "BufferViewIndex",
      },
      { buffer: 0, byteOffset: ibmAt, byteLength: ibm.length, name: "bufferViewFloatMat4" },
    ],
    accessors: [
      { ...attribute(0, 5126, "VEC3"), min: [0, 0, 0], max: [1, 1, 1] },
      attribute(12, 5120, "VEC4", true),
      attribute(16, 5120, "VEC4"),
      attribute(20, 5122, "VEC2"),
      attribute(24, 5122, "VEC2"),
      attribute(28, 5123, "VEC4"),
      blend === 4 ? attribute(36, 5123, "VEC4") : attribute(36, 5126, "SCALAR"),
      attribute(colourAt, 5120, "VEC4"),
      { bufferView: 1, componentType: 5123, count: indices.length, type: "SCALAR" },
      { bufferView: 2, componentType: 5126, count: 2, type: "MAT4" },
    ],
  };
  options.edit?.(json);
  return glbOf(json, bin);
}
