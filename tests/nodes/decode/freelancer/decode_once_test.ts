/**
 * `decode.cmp` with `libraries: "auto"` reads the model file once when the search finds libraries
 * (counted: the model's UTF header reads), and keeps its warnings after the search's.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Document } from "@gltf-transform/core";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { ByteWindow } from "../../../../runtime/binary.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { fighterCmp, writeGameTree } from "./game_tree.ts";
import { utfDir } from "../../../support/freelancer/encode_utf.ts";

/** Runs `run` counting UTF header reads of file `name` (one per parse of that file's tree). */
async function countingParses<T>(name: string, run: () => Promise<T>): Promise<[number, T]> {
  const original = ByteWindow.prototype.need;
  let parses = 0;
  ByteWindow.prototype.need = function (this: ByteWindow, at: number, size: number, what: string) {
    if (what === "UTF header" && this.file === name) parses++;
    return original.call(this, at, size, what);
  };
  try {
    const result = await run();
    return [parses, result];
  } finally {
    ByteWindow.prototype.need = original;
  }
}

Deno.test("auto: a model whose libraries the search finds is parsed once, its warnings after the search's", async () => {
  const tree = await writeGameTree();
  try {
    // A root entry spelt near one the game reads warns in the model's reading; a second copy of a
    // library in another folder warns in the search.
    const bytes = fighterCmp(undefined, [utfDir("Animations", [])]);
    const path = await tree.write("SHIPS/RHEINLAND/rh_fighter/rh_fighter.cmp", bytes);
    await tree.write(
      "SHIPS/other.mat",
      await Deno.readFile(join(tree.data, "SHIPS/RHEINLAND/rh_playerships.mat")),
    );
    await Deno.remove(join(tree.data, "SHIPS/shiparch.ini"));
    const ctx = testContext();
    const [parses, { scene }] = await countingParses(
      "rh_fighter.cmp",
      () =>
        runNode(decodeCmp, { bytes: { bytes, name: "rh_fighter.cmp" } }, { model_path: path } as never, ctx),
    );
    const doc = scene as Document;
    const report = getPartgraphExtras(doc.getRoot().getDefaultScene()!).libraries as Record<string, never>;
    assert.ok((report.used as string[]).length >= 2, JSON.stringify(report.used));
    const messages = ctx.warnings.map((w) => w.message);
    const model = messages.filter((m) => m.includes("'Animations'"));
    const search = messages.findIndex((m) =>
      m.includes("defined by SHIPS/RHEINLAND/rh_playerships.mat and SHIPS/other.mat")
    );
    assert.equal(model.length, 1, messages.join("\n"));
    assert.ok(search >= 0 && search < messages.indexOf(model[0]), messages.join("\n"));
    assert.equal(parses, 1, "the model's UTF tree parsed once per run");
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
});
