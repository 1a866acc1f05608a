/**
 * One mesh, two surfaces: `Elevons` drawn as one object with a piece on each side of the centre line
 * is split into `Elevons_L` and `Elevons_R`, each with its side, material and hinge; where it cannot
 * be split it is warned about and left whole. (V planforms in one piece: `split_centre_test.ts`.)
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { addAircraftMesh, sheet } from "./coarse_panels.ts";
import { axisErrorDegrees, newScene } from "./fixtures.ts";
import { nodeNamed, rig } from "./pipeline.ts";
import { validateGltf } from "../../support/validator.ts";
import { writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";

/** Two swept sheets, mirror images, in one mesh (aircraft coordinates: left is the third axis). */
function elevons() {
  const left = sheet([0, 1, 2], [0, 0.3, 0.6], 0.7, { z0: 0.5, x0: 3 });
  const right = sheet([0, -1, -2], [0, 0.3, 0.6], 0.7, { z0: -0.5, x0: 3 });
  const offset = left.positions.length / 3;
  return {
    positions: [...left.positions, ...right.positions],
    triangles: [...left.triangles, ...right.triangles.map((i) => i + offset)],
  };
}

Deno.test("a two-piece mesh across the centre line becomes two panels, each with its side and material", async () => {
  const doc = newScene();
  const { positions, triangles } = elevons();
  const node = addAircraftMesh(doc, "Elevons", positions, triangles);
  const material = doc.createMaterial("Paint");
  node.getMesh()!.listPrimitives()[0].setMaterial(material);
  node.setExtras({ author: "kept" });
  const result = await rig(doc);
  assertEquals(result.report.parts.map((p) => [p.panel, p.kind, p.side]), [
    ["Elevons_L", "elevon", "left"],
    ["Elevons_R", "elevon", "right"],
  ]);
  assert(result.ctx.warnings.some((w) => w.message.includes("split into 'Elevons_L' and 'Elevons_R'")));
  for (const part of result.report.parts) {
    assertEquals(
      (part.fit as unknown as { confidence: string }).confidence,
      "good",
      JSON.stringify(part.fit),
    );
    // Forward edge sweeps 0.3 aft per metre outboard: world (∓1, 0, 0.3).
    const expected: [number, number, number] = part.side === "left" ? [-1, 0, 0.3] : [1, 0, 0.3];
    assert(axisErrorDegrees(part.hinge!.world.axis, expected) < 0.01, JSON.stringify(part.hinge));
    const panel = nodeNamed(result.scene, part.panel!);
    assertEquals(panel.getMesh()!.listPrimitives().map((p) => p.getMaterial()?.getName()), ["Paint"]);
    assertEquals(panel.getMesh()!.listPrimitives()[0].getIndices()!.getCount(), 12);
    assertEquals((panel.getExtras() as { author?: string }).author, "kept");
  }
  const report = await validateGltf(await writeGlb(result.scene, { generator: GENERATOR }));
  assertEquals(report.errors, 0, report.messages.join("\n"));
});

Deno.test("a two-piece mesh that cannot be split (it has children) is warned about and left whole", async () => {
  const doc = newScene();
  const { positions, triangles } = elevons();
  const node = addAircraftMesh(doc, "Elevons", positions, triangles);
  node.addChild(doc.createNode("Marker"));
  const result = await rig(doc);
  assertEquals(result.report.parts.map((p) => p.panel), ["Elevons"]);
  assert(
    result.ctx.warnings.some((w) => w.message.includes("left whole because it has child nodes")),
    result.ctx.warnings.map((w) => w.message).join("\n"),
  );
});

Deno.test("one connected V across the centre line is cut in two; a rudder straddling it by its thickness is not", async () => {
  const doc = newScene();
  const v = sheet([-2, -1, 0, 1, 2], [0.6, 0.3, 0, 0.3, 0.6], 0.7, { z0: 0, x0: 3 });
  addAircraftMesh(doc, "Elevator", v.positions, v.triangles);
  // A rudder a little thick across the centre line: it reaches both sides, but only by its thickness.
  addAircraftMesh(doc, "Rudder", [5, 1, -0.02, 5.6, 1, 0.02, 5.3, 2.2, -0.02, 5.7, 2.2, 0.02], [
    0,
    2,
    1,
    1,
    2,
    3,
  ]);
  const result = await rig(doc);
  assertEquals(result.report.parts.map((p) => [p.panel, p.side]), [
    ["Elevator_L", "left"],
    ["Rudder", "centre"],
    ["Elevator_R", "right"],
  ]);
  const messages = result.ctx.warnings.map((w) => w.message);
  assertEquals(messages.filter((m) => m.includes("one connected piece")), []);
  assert(messages.some((m) => m.startsWith("panel 'Elevator' (elevator) was one V-shaped piece")));
});
