/**
 * `khronosValidate`: the Khronos validator's own uncaught fault (it completes a future twice on a PNG
 * whose first chunk is not its header) is held and reported, not left to end the process.
 */
import assert from "node:assert/strict";
import { Document, WebIO } from "@gltf-transform/core";
import { encode } from "fast-png";
import { khronosValidate } from "../../../nodes/export/khronos.ts";

/** A GLB whose one texture is a PNG with the type bytes of its first chunk (`IHDR`) damaged. */
async function glbWithDamagedPng(): Promise<Uint8Array> {
  const png = encode({ width: 2, height: 2, data: new Uint8Array(16).fill(9), channels: 4 });
  png.set([0xe7, 0x60], 14);
  const doc = new Document();
  doc.createBuffer();
  const texture = doc.createTexture("damaged").setImage(png).setMimeType("image/png");
  doc.createScene("s").addChild(
    doc.createNode("n").setMesh(
      doc.createMesh("m").addPrimitive(
        doc.createPrimitive()
          .setAttribute("POSITION", doc.createAccessor().setType("VEC3").setArray(new Float32Array(9)))
          .setMaterial(doc.createMaterial("m").setBaseColorTexture(texture)),
      ),
    ),
  );
  return await new WebIO().writeBinary(doc);
}

Deno.test("khronosValidate: the validator's uncaught fault on a damaged PNG is reported with its report, and the process goes on", async () => {
  const bytes = await glbWithDamagedPng();
  const report = await khronosValidate(bytes);
  // Without the guard the test runner reports "Uncaught Bad state: Future already completed" here.
  assert.deepEqual(report.faults, ["Bad state: Future already completed"]);
  assert.ok(
    report.issues.some((issue) => issue.code === "IMAGE_DATA_INVALID" && issue.pointer === "/images/0"),
  );
  // The validator still works after a fault, and a sound file has none.
  const sound = new Document();
  sound.createScene("s").addChild(sound.createNode("n"));
  const clean = await khronosValidate(await new WebIO().writeBinary(sound));
  assert.deepEqual([clean.numErrors, clean.faults], [0, []]);
});
