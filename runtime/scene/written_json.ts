/**
 * The JSON a written glTF file is serialised from, and the memory of it per output: `JSON.stringify`
 * of {@link writtenJson}'s value is the file's JSON text, so the output check may read the value
 * instead of parsing the text again (where it proves the two read the same).
 *
 * @module
 */
import type { GLTF } from "@gltf-transform/core";
import type { ExportNames } from "./unique_names.ts";

/**
 * The JSON a file is written from: `json` with the pinned generator and, when `names` are given, the
 * node and scene names of `exportNames` (`unique_names.ts`). `json` itself is left as it is (a memoised write serves
 * both spellings): only the root, its asset and the renamed nodes and scenes are new objects, each
 * with its keys in the order an assignment into the original would give.
 */
export function outputJson(json: GLTF.IGLTF, generator: string, names: ExportNames | undefined): GLTF.IGLTF {
  const out = { ...json, asset: { ...json.asset, generator } };
  if (!names) return out;
  const rename = <T extends { name?: string }>(owners: T[] | undefined, spellings: string[]) => {
    let renamed: T[] | undefined;
    owners?.forEach((owner, i) => {
      const name = spellings[i];
      if (!name || owner.name === name) return;
      renamed ??= owners.slice();
      renamed[i] = { ...owner, name };
    });
    return renamed ?? owners;
  };
  const nodes = rename(json.nodes, names.nodes), scenes = rename(json.scenes, names.scenes);
  if (nodes !== json.nodes) out.nodes = nodes;
  if (scenes !== json.scenes) out.scenes = scenes;
  return out;
}

/**
 * The JSON value each file `writeGlb` and `writeGltfJson` (`gltf_io.ts`) returned was serialised from:
 * `JSON.stringify` of it is the file's JSON text. Nothing changes it afterwards (its objects are either
 * its own or the memo's content, which no later write changes), so a check of the file may read it
 * instead of parsing the text again — where it proves the two read the same (plain JSON values only).
 */
const outputs = new WeakMap<Uint8Array, GLTF.IGLTF>();

/**
 * The JSON value `bytes` (a file `writeGlb` or `writeGltfJson` returned) was serialised
 * from, or undefined for other bytes. Read only: it shares objects with the writer's memo.
 *
 * @example
 * ```ts ignore
 * const glb = await writeGlb(doc, options);
 * const json = writtenJson(glb); // JSON.parse of its JSON chunk would give an equal value
 * ```
 */
export function writtenJson(bytes: Uint8Array): unknown {
  return outputs.get(bytes);
}

/** Remembers that `bytes` were serialised from `json` (which nothing may change afterwards). */
export function rememberWritten(bytes: Uint8Array, json: GLTF.IGLTF): void {
  outputs.set(bytes, json);
}
