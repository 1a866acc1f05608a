/**
 * The GLB writer's sort of extras (`runtime/scene/canonical_extras.ts`) copies only what is out of
 * order: extras as a decoder writes them (records with keys in order, lists of numbers) to which a
 * later node or tool added keys at the end (a resolver's `construct` after `partgraph`, a
 * `constraint` after `freelancer`, an author's `zz_note` after everything) are written as new
 * objects only where a key came out of order and above it; the sorted records under them are the
 * scene's own objects in the written JSON. The text is the fully sorted text either way.
 */
import { Document } from "@gltf-transform/core";
import { sortKeysDeep } from "../../../runtime/canonical.ts";
import { writeGlb, writtenJson } from "../../../runtime/scene/gltf_io.ts";
import { writtenText } from "../../../runtime/scene/written_json.ts";
import { prng } from "../../support/prng.ts";

type Json = unknown;

/** A decoder's record: keys in order, numbers coarse or odd, lists of floats, nested records. */
function record(next: () => number, depth: number): Json {
  const keys = ["at", "axis", "child", "file_name", "kind", "limits", "object_name", "offset", "parent"];
  const out: Record<string, Json> = {};
  for (const key of keys) {
    if (next() < 0.4) continue;
    const pick = next();
    out[key] = depth < 2 && pick < 0.25
      ? record(next, depth + 1)
      : pick < 0.5
      ? Array.from({ length: 3 + Math.floor(next() * 7) }, () => Math.fround(next() * 20 - 10))
      : pick < 0.7
      ? Math.floor(next() * 3000)
      : depth < 2 && pick < 0.8
      ? [record(next, depth + 2), record(next, depth + 2)]
      : `Part_${Math.floor(next() * 40)}`;
  }
  return out;
}

/** Keys a later step appends out of order, at some level (its habit: spread, then add). */
function appendOutOfOrder(value: Json, next: () => number): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, next() < 0.3 ? appendOutOfOrder(v, next) : v]);
  const out: Record<string, Json> = Object.fromEntries(entries);
  if (next() < 0.5) {
    out[["construct", "constraint", "a_first", "0"][Math.floor(next() * 4)]] = { at: 1, kind: "rev" };
  }
  return out;
}

/** Objects and arrays under `value` (itself included) that are out of key order or hold one that is. */
function unsortedPaths(value: Json): number {
  if (typeof value !== "object" || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  const below = children.reduce((sum: number, item) => sum + unsortedPaths(item), 0);
  const keys = Array.isArray(value) ? [] : Object.keys(value);
  const inOrder = keys.every((key, i) => i === 0 || keys[i - 1] < key);
  return below + (below > 0 || !inOrder ? 1 : 0);
}

/** Objects and arrays of `written` that are not the very objects of `own` at the same place. */
function copiesIn(written: Json, own: Json): number {
  if (typeof written !== "object" || written === null) return 0;
  if (written === own) return 0;
  const children = Array.isArray(written) ? written.map((v, i) => [i, v] as const) : Object.entries(written);
  const source = own as Record<string | number, Json>;
  return 1 + children.reduce((sum, [key, item]) => sum + copiesIn(item, source?.[key]), 0);
}

Deno.test("writeGlb copies only the out-of-order objects of extras and those above them (seeds 1-40)", async () => {
  let copies = 0, expected = 0, everything = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const next = prng(seed);
    const doc = new Document();
    const scene = doc.createScene("s");
    const given: Json[] = [];
    for (let n = 0; n < 12; n++) {
      const extras = appendOutOfOrder({ partgraph: { freelancer: record(next, 0) } }, next);
      given.push(extras);
      scene.addChild(doc.createNode(`n${n}`).setExtras(extras as Record<string, unknown>));
    }
    const glb = await writeGlb(doc, { generator: "partgraph test" });
    const json = writtenJson(glb) as { nodes: { extras: Json }[] };
    const text = new TextDecoder().decode(
      glb.subarray(20, 20 + new DataView(glb.buffer).getUint32(12, true)),
    );
    given.forEach((extras, n) => {
      const written = json.nodes[n].extras;
      // The same text as the full sorted copy it replaces.
      if (writtenText(written) !== writtenText(sortKeysDeep(extras))) {
        throw new Error(`seed ${seed}: node ${n}`);
      }
      if (!text.includes(`"extras":${writtenText(sortKeysDeep(extras))}`)) {
        throw new Error(`seed ${seed}: text`);
      }
      copies += copiesIn(written, extras);
      expected += unsortedPaths(extras);
      everything += copiesIn(sortKeysDeep(extras), extras);
    });
  }
  // Every out-of-order path is copied (the text is sorted), and nothing else.
  if (copies !== expected) {
    throw new Error(
      `${copies} objects copied; ${expected} are out of order or above one (a full copy: ${everything})`,
    );
  }
});
