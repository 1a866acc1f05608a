/**
 * Compounds with the habits whose warnings named no part (or only the first) before `decode.cmp` v51,
 * with the truth of who draws what: the lower LODs shipped in a `.vms` beside the `.cmp` by a tool that
 * pads every leaf it writes to its alignment (the file's one padding warning), a mesh whose `.cmp` copy is
 * damaged (a hex edit of its FVF) while the `.vms` holds a readable one (drawn; the damaged copy passed
 * over), and a material a mod flagged to sample the second UV set, drawn on many one-set meshes. Turrets
 * share one gun mesh, as retail's identical parts do, so one mesh is drawn by several parts. Parts, LODs,
 * groups and which mesh is damaged are seeded. `clean` writes the same model without the habits.
 *
 * @module
 */
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import {
  compoundTree,
  encodeVMeshData,
  type GroupSpec,
  materialLibrary,
  type MaterialSpec,
  meshLibrary,
  packVertices,
  type PartSpec,
  textureLibrary,
  type VMeshRefSpec,
} from "../../../support/freelancer/encode_model.ts";
import { encodeUtf, utfDir } from "../../../support/freelancer/encode_utf.ts";
import { concat, greyDds } from "../../../support/freelancer/images.ts";
import { prng } from "../../../support/prng.ts";

/** Part and LOD numbers, in the model's part order. */
export type PartLodTruth = Map<string, Set<number>>;

/** A generated compound, its `.vms` of lower LODs, and who draws what the warnings are about. */
export interface PartlessFile {
  readonly cmp: Uint8Array;
  /** The lower LODs' library (`ship<seed>.vms`), given as the decode's `library` input. */
  readonly vms: Uint8Array;
  /** The parts and LODs drawing a mesh of the `.vms` whose padding no vertex stride explains. */
  readonly paddedUsers: PartLodTruth;
  /** How many `.vms` meshes carry such padding (no real FVF's stride would fill it). */
  readonly paddedMeshes: number;
  /** The mesh whose `.cmp` copy is damaged (the `.vms` copy is drawn), and the parts drawing it. */
  readonly damaged?: { readonly name: string; readonly users: PartLodTruth };
  /** The material sampling UV set 2, and every mesh drawing it (first drawn first) with its parts. */
  readonly secondUv?: { readonly material: string; readonly meshes: [string, PartLodTruth][] };
}

const PART_NAMES = [
  "wing_port",
  "wing_star",
  "engine",
  "cockpit",
  "antenna",
  "tail",
  "hatch",
  "radar",
  "thruster01",
  "thruster02",
  "cargo_pod",
];
const FVF = 0x112;

/**
 * The compound of `seed`: 4–12 parts and 1–6 turrets (sharing one gun mesh per LOD), 1–4 LODs each;
 * LOD 0 meshes in the `.cmp`, the others in the `.vms`.
 *
 * @example
 * ```ts
 * const file = partlessCmp(601);
 * file.damaged; // { name: "ship601_engine.lod0.vms", users: Map { "engine" => Set { 0 } } }
 * ```
 */
export function partlessCmp(seed: number, clean = false): PartlessFile {
  const random = prng(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const ship = `ship${seed}`;
  const names = Array.from(
    { length: int(5, 8) },
    (_, m) => `${ship}_${["hull", "trim", "glass", "decal"][m % 4]}${m}`,
  );
  // A mod set the second-UV-set bit on one material's Dt_flags (0x50): every mesh has one set.
  const flagged = names[int(0, names.length - 1)];
  const specs: MaterialSpec[] = names.map((name) => ({
    name,
    type: "DcDt",
    dc: [0.5, 0.5, 0.5],
    dtName: `${name}.dds`,
    dtFlags: name === flagged && !clean ? 0x50 : 0x40,
  }));
  const textures = names.map((name, i) => ({ name: `${name}.dds`, dds: greyDds(40 + 20 * (i % 8)) }));

  const partCount = int(4, PART_NAMES.length + 1);
  const turrets = int(1, 6);
  const lodCount = new Map<string, number>();
  const partNames: string[] = [];
  for (let p = 0; p < partCount; p++) partNames.push(p === 0 ? "Root" : PART_NAMES[p - 1]);
  for (let t = 1; t <= turrets; t++) partNames.push(`turret${String(t).padStart(2, "0")}`);
  const gunLods = int(1, 3);
  for (const part of partNames) lodCount.set(part, part.startsWith("turret") ? gunLods : int(1, 4));

  /** Each mesh once: its data and which materials its groups draw. */
  const meshes = new Map<string, { data: Uint8Array; materials: string[]; vertices: number }>();
  const meshOf = (part: string, lod: number) =>
    part.startsWith("turret") ? `${ship}_gun.lod${lod}.vms` : `${ship}_${part}.lod${lod}.vms`;
  const makeMesh = (name: string, p: number, lod: number) => {
    const groupCount = int(1, 4);
    const materials = Array.from({ length: groupCount }, () => names[int(0, names.length - 1)]);
    const groups: GroupSpec[] = [];
    const indices: number[] = [];
    materials.forEach((material, g) => {
      groups.push({ materialId: flCrc32(material), vertexStart: 4 * g, vertexEnd: 4 * g + 3, indexCount: 6 });
      indices.push(0, 1, 2, 0, 2, 3);
    });
    const n = 4 * materials.length;
    const positions = Array.from({ length: 3 * n }, (_, i) => ((i * 7 + p * 3 + lod) % 11) - 5 + random());
    const normals = Array.from({ length: 3 * n }, (_, i) => (i % 3 === 2 ? 1 : 0));
    const uvs = [Array.from({ length: 2 * n }, () => random())];
    const data = encodeVMeshData({
      fvf: FVF,
      groups,
      indices,
      vertices: packVertices(FVF, n, { positions, normals, uvs }),
    });
    meshes.set(name, { data, materials, vertices: n });
  };
  const parts: PartSpec[] = [];
  partNames.forEach((part, p) => {
    const lods: VMeshRefSpec[] = [];
    for (let lod = 0; lod < lodCount.get(part)!; lod++) {
      const name = meshOf(part, lod);
      if (!meshes.has(name)) makeMesh(name, p, lod);
      const { data, materials } = meshes.get(name)!;
      lods.push({
        meshId: flCrc32(name),
        vertexStart: 0,
        vertexCount: data[14] | (data[15] << 8),
        indexStart: 0,
        indexCount: 6 * materials.length,
        groupStart: 0,
        groupCount: materials.length,
      });
    }
    parts.push({ name: part, fileName: `${part}_lod${seed}.3db`, fragment: { lods, hardpoints: [] } });
  });

  // Who draws each mesh, in part order (a mesh shared by the turrets has them all).
  const drawnBy = new Map<string, PartLodTruth>();
  for (const part of partNames) {
    for (let lod = 0; lod < lodCount.get(part)!; lod++) {
      const users = drawnBy.get(meshOf(part, lod)) ??
        drawnBy.set(meshOf(part, lod), new Map()).get(meshOf(part, lod))!;
      (users.get(part) ?? users.set(part, new Set()).get(part)!).add(lod);
    }
  }
  const lod0 = [...meshes.keys()].filter((name) => name.includes(".lod0."));
  const lower = [...meshes.keys()].filter((name) => !name.includes(".lod0."));
  // The damaged copy: one LOD 0 mesh hex-edited in the .cmp; the exporter's .vms holds it too.
  const damagedName = clean ? undefined : lod0[int(0, lod0.length - 1)];
  const inCmp = lod0.map((name) => {
    const data = meshes.get(name)!.data;
    if (name !== damagedName) return { name, data };
    const edited = data.slice();
    new DataView(edited.buffer).setUint16(12, 0x110, true); // no XYZ: not a supported FVF
    return { name, data: edited };
  });
  // The tool pads each leaf it writes to its alignment (16, 64 or 512 bytes: tools differ); padding a
  // longer stride of a real FVF would fill is a mesh's own note, the rest the file's one warning (to 16
  // bytes, 4-12 vertices are often padded 1-3 bytes each: 33-35-byte vertices no FVF has).
  const align = [16, 64, 512][int(0, 2)];
  let paddedMeshes = 0;
  const paddedUsers: PartLodTruth = new Map();
  const inVms = [...lower, ...(damagedName ? [damagedName] : [])].map((name) => {
    const { data, vertices } = meshes.get(name)!;
    const pad = clean ? 0 : (align - (data.length % align)) % align;
    if (pad && !(pad % vertices === 0 && realStride(32 + pad / vertices))) {
      paddedMeshes++;
      for (const [part, lods] of drawnBy.get(name)!) {
        for (const lod of lods) {
          (paddedUsers.get(part) ?? paddedUsers.set(part, new Set()).get(part)!).add(lod);
        }
      }
    }
    return { name, data: pad ? concat(data, new Uint8Array(pad).fill(0xcd)) : data };
  });
  const constraints = parts.slice(1).map((p) => ({
    kind: "fix" as const,
    parent: "Root",
    child: p.name,
    translation: [0, 0, 0],
    rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1],
  }));
  const cmp = encodeUtf(compoundTree({
    meshes: inCmp,
    parts,
    constraints,
    extra: [materialLibrary(specs), textureLibrary(textures)],
  }));
  const vms = encodeUtf(utfDir("\\", [meshLibrary(inVms)]));
  // In the order the scene draws them: parts in order, each part's LODs in order, a mesh once.
  const flaggedMeshes: [string, PartLodTruth][] = [];
  for (const part of partNames) {
    for (let lod = 0; lod < lodCount.get(part)!; lod++) {
      const name = meshOf(part, lod);
      if (meshes.get(name)!.materials.includes(flagged) && !flaggedMeshes.some(([m]) => m === name)) {
        flaggedMeshes.push([name, drawnBy.get(name)!]);
      }
    }
  }
  return {
    cmp,
    vms,
    paddedUsers: sortedParts(paddedUsers, partNames),
    paddedMeshes,
    ...(damagedName ? { damaged: { name: damagedName, users: drawnBy.get(damagedName)! } } : {}),
    ...(clean || !flaggedMeshes.length ? {} : { secondUv: { material: flagged, meshes: flaggedMeshes } }),
  };
}

/**
 * Whether some FVF has vertices of `stride` bytes: position 12, normal 12, point size, diffuse and
 * specular 4 each, 0-8 UV sets of 8 (the format notes' D3D layout) — always a multiple of 4.
 */
function realStride(stride: number): boolean {
  for (const normal of [0, 12]) {
    for (let fours = 0; fours <= 3; fours++) {
      for (let uv = 0; uv <= 8; uv++) if (12 + normal + 4 * fours + 8 * uv === stride) return true;
    }
  }
  return false;
}

/** `truth` with its parts in the model's order. */
function sortedParts(truth: PartLodTruth, order: readonly string[]): PartLodTruth {
  return new Map(order.filter((part) => truth.has(part)).map((part) => [part, truth.get(part)!]));
}
