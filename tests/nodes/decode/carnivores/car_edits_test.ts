/**
 * `.car` files whose mesh was edited after their clips were made (`car_edits.ts`). The seeds here are
 * not those the decoder was measured on while it was changed (1–10, and the held-out sweep 401–440).
 */
import assert from "node:assert/strict";
import { CAR_EDITS, carEditOutcome } from "./car_edits.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { decodeCar } from "../../../../nodes/decode/carnivores/decode_car.ts";
import { carEditFile } from "./car_edits.ts";

Deno.test("clips made before points were removed or added are read with their own vertex count, named", async () => {
  for (const edit of CAR_EDITS) {
    for (let seed = 501; seed <= 504; seed++) {
      const { outcome, detail } = await carEditOutcome(edit, seed);
      // Before decode.car v18: every edited file but one in 40 read its frames shifted (misleading or
      // no warning about the clips: an anim→sound table "too short", a frame count "corrected").
      assert.equal(outcome, "right", `${edit} seed ${seed}: ${detail}`);
    }
  }
});

Deno.test("the warning gives both vertex counts and the byte where the clips start", async () => {
  const { bytes } = carEditFile("points_removed", 505);
  const ctx = testContext();
  await runNode(decodeCar, { bytes: { bytes, name: "m.car" } }, {}, ctx);
  const warning = ctx.warnings.find((w) => /frames hold \d+ vertices each/.test(w.message));
  assert.ok(warning, ctx.warnings.map((w) => w.message).join("\n"));
  const vertices = new DataView(bytes.buffer).getInt32(40, true);
  assert.match(warning.message, new RegExp(`the model ${vertices}:`));
  const detail = warning.detail as { offset: number; vertices: number; frame_vertices: number };
  assert.equal(detail.vertices, vertices);
  assert.ok(detail.frame_vertices > vertices);
  // The first clip's header starts where the texture ends.
  const faces = new DataView(bytes.buffer).getInt32(44, true);
  const texture = new DataView(bytes.buffer).getInt32(48, true);
  assert.equal(detail.offset, 52 + 64 * faces + 16 * vertices + texture);
});
