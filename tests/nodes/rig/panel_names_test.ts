/**
 * What a panel is called (`nodes/rig/panel_names.ts`; rig.insert_pivot v6, rig.report v9, rig.parts v9):
 * Assimp's FBX import hangs each model under `<name>_$AssimpFbx$_<kind>` helpers, and the outermost is
 * the panel (the helpers turn with it), yet the pivot and report call it `<name>`; SketchUp's
 * `Component#n` instances and unnamed nodes are called by their meshes' names, the pivots of two
 * instances of one definition told apart by the side the rig gave each (`HINGE_auto_Aileron_L`). The report gives the panel node's path besides, and a file written back
 * without extras (Blender's default) finds the pivots again instead of pivoting the panels twice.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document, Node } from "@gltf-transform/core";
import { sub, type Vec3 } from "../../../nodes/rig/transform.ts";
import { axisAngle, axisErrorDegrees, newScene } from "./fixtures.ts";
import { lightAircraft, type ShapePart } from "./real_shapes.ts";
import { nodeNamed, pivotNames, type ReportPart, rig, withoutExtras } from "./pipeline.ts";

/** A mesh node `name` (mesh `mesh`) of `part`'s positions less `offset`, under `parent`. */
function meshNode(
  doc: Document,
  parent: Node,
  part: ShapePart,
  name: string,
  mesh: string,
  offset: Vec3,
): Node {
  const buffer = doc.getRoot().listBuffers()[0];
  const positions = Float32Array.from(part.positions, (v, i) => v - offset[i % 3]);
  const primitive = doc.createPrimitive()
    .setAttribute("POSITION", doc.createAccessor("", buffer).setType("VEC3").setArray(positions))
    .setIndices(doc.createAccessor("", buffer).setType("SCALAR").setArray(new Uint32Array(part.indices)));
  const node = doc.createNode(name).setMesh(doc.createMesh(mesh).addPrimitive(primitive));
  parent.addChild(node);
  return node;
}

/** The centre of a part's bounding box. */
function centre(part: ShapePart): Vec3 {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  part.positions.forEach((v, i) => {
    lo[i % 3] = Math.min(lo[i % 3], v);
    hi[i % 3] = Math.max(hi[i % 3], v);
  });
  return [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2) as Vec3;
}

/**
 * The light aircraft as Assimp imports an FBX of it: `<name>_$AssimpFbx$_Translation` (at the part)
 * → `_PreRotation` (Maya's −90° about X) → `_Rotation` (undoing it) → `<name>` → its mesh on
 * `<name>_$AssimpFbx$_GeometricTranslation`, 5 cm off.
 */
function assimpAircraft(parts: ShapePart[]): Document {
  const doc = newScene();
  const root = doc.createNode("RootNode");
  doc.getRoot().getDefaultScene()!.addChild(root);
  for (const part of parts) {
    const at = centre(part);
    const helper = (kind: string) => doc.createNode(`${part.name}_$AssimpFbx$_${kind}`);
    const translation = helper("Translation").setTranslation(at);
    const pre = helper("PreRotation").setRotation(axisAngle([1, 0, 0], -90));
    const rotation = helper("Rotation").setRotation(axisAngle([1, 0, 0], 90));
    const model = doc.createNode(part.name);
    const geometric = helper("GeometricTranslation").setTranslation([0, 0, 0.05]);
    root.addChild(translation);
    translation.addChild(pre);
    pre.addChild(rotation);
    rotation.addChild(model);
    model.addChild(geometric);
    meshNode(doc, geometric, part, "", `${part.name}Mesh`, [at[0], at[1], at[2] + 0.05]);
  }
  return doc;
}

/** Each surface's true hinge against its reported one, found by what the report calls its panel. */
function assertHinges(
  parts: readonly ShapePart[],
  report: readonly ReportPart[],
  called: (p: ShapePart) => string,
) {
  for (const part of parts) {
    if (!part.truth) continue;
    const found = report.filter((p) => p.panel === called(part));
    assertEquals(
      found.length,
      1,
      `${called(part)} reported once: ${JSON.stringify(report.map((p) => p.panel))}`,
    );
    const degrees = axisErrorDegrees(found[0].hinge!.world.axis, sub(part.truth.tip, part.truth.root));
    assert(degrees < 1, `${called(part)}: hinge ${degrees.toFixed(3)}° off`);
    assertEquals([found[0].kind, found[0].side], [part.truth.kind, part.truth.side], called(part));
  }
}

Deno.test("Assimp FBX helpers: the outermost helper turns, called by the model's name in pivot and report", async () => {
  // Before rig.insert_pivot v6 / rig.report v9: HINGE_auto_Aileron_L_$AssimpFbx$_Translation, panel
  // `Aileron_L_$AssimpFbx$_Translation`.
  const parts = lightAircraft();
  const result = await rig(assimpAircraft(parts), { forward: "-Z", up: "+Y" });
  assertHinges(parts, result.report.parts, (p) => p.name);
  for (const part of parts.filter((p) => p.truth)) {
    const reported = result.report.parts.find((p) => p.panel === part.name)!;
    assertEquals(reported.name, `HINGE_auto_${part.name}`);
    assertEquals(reported.panel_named_by, "node");
    assertEquals(
      reported.panel_path,
      `RootNode/HINGE_auto_${part.name}/${part.name}_$AssimpFbx$_Translation`,
    );
    // The helpers turn with the panel: the outermost hangs under the pivot.
    const outer = nodeNamed(result.scene, `${part.name}_$AssimpFbx$_Translation`);
    assertEquals(outer.getParentNode()?.getName(), `HINGE_auto_${part.name}`);
  }
  // Written back without extras, the pivots are found again, none nested under another.
  const before = pivotNames(result.scene);
  const again = await rig(await withoutExtras(result.scene), { forward: "-Z", up: "+Y" });
  assertEquals(pivotNames(again.scene), before);
  assertEquals(before.nested, 0);
  assertHinges(parts, again.report.parts, (p) => p.name);
});

Deno.test("SketchUp: two instances of one definition are called by its mesh's name, their pivots by side", async () => {
  // Before rig.insert_pivot v6: HINGE_auto_Component#3, and `HINGE_auto_` for unnamed nodes (two alike).
  const parts = lightAircraft();
  const doc = newScene();
  const group = doc.createNode("Group#12");
  doc.getRoot().getDefaultScene()!.addChild(group);
  // Ailerons are instances Component#n of one definition `Aileron`; elevators unnamed nodes of `Elevator`.
  const called = (p: ShapePart) => p.name.replace(/_[LR]$/, "");
  // The second instance draws the first's mesh mirrored, as SketchUp writes a flipped copy.
  const first = new Map<string, Node>();
  parts.forEach((part, i) => {
    const surface = /^(Aileron|Elevator)_[LR]$/.test(part.name);
    const name = !surface ? part.name : part.name.startsWith("Aileron") ? `Component#${i + 3}` : "";
    const node = meshNode(doc, group, part, name, surface ? called(part) : part.name, [0, 0, 0]);
    if (!surface) return;
    const shared = first.get(called(part));
    if (!shared) first.set(called(part), node);
    else {
      node.getMesh()!.dispose();
      node.setMesh(shared.getMesh()).setScale([-1, 1, 1]);
    }
  });
  const result = await rig(doc, { forward: "-Z", up: "+Y" });
  for (const surface of ["Aileron", "Elevator"]) {
    const found = result.report.parts.filter((p) => p.panel === surface);
    assertEquals(found.map((p) => p.side).sort(), ["left", "right"], surface);
    assertEquals(found.map((p) => p.panel_named_by), ["mesh", "mesh"]);
    // The name both instances share says the side the rig gave each (rig.insert_pivot v7; before,
    // numbered in file order: HINGE_auto_Aileron, HINGE_auto_Aileron_1).
    const order = parts.filter((p) => p.name.startsWith(surface)).map((p) => p.name.slice(-1));
    assertEquals(
      found.map((p) => [p.name, p.side]),
      order.map((side) => [`HINGE_auto_${surface}_${side}`, side === "L" ? "left" : "right"]),
    );
    // The unnamed elevator nodes are written under their mesh's name (export.gltf v26), as the path says.
    for (const p of found) {
      assert(
        /^Group#12\/HINGE_auto_\w+\/(Component#\d+|Elevator(_\d+)?)$/.test(p.panel_path!),
        p.panel_path!,
      );
    }
  }
  // The nodes themselves are named apart before export (no two pivots of one name in the scene).
  const names = pivotNames(result.scene).names;
  assertEquals(new Set(names).size, names.length, names.join(", "));
  // A node called by its own name is reported as before.
  const rudder = result.report.parts.find((p) => p.panel === "Rudder")!;
  assertEquals([rudder.name, rudder.panel_named_by, rudder.panel_path], [
    "HINGE_auto_Rudder",
    "node",
    "Group#12/HINGE_auto_Rudder/Rudder",
  ]);
  // Written back without extras, the numbered pivots find their panels again.
  const again = await rig(await withoutExtras(result.scene), { forward: "-Z", up: "+Y" });
  assertEquals(pivotNames(again.scene), pivotNames(result.scene));
  assertEquals(pivotNames(again.scene).nested, 0);
  // The two unnamed elevators were written as `Elevator` and `Elevator_1` (export.gltf v26 names an
  // unnamed node after its mesh, a repeat numbered), so the second's panel is read as that name.
  const unnumbered = (panel: string | null) => panel?.replace(/_\d+$/, "");
  assertEquals(
    again.report.parts.map((p) => [p.name, unnumbered(p.panel), p.side]),
    result.report.parts.map((p) => [p.name, p.panel, p.side]),
  );
});
