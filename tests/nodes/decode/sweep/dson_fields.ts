/**
 * The structural fields of a DSON file (`.duf`, `.dsf`), as sweep cases, the JSON walked
 * generically: every `count` set to its boundary values, every `values` array beside a count cut one
 * short, emptied or given one extra row, the integer cells of index rows (polygons' group, material
 * and vertex indices, weight maps', graft and UV maps' vertex and polygon indices) set to −1, the
 * vertex count and out-of-range values, and every link (`parent`, `url`, `node`, `conform_target`)
 * pointed at nothing, at another file, at its own node, or — for a node's parent — round a cycle.
 * Long arrays are sampled: their first, second and last member.
 *
 * @module
 */
import type { Case } from "./cases.ts";
import { at, type Json, JsonCases, jsonFile, OUT_OF_RANGE, pick, pointer, type Step } from "./json_fields.ts";

/** Members whose contents are data or presentation, not structure. */
const SKIP = new Set(["asset_info", "channel", "keys", "presentation", "extra", "file_version"]);
/** Arrays of coordinates and weights (`weights`, `node_weights`: vertex, weight), not indices. */
const COORDINATES = /\/vertices\/values|\/uvs\/values|\/deltas\/values\/\d+\/[123]$|weights\/values\/\d+\/1$/;
/** Members naming another node, geometry or modifier. */
const LINKS = new Set(["parent", "url", "node", "conform_target"]);

/** The cases of a DSON file (plain JSON; a gzip-wrapped seed is inflated first, see `run.ts`). */
export function casesDson(bytes: Uint8Array): Case[] {
  const file = jsonFile(bytes);
  if (!file) return [];
  const { json } = file;
  const cases = new JsonCases(file);
  const vertices = json.geometry_library?.[0]?.vertices?.count ?? 0;

  const walk = (value: Json, path: Step[]): void => {
    if (value === null || value === undefined) return;
    const key = path.at(-1);
    const where = pointer(path);
    if (typeof value === "number") {
      if (key === "count") cases.set(path, [0, 1, -1, value - 1, value + 1, ...OUT_OF_RANGE]);
      else if (
        Number.isInteger(value) && /\/(values|polygon_vertex_indices)(\/\d+){1,2}$/.test(where) &&
        !COORDINATES.test(where)
      ) {
        cases.set(path, [-1, vertices, ...OUT_OF_RANGE]);
      }
      return;
    }
    if (typeof value === "string") {
      if (typeof key === "string" && LINKS.has(key) && value.includes("#")) {
        const own = at(json, path.slice(0, -1))?.id;
        cases.set(path, ["#sweep_missing", "", "/data/sweep/missing.dsf#x", ...(own ? [`#${own}`] : [])]);
      }
      return;
    }
    if (typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const i of pick(value.length)) walk(value[i], [...path, i]);
      return;
    }
    if (typeof value.count === "number" && Array.isArray(value.values) && value.values.length) {
      const list = [...path, "values"];
      const resize = (name: string, edit: (values: Json[]) => Json[]) =>
        cases.change(pointer(list), name, (edited) => {
          const owner = at(edited, path);
          owner.values = edit(owner.values);
        });
      resize("one short", (v) => v.slice(0, -1));
      resize("empty", () => []);
      resize("one extra", (v) => [...v, v[v.length - 1]]);
    }
    for (const [member, inner] of Object.entries(value)) {
      if (!SKIP.has(member)) walk(inner, [...path, member]);
    }
  };
  walk(json, []);

  // A node's parent round a cycle: the node made its parent's parent.
  const nodes: Json[] = json.node_library ?? [];
  const child = nodes.findIndex((n) => typeof n.parent === "string" && n.parent.startsWith("#"));
  if (child >= 0) {
    const parent = nodes.findIndex((n) => `#${n.id}` === nodes[child].parent);
    if (parent >= 0) {
      cases.change(`/node_library/${parent}/parent`, "cycle", (edited) => {
        edited.node_library[parent].parent = `#${nodes[child].id}`;
      });
    }
  }
  return cases.list;
}
