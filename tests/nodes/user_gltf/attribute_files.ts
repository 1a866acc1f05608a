/**
 * Coarse low-poly aircraft (a fuselage, wings, a tailplane and their control surfaces as tapered boxes,
 * split per face as game exporters write them: 24 vertices, flat normals, a UV island per face) written
 * with the vertex-attribute habits of real exporters, each on some of the meshes only, the others clean:
 *
 * - `tangent-w0`: TANGENT w written 0 (a tool storing its three-component tangents as VEC4 padded with 0);
 * - `tangent-w-off`: w of the right sign but not ±1 (a bitangent length kept in w, 16-bit rounding);
 * - `normals-flipped`: every normal of a closed mesh pointing in (normals flipped in the source, winding kept);
 * - `winding-mirrored`: a right-hand part mirrored into its vertices (a negative scale applied on export)
 *   whose triangles were not reversed: normals out, winding in;
 * - `open-inward`: an open plate (a rudder or tab modelled as one sheet) whose normals face against its
 *   winding: which of the two is wrong cannot be told;
 * - `normals-nan`: some normals NaN or zero (degenerate corners in the source, a division by a zero length);
 * - `v-negative`: TEXCOORD_0 written as −v (a DirectX-convention writer: V in [−1, 0]) read through a sampler
 *   that clamps or mirrors V (drawn as one texel row or upside down) or repeats it (drawn right);
 * - `uv-set-flipped`: TEXCOORD_1 (an ambient occlusion bake's atlas of the same islands) V-flipped relative
 *   to TEXCOORD_0 (an exporter that wrote 1 − v on one set only);
 * - `uv-lone-flipped`: TEXCOORD_0, the mesh's only set, V-flipped (written v, not 1 − v: an exporter's
 *   convention slip on some meshes of a merged file); nothing in the file can say so for certain;
 * - `clean`: none of these, with mirrored instances (a node scale of −1), an independent projected second
 *   UV set and normal maps on some parts, as a guard against false warnings.
 *
 * The truth per mesh says how a viewer should draw it, for attribute_judge.ts.
 *
 * @module
 */
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";
import { box, type Json, Writer } from "../decode/gltf_exporter_parts.ts";

/** The habits imitated. */
export const ATTRIBUTE_KINDS = [
  "clean",
  "tangent-w0",
  "tangent-w-off",
  "normals-flipped",
  "winding-mirrored",
  "open-inward",
  "normals-nan",
  "v-negative",
  "uv-set-flipped",
  "uv-lone-flipped",
] as const;
/** One of {@link ATTRIBUTE_KINDS}. */
export type AttributeKind = typeof ATTRIBUTE_KINDS[number];

/** What a viewer should draw of one mesh (mesh space). */
export interface MeshTruth {
  readonly name: string;
  /** Normals as the author meant them, per vertex (outward for closed meshes). */
  readonly normals: Float32Array;
  /** Tangent signs (w) as the UVs make them, when the mesh has tangents. */
  readonly signs?: Float32Array;
  /** TEXCOORD_0 as meant (V in [0, 1]) and the V wrap of the samplers reading it. */
  readonly uv0: Float32Array;
  /** Whether the mesh is closed (its winding then must face out). */
  readonly closed: boolean;
  /** A habit that cannot be repaired with certainty: the mesh must be named in a warning. */
  readonly named?: boolean;
}

/** One generated file. */
export interface AttributeGltf {
  readonly kind: AttributeKind;
  readonly detail: string;
  readonly bytes: Uint8Array;
  readonly meshes: readonly MeshTruth[];
}

const PARTS: { name: string; centre: number[]; size: number[]; taper: number; mirror?: string }[] = [
  { name: "Fuselage", centre: [0, 0, 0], size: [0.9, 1.0, 7.5], taper: 0.55 },
  { name: "Wing_L", centre: [-2.4, 0, -0.4], size: [4, 0.18, 1.4], taper: 0.6 },
  { name: "Aileron_L", centre: [-3.0, 0, 0.45], size: [1.6, 0.08, 0.3], taper: 0.8 },
  { name: "Flap_L", centre: [-1.3, 0, 0.45], size: [1.4, 0.08, 0.35], taper: 0.9 },
  { name: "Stabilizer_L", centre: [-0.9, 0.2, 3.3], size: [1.4, 0.1, 0.7], taper: 0.6 },
  { name: "Elevator_L", centre: [-0.9, 0.2, 3.8], size: [1.3, 0.06, 0.25], taper: 0.7 },
  { name: "Fin", centre: [0, 0.9, 3.3], size: [0.1, 1.3, 0.9], taper: 0.6 },
  { name: "Rudder", centre: [0, 0.9, 3.9], size: [0.06, 1.2, 0.3], taper: 0.8 },
];

/** A tapered box: the box's vertices on the far side of `axis` scaled by `taper` across it. */
function taperedBox(size: number[], taper: number, next: () => number) {
  const { positions, uvs, indices } = box(size);
  const long = size.indexOf(Math.max(...size));
  const round = (v: number) => Math.fround(Math.round(v * 1e4) / 1e4);
  // A modeller's nudges: one per corner, so the faces' split copies of a corner stay at one place.
  const nudges = new Map<string, number[]>();
  for (let i = 0; i < positions.length; i += 3) {
    const corner = `${positions[i]},${positions[i + 1]},${positions[i + 2]}`;
    if (!nudges.has(corner)) nudges.set(corner, [0, 1, 2].map(() => 1 + (next() - 0.5) * 0.02));
    const nudge = nudges.get(corner)!;
    if (positions[i + long] > 0) {
      for (let k = 0; k < 3; k++) if (k !== long) positions[i + k] *= taper;
    }
    for (let k = 0; k < 3; k++) positions[i + k] = round(positions[i + k] * nudge[k]);
  }
  return { positions, uvs, indices, normals: faceNormals(positions, indices) };
}

/** Per-vertex normals of split faces: each vertex its triangles' summed normal, unit length. */
export function faceNormals(positions: Float32Array, indices: ArrayLike<number>): Float32Array {
  const sum = new Float64Array(positions.length);
  for (let f = 0; f + 2 < indices.length; f += 3) {
    const [a, b, c] = [indices[f], indices[f + 1], indices[f + 2]];
    const e1 = [0, 1, 2].map((k) => positions[3 * b + k] - positions[3 * a + k]);
    const e2 = [0, 1, 2].map((k) => positions[3 * c + k] - positions[3 * a + k]);
    const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    for (const v of [a, b, c]) for (let k = 0; k < 3; k++) sum[3 * v + k] += n[k];
  }
  const out = new Float32Array(positions.length);
  for (let v = 0; v < positions.length; v += 3) {
    const l = Math.hypot(sum[v], sum[v + 1], sum[v + 2]) || 1;
    for (let k = 0; k < 3; k++) out[v + k] = sum[v + k] / l;
  }
  return out;
}

/** Lengyel's per-vertex tangents (x, y, z, w) from normals and UVs, as a baker writes them. */
export function uvTangents(
  positions: Float32Array,
  normals: Float32Array,
  uvs: Float32Array,
  indices: ArrayLike<number>,
): Float32Array {
  const count = positions.length / 3;
  const tan = new Float64Array(3 * count), bit = new Float64Array(3 * count);
  for (let f = 0; f + 2 < indices.length; f += 3) {
    const [a, b, c] = [indices[f], indices[f + 1], indices[f + 2]];
    const e1 = [0, 1, 2].map((k) => positions[3 * b + k] - positions[3 * a + k]);
    const e2 = [0, 1, 2].map((k) => positions[3 * c + k] - positions[3 * a + k]);
    const s1 = uvs[2 * b] - uvs[2 * a], t1 = uvs[2 * b + 1] - uvs[2 * a + 1];
    const s2 = uvs[2 * c] - uvs[2 * a], t2 = uvs[2 * c + 1] - uvs[2 * a + 1];
    const det = s1 * t2 - s2 * t1;
    if (Math.abs(det) < 1e-20) continue;
    for (const v of [a, b, c]) {
      for (let k = 0; k < 3; k++) {
        tan[3 * v + k] += (e1[k] * t2 - e2[k] * t1) / det;
        bit[3 * v + k] += (e2[k] * s1 - e1[k] * s2) / det;
      }
    }
  }
  const out = new Float32Array(4 * count);
  for (let v = 0; v < count; v++) {
    const n = [normals[3 * v], normals[3 * v + 1], normals[3 * v + 2]];
    const d = n[0] * tan[3 * v] + n[1] * tan[3 * v + 1] + n[2] * tan[3 * v + 2];
    const t = [0, 1, 2].map((k) => tan[3 * v + k] - n[k] * d);
    const l = Math.hypot(...t) || 1;
    const c = [n[1] * t[2] - n[2] * t[1], n[2] * t[0] - n[0] * t[2], n[0] * t[1] - n[1] * t[0]];
    const w = c[0] * bit[3 * v] + c[1] * bit[3 * v + 1] + c[2] * bit[3 * v + 2] < 0 ? -1 : 1;
    out.set([t[0] / l, t[1] / l, t[2] / l, w], 4 * v);
  }
  return out;
}

/** The file of `kind` for `seed`. */
export async function attributeGltf(kind: AttributeKind, seed: number): Promise<AttributeGltf> {
  await loadPngEncoder();
  const next = prng(seed * 7919 + ATTRIBUTE_KINDS.indexOf(kind) * 131 + 17);
  const w = new Writer();
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const count = 4 + Math.floor(next() * (PARTS.length - 3));
  const parts = PARTS.slice(0, count);
  // The habit's meshes: one to all but one of them (the fuselage, clean, always among the others).
  const habitual = new Set<number>();
  if (kind !== "clean") {
    // A V-flipped only set comes with a part or two merged from another tool's file.
    const wanted = kind === "uv-lone-flipped"
      ? 1 + Math.floor(next() * 2)
      : 1 + Math.floor(next() * (count - 1));
    while (habitual.size < wanted) habitual.add(1 + Math.floor(next() * (count - 1)));
  }
  const mirrorInstances = next() < 0.5;
  const repeat = 10497, clamp = 33071, mirrored = 33648;
  const wrapT = kind === "v-negative" ? pick([clamp, clamp, mirrored, repeat]) : pick([repeat, clamp]);
  w.json.samplers = [{ magFilter: 9729, minFilter: 9987, wrapS: repeat, wrapT }];
  const meshes: MeshTruth[] = [];
  const details: string[] = [];
  parts.forEach((part, p) => {
    const has = habitual.has(p);
    let { positions, uvs, indices, normals } = taperedBox(part.size, part.taper, next);
    let closed = true;
    // Mirrored islands, as a symmetric part's sides share texture space: U mirrored on every other face.
    if (next() < 0.5) {
      for (let v = 0; v < uvs.length / 2; v++) if (Math.floor(v / 4) % 2) uvs[2 * v] = 1 - uvs[2 * v];
    }
    if (kind === "open-inward" && has) {
      // One sheet, as a trim tab or a thin rudder is modelled: the box's first face alone.
      [positions, uvs, normals, indices] = [
        positions.slice(0, 12),
        uvs.slice(0, 8),
        normals.slice(0, 12),
        indices.slice(0, 6),
      ];
      closed = false;
    }
    if (kind === "winding-mirrored" && has) {
      // Mirrored into the vertices, as applying a negative X scale does; normals mirrored with them.
      positions = positions.map((v, i) => (i % 3 === 0 ? -v : v));
      normals = normals.map((v, i) => (i % 3 === 0 ? -v : v));
    }
    const normalMapped = kind.startsWith("tangent") ? has || next() < 0.3 : next() < 0.3;
    let secondSet = kind === "uv-set-flipped" ? has || next() < 0.3 : next() < 0.4;
    if (kind === "uv-lone-flipped" && has) secondSet = false;
    const arrays: Record<string, Float32Array> = { POSITION: positions };
    let written = normals;
    if (kind === "normals-flipped" && has) written = normals.map((v) => -v);
    if (kind === "open-inward" && has) written = normals = normals.map((v) => -v);
    if (kind === "normals-nan" && has) {
      written = normals.slice();
      const bad = 1 + Math.floor(next() * 6);
      for (let b = 0; b < bad; b++) {
        const v = indices[Math.floor(next() * indices.length)];
        written.set(next() < 0.5 ? [NaN, NaN, NaN] : [0, 0, 0], 3 * v);
      }
    }
    arrays.NORMAL = written;
    let writtenUv = uvs;
    if (kind === "v-negative" && has) writtenUv = uvs.map((v, i) => (i % 2 ? Math.fround(v - 1) : v));
    // Named, kept as written (as the open sheet's normals): the truth is the set as written.
    if (kind === "uv-lone-flipped" && has) {
      writtenUv = uvs = uvs.map((v, i) => (i % 2 ? Math.fround(1 - v) : v));
    }
    arrays.TEXCOORD_0 = writtenUv;
    if (secondSet) {
      const projected = !(kind === "uv-set-flipped" && has) && next() < 0.5;
      // An occlusion bake's atlas: each face's island in a tile of a 3×2 grid (same orientation), or a
      // projection from above (islands of both orientations: no agreement to compare).
      const atlas = new Float32Array(uvs.length);
      for (let v = 0; v < uvs.length / 2; v++) {
        const face = Math.floor(v / 4);
        if (projected) {
          atlas.set([positions[3 * v] / 8 + 0.5, positions[3 * v + 2] / 8 + 0.5], 2 * v);
        } else {
          atlas.set([((face % 3) + uvs[2 * v]) / 3, (Math.floor(face / 3) + uvs[2 * v + 1]) / 2], 2 * v);
        }
      }
      if (kind === "uv-set-flipped" && has) {
        for (let i = 1; i < atlas.length; i += 2) atlas[i] = 1 - atlas[i];
      }
      arrays.TEXCOORD_1 = atlas;
    }
    let signs: Float32Array | undefined;
    if (normalMapped) {
      const tangents = uvTangents(positions, normals, uvs, indices);
      signs = tangents.filter((_, i) => i % 4 === 3);
      // Flipped normals: the tool's tangents made across them (MikkTSpace on what it exports: w flips
      // too), or the normals flipped after the tangents were made.
      if (kind === "normals-flipped" && has && next() < 0.5) {
        for (let i = 3; i < tangents.length; i += 4) tangents[i] = -tangents[i];
      }
      if (kind === "tangent-w0" && has) { for (let i = 3; i < tangents.length; i += 4) tangents[i] = 0; }
      if (kind === "tangent-w-off" && has) {
        const scale = pick([0.5, 0.9995, 1.01, 2, 0.25]);
        for (let i = 3; i < tangents.length; i += 4) tangents[i] = Math.fround(tangents[i] * scale);
      }
      arrays.TANGENT = tangents;
    }
    const image = w.image([40 + 20 * p, Math.floor(next() * 256), 128, 255]);
    const material = w.material({
      name: `${part.name}_Mat`,
      pbrMetallicRoughness: { baseColorTexture: { index: w.texture(image) }, metallicFactor: 0 },
      ...(normalMapped ? { normalTexture: { index: w.texture(w.image([128, 128, 255, 255])) } } : {}),
      ...(secondSet
        ? { occlusionTexture: { index: w.texture(w.image([200, 200, 200, 255])), texCoord: 1 } }
        : {}),
      ...(closed ? {} : { doubleSided: true }),
    });
    // How the tool lays the mesh out: indexed; unindexed, a vertex per corner (three.js's exporter); or split
    // by material into two primitives sharing the vertex accessors (Blender), the second a trim's.
    const layout = closed ? pick(["indexed", "indexed", "unindexed", "split"] as const) : "indexed";
    let truthNormals = normals, truthUvs = uvs;
    if (layout === "unindexed") {
      const expand = (a: Float32Array, size: number) => {
        const out = new Float32Array(indices.length * size);
        indices.forEach((v, i) => out.set(a.subarray(size * v, size * v + size), size * i));
        return out;
      };
      for (const [semantic, a] of Object.entries(arrays)) {
        arrays[semantic] = expand(a, a.length / (positions.length / 3));
      }
      [truthNormals, truthUvs, signs] = [expand(normals, 3), expand(uvs, 2), signs && expand(signs, 1)];
    }
    const attributes: Json = {};
    for (const [semantic, a] of Object.entries(arrays)) {
      const size = a.length / (arrays.POSITION.length / 3);
      attributes[semantic] = w.floats(
        a,
        size === 2 ? "VEC2" : size === 3 ? "VEC3" : "VEC4",
        undefined,
        semantic === "POSITION",
      );
    }
    const primitives: Json[] = layout === "unindexed" ? [{ attributes, material }] : layout === "split"
      ? [
        { attributes, indices: w.indices(Array.from(indices.slice(0, 18))), material },
        {
          attributes,
          indices: w.indices(Array.from(indices.slice(18))),
          material: w.material({ ...w.json.materials[material], name: `${part.name}_Trim` }),
        },
      ]
      : [{ attributes, indices: w.indices(Array.from(indices)), material }];
    const mesh = w.json.meshes.push({ name: part.name, primitives }) - 1;
    w.node({ name: part.name, mesh, translation: part.centre });
    // Babylon and Sketchfab's mirrored instances: the left mesh under a node scaled −1 in X.
    if (mirrorInstances && part.name.endsWith("_L")) {
      const centre = [-part.centre[0], part.centre[1], part.centre[2]];
      w.node({ name: part.name.replace(/_L$/, "_R"), mesh, translation: centre, scale: [-1, 1, 1] });
    }
    meshes.push({
      name: part.name,
      normals: truthNormals,
      signs,
      uv0: truthUvs,
      closed,
      named: has && (kind === "open-inward" || kind === "uv-set-flipped" || kind === "uv-lone-flipped"),
    });
    if (has) details.push(part.name);
  });
  return {
    kind,
    detail: `${details.join(", ") || "no habit"}; wrapT ${wrapT}${
      mirrorInstances ? ", mirrored instances" : ""
    }`,
    bytes: w.glb(pick(["Khronos glTF Blender I/O v3.6.27", "UnityGLTF", "FBX2glTF v0.9.7", "Sketchfab"])),
    meshes,
  };
}
