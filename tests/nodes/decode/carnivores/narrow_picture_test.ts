/**
 * A picture narrower than 256 written at its own width (io_carnivores: a 128×128 picture as 64 rows of
 * 256) is named in a warning; a 256-wide texture is not. Rates are measured on seeded game-like
 * pictures (tests/nodes/decode/carnivores/pictures.ts), and the whole decode keeps the texture as the
 * games read it.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decode as decodePng } from "fast-png";
import { runNode, testContext } from "../../../support/context.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { narrowPicture } from "../../../../nodes/decode/carnivores/codec/narrow_picture.ts";
import { encode3df } from "../../../support/carnivores/encode.ts";
import { limbModel } from "./fixtures.ts";
import { brickWall, picture, PICTURE_KINDS } from "./pictures.ts";

/** Stored rows of a square `side`-wide picture written unscaled (`side² × 2` bytes, 512 to the row). */
const rowsOf = (side: number) => side * side / 256;

Deno.test("narrow picture: no 256-wide game-like texture is flagged (false positives)", () => {
  let flagged = 0, total = 0;
  for (const kind of PICTURE_KINDS) {
    // Only heights that a square 128, 64 or 32 picture gives can be flagged; 32 and 256 are controls.
    for (const height of [4, 16, 32, 64, 256]) {
      for (let seed = 1; seed <= 12; seed++) {
        total++;
        if (narrowPicture({ height, words: picture(kind, 256, height, height * 100 + seed) })) flagged++;
      }
    }
  }
  assert.equal(total, 240);
  assert.equal(flagged, 0);
});

Deno.test("narrow picture: 256-wide brick and plank walls (lines every 16–128 texels) are seldom flagged", () => {
  let flagged = 0, total = 0;
  for (const height of [4, 16, 64]) {
    for (const period of [16, 32, 64, 128]) {
      for (const running of [false, true]) {
        for (let seed = 1; seed <= 5; seed++) {
          total++;
          if (narrowPicture({ height, words: brickWall(256, height, period, running, seed * 31 + period) })) {
            flagged++;
          }
        }
      }
    }
  }
  assert.equal(total, 120);
  // Measured 8 of 120: 7 of the 30 walls whose line spacing is the very picture width their height
  // implies (32 at 4 rows, 64 at 16, 128 at 64 — to the texels, such a wall is a packed picture with a
  // line down its left edge), 1 of the other 90.
  assert.ok(flagged <= 10, `${flagged} of ${total} flagged`);
});

Deno.test("narrow picture: packed 128/64/32-wide pictures are named at their size (true positives)", () => {
  for (const side of [128, 64, 32]) {
    let named = 0, wrong = 0;
    for (const kind of PICTURE_KINDS) {
      for (let seed = 1; seed <= 12; seed++) {
        const found = narrowPicture({
          height: rowsOf(side),
          words: picture(kind, side, side, side * 7 + seed),
        });
        if (found?.width === side && found.height === side) named++;
        else if (found) wrong++;
      }
    }
    assert.equal(wrong, 0, `${side}: a wrong size named`);
    // Measured 17 (128), 20 (64) and 23 (32) of 48; painted skins 27 of 36. A picture whose left and
    // right edges match (an atlas on black, a skin tiled across) shows no seam and cannot be told.
    assert.ok(named >= 14, `${side}-wide: ${named} of 48 named`);
  }
});

Deno.test("narrow picture: a 128×128 skin written as 64 rows of 256 decodes unchanged, with a warning naming it", async () => {
  const words = picture("skin_noise", 128, 128, 4242);
  assert.deepEqual(narrowPicture({ height: 64, words }), { width: 128, height: 128 });
  const bytes = encode3df({ ...limbModel(), texture: { height: 64, words } });
  const ctx = testContext();
  const scene = (await runNode(decode3df, { bytes: { bytes, name: "skin.3df" } }, {}, ctx)).scene as Document;
  const warnings = ctx.warnings.map((w) => w.message);
  assert.ok(
    warnings.some((w) =>
      /^the texture's 64 rows of 256 look like a 128×128 picture written at its own width .* resize the picture to 256 wide/
        .test(w)
    ),
    warnings.join("\n"),
  );
  // The image is the stored words read 256 to the row, as the games read them.
  const png = decodePng(scene.getRoot().listTextures()[0].getImage()!);
  assert.equal(png.width, 256);
  assert.equal(png.height, 64);
  const w = words[300];
  assert.deepEqual(Array.from(png.data.subarray(300 * 4, 300 * 4 + 3)), [
    ((w >> 10) & 31) << 3 | ((w >> 10) & 31) >> 2,
    ((w >> 5) & 31) << 3 | ((w >> 5) & 31) >> 2,
    (w & 31) << 3 | (w & 31) >> 2,
  ]);
});

Deno.test("narrow picture: the same skin painted 256 wide (64 rows) decodes without the warning", async () => {
  const words = picture("skin_noise", 256, 64, 4242);
  const bytes = encode3df({ ...limbModel(), texture: { height: 64, words } });
  const ctx = testContext();
  await runNode(decode3df, { bytes: { bytes, name: "skin.3df" } }, {}, ctx);
  const warnings = ctx.warnings.map((w) => w.message);
  assert.ok(!warnings.some((w) => /own width/.test(w)), warnings.join("\n"));
});
