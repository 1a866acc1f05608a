/**
 * Scenes whose normals or tangent signs lost their direction before they reached `export.gltf`, from
 * decoders other than decode.gltf (which mends a file's itself):
 *
 * - {@link zeroNormalCmp}: a Freelancer compound whose VMesh normals are zero on some vertices, as
 *   modding tools leave them (a patch the tool rebuilt, and scattered ones): a jittered hull tube split
 *   at its UV seam with flat end caps sharing its rim's places (copies facing 90° away), and a flat-shaded
 *   box whose corners are three copies each.
 * - {@link lostSignScene}: a scene a user's script builds through the API: a bumpy symmetric panel whose
 *   left half's UVs mirror its right half's (one texture drawn on both sides), tangents w = ±1 from the
 *   UVs, then the script's habits: tangents stored as three components padded with w = 0 (one mesh),
 *   some signs 0 (another), tangents of no direction, and normals NaN where it divided by a zero length.
 *
 * Each returns the true directions beside the damaged ones, to measure what an export made of them.
 *
 * @module
 */
import { Document } from "@gltf-transform/core";
import { flCrc32 } from "../../nodes/decode/freelancer/codec/crc.ts";
import { tangentsOf } from "../../runtime/scene/uv_tangents.ts";
import { compoundTree, encodeVMeshData, materialLibrary, packVertices } from "./freelancer/encode_model.ts";
import { encodeUtf } from "./freelancer/encode_utf.ts";
import { prng } from "./prng.ts";

/** One part's vertices as written: positions, the true normals, and which were written zero. */
export interface WrittenPart {
  readonly name: string;
  readonly positions: Float32Array<ArrayBuffer>;
  readonly normals: Float32Array<ArrayBuffer>;
  readonly zeroed: Uint8Array<ArrayBuffer>;
  /** Triangle indices, as written. */
  readonly indices: readonly number[];
}

/** A mesh with its faces: positions, true normals, triangle indices. */
interface Shape {
  positions: number[];
  normals: number[];
  indices: number[];
}

/** A hull tube along x, `rings` × `segments` (+1: the seam's copies), radius varying, jittered; capped. */
function hull(random: () => number, rings: number, segments: number): Shape {
  const shape: Shape = { positions: [], normals: [], indices: [] };
  const length = 4 + random() * 4, bulge = 0.2 + random() * 0.4;
  const radius = (x: number) => 0.6 + bulge * Math.sin(Math.PI * x / length) + 0.05 * Math.cos(7 * x);
  // Coarse jitter, rounded to the float32 a modelling tool stores: the seam's copies share it.
  const jitter = Array.from({ length: rings * segments }, () => (random() - 0.5) * 0.02);
  const at = (r: number, s: number) => {
    const x = (r / (rings - 1)) * length, angle = (2 * Math.PI * (s % segments)) / segments;
    const rad = radius(x) + jitter[r * segments + (s % segments)];
    return [x, rad * Math.cos(angle), rad * Math.sin(angle)];
  };
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s <= segments; s++) shape.positions.push(...at(r, s)), shape.normals.push(0, 0, 0);
  }
  for (let r = 0; r + 1 < rings; r++) {
    for (let s = 0; s < segments; s++) {
      const a = r * (segments + 1) + s, b = a + segments + 1;
      shape.indices.push(a, b, a + 1, a + 1, b, b + 1);
    }
  }
  smoothNormals(shape, 0);
  // Flat caps: each rim place again, facing along the axis (a hard edge: the tube's copy is 90° off).
  for (const [r, facing] of [[0, -1], [rings - 1, 1]] as const) {
    const centre = shape.positions.length / 3;
    shape.positions.push(...at(r, 0).map((c, k) => (k === 0 ? c : 0)));
    shape.normals.push(facing, 0, 0);
    for (let s = 0; s < segments; s++) shape.positions.push(...at(r, s)), shape.normals.push(facing, 0, 0);
    for (let s = 0; s < segments; s++) {
      const a = centre + 1 + s, b = centre + 1 + ((s + 1) % segments);
      shape.indices.push(...(facing > 0 ? [centre, a, b] : [centre, b, a]));
    }
  }
  return shape;
}

/** A flat-shaded box: four copies of a corner per face, each facing along its face. */
function box(random: () => number): Shape {
  const shape: Shape = { positions: [], normals: [], indices: [] };
  const size = [0.5 + random(), 0.3 + random() * 0.5, 0.4 + random()];
  for (let axis = 0; axis < 3; axis++) {
    for (const sign of [-1, 1]) {
      const u = (axis + 1) % 3, v = (axis + 2) % 3, base = shape.positions.length / 3;
      for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
        const p = [0, 0, 0], n = [0, 0, 0];
        p[axis] = sign * size[axis], p[u] = a * size[u], p[v] = b * size[v], n[axis] = sign;
        shape.positions.push(...p.map((c) => c + 3)), shape.normals.push(...n);
      }
      const quad = sign > 0 ? [0, 1, 2, 0, 2, 3] : [0, 2, 1, 0, 3, 2];
      shape.indices.push(...quad.map((i) => base + i));
    }
  }
  return shape;
}

/** Area-weighted normals of the triangles at each place (the seam's copies welded), from `first` on. */
function smoothNormals(shape: Shape, first: number): void {
  const sums = new Map<string, number[]>();
  const key = (v: number) => shape.positions.slice(3 * v, 3 * v + 3).map(Math.fround).join();
  const p = shape.positions;
  for (let f = 0; f < shape.indices.length; f += 3) {
    const [a, b, c] = shape.indices.slice(f, f + 3);
    const u = [0, 1, 2].map((k) => p[3 * b + k] - p[3 * a + k]),
      w = [0, 1, 2].map((k) => p[3 * c + k] - p[3 * a + k]);
    const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    for (const v of [a, b, c]) {
      const s = sums.get(key(v)) ?? sums.set(key(v), [0, 0, 0]).get(key(v))!;
      for (let k = 0; k < 3; k++) s[k] += n[k];
    }
  }
  for (let v = first; v < p.length / 3; v++) {
    const s = sums.get(key(v))!, length = Math.hypot(s[0], s[1], s[2]);
    for (let k = 0; k < 3; k++) shape.normals[3 * v + k] = s[k] / length;
  }
}

/** The hull and box of seed `seed`, with a patch and a scattered share of vertices marked zeroed. */
function zeroNormalParts(seed: number, share: number): { parts: WrittenPart[]; shapes: Shape[] } {
  const random = prng(seed);
  const named = [
    { name: "Root", shape: hull(random, 8 + Math.floor(random() * 10), 10 + Math.floor(random() * 14)) },
    { name: "crate", shape: box(random) },
  ];
  const parts = named.map(({ name, shape }) => {
    const count = shape.positions.length / 3;
    const zeroed = new Uint8Array(count);
    // A patch the tool rebuilt (a run of vertices), and scattered ones.
    const start = Math.floor(random() * count * 0.7), run = Math.max(2, Math.floor(count * share * 0.5));
    for (let v = 0; v < count; v++) {
      if ((v >= start && v < start + run) || random() < share * 0.5) zeroed[v] = 1;
    }
    return {
      name,
      positions: new Float32Array(shape.positions),
      normals: new Float32Array(shape.normals),
      zeroed,
      indices: shape.indices,
    };
  });
  return { parts, shapes: named.map(({ shape }) => shape) };
}

/**
 * A `.cmp` of a hull and a box part whose VMesh normals are zero on a patch and a scattered share
 * (`share`, default 0.1) of vertices; with the parts as written (true normals, which were zeroed).
 */
export function zeroNormalCmp(seed: number, share = 0.1): { bytes: Uint8Array; parts: WrittenPart[] } {
  const { parts, shapes } = zeroNormalParts(seed, share);
  const material = "hull_grey";
  const meshes = parts.map((part) => {
    const count = part.zeroed.length;
    const written = part.normals.slice();
    for (let v = 0; v < count; v++) if (part.zeroed[v]) written.fill(0, 3 * v, 3 * v + 3);
    const uvs = new Float32Array(2 * count).map((_, i) =>
      part.positions[Math.floor(i / 2) * 3 + (i % 2)] * 0.25
    );
    const fvf = 0x112;
    const data = encodeVMeshData({
      fvf,
      groups: [{
        materialId: flCrc32(material),
        vertexStart: 0,
        vertexEnd: count - 1,
        indexCount: shapes[parts.indexOf(part)].indices.length,
      }],
      indices: shapes[parts.indexOf(part)].indices,
      vertices: packVertices(fvf, count, { positions: part.positions, normals: written, uvs: [uvs] }),
    });
    return { name: `${part.name}_${seed}.lod0.vms`, data };
  });
  const bytes = encodeUtf(compoundTree({
    meshes,
    parts: parts.map(({ name }, i) => ({
      name,
      fileName: `${name}_${seed}.3db`,
      fragment: {
        lods: [{
          meshId: flCrc32(meshes[i].name),
          vertexStart: 0,
          vertexCount: parts[i].positions.length / 3,
          indexStart: 0,
          indexCount: shapes[i].indices.length,
          groupStart: 0,
          groupCount: 1,
        }],
      },
    })),
    constraints: [{
      kind: "fix",
      parent: "Root",
      child: "crate",
      translation: [0, 0, 0],
      rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1],
    }],
    extra: [materialLibrary([{ name: material, dc: [0.6, 0.6, 0.6, 1] }])],
  }));
  return { bytes, parts };
}

/**
 * The parts of {@link zeroNormalCmp} built through the API as a script converting Freelancer data
 * would (the decoder itself makes a zero normal +Y): each a mesh named as its part, normals zeroed.
 */
export function zeroNormalScene(seed: number, share = 0.1): { doc: Document; parts: WrittenPart[] } {
  const { parts, shapes } = zeroNormalParts(seed, share);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene("ship");
  parts.forEach((part, i) => {
    const normals = part.normals.slice();
    for (let v = 0; v < part.zeroed.length; v++) if (part.zeroed[v]) normals.fill(0, 3 * v, 3 * v + 3);
    const accessor = (type: "VEC3" | "SCALAR", array: Float32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>) =>
      doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
    const primitive = doc.createPrimitive()
      .setAttribute("POSITION", accessor("VEC3", part.positions))
      .setAttribute("NORMAL", accessor("VEC3", normals))
      .setIndices(accessor("SCALAR", new Uint16Array(shapes[i].indices)));
    scene.addChild(doc.createNode(part.name).setMesh(doc.createMesh(part.name).addPrimitive(primitive)));
  });
  return { doc, parts };
}

/** A mesh of {@link lostSignScene}: its true tangents and normals, and what was damaged. */
export interface SignedMesh {
  readonly name: string;
  readonly tangents: Float32Array;
  readonly normals: Float32Array;
  /** Per vertex: 1 sign set to 0, 2 tangent of no direction, 4 normal NaN. */
  readonly damage: Uint8Array;
}

/**
 * A scene of bumpy panels whose left half's UVs mirror the right half's, tangents from the UVs, then
 * damaged as a script does (see the module doc); with each mesh's true tangents and normals.
 */
export function lostSignScene(seed: number): { doc: Document; meshes: SignedMesh[] } {
  const random = prng(seed);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene("panels");
  const meshes: SignedMesh[] = [];
  const habits = ["padded", "some zero", "some zero, no direction, NaN normals"];
  habits.forEach((_habit, m) => {
    const columns = 6 + Math.floor(random() * 10), rows = 4 + Math.floor(random() * 8);
    const positions: number[] = [], uvs: number[] = [], indices: number[] = [];
    const bump = (x: number, y: number) => 0.15 * Math.cos(2.5 * x) * Math.sin(2 * y + m) + 0.05 * x * x;
    // Two islands, right (x ≥ 0) and left (x ≤ 0), split at x = 0: the left's u runs the other way.
    for (const side of [1, -1]) {
      const base = positions.length / 3;
      for (let r = 0; r <= rows; r++) {
        for (let c = 0; c <= columns; c++) {
          const x = side * (c / columns), y = r / rows * 2 - 1;
          positions.push(x, y, bump(x, y));
          uvs.push(Math.abs(x) * 0.9 + 0.05 + (random() - 0.5) * 0.002, (y + 1) / 2);
        }
      }
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < columns; c++) {
          const a = base + r * (columns + 1) + c, b = a + columns + 1;
          // Wound to face +z on both sides.
          indices.push(...(side > 0 ? [a, a + 1, b, a + 1, b + 1, b] : [a, b, a + 1, a + 1, b, b + 1]));
        }
      }
    }
    const shape = { positions, normals: positions.map(() => 0), indices };
    smoothNormals(shape, 0);
    const count = positions.length / 3;
    const accessor = (
      type: "VEC2" | "VEC3" | "VEC4" | "SCALAR",
      array: Float32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>,
    ) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
    const primitive = doc.createPrimitive()
      .setAttribute("POSITION", accessor("VEC3", new Float32Array(positions)))
      .setAttribute("NORMAL", accessor("VEC3", new Float32Array(shape.normals)))
      .setAttribute("TEXCOORD_0", accessor("VEC2", new Float32Array(uvs)))
      .setIndices(accessor("SCALAR", new Uint16Array(indices)));
    const truth = tangentsOf(primitive, "TEXCOORD_0") as Float32Array;
    const written = truth.slice(), normals = new Float32Array(shape.normals), damage = new Uint8Array(count);
    for (let v = 0; v < count; v++) {
      if (m === 0 || random() < 0.3) damage[v] |= 1, written[4 * v + 3] = 0;
      if (m === 2 && random() < 0.1) damage[v] |= 2, written.fill(0, 4 * v, 4 * v + 3);
      if (m === 2 && random() < 0.05) damage[v] |= 4, normals.fill(NaN, 3 * v, 3 * v + 3);
    }
    primitive.setAttribute("TANGENT", accessor("VEC4", written));
    primitive.getAttribute("NORMAL")!.setArray(normals);
    const name = `panel_${m}`;
    scene.addChild(doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(primitive)));
    meshes.push({ name, tangents: truth, normals: new Float32Array(shape.normals), damage });
  });
  return { doc, meshes };
}
