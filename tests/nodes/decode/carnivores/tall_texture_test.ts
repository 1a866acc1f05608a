/**
 * Textures taller than the engine's 256 rows (pictures 512 or 1024 wide written at their own width,
 * and 256-wide textures of 512 and 1,024 rows, from the texture zoo) get one warning about their size:
 * the picture their texels show when they show one, else what their byte count alone suggests, said
 * as a possibility. Before, a 512×512 or 1024×256 picture the detector recognised got two warnings (28
 * of 108 on seeds 101-103), 10 of them naming two sizes (the size hint's 512×512 and the texels'
 * 1024×256); the size hint called all 36 256-wide 1,024-row textures "a 512×512 picture".
 *
 * The suite decodes three of the twelve kinds (gradient, skin, atlas: 15 textures); on the code before
 * decode.3df v14 they give 5 double warnings and 4 byte counts called a picture, and 5 name their
 * texels' picture. `deno task heldout tall_texture` decodes all twelve (60).
 */
import assert from "node:assert/strict";
import { runNode, testContext } from "../../../support/context.ts";
import { encode3df } from "../../../support/carnivores/encode.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { limbModel } from "./fixtures.ts";
import { WIDE_SHAPES, ZOO_KINDS, type ZooCase, type ZooKind, zooPicture } from "./texture_zoo.ts";
import { heldOut } from "../../../support/heldout.ts";

/** The kinds the suite decodes: cheap to make, and between them every fault the sweep guards. */
const SUITE_KINDS: readonly ZooKind[] = ["gradient", "skin", "atlas"];

/**
 * `wideZooCases(1, 1)`'s textures over 256 rows, of `kinds` only (that generator paints every kind, a
 * few seconds of the test's cost): the same seeds, so the same pictures.
 */
function* tallCases(kinds: readonly ZooKind[]): Generator<ZooCase> {
  for (const kind of kinds) {
    for (const shape of WIDE_SHAPES) {
      const rows = (shape.width * shape.height) / 256;
      if (rows <= 256) continue;
      const words = zooPicture(kind, shape.width, shape.height, 1019 + shape.width + shape.height);
      yield { kind, rows, words, packed: shape };
    }
    for (const rows of [512, 1024]) yield { kind, rows, words: zooPicture(kind, 256, rows, 1021 + rows) };
  }
}

Deno.test("tall textures: one warning each about their size, the texels' picture size when they show one", async () => {
  let named = 0, cases = 0;
  const kinds = heldOut(ZOO_KINDS, (kind) => SUITE_KINDS.includes(kind));
  for (const c of tallCases(kinds)) {
    cases++;
    const ctx = testContext();
    const bytes = encode3df({ ...limbModel(), texture: { height: c.rows, words: c.words } });
    await runNode(decode3df, { bytes: { bytes, name: "m.3df" } }, {}, ctx);
    const about = ctx.warnings.map((w) => w.message).filter((m) => /picture|rows; the engine holds/.test(m));
    const label = `${c.kind} ${c.packed ? `${c.packed.width}×${c.packed.height}` : `256×${c.rows}`}`;
    assert.equal(about.length, 1, `${label}: ${about.join(" | ")}`);
    assert.match(about[0], new RegExp(`^texture has ${c.rows} rows; the engine holds 256`), label);
    const shown = /look like a (\d+)×(\d+) picture/.exec(about[0]);
    if (shown) {
      named++;
      assert.ok(c.packed, `${label}: a 256-wide texture called a ${shown[1]}×${shown[2]} picture`);
      assert.deepEqual([Number(shown[1]), Number(shown[2])], [c.packed.width, c.packed.height], label);
    }
    // The byte count alone never says what the picture is.
    assert.doesNotMatch(about[0], /bytes are a \d+×\d+ picture/, label);
  }
  assert.equal(cases, kinds.length * 5);
  assert.ok(named >= 5, `${named} of ${cases} named from their texels`);
});
