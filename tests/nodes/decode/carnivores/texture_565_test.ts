/**
 * Textures written as RGB565 by a converter (`texture_565s.ts`) are named; the games' 555 ones, with
 * bit 15 clear, set or noise, are not. Before decode.3df v19 / decode.car v16 / decode.rsc v13 no
 * 565 texture was named; held-out seeds 1001–1400: 71 of 143 named (those left are flat fills,
 * pictures with a channel pinned, and dark ones whose red never crosses half, which read smoothly
 * either way or carry no red top bit), 0 of 257 555 textures named.
 *
 * @module
 */
import assert from "node:assert/strict";
import { warnRgb565 } from "../../../../nodes/decode/carnivores/codec/texture_565.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { encode3df } from "../../../support/carnivores/encode.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { packedTexture } from "./texture_565s.ts";
import { limbModel } from "./fixtures.ts";

Deno.test("RGB565 textures: most named, no 555 one named (seeds 1-150)", () => {
  const tally = { named565: 0, all565: 0, named555: [] as string[] };
  for (let seed = 1; seed <= 150; seed++) {
    const p = packedTexture(seed);
    let named = false;
    warnRgb565(p.texture, () => named = true);
    if (p.packing === "565") {
      tally.all565++;
      if (named) tally.named565++;
    } else if (named) tally.named555.push(p.label);
  }
  assert.deepEqual(tally.named555, []);
  assert.ok(tally.named565 >= tally.all565 * 0.6, `${tally.named565} of ${tally.all565} named`);
});

Deno.test("RGB565 textures: decode.3df names a 565 picture and decodes it as the games read it", async () => {
  // A smooth picture: red along x, green along y, packed both ways.
  const height = 64;
  const pack = (layout: "555" | "565") =>
    Uint16Array.from({ length: 256 * height }, (_, i) => {
      const r = Math.round(((i % 256) / 255) * 31), g = Math.floor(i / 256) / (height - 1);
      return layout === "565"
        ? (r << 11) | (Math.round(g * 63) << 5) | 9
        : (r << 10) | (Math.round(g * 31) << 5) | 9;
    });
  for (const layout of ["555", "565"] as const) {
    const model = { ...limbModel(), texture: { height, words: pack(layout) } };
    const ctx = testContext();
    await runNode(decode3df, { bytes: { bytes: encode3df(model), name: "m.3df" } }, {}, ctx);
    const named = ctx.warnings.filter((w) => /looks written as RGB565/.test(w.message));
    assert.equal(named.length, layout === "565" ? 1 : 0, ctx.warnings.map((w) => w.message).join("\n"));
  }
});
