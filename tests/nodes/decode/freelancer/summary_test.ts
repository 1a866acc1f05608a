import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { summarizeParts } from "../../../../nodes/decode/freelancer/codec/summary.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { buildCompound } from "./fixtures.ts";

Deno.test("summarizeParts lists parts, parents, joints with their DOFs, hardpoints and LODs", async () => {
  const { scene } = await runNode(decodeCmp, { bytes: { bytes: buildCompound().bytes, name: "ship.cmp" } });
  const flat = summarizeParts(scene as Document);
  assert.equal(flat.length, 7);
  assert.ok(flat.every((p) => p.parent === undefined), "before resolve every part is a root");

  const { scene: resolved } = await runNode(constraintsResolve, { scene }, { pose: {} });
  const parts = Object.fromEntries(summarizeParts(resolved as Document).map((p) => [p.name, p]));
  assert.deepEqual(parts.Root.hardpoints, [{ name: "HpMount01", type: "fix" }, {
    name: "HpTurret01",
    type: "rev",
  }]);
  assert.equal(parts.Root.lods, 2);
  assert.equal(parts.Root.wireframe, true);
  assert.equal(parts.Barrel.parent, "Turret");
  assert.equal(parts.Barrel.joint, "pris");
  assert.deepEqual(parts.Barrel.dofs, [{ node: "Barrel_joint", ctrl_type: "translation", min: 0, max: 1.5 }]);
  assert.deepEqual(parts.Piston.dofs.map((d) => [d.node, d.ctrl_type]), [
    ["Piston_joint", "rotation"],
    ["Piston_slide", "translation"],
  ]);
  assert.equal(parts.Radar.dofs.length, 3);
  assert.deepEqual(parts.Wing.dofs, []);
  assert.equal(parts.Wing.joint, "fix");
  assert.equal(parts.Radar.lods, 0);
});

Deno.test("rig.parts takes every joint pivot as a part found by constraint", async () => {
  const { scene } = await runNode(decodeCmp, { bytes: { bytes: buildCompound().bytes, name: "ship.cmp" } });
  const { scene: resolved } = await runNode(constraintsResolve, { scene }, { pose: {} });
  const out = (await testContext().invoke("rig.parts", { scene: resolved })).scene as Document;
  const parts = out.getRoot().listNodes().filter((n) =>
    (n.getExtras().partgraph as { part?: unknown } | undefined)?.part
  );
  assert.equal(parts.length, 10, parts.map((n) => n.getName()).join());
  for (const node of parts) {
    const part = (node.getExtras().partgraph as { part: { found_by: string; kind: string } }).part;
    assert.equal(part.found_by, "constraint", node.getName());
    assert.ok(["rev", "pris", "cyl", "sphere", "loose"].includes(part.kind), part.kind);
  }
});

Deno.test("a resolved ship that went through Blender (flags written back as 1) is not resolved twice and keeps its hardpoints", async () => {
  const { scene } = await runNode(decodeCmp, { bytes: { bytes: buildCompound().bytes, name: "ship.cmp" } });
  const { scene: resolved } = await runNode(constraintsResolve, { scene }, { pose: {} });
  const doc = resolved as Document;
  // Blender 3.4 keeps a boolean custom property as an integer and writes it back as 1.
  const asBlenderWritesIt = (prop: { getExtras(): object; setExtras(e: object): unknown }) =>
    prop.setExtras(JSON.parse(JSON.stringify(prop.getExtras()).replaceAll(":true", ":1")));
  for (const prop of [...doc.getRoot().listScenes(), ...doc.getRoot().listNodes()]) asBlenderWritesIt(prop);
  const matrices = () => doc.getRoot().listNodes().map((n) => [n.getName(), n.getMatrix()]);
  const before = matrices();

  const ctx = testContext();
  const { scene: again } = await runNode(constraintsResolve, { scene: doc }, { pose: {} }, ctx);
  assert.deepEqual(
    (again as Document).getRoot().listNodes().map((n) => [n.getName(), n.getMatrix()]),
    before,
  );
  assert.ok(ctx.warnings.some((w) => w.message.includes("already resolved")), JSON.stringify(ctx.warnings));
  const root = summarizeParts(again as Document).find((p) => p.name === "Root")!;
  assert.deepEqual(root.hardpoints.map((h) => h.name), ["HpMount01", "HpTurret01"]);
});
