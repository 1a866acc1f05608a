/**
 * `rig.parts` v4 (`moved_axes.ts`): a rigged file whose axes a tool turned since (Blender's export with
 * "+Y Up" off), its extras kept, has the frame the earlier run recorded dropped and found again from
 * the geometry; a file merely moved keeps it. Blender itself: `tests/clients/blender_roundtrip_test.ts`.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { runNode } from "../../support/context.ts";
import { rigGlb } from "../../clients/roundtrip.ts";

/** The rigged fighter with every scene root under a new root of this transform. */
async function wrapped(glb: Uint8Array, transform: { rotation?: number[]; translation?: number[] }) {
  const doc = await readGltf(glb);
  const scene = doc.getRoot().listScenes()[0];
  const root = doc.createNode("Blender_root");
  if (transform.rotation) root.setRotation(transform.rotation as [number, number, number, number]);
  if (transform.translation) root.setTranslation(transform.translation as [number, number, number]);
  for (const child of scene.listChildren()) {
    scene.removeChild(child);
    root.addChild(child);
  }
  scene.addChild(root);
  return writeGlb(doc, { generator: GENERATOR });
}

async function riggedFighter() {
  return rigGlb(await writeGlb((await runNode(demoFighter, {}, {})).scene, { generator: GENERATOR }));
}

Deno.test("a rigged file turned Z up, extras kept: the recorded frame is dropped and found again, warned", async () => {
  const first = await riggedFighter();
  assertEquals(first.frame, { forward: "-Z", up: "+Y" });
  // +90° about X: glTF's +Y up becomes +Z up, as Blender writes with +Y Up off.
  const s = Math.SQRT1_2;
  const second = await rigGlb(await wrapped(first.glb, { rotation: [s, 0, 0, s] }));
  assertEquals(second.frame, { forward: "+Y", up: "+Z" });
  const warning = second.warnings.find((w) => w.includes("axes turned"));
  assert(warning?.includes("+Y Up"), second.warnings.join("\n"));
  assertEquals(
    second.parts.map((p) => [p.name, p.kind, p.side]),
    first.parts.map((p) => [p.name, p.kind, p.side]),
  );
});

Deno.test("a rigged file moved, not turned: the recorded frame is kept, no warning", async () => {
  const first = await riggedFighter();
  const second = await rigGlb(await wrapped(first.glb, { translation: [3, -2, 40] }));
  assertEquals(second.frame, first.frame);
  assert(!second.warnings.some((w) => w.includes("axes turned")), second.warnings.join("\n"));
});

Deno.test("a rigged file turned the other way about its span: the recorded frame is dropped", async () => {
  // Hinges along the span (most of the Sketchbook airplane's) stay put under such a turn; the lines
  // between the pivots turn all the same.
  const first = await riggedFighter();
  const s = Math.SQRT1_2;
  const second = await rigGlb(await wrapped(first.glb, { rotation: [-s, 0, 0, s] }));
  assert(second.warnings.some((w) => w.includes("axes turned")), second.warnings.join("\n"));
  assertEquals(second.frame, { forward: "-Y", up: "-Z" });
});
