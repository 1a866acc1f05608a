/**
 * Name search on files of very many nodes (the hostile fuzz set's `many-nodes`: 10^6 nodes): nothing
 * spreads a per-name list into one call's arguments, which overflows the call stack well before a
 * million (`Math.max(...lengths)` in `fieldFull` took the rig down with a RangeError).
 */
import assert from "node:assert/strict";
import { fieldFull } from "../../../nodes/rig/vocabulary_cuts.ts";

Deno.test("fieldFull reads a million names without overflowing the stack, and answers as for a few", () => {
  const names = Array.from({ length: 1_000_000 }, (_, i) => `Node_${i}`);
  const full = fieldFull(names);
  // The longest names (`Node_100000` … `Node_999999`, 11 characters) fill the field; shorter ones do not.
  assert.equal(full("Node_123456"), true);
  assert.equal(full("Node_12345"), false);
  // The same rule on a short list: three names at the longest length, a converter's `.001` aside.
  const few = fieldFull(["FLAP_LEF", "ELEV_LEF", "SLAT_LEF.001", "GEAR"]);
  assert.equal(few("SLAT_LEF.001"), true);
  assert.equal(few("GEAR"), false);
  assert.equal(fieldFull(["FLAP_LEF", "ELEV_LEF", "GEAR"])("FLAP_LEF"), false);
});
