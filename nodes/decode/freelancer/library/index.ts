/**
 * What a UTF library defines, without decoding it: mesh ids (with the material of each group),
 * material ids (with their definitions, whose textures the search then looks for) and texture names. Library search indexes candidate
 * files with this to pick the few a model needs; no vertex is selected and no texture decoded.
 * Indexes are remembered per file digest, so a batch over a game tree indexes each library once.
 *
 * @module
 */
import { sha256Hex } from "../../../../runtime/canonical.ts";
import { emptyLibraryContents, gatherLibraries, type LibraryContents } from "../codec/model.ts";
import { readUtf } from "../codec/utf.ts";
import type { MaterialDef } from "../codec/material.ts";

/** The ids one library (or one model file) defines. */
export interface LibraryIndex {
  /** Mesh id → material id of each of its groups, in group order. */
  readonly meshes: ReadonlyMap<number, readonly number[]>;
  /** Ids of meshes whose `VMeshData` does not decode (and that the library defines no readable copy of). */
  readonly damagedMeshes: ReadonlySet<number>;
  /**
   * Material id → its definition as stored: the textures it draws depend on its type after the
   * game's `[MaterialMap]`, which is not the library's to know (a nomad material reads a default
   * texture it does not name).
   */
  readonly materials: ReadonlyMap<number, MaterialDef>;
  /** Lower-cased texture names. */
  readonly textures: ReadonlySet<string>;
  /** Texture names as the library spells them (for messages). */
  readonly textureNames: readonly string[];
}

/** Results by content digest; bounded so a long-lived process over many trees stays small. */
const MEMO = new Map<string, unknown>();
const MEMO_LIMIT = 4096;

/**
 * `compute(bytes)`, remembered by the SHA-256 of `bytes` (a thrown error is remembered too, so a
 * corrupt file is not re-parsed for every model that looks at it).
 *
 * @example
 * ```ts
 * const sections = memoByDigest("ini", bytes, () => readIni(bytes, "shiparch.ini"));
 * ```
 */
export function memoByDigest<T>(kind: string, bytes: Uint8Array, compute: () => T): T {
  const key = `${kind}:${sha256Hex(bytes)}`;
  let entry = MEMO.get(key) as { value: T } | { error: unknown } | undefined;
  if (!entry) {
    try {
      entry = { value: compute() };
    } catch (error) {
      entry = { error };
    }
    if (MEMO.size >= MEMO_LIMIT) MEMO.delete(MEMO.keys().next().value!);
    MEMO.set(key, entry);
  }
  if ("error" in entry) throw entry.error;
  return entry.value;
}

/**
 * Indexes a UTF library file; throws the `DecodeError` of a file that is not a readable UTF
 * library (a corrupt header or tree). A mesh that does not decode is listed as damaged, and a
 * damaged material is a placeholder, as in a decode: the rest of the library stays usable.
 *
 * @example
 * ```ts
 * const index = indexLibrary(bytes, "rh_playerships.mat");
 * index.materials.has(flCrc32("rh_fighter_paint")); // true
 * ```
 */
export function indexLibrary(bytes: Uint8Array, name: string): LibraryIndex {
  return memoByDigest("utf-library", bytes, () => {
    const contents = emptyLibraryContents();
    // Reading the meshes and materials as a decode would means a library that indexes also decodes.
    gatherLibraries(readUtf(bytes, name), contents, () => {});
    return indexContents(contents);
  });
}

/** The index of already gathered library contents. */
function indexContents(contents: LibraryContents): LibraryIndex {
  const meshes = new Map<number, number[]>();
  for (const [id, mesh] of contents.meshes) meshes.set(id, mesh.groups.map((g) => g.materialId));
  return {
    meshes,
    damagedMeshes: new Set(contents.damagedMeshes.keys()),
    materials: contents.materials,
    textures: new Set(contents.textures.keys()),
    textureNames: [...contents.textures.values()].map((dir) => dir.name),
  };
}
