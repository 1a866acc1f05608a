/**
 * A small Freelancer `DATA` tree written to a temp folder by code, for library-search tests: a
 * Rheinland fighter whose materials live in the family `.mat` beside its folder, whose textures live
 * in a `.txm` two levels up, and one of whose materials only an archetype ini's `material_library`
 * line (pointing into another folder) finds.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import {
  compoundTree,
  encodeVMeshData,
  materialLibrary,
  type MaterialSpec,
  packVertices,
  textureLibrary,
} from "../../../support/freelancer/encode_model.ts";
import { encodeUtf, utfDir, type UtfNode } from "../../../support/freelancer/encode_utf.ts";
import { dxt1Dds } from "./fixtures.ts";
import { tempDir } from "../../../support/temp.ts";

/** Material names the fighter uses, one group each. */
export const FIGHTER_MATERIALS = ["rh_paint", "rh_glass", "special_glow"] as const;

/** Where the fighter sits inside `DATA`, as the game's inis spell it. */
export const FIGHTER_GAME_PATH = "ships\\rheinland\\rh_fighter\\rh_fighter.cmp";

/** A compound with one part whose mesh has one group per name in `materials` (and `extra` root entries). */
export function fighterCmp(
  materials: readonly string[] = FIGHTER_MATERIALS,
  extra: readonly UtfNode[] = [],
): Uint8Array {
  const count = materials.length;
  const positions: number[] = [];
  for (let g = 0; g < count; g++) positions.push(0, g, 0, 1, g, 0, 0, g, 1);
  const data = encodeVMeshData({
    fvf: 0x102,
    groups: materials.map((name, g) => ({
      materialId: flCrc32(name),
      vertexStart: 3 * g,
      vertexEnd: 3 * g + 2,
      indexCount: 3,
    })),
    indices: materials.flatMap(() => [0, 1, 2]),
    vertices: packVertices(0x102, 3 * count, {
      positions,
      uvs: [positions.flatMap((_, i) => i % 3 === 2 ? [] : [i % 3, 0])],
    }),
  });
  const ref = {
    meshId: flCrc32("rh_fighter.lod0.vms"),
    vertexStart: 0,
    vertexCount: 3 * count,
    indexStart: 0,
    indexCount: 3 * count,
    groupStart: 0,
    groupCount: count,
  };
  return encodeUtf(compoundTree({
    meshes: [{ name: "rh_fighter.lod0.vms", data }],
    parts: [{ name: "Root", fileName: "rh_fighter.3db", fragment: { lods: [ref] } }],
    constraints: [],
    extra,
  }));
}

/** A UTF library file holding the given materials and (DXT1) textures. */
export function libraryFile(
  materials: readonly MaterialSpec[],
  textures: readonly { name: string; color565: number }[] = [],
): Uint8Array {
  return encodeUtf(utfDir("\\", [
    ...(materials.length ? [materialLibrary(materials)] : []),
    ...(textures.length
      ? [textureLibrary(textures.map((t) => ({ name: t.name, dds: dxt1Dds(t.color565) })))]
      : []),
  ]));
}

/** Paths of a written tree. */
export interface GameTree {
  /** The temp folder holding `DATA` (remove it when done). */
  readonly base: string;
  readonly data: string;
  readonly fighter: string;
  /** Writes `bytes` at `relative` (inside `DATA`), creating folders. */
  write(relative: string, bytes: Uint8Array | string): Promise<string>;
}

/**
 * Writes the standard tree: `DATA/SHIPS/RHEINLAND/rh_playerships.mat` (paint, glass),
 * `DATA/SHIPS/ships.txm` (the paint texture), `DATA/FX/shared/special.mat` (special_glow) and
 * `DATA/SHIPS/shiparch.ini` naming both `.mat` files for the fighter.
 */
export async function writeGameTree(): Promise<GameTree> {
  const base = await tempDir({ prefix: "partgraph-fl-tree-" });
  const data = join(base, "DATA");
  const write = async (relative: string, bytes: Uint8Array | string) => {
    const path = join(data, relative);
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeFile(path, typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes);
    return path;
  };
  const fighter = await write("SHIPS/RHEINLAND/rh_fighter/rh_fighter.cmp", fighterCmp());
  await write(
    "SHIPS/RHEINLAND/rh_playerships.mat",
    libraryFile([
      { name: "rh_paint", dc: [1, 0, 0], dtName: "RH_Paint.dds" },
      { name: "rh_glass", dc: [0, 0, 1], type: "DcDtOcOt", oc: 0.5 },
    ]),
  );
  await write("SHIPS/ships.txm", libraryFile([], [{ name: "rh_paint.dds", color565: 0xf800 }]));
  await write("FX/shared/special.mat", libraryFile([{ name: "special_glow", ec: [0, 1, 0] }]));
  await write(
    "SHIPS/shiparch.ini",
    [
      "; Ship archetypes (Freelancer's ini dialect: repeated sections and keys, comments)",
      "[Ship]",
      "nickname = ge_fighter",
      "DA_archetype = ships\\generic\\ge_fighter.cmp",
      "material_library = ships\\generic\\ge_ships.mat",
      "",
      "[SHIP]",
      "nickname = rh_fighter",
      `da_archetype = ${FIGHTER_GAME_PATH.toUpperCase()} ; upper case on purpose`,
      "material_library = fx\\SHARED\\special.mat",
      "material_library = ships\\rheinland\\rh_playerships.mat",
      "",
    ].join("\r\n"),
  );
  return { base, data, fighter, write };
}
