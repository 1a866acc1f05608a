/**
 * A picture of a width that does not divide 256 (a modder's 96×96, 192×192 or 200×256 skin) written at
 * its own width runs its rows on across the stored rows; the decoder names it in a warning and keeps the
 * texture as the games read it. Before (decode.3df v15) none was named: dev seeds 1–3, 0 of 576 packed
 * pictures (16 shapes × 12 kinds); now 233 named at their size, 10 at another (pictures that repeat
 * inside, bricks and grids), the rest — white noise, flat colours, atlases on black, checkers — cannot
 * be told and are not flagged; held-out seeds 101–104: 306 of 768 named, 8 at another size. No 256-wide
 * texture of a height such a width divides is flagged (0 of 468 dev, 0 of 624 held-out).
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decode as decodePng } from "fast-png";
import { runNode, testContext } from "../../../support/context.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { narrowPicture } from "../../../../nodes/decode/carnivores/codec/narrow_picture.ts";
import { encode3df } from "../../../support/carnivores/encode.ts";
import { limbModel } from "./fixtures.ts";
import { oddZooCases, zooPicture } from "./texture_zoo.ts";

Deno.test("odd-width pictures: named at their size where the texels show it, no 256-wide texture flagged (seed 1)", () => {
  let packed = 0, named = 0, misnamed = 0;
  const flagged: string[] = [];
  for (const c of oddZooCases(1, 1)) {
    const found = narrowPicture({ height: c.rows, words: c.words });
    if (!c.packed) {
      if (found) flagged.push(`${c.kind} ${c.rows} rows as ${found.width}×${found.height}`);
      continue;
    }
    packed++;
    if (found?.width === c.packed.width && found.height === c.packed.height) named++;
    else if (found) misnamed++;
  }
  assert.deepEqual(flagged, []);
  // Measured 86 of 192 named and 3 misnamed on this seed; the bounds leave room, not a free pass.
  assert.ok(named >= 0.35 * packed, `${named} of ${packed} named`);
  assert.ok(misnamed <= 0.03 * packed, `${misnamed} of ${packed} named at another size`);
});

Deno.test("odd-width pictures: a 192×192 photo written as 144 rows decodes unchanged, with a warning naming it", async () => {
  const words = zooPicture("photo", 192, 192, 777);
  const bytes = encode3df({ ...limbModel(), texture: { height: 144, words } });
  const ctx = testContext();
  const scene = (await runNode(decode3df, { bytes: { bytes, name: "skin.3df" } }, {}, ctx)).scene as Document;
  const warnings = ctx.warnings.map((w) => w.message);
  assert.ok(
    warnings.some((w) =>
      /^the texture's 144 rows of 256 look like a 192×192 picture written at its own width \(.*its rows running on across the stored rows, 1\.33 to each\).* resize the picture to 256 wide/
        .test(w)
    ),
    warnings.join("\n"),
  );
  const png = decodePng(scene.getRoot().listTextures()[0].getImage()!);
  assert.deepEqual([png.width, png.height], [256, 144]);
  const w = words[1000];
  assert.deepEqual(Array.from(png.data.subarray(1000 * 4, 1000 * 4 + 3)), [
    ((w >> 10) & 31) << 3 | ((w >> 10) & 31) >> 2,
    ((w >> 5) & 31) << 3 | ((w >> 5) & 31) >> 2,
    (w & 31) << 3 | (w & 31) >> 2,
  ]);
});
