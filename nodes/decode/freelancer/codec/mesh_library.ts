/**
 * `VMeshLibrary` directories: each mesh decoded into a library's contents by its FLCRC32 id (the
 * first readable copy of an id wins), a damaged one remembered so the scene names where it is. A
 * later copy of an id with the same bytes (tools that merge `.3db` files into a `.cmp` leave the
 * whole library in every fragment) draws the same mesh and says nothing; one that differs is warned,
 * naming the copy used and the one passed over.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import type { ByteWindow } from "../../../../runtime/binary.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { flCrc32 } from "./crc.ts";
import { warnMisspeltEntries } from "./entry_names.ts";
import type { LibraryContents, MeshDamage, ModelPart } from "./model.ts";
import { describeParts, type PartLods } from "./users.ts";
import { findChild, requireLeaf, type UtfEntry } from "./utf.ts";
import { readVMeshData, type TrailingBytes, type VMeshData } from "./vmesh.ts";

/**
 * Adds the meshes of `library` to `into`. `prefix` is the library's UTF path from the file's root
 * (with a trailing `/`), for the entry paths of damage reports. `padding` hears of bytes after a
 * mesh's vertex buffer that no vertex stride explains (else each mesh's own warning names them).
 * `warnMesh` hears the warnings about one mesh (a differing duplicate, its `VMeshData` notes) with its
 * id, so that a reader who knows the parts can name those drawing it; by default they go to `warn`.
 */
export function readMeshLibrary(
  library: UtfEntry,
  prefix: string,
  into: LibraryContents,
  warn: WarningSink,
  padding?: (bytes: TrailingBytes) => void,
  warnMesh: (id: number, message: string) => void = (_, message) => warn(message),
): void {
  const { meshes, damagedMeshes, meshCopies } = into;
  for (const dir of library.children ?? []) {
    const leaf = findChild(dir, "VMeshData");
    const id = flCrc32(dir.name);
    // With the mesh's id: a misspelt VMeshData leaves the mesh undefined, so the parts drawing it are named.
    warnMisspeltEntries(
      dir,
      ["VMeshData"],
      `mesh '${dir.name}'${dir.file ? ` in ${dir.file}` : ""}`,
      (message) => warnMesh(id, message),
    );
    if (!leaf) continue;
    const entry = `${prefix}${library.name}/${dir.name}/${leaf.name}`;
    const where = `${entry}${leaf.file ? ` in ${leaf.file}` : ""}`;
    if (meshes.has(id)) {
      const used = meshCopies.get(id)!;
      if (!leaf.data || !sameWindow(used.data, leaf.data)) {
        warnMesh(
          id,
          `duplicate mesh '${dir.name}' (id ${id}): the copy at ${where} differs from the one at ` +
            `${used.where}, which is used (the first readable copy loaded)`,
        );
      }
      continue;
    }
    let mesh: VMeshData;
    try {
      mesh = readVMeshData(
        requireLeaf(leaf, "a VMeshData leaf"),
        dir.name,
        (message) => warnMesh(id, `mesh '${dir.name}' (${where}): ${message}`),
        padding,
      );
    } catch (error) {
      // One damaged mesh costs the geometry drawn from it, not the model (the scene builder warns,
      // naming the parts that lose it); the first damaged copy of an id is the one reported.
      if (!(error instanceof DecodeError)) throw error;
      if (!damagedMeshes.has(id)) damagedMeshes.set(id, { name: dir.name, entry, file: leaf.file, error });
      continue;
    }
    const damaged = damagedMeshes.get(id);
    if (damaged) {
      // A readable copy in a library loaded later is what a user wants drawn, as a damaged library
      // skipped by the search always gave; the warning says which was passed over.
      // Given with the mesh's id, so the parts drawing it (which would have lost it) are named.
      warnMesh(
        id,
        `mesh '${dir.name}': ${describeMeshDamage(damaged)}; the readable copy at ${where} is used`,
      );
      damagedMeshes.delete(id);
    }
    meshes.set(id, mesh);
    meshCopies.set(id, { data: leaf.data!, where });
  }
}

/** True when two windows hold the same bytes: lengths first (cheap), then the content. */
function sameWindow(a: ByteWindow, b: ByteWindow): boolean {
  if (a.length !== b.length) return false;
  if (a.bytes === b.bytes && a.start === b.start) return true;
  const x = a.bytes, y = b.bytes, d = b.start - a.start;
  for (let i = a.start, end = a.start + a.length; i < end; i++) if (x[i] !== y[i + d]) return false;
  return true;
}

/**
 * `<entry> in <file> does not decode (at byte N: expected …, found …)`: where a damaged mesh is and
 * what is wrong with it.
 */
export function describeMeshDamage(damage: MeshDamage): string {
  const { error } = damage;
  const at = "offset" in error.at ? `byte ${error.at.offset}` : error.at.jsonPath;
  const file = damage.file ? ` in ${damage.file}` : "";
  return `${damage.entry}${file} does not decode (at ${at}: expected ${error.expected}, found ${error.found})`;
}

/**
 * One warning for the meshes of file `from` that have bytes after their vertex buffer that no vertex
 * stride explains: how many meshes and bytes, and the first few by name and byte. Retail meshes end with
 * their vertex buffer; exporters that pad a leaf leave such bytes on every mesh they write, and a
 * warning per mesh buried the rest. Given `parts`, it ends with the parts and LODs drawing any of those
 * meshes, in the model's part order (`; drawn on part 'Hull' LODs 0–2 and 3 more parts`).
 */
export function warnPadding(
  from: string,
  list: readonly TrailingBytes[],
  warn: WarningSink,
  parts?: readonly ModelPart[],
): void {
  if (!list.length) return;
  const total = list.reduce((sum, t) => sum + t.bytes, 0);
  const named = list.slice(0, 4).map((t) => `'${t.mesh}' (${t.bytes} at byte ${t.at})`);
  const more = list.length > 4 ? ` and ${list.length - 4} more` : "";
  warn(
    `${from}: ${list.length} mesh(es) have byte(s) after their vertex buffer, ${total} in all, ignored ` +
      `(padding or a tool's leftovers: no vertex stride fills them; each header accounts for its groups, ` +
      `indices and vertices): ${named.join(", ")}${more}${
        parts ? `; drawn on ${describeParts(drawing(parts, list))}` : ""
      }`,
  );
}

/** The parts and LODs of `parts` whose references draw one of the meshes of `list`. */
function drawing(parts: readonly ModelPart[], list: readonly TrailingBytes[]): PartLods {
  const ids = new Set(list.map((t) => flCrc32(t.mesh)));
  const out = new Map<string, Set<number>>();
  for (const part of parts) {
    part.fragment.lods.forEach((ref, lod) => {
      if (!ids.has(ref.meshId)) return;
      const lods = out.get(part.name);
      if (lods) lods.add(lod);
      else out.set(part.name, new Set([lod]));
    });
  }
  return out;
}
