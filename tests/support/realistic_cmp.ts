/**
 * Code-built Freelancer compounds shaped like retail ones, for benchmarks and byte-identity checks:
 * tens of parts, 3–5 LODs each, many small material groups (20 to a few thousand vertices, most of
 * them small), several materials with DXT1 or Targa textures, hardpoints, wireframes, and `Cons`
 * records of every joint kind. Seeded: the same seed gives the same bytes.
 *
 * @module
 */
import { flCrc32 } from "../../nodes/decode/freelancer/codec/crc.ts";
import {
  compoundTree,
  type ConstraintSpec,
  encodeVMeshData,
  type HardpointSpec,
  materialLibrary,
  type MaterialSpec,
  packVertices,
  type PartSpec,
  textureLibrary,
  type VMeshRefSpec,
} from "./freelancer/encode_model.ts";
import { encodeUtf } from "./freelancer/encode_utf.ts";
import type { JointKind } from "../../nodes/decode/freelancer/codec/constraints.ts";
import { prng } from "./prng.ts";

/** Options of {@link realisticCmp}. */
export interface RealisticOptions {
  /** Number of parts (Root included). Default 24. */
  readonly parts?: number;
  /** Largest material group, in vertices (groups are 20 to this, skewed small). Default 2,000. */
  readonly maxGroupVertices?: number;
}

const JOINTS: readonly JointKind[] = ["fix", "rev", "pris", "cyl", "sphere", "loose"];
/** FVFs retail meshes use: normal + one UV set (most), normal + two UV sets, colour + UV. */
const FVFS = [0x112, 0x112, 0x112, 0x212, 0x142] as const;
const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/**
 * A realistic `.cmp` for seed `seed`.
 *
 * @example
 * ```ts
 * const bytes = realisticCmp(7, { parts: 30 });
 * ```
 */
export function realisticCmp(seed: number, options: RealisticOptions = {}): Uint8Array {
  const random = prng(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const partCount = options.parts ?? 24;
  const maxGroup = options.maxGroupVertices ?? 2000;
  const materials = realisticMaterials(seed, int(4, 8));
  const materialIds = materials.specs.map((m) => flCrc32(m.name));
  const meshes: { name: string; data: Uint8Array }[] = [];
  const parts: PartSpec[] = [];
  const constraints: ConstraintSpec[] = [];
  for (let p = 0; p < partCount; p++) {
    const name = p === 0 ? "Root" : `part${seed}_${p}`;
    const lodCount = int(3, 5);
    const lods: VMeshRefSpec[] = [];
    let wire: PartSpec["fragment"]["wire"];
    for (let level = 0; level < lodCount; level++) {
      // Each LOD has about half the vertices of the one before, in fewer groups.
      const groupCount = Math.max(1, int(2, 6) - level);
      const sizes = Array.from({ length: groupCount }, () => {
        const size = Math.round(20 * Math.pow(maxGroup / 20, random() * random()) / (1 + level));
        return Math.max(20, size);
      });
      const meshName = `${name}.lod${level}.vms`;
      const mesh = realisticMesh(random, FVFS[int(0, FVFS.length - 1)], sizes, materialIds);
      meshes.push({ name: meshName, data: mesh.data });
      lods.push({
        meshId: flCrc32(meshName),
        vertexStart: 0,
        vertexCount: mesh.vertexCount,
        indexStart: 0,
        indexCount: mesh.indexCount,
        groupStart: 0,
        groupCount,
      });
      if (level === 0 && random() < 0.3) {
        const n = Math.min(mesh.vertexCount, 64);
        wire = {
          meshId: flCrc32(meshName),
          vertexStart: 0,
          indices: Array.from({ length: 2 * (n - 1) }, (_, i) => (i + 1) >> 1),
        };
      }
    }
    const distances = Array.from({ length: lodCount + 1 }, (_, i) => i === lodCount ? 1e6 : 80 * i * i);
    parts.push({
      name,
      fileName: `${name}_lod${seed}${p}.3db`,
      fragment: { lods, switchDistances: distances, wire, hardpoints: hardpoints(random, int(0, 6)) },
    });
    if (p > 0) {
      // Parts hang off Root or an earlier part, with every joint kind in turn.
      const parent = parts[p < 4 ? 0 : int(0, p - 1)].name;
      constraints.push(joint(JOINTS[p % JOINTS.length], parent, name, random));
    }
  }
  return encodeUtf(compoundTree({
    meshes,
    parts,
    constraints,
    extra: [materialLibrary(materials.specs), textureLibrary(materials.textures)],
  }));
}

/** A mesh whose groups have `sizes` vertices each, triangulated as strips plus random triangles. */
function realisticMesh(
  random: () => number,
  fvf: number,
  sizes: readonly number[],
  materialIds: readonly number[],
): { data: Uint8Array; vertexCount: number; indexCount: number } {
  const vertexCount = sizes.reduce((a, b) => a + b, 0);
  const positions = new Float32Array(3 * vertexCount), normals = new Float32Array(3 * vertexCount);
  const uv0 = new Float32Array(2 * vertexCount), uv1 = new Float32Array(2 * vertexCount);
  const diffuse = new Uint32Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) {
    const theta = random() * Math.PI * 2, z = random() * 2 - 1, r = Math.sqrt(1 - z * z);
    const n = [r * Math.cos(theta), r * Math.sin(theta), z];
    positions.set(n.map((c) => c * 5 + random() * 0.1), 3 * v);
    normals.set(n, 3 * v);
    uv0.set([random(), random()], 2 * v);
    uv1.set([random(), random()], 2 * v);
    diffuse[v] = (0xff000000 | Math.floor(random() * 0xffffff)) >>> 0;
  }
  const indices: number[] = [];
  const groups = sizes.map((size, g) => {
    const vertexStart = sizes.slice(0, g).reduce((a, b) => a + b, 0);
    const before = indices.length;
    for (let i = 0; i + 2 < size; i++) indices.push(i, i + 1, i + 2);
    for (let t = 0; t < size / 2; t++) {
      indices.push(...[0, 1, 2].map(() => Math.floor(random() * size)));
    }
    return {
      materialId: materialIds[Math.floor(random() * materialIds.length)],
      vertexStart,
      vertexEnd: vertexStart + size - 1,
      indexCount: indices.length - before,
    };
  });
  const vertices = packVertices(fvf, vertexCount, { positions, normals, diffuse, uvs: [uv0, uv1] });
  return {
    data: encodeVMeshData({ fvf, groups, indices, vertices }),
    vertexCount,
    indexCount: indices.length,
  };
}

/** `count` materials, about half with a DXT1 texture and a quarter with a 32-bit Targa one. */
function realisticMaterials(
  seed: number,
  count: number,
): { specs: MaterialSpec[]; textures: { name: string; dds?: Uint8Array; tga?: Uint8Array }[] } {
  const random = prng(seed ^ 0x5eed);
  const specs: MaterialSpec[] = [];
  const textures: { name: string; dds?: Uint8Array; tga?: Uint8Array }[] = [];
  for (let m = 0; m < count; m++) {
    const name = `mat${seed}_${m}`;
    const kind = m % 4;
    const dc = [random(), random(), random()];
    if (kind === 0 || kind === 1) {
      const size = 32 << (m % 3);
      textures.push({ name: `${name}.dds`, dds: noisyDxt1(random, size) });
      specs.push({ name, type: "DcDt", dc, dtName: `${name}.dds`, dtFlags: 0x40 });
    } else if (kind === 2) {
      textures.push({ name: `${name}.tga`, tga: noisyTga(random, 32) });
      specs.push({ name, type: "DcDtEc", dc, ec: [0.2, 0.2, 0.2], dtName: `${name}.tga` });
    } else {
      specs.push({ name, type: "DcDtOcOt", dc, oc: 0.5 });
    }
  }
  return { specs, textures };
}

/** A square DXT1 DDS of random blocks (no mip chain: the decoder reads the top level). */
function noisyDxt1(random: () => number, size: number): Uint8Array {
  const blocks = (size / 4) * (size / 4);
  const out = new Uint8Array(128 + 8 * blocks);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x20534444, true);
  view.setUint32(4, 124, true);
  view.setUint32(12, size, true);
  view.setUint32(16, size, true);
  view.setUint32(76, 32, true);
  view.setUint32(80, 0x4, true);
  out.set([0x44, 0x58, 0x54, 0x31], 84);
  // Smooth-ish endpoints with random selectors: compresses like a real hull texture, not like noise.
  for (let b = 0; b < blocks; b++) {
    const base = (b * 37) & 0xffff;
    view.setUint16(128 + 8 * b, base | 0x8000, true);
    view.setUint16(130 + 8 * b, base & 0x7fff, true);
    view.setUint32(132 + 8 * b, Math.floor(random() * 0x100000000) >>> 0, true);
  }
  return out;
}

/** An uncompressed, bottom-up 32-bit Targa of a gradient with noise. */
function noisyTga(random: () => number, size: number): Uint8Array {
  const out = new Uint8Array(18 + 4 * size * size);
  out[2] = 2;
  out[12] = size;
  out[14] = size;
  out[16] = 32;
  out[17] = 8;
  for (let i = 0; i < size * size; i++) {
    out.set([i % size * 4, (i / size) * 4, Math.floor(random() * 64), 255], 18 + 4 * i);
  }
  return out;
}

function hardpoints(random: () => number, count: number): HardpointSpec[] {
  return Array.from({ length: count }, (_, h) => {
    const position = [random() * 10 - 5, random() * 4, random() * 10 - 5];
    return h % 3 === 2
      ? {
        name: `HpTurret${h}`,
        kind: "rev",
        position,
        orientation: IDENTITY,
        axis: [0, 1, 0],
        min: -1,
        max: 1,
      }
      : { name: `HpWeapon${h}`, kind: "fix", position, orientation: IDENTITY };
  });
}

/**
 * A `Cons` record of `kind`. Offsets are left zero, as in every retail record (the decoder names a
 * non-zero one in a warning, so a "retail-shaped" file must not have them).
 */
function joint(kind: JointKind, parent: string, child: string, random: () => number): ConstraintSpec {
  const translation = [random() * 6 - 3, random() * 2, random() * 6 - 3];
  const common = { kind, parent, child, translation, rotation: IDENTITY };
  switch (kind) {
    case "rev":
    case "pris":
      return { ...common, axis: [0, 1, 0], min: -0.5, max: 0.5 };
    case "cyl":
      // As MAXLancer writes a Cyl: turn first, typed in whole degrees (±30°) and stored in radians.
      return { ...common, axis: [1, 0, 0], limits: [-Math.PI / 6, Math.PI / 6, 0, 1] };
    case "sphere":
      return { ...common, limits: [-0.5, 0.5, -0.5, 0.5, -0.25, 0.25] };
    default:
      return common;
  }
}
