/**
 * Compounds whose shared things go missing the way they do in mods, with the truth of who uses each:
 * a material the family `.mat` no longer holds (a mod renamed it, or the `.mat` was not shipped),
 * a `Dt_name` no texture library has (two materials naming it in different case, as hand-typed names
 * do; the game folds case, so it is one texture), a texture named in another case than its entry
 * (found, as the game finds it), a texture whose DDS no reader decodes, and a LOD whose `.vms` was not
 * merged into the compound; a mesh a second `VMeshLibrary` holds again with other bytes (a tool that
 * merged an older copy), a mesh of type 2 and one with a vertex's worth of bytes after its vertex
 * buffer (warned while the libraries are read, before the parts are); a material sampling a second UV
 * set its one-set meshes lack. Parts, LODs and groups are seeded, so which parts draw what differs by seed.
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
import { encodeUtf } from "../../../support/freelancer/encode_utf.ts";
import { concat, ddsHeader, greyDds } from "../../../support/freelancer/images.ts";
import { prng } from "../../../support/prng.ts";

/** Part and LOD numbers, as the truth keeps them. */
export type PartLodTruth = Map<string, Set<number>>;

/** A generated compound, its family `.mat` and who uses each thing that is missing or odd. */
export interface SharedUsersFile {
  /** The `.cmp`: meshes, fragments, its texture library (and no materials: they are in `mat`). */
  readonly cmp: Uint8Array;
  /** The family material library, written beside the model (`.mat`). */
  readonly mat: Uint8Array;
  /** Material names the `.mat` lacks, each with the parts and LODs drawing a group of it. */
  readonly missingMaterials: Map<string, PartLodTruth>;
  /** Texture names (as the first material wrote them) no library has: the materials naming them. */
  readonly missingTextures: Map<string, string[]>;
  /** A `Dt_name` written in another case than its library entry (found, as the game finds it). */
  readonly otherCase: string;
  /** A texture whose DDS does not decode: the materials naming it. */
  readonly undecodable: { readonly name: string; readonly materials: string[] };
  /** Mesh names (`.vms` entries) left out of the compound: the parts and LODs referring to them. */
  readonly missingMeshes: Map<string, PartLodTruth>;
  /** The part whose `HpConnect` (a name every part but Root has) a UTF editor scaled by 2. */
  readonly scaledHardpoint: { readonly name: string; readonly part: string };
  /** The parts, in `Cmpnd` order. */
  readonly parts: readonly string[];
  /** Every material's parts and LODs (meshes present only). */
  readonly materialUsers: Map<string, PartLodTruth>;
  /** Library meshes warned about while read, each with the one part and LOD drawing it. */
  readonly meshNotes: {
    /** Held again, with other bytes, by a second `VMeshLibrary` after the first. */
    readonly differingCopy: MeshTruth;
    /** Its `VMeshData` says mesh type 2 (the game loads only 1). */
    readonly meshType: MeshTruth;
    /** Four bytes a vertex after its vertex buffer (a longer stride would fill them). */
    readonly trailing: MeshTruth;
  };
  /** A material whose `Dt_flags` sample the second UV set, which every mesh (FVF 0x112) lacks. */
  readonly secondUv: string;
}

/** A mesh's library name and the parts and LODs drawing it. */
export interface MeshTruth {
  readonly name: string;
  readonly users: PartLodTruth;
}

const PART_NAMES = [
  "wing_port",
  "wing_star",
  "engine",
  "cockpit",
  "gun01",
  "gun02",
  "antenna",
  "tail",
  "hatch",
  "turret",
  "radar",
  "thruster01",
  "thruster02",
  "cargo_pod",
];
const FVF = 0x112;

/**
 * The compound of `seed`: 4–14 parts of 1–4 LODs, each LOD its own mesh of 1–4 groups drawing the
 * seed's 6–9 materials.
 *
 * @example
 * ```ts
 * const file = sharedUsersCmp(401);
 * file.missingMaterials; // Map { "ship401_trim" => Map { "engine" => Set { 0, 1 } } }
 * ```
 */
export function sharedUsersCmp(seed: number): SharedUsersFile {
  const random = prng(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const ship = `ship${seed}`;
  const materialCount = int(6, 9);
  const names = Array.from(
    { length: materialCount },
    (_, m) => `${ship}_${["hull", "trim", "glass", "decal"][m % 4]}${m}`,
  );
  // Habits, each on its own material: the first two are missing from the .mat; the third names a
  // texture no library has, the fourth the same one in another case; the fifth names its texture
  // in another case than the library entry (found); the sixth's texture does not decode.
  const [gone1, gone2, noTex, noTexCase, caseFound, broken] = names;
  const missingTexture = `${ship}_Detail.dds`;
  // The found-in-another-case material also samples the second UV set (a mod's flags): no mesh has one.
  const specs: MaterialSpec[] = names.map((name, m) => {
    const type = m % 4 === 2 ? "DcDtOcOt" : "DcDt";
    const dtName = name === noTex
      ? missingTexture
      : name === noTexCase
      ? missingTexture.toLowerCase()
      : name === caseFound
      ? `${name}.DDS`
      : `${name}.dds`;
    const dtFlags = name === caseFound ? 0x50 : 0x40;
    return { name, type, dc: [0.5, 0.5, 0.5], ...(type === "DcDtOcOt" ? { oc: 0.6 } : {}), dtName, dtFlags };
  });
  const textures = names.filter((n) => n !== noTex && n !== noTexCase).map((name) => ({
    name: `${name}.dds`,
    // An unknown FourCC, as a texture tool's own format: no reader decodes it.
    dds: name === broken
      ? concat(ddsHeader(4, 4, { fourCC: "ZZZ9" }), new Uint8Array(16))
      : greyDds(40 + 20 * (names.indexOf(name) % 8)),
  }));

  const materialUsers = new Map<string, PartLodTruth>();
  const missingMeshes = new Map<string, PartLodTruth>();
  const record = (into: Map<string, PartLodTruth>, key: string, part: string, lod: number) => {
    const parts = into.get(key) ?? into.set(key, new Map()).get(key)!;
    (parts.get(part) ?? parts.set(part, new Set()).get(part)!).add(lod);
  };
  const meshes: { name: string; data: Uint8Array }[] = [];
  const drawnBy = new Map<string, PartLodTruth>();
  const parts: PartSpec[] = [];
  const partCount = int(4, PART_NAMES.length);
  // Every part but Root has an HpConnect (where the game attaches it); one was scaled in a UTF editor.
  const scaledPart = PART_NAMES[int(0, partCount - 2)];
  // Every habit material is drawn somewhere: the first parts' LOD 0 draw them in turn.
  const forced = [gone1, gone2, noTex, noTexCase, caseFound, broken];
  for (let p = 0; p < partCount; p++) {
    const part = p === 0 ? "Root" : PART_NAMES[p - 1];
    const lodCount = int(1, 4);
    // A part whose lowest LOD lives in a .vms the tool did not merge (one part in three, not Root).
    const dropLast = p > 0 && lodCount > 1 && random() < 0.35;
    const lods: VMeshRefSpec[] = [];
    for (let lod = 0; lod < lodCount; lod++) {
      const meshName = `${ship}_${part}.lod${lod}.vms`;
      const groupCount = int(1, 4);
      const materials = Array.from({ length: groupCount }, () => names[int(0, names.length - 1)]);
      if (lod === 0 && p < forced.length) materials[0] = forced[p];
      if (lod === 0 && p === 0) materials.push(...forced.slice(partCount));
      const groups: GroupSpec[] = [];
      const indices: number[] = [];
      materials.forEach((name, g) => {
        groups.push({ materialId: flCrc32(name), vertexStart: 4 * g, vertexEnd: 4 * g + 3, indexCount: 6 });
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
      lods.push({
        meshId: flCrc32(meshName),
        vertexStart: 0,
        vertexCount: n,
        indexStart: 0,
        indexCount: indices.length,
        groupStart: 0,
        groupCount: groups.length,
      });
      if (dropLast && lod === lodCount - 1) {
        record(missingMeshes, meshName, part, lod);
        continue;
      }
      meshes.push({ name: meshName, data });
      drawnBy.set(meshName, new Map([[part, new Set([lod])]]));
      for (const name of materials) record(materialUsers, name, part, lod);
    }
    const scale = part === scaledPart ? 2 : 1;
    const hardpoints = p === 0 ? [] : [{
      name: "HpConnect",
      kind: "fix" as const,
      position: [0, 0, 0],
      orientation: [scale, 0, 0, 0, scale, 0, 0, 0, scale],
    }];
    parts.push({ name: part, fileName: `${part}_lod${seed}.3db`, fragment: { lods, hardpoints } });
  }
  const constraints = parts.slice(1).map((p) => ({
    kind: "fix" as const,
    parent: "Root",
    child: p.name,
    translation: [0, 0, 0],
    rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1],
  }));
  // Drawn after every other choice, so the rest of a seed's compound is as it was without them.
  const [copied, typed, padded] = pickDistinct(random, meshes.length, 3).map((i) => meshes[i]);
  const other = copied.data.slice();
  other[other.length - 1] ^= 0x5a; // a vertex's last byte moved: the copy differs
  typed.data = typed.data.slice();
  typed.data[0] = 2;
  const vertexCount = padded.data[14] | (padded.data[15] << 8);
  padded.data = concat(padded.data, new Uint8Array(4 * vertexCount));
  const cmp = encodeUtf(compoundTree({
    meshes,
    parts,
    constraints,
    extra: [textureLibrary(textures), meshLibrary([{ name: copied.name, data: other }])],
  }));
  const mat = encodeUtf({
    name: "\\",
    children: [materialLibrary(specs.filter((s) => s !== specs[0] && s !== specs[1]))],
  });
  const usersOf = (name: string) => materialUsers.get(name) ?? new Map();
  return {
    cmp,
    mat,
    missingMaterials: new Map([gone1, gone2].map((name) => [name, usersOf(name)])),
    missingTextures: new Map([[missingTexture, [noTex, noTexCase]]]),
    otherCase: `${caseFound}.DDS`,
    undecodable: { name: `${broken}.dds`, materials: [broken] },
    missingMeshes,
    scaledHardpoint: { name: "HpConnect", part: scaledPart },
    parts: parts.map((p) => p.name),
    materialUsers,
    meshNotes: {
      differingCopy: { name: copied.name, users: drawnBy.get(copied.name)! },
      meshType: { name: typed.name, users: drawnBy.get(typed.name)! },
      trailing: { name: padded.name, users: drawnBy.get(padded.name)! },
    },
    secondUv: caseFound,
  };
}

/** `count` distinct indices below `n`, seeded. */
function pickDistinct(random: () => number, n: number, count: number): number[] {
  const out: number[] = [];
  while (out.length < count) {
    const i = Math.floor(random() * n);
    if (!out.includes(i)) out.push(i);
  }
  return out;
}
