/** A DSON value nested 10,000 deep (where an id is expected) is a DecodeError, not a stack overflow. */
import assert from "node:assert/strict";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { MAX_DSON_DEPTH } from "../../../../nodes/decode/dson/codec/text.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { runNode } from "../../../support/context.ts";
import { generateFigure } from "./generate.ts";

Deno.test("a deeply nested value where an id is expected is refused with its JSON path", async () => {
  const figure = generateFigure({ side: 3, bones: 1 }) as { node_library: { id: unknown }[] };
  figure.node_library[0].id = "DEEP";
  const deep = "[".repeat(10_000) + '"x"' + "]".repeat(10_000);
  const bytes = new TextEncoder().encode(JSON.stringify(figure).replace('"DEEP"', deep));
  await assert.rejects(runNode(decodeDson, { bytes: { bytes, name: "deep.duf" } }), (error: unknown) => {
    assert.ok(error instanceof DecodeError, String(error));
    assert.match(error.expected, new RegExp(`nested at most ${MAX_DSON_DEPTH} deep`));
    assert.match((error.at as { jsonPath: string }).jsonPath, /^\/node_library\/0\/id/);
    return true;
  });
});
