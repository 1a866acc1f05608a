/**
 * A UV set's seam overrides (`polygon_vertex_indices`: polygon, vertex, UV) name a vertex by a number
 * the decoder holds in 32 bits: one past that is refused, not wrapped round to another vertex. Found
 * by the structure sweep (a seamed figure, `/uv_set_library/0/polygon_vertex_indices/0/1` set to
 * 2³² read as vertex 0).
 */
import assert from "node:assert/strict";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { runNode } from "../../../support/context.ts";
import { dsonBytes, generateFigure, type Json } from "./generate.ts";

Deno.test("dson UV sets: a seam override's vertex past 32 bits is a DecodeError at its path, not read as vertex v − 2³²", async () => {
  const json = generateFigure({ side: 4, bones: 1, seam: true });
  const overrides = (json.uv_set_library as Json[])[0].polygon_vertex_indices as number[][];
  assert.ok(overrides.length, "the seamed figure has seam overrides");
  // 2³² + its own vertex: wrapped round, the override read exactly as written, without a word.
  overrides[0][1] += 2 ** 32;
  const bytes = dsonBytes(json);
  const error = await runNode(decodeDson, { bytes: { bytes, name: "seam.duf" } }).then(
    () => undefined,
    (e) => e,
  );
  assert.ok(error instanceof DecodeError, `refused, got ${error}`);
  assert.deepEqual(error.at, { jsonPath: "/uv_set_library/0/polygon_vertex_indices/0/1" });
  assert.equal(error.expected, "an integer in [0, 2147483647]");
});
