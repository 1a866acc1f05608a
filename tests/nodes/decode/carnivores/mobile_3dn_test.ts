/**
 * `decode.3dn` on mobile Carnivores model folders as players and modders keep them (`mobile_3dn.ts`):
 * the texture picture beside the model, found by the header's image name in any case or by the file's
 * name, as Targa (either origin), PNG or BMP, typed as a Windows path, hi-res, foliage keyed on black;
 * the sprite name kept.
 * Each case must come out right: every face corner samples the texel the file names, every
 * guess named in a warning.
 */
import assert from "node:assert/strict";
import { MOBILE_HABITS, mobileCase, mobileOutcome } from "./mobile_3dn.ts";

for (const habit of MOBILE_HABITS) {
  Deno.test(`mobile .3dn folders: ${habit} (seeds 1-3) textured right, names kept`, async () => {
    // Before (decode.3dn v1, held-out seeds 101-130, 330 folders): 330 wrong — no model was textured
    // (the picture could not be named) and the header's model and sprite names were dropped; 270 of
    // them without a warning. After (v2): 330 right. Foliage (sfOpacity faces over a picture with no alpha,
    // its leaves cut out of black; 30 folders, seeds 101-130): 30 wrong and silent with v2 (the black
    // drawn opaque round every leaf), 30 right with v3; 360/360 right on seeds 201-230. A header image
    // name holding the file's name (`RAPTOR.TGA`, `models\RAPTOR.TGA`) beside a renamed model (30, seeds
    // 101-130): 30 untextured (warned) with v4, 30 right with v5. Foliage saved as an RGBA PNG of alpha 255
    // throughout (4 of the 30 foliage folders, seeds 101-130): wrong and silent with v5, right with v6.
    // A 16-bit Targa declaring an attribute bit no texel sets (30, seeds 101-130): alpha 0 throughout,
    // wrong and silent with v6 (translucent faces invisible); right with v7. 420/420 on seeds 301-330.
    for (let seed = 1; seed <= 3; seed++) {
      const root = await Deno.makeTempDir({ prefix: "mobile_3dn_" });
      try {
        const { outcome, detail } = await mobileOutcome(await mobileCase(habit, seed, root));
        assert.equal(outcome, "right", `seed ${seed}: ${detail}`);
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    }
  });
}
