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
import { wideZooCases, zooCases, zooPicture } from "./texture_zoo.ts";

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
  // Measured 0 of 120 (8 before the wrap and line-side tests: walls whose line spacing is the very
  // picture width their height implies look, to the seam test alone, like a packed picture).
  assert.ok(flagged <= 1, `${flagged} of ${total} flagged`);
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
    // Measured 15 (128), 17 (64) and 22 (32) of 48 (17, 20, 23 before the wrap and line-side tests). A picture whose left and right edges match (an
    // atlas on black, a skin tiled across) shows no seam and cannot be told.
    assert.ok(named >= 11, `${side}-wide: ${named} of 48 named`);
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

Deno.test("narrow picture: over the texture zoo, pictures of any shape are named at their size and no 256-wide texture is flagged", () => {
  // Confusion matrix over 12 kinds of content (photo-like, noise, flat, gradients, skins, atlases,
  // camouflage, bricks, planks, grids, checkers, diamonds) × 13 packed shapes (32/64/128 wide, a
  // quarter to four times as tall) and 7 heights of 256-wide texture, two seeds each.
  const m = { negatives: 0, flagged: 0, packed: 0, named: 0, wrong: 0, seenContent: 0, namedContent: 0 };
  for (const c of zooCases(1, 2)) {
    const found = narrowPicture({ height: c.rows, words: c.words });
    if (!c.packed) {
      m.negatives++;
      if (found) m.flagged++;
      continue;
    }
    m.packed++;
    const right = found?.width === c.packed.width && found.height === c.packed.height;
    if (right) m.named++;
    else if (found) m.wrong++;
    // Content with edges and shading (what a skin or a photo is); the rest (noise, flat, patterns
    // repeating within the picture) cannot be told from a 256-wide texture.
    if (["photo", "gradient", "skin", "camo"].includes(c.kind)) {
      m.seenContent++;
      if (right) m.namedContent++;
    }
  }
  assert.equal(m.negatives, 168);
  assert.equal(m.packed, 312);
  assert.equal(m.flagged, 0, JSON.stringify(m));
  assert.equal(m.wrong, 0, JSON.stringify(m));
  // Measured 70 of 312 named, 64 of the 104 with edges and shading, 0 wrong (before: 22 named, 18 of
  // the 104, and 4 non-square pictures named at a wrong, square size).
  assert.ok(m.namedContent >= 50, JSON.stringify(m));
});

Deno.test("narrow picture: a 128×256 and a 64×256 picture are named at their shape, not as a square", () => {
  for (const [width, height] of [[128, 256], [64, 256], [128, 64]]) {
    let named = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const found = narrowPicture({
        height: width * height / 256,
        words: zooPicture("photo", width, height, seed),
      });
      if (found) assert.deepEqual(found, { width, height }, `seed ${seed}`);
      if (found) named++;
    }
    assert.ok(named >= 3, `${width}×${height}: ${named} of 6 named`);
  }
});

Deno.test("narrow picture: a 128×256 skin written as 128 rows decodes unchanged, with a warning naming 128×256", async () => {
  const words = zooPicture("skin", 128, 256, 7);
  assert.deepEqual(narrowPicture({ height: 128, words }), { width: 128, height: 256 });
  const bytes = encode3df({ ...limbModel(), texture: { height: 128, words } });
  const ctx = testContext();
  await runNode(decode3df, { bytes: { bytes, name: "skin.3df" } }, {}, ctx);
  const warnings = ctx.warnings.map((w) => w.message);
  assert.ok(
    warnings.some((w) =>
      /^the texture's 128 rows of 256 look like a 128×256 picture written at its own width/.test(w)
    ),
    warnings.join("\n"),
  );
});

Deno.test("narrow picture: pictures wider than 256 (512×128 … 1024×256) are named, 256-wide textures of 256–1024 rows are not", () => {
  const m = { negatives: 0, flagged: 0, packed: 0, named: 0, wrong: 0 };
  for (const c of wideZooCases(1, 1)) {
    const found = narrowPicture({ height: c.rows, words: c.words });
    if (!c.packed) {
      m.negatives++;
      if (found) m.flagged++;
      continue;
    }
    m.packed++;
    if (found?.width === c.packed.width && found.height === c.packed.height) m.named++;
    else if (found) m.wrong++;
  }
  assert.equal(m.negatives, 36);
  assert.equal(m.packed, 48);
  assert.equal(m.flagged, 0, JSON.stringify(m));
  assert.equal(m.wrong, 0, JSON.stringify(m));
  // Measured 15 of 48 (none before: only a square picture's size was named, from the byte count, and
  // only past 256 rows). Noise, flat colours and patterns that repeat down the picture cannot be told.
  assert.ok(m.named >= 12, JSON.stringify(m));
});

Deno.test("narrow picture: a 512×128 photo written as 256 rows decodes unchanged, with a warning naming 512×128", async () => {
  const words = zooPicture("photo", 512, 128, 3);
  assert.deepEqual(narrowPicture({ height: 256, words }), { width: 512, height: 128 });
  const bytes = encode3df({ ...limbModel(), texture: { height: 256, words } });
  const ctx = testContext();
  await runNode(decode3df, { bytes: { bytes, name: "wide.3df" } }, {}, ctx);
  const warnings = ctx.warnings.map((w) => w.message);
  assert.ok(
    warnings.some((w) =>
      /^the texture's 256 rows of 256 look like a 512×128 picture written at its own width \(.* wider than 256 unscaled, each of its rows over 2 stored rows\)/
        .test(w)
    ),
    warnings.join("\n"),
  );
});
