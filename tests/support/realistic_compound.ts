/**
 * Freelancer compounds shaped like retail ones, made by code from a seed: 5–17 parts, 3–5 LODs
 * on the root and 1–3 on the others, many small material groups (20–1,200 vertices, log-uniform), a handful of
 * materials with DXT1 and Targa textures in the file, hardpoints, and `Cons` records of every kind.
 * Batch tests and benchmarks use sets of them instead of one big synthetic mesh, because real
 * ships are many small pieces and that is where per-accessor costs show.
 *
 * @module
 */
import { flCrc32 } from "../../nodes/decode/freelancer/crc.ts";
import {
  compoundTree,
  type ConstraintSpec,
  encodeVMeshData,
  type GroupSpec,
  type HardpointSpec,
  materialLibrary,
  type MaterialSpec,
  packVertices,
  type PartSpec,
  textureLibrary,
  type VMeshRefSpec,
} from "./freelancer/encode_model.ts";
import { encodeUtf } from "./freelancer/encode_utf.ts";
import { prng } from "./prng.ts";

/** Size knobs of {@link realisticCompound}; defaults give retail-like ships of ~100 kB–1 MB. */
export interface RealisticCompoundOptions {
  /** Parts besides the root (default 4–16, drawn from the seed). */
  readonly parts?: number;
  /** Largest material group, in vertices (default 1,200). */
  readonly maxGroupVertices?: number;
}

const JOINTS = ["fix", "rev", "pris", "cyl", "sphere", "loose"] as const;

/**
 * A `.cmp` built from `seed`; the same seed always gives the same bytes.
 *
 * @example
 * ```ts
 * const bytes = realisticCompound(7);
 * await Deno.writeFile("ship_7.cmp", bytes);
 * ```
 */
export function realisticCompound(seed: number, options: RealisticCompoundOptions = {}): Uint8Array {
  const random = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const maxGroup = options.maxGroupVertices ?? 1200;
  const materialCount = int(3, 8);
  const materials: MaterialSpec[] = [];
  const textures: { name: string; dds?: Uint8Array; tga?: Uint8Array }[] = [];
  for (let m = 0; m < materialCount; m++) {
    const texture = `ship${seed}_tex${m}.${m % 3 === 2 ? "tga" : "dds"}`;
    materials.push({
      name: `ship${seed}_mat${m}`,
      type: "DcDt",
      dc: [random(), random(), random()],
      dtName: texture,
    });
    const size = 8 << int(0, 3);
    textures.push(
      m % 3 === 2 ? { name: texture, tga: targa(size, random) } : { name: texture, dds: dxt1(size, random) },
    );
  }
  const meshes: { name: string; data: Uint8Array }[] = [];
  /** One mesh of `groups` material groups; returns a ref over the whole of it. */
  const mesh = (name: string, groups: number, scale: number): VMeshRefSpec => {
    const specs: GroupSpec[] = [];
    const indices: number[] = [];
    const positions: number[] = [], normals: number[] = [], uvs: number[] = [];
    let vertex = 0;
    for (let g = 0; g < groups; g++) {
      // Log-uniform sizes: most groups are small, a few are big, as in retail ships.
      const count = Math.max(20, Math.round(20 * (maxGroup / 20) ** random() * scale));
      const triangles = Math.max(1, Math.floor(count * 1.5));
      for (let v = 0; v < count; v++) {
        const a = random() * Math.PI * 2, b = random() * Math.PI;
        const n = [Math.cos(a) * Math.sin(b), Math.cos(b), Math.sin(a) * Math.sin(b)];
        positions.push(n[0] * 4 + g, n[1] * 2, n[2] * 8);
        normals.push(...n);
        uvs.push(random(), random());
      }
      for (let t = 0; t < triangles; t++) {
        const i = int(0, count - 3);
        indices.push(i, i + 1 + int(0, 1), i + 2);
      }
      specs.push({
        materialId: flCrc32(materials[int(0, materialCount - 1)].name),
        vertexStart: vertex,
        vertexEnd: vertex + count - 1,
        indexCount: 3 * triangles,
      });
      vertex += count;
    }
    meshes.push({
      name,
      data: encodeVMeshData({
        fvf: 0x112,
        groups: specs,
        indices,
        vertices: packVertices(0x112, vertex, { positions, normals, uvs: [uvs] }),
      }),
    });
    return {
      meshId: flCrc32(name),
      vertexStart: 0,
      vertexCount: vertex,
      indexStart: 0,
      indexCount: indices.length,
      groupStart: 0,
      groupCount: groups,
    };
  };
  const partCount = options.parts ?? int(4, 16);
  const parts: PartSpec[] = [];
  const constraints: ConstraintSpec[] = [];
  for (let p = 0; p <= partCount; p++) {
    const name = p === 0 ? "Root" : `part${p}`;
    const lodCount = p === 0 ? int(3, 5) : int(1, 3);
    const groups = p === 0 ? int(4, 10) : int(1, 4);
    const lods = Array.from(
      { length: lodCount },
      (_, lod) => mesh(`ship${seed}_${name}.lod${lod}.vms`, groups, 1 / (1 + lod)),
    );
    const hardpoints: HardpointSpec[] = Array.from({ length: int(0, 4) }, (_, h) => ({
      name: `Hp${name}${h}`,
      kind: h % 2 ? "rev" : "fix",
      position: [random() * 4, random(), random() * 8],
      orientation: [1, 0, 0, 0, 1, 0, 0, 0, 1],
      axis: [0, 1, 0],
      min: -1,
      max: 1,
    }));
    parts.push({ name, fileName: `${name}_lod1.3db`, fragment: { lods, hardpoints } });
    if (p === 0) continue;
    const kind = p <= JOINTS.length ? JOINTS[p - 1] : "fix";
    constraints.push({
      kind,
      parent: p > 3 && random() < 0.3 ? `part${int(1, p - 1)}` : "Root",
      child: name,
      translation: [random() * 6 - 3, random() * 2, random() * 10 - 5],
      rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1],
      axis: [0, 1, 0],
      min: -0.5,
      max: 0.5,
      limits: kind === "cyl" ? [-0.5, 0.5, 0, 1] : [-0.5, 0.5, -0.5, 0.5, -0.5, 0.5],
    });
  }
  return encodeUtf(compoundTree({
    meshes,
    parts,
    constraints,
    extra: [materialLibrary(materials), textureLibrary(textures)],
  }));
}

/** A DXT1 DDS of `size`² texels with one random 565 colour per block. */
function dxt1(size: number, random: () => number): Uint8Array {
  const blocks = (size / 4) ** 2;
  const out = new Uint8Array(128 + 8 * blocks);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x20534444, true); // "DDS "
  view.setUint32(4, 124, true);
  view.setUint32(12, size, true);
  view.setUint32(16, size, true);
  view.setUint32(76, 32, true);
  view.setUint32(80, 0x4, true); // DDPF_FOURCC
  out.set([0x44, 0x58, 0x54, 0x31], 84); // "DXT1"
  for (let b = 0; b < blocks; b++) view.setUint16(128 + 8 * b, Math.floor(random() * 0x10000), true);
  return out;
}

/** An uncompressed 24-bit Targa of `size`² random texels. */
function targa(size: number, random: () => number): Uint8Array {
  const out = new Uint8Array(18 + 3 * size * size);
  out[2] = 2; // true colour
  new DataView(out.buffer).setUint16(12, size, true);
  new DataView(out.buffer).setUint16(14, size, true);
  out[16] = 24;
  for (let i = 18; i < out.length; i++) out[i] = Math.floor(random() * 256);
  return out;
}
