/**
 * The demo fighter as glTF JSON with its left aileron moved down a chain of empty nodes to a given
 * level: a model at (or past) the hierarchy bound, made by code, for the decoder's bound and for
 * Blender importing a rigged model that deep.
 *
 * @module
 */
import { buildFighterScene } from "../../nodes/demo/fighter_run.ts";
import { writeGltfJson } from "../../runtime/scene/gltf_io.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** `/nodes/<index>` of the first node named like `pattern` that has a mesh and no children. */
function leafNamed(json: Json, pattern: RegExp): number {
  return json.nodes.findIndex((n: Json) =>
    pattern.test(n.name) && n.mesh !== undefined && !n.children?.length
  );
}

/** Levels down to node `index` (a root is 1). */
function levelsOf(json: Json, index: number): number {
  let levels = 1;
  for (let at = index; (at = json.nodes.findIndex((n: Json) => n.children?.includes(at))) >= 0;) levels++;
  return levels;
}

/**
 * The fighter (detail 1) as `.gltf` bytes, its left aileron `levels` deep; `aileron` is its node
 * index.
 *
 * @example
 * ```ts
 * const { bytes, aileron } = await fighterWithAileronAt(512);
 * ```
 */
export async function fighterWithAileronAt(levels: number): Promise<{ bytes: Uint8Array; aileron: number }> {
  const json = JSON.parse(
    new TextDecoder().decode(await writeGltfJson(buildFighterScene(1), { generator: "test" })),
  );
  const aileron = leafNamed(json, /aileron.*l|left.*aileron/i);
  const parent = json.nodes.findIndex((n: Json) => n.children?.includes(aileron));
  const extra = levels - levelsOf(json, aileron);
  const first = json.nodes.length;
  for (let k = 0; k < extra; k++) {
    json.nodes.push({ name: `link${k}`, children: [k + 1 < extra ? first + k + 1 : aileron] });
  }
  json.nodes[parent].children = json.nodes[parent].children.map((c: number) => (c === aileron ? first : c));
  return { bytes: new TextEncoder().encode(JSON.stringify(json)), aileron };
}
