/**
 * A damaged Carnivores point far out (a float read from damaged bytes as 10¹⁷–10²⁸: fuzz survivors did
 * this, and Blender and three.js showed the model as a speck) is named in a warning with its point index
 * and byte offset; a model of any real size is not.
 */
import assert from "node:assert/strict";
import { runNode, testContext } from "../../../support/context.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { encode3df } from "../../../support/carnivores/encode.ts";
import {
  FACE_BYTES,
  HEADER_3DF_BYTES,
  POINT_BYTES,
} from "../../../../nodes/decode/carnivores/codec/model.ts";
import { limbModel } from "./fixtures.ts";

async function warnings(damage: (positions: Float32Array) => void): Promise<string[]> {
  const model = limbModel();
  damage(model.points.positions);
  const ctx = testContext();
  await runNode(decode3df, { bytes: { bytes: encode3df(model), name: "m.3df" } }, {}, ctx);
  return ctx.warnings.map((w) => w.message).filter((m) => /km from its origin/.test(m));
}

Deno.test("a point read as 5e17 file units is named with its index and byte; the undamaged limb is not", async () => {
  assert.deepEqual(await warnings(() => {}), []);
  // A big model (a Carnivores 2 brachiosaurus is about 3,000 file units: 45 m) is not far either.
  assert.deepEqual(await warnings((p) => p.forEach((v, i) => p[i] = v * 100)), []);
  const found = await warnings((p) => {
    p[3 * 5 + 1] = 5e17;
    p[3 * 9] = -3e20;
    p[3 * 9 + 2] = 3e20;
  });
  assert.equal(found.length, 1, found.join("\n"));
  const faces = limbModel().faces.count;
  const offset = HEADER_3DF_BYTES + faces * FACE_BYTES + 5 * POINT_BYTES + 4;
  assert.match(
    found[0],
    new RegExp(`^2 point\\(s\\) .* point 5 at byte ${offset}, reads ${Math.fround(5e17)}\\)`),
  );
});
