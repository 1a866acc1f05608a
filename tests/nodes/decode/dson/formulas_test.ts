/**
 * ERC formulas are not evaluated. One that drives a morph or a bone of the decoded scene can change
 * what Daz shows (a controller dialled to 1 drives its morph there), so it is warned once, naming
 * the first such formula's JSON path and output; formulas driving nothing decoded stay quiet.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { dsonBytes, generateFigure, type Json } from "./generate.ts";

/** A figure with morph `M` at 0 and a controller `CTRL` dialled to 1 carrying `formulas`. */
function controlled(formulas: unknown[]): Json {
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  (json.modifier_library as Json[]).push(
    {
      id: "M",
      name: "M",
      parent: "#F_geo",
      channel: { id: "value", type: "float", value: 0 },
      morph: { vertex_count: 16, deltas: { count: 1, values: [[5, 0, 1, 0]] } },
    },
    {
      id: "CTRL",
      name: "CTRL",
      parent: "#F_geo",
      channel: { id: "value", type: "float", value: 0, current_value: 1 },
      formulas,
    },
  );
  ((json.scene as Json).modifiers as Json[]).push(
    { id: "M-1", url: "#M", parent: "#F_geo-1" },
    { id: "CTRL-1", url: "#CTRL", parent: "#F_geo-1" },
  );
  return json;
}

async function pipeline(json: Json) {
  const ctx = testContext();
  const bytes = { bytes: dsonBytes(json), name: "erc.duf" };
  const scene = (await runNode(decodeDson, { bytes }, {}, ctx)).scene as Document;
  const resolved = (await runNode(constraintsResolve, { scene }, {}, ctx)).scene;
  const glb = (await runNode(exportGltf, { scene: resolved }, {}, ctx)).bytes.bytes as Uint8Array;
  return { scene, glb, warnings: ctx.warnings.map((w) => w.message) };
}

Deno.test("dson formulas: formulas driving a decoded morph or bone are one warning naming the first; the morph keeps its written 0", async () => {
  const { scene, glb, warnings } = await pipeline(controlled([
    { output: "F:#Absent?value", operations: [{ op: "push", url: "F:#CTRL?value" }] },
    { output: "F:#M?value", operations: [{ op: "push", url: "F:#CTRL?value" }] },
    {
      output: "F:/data/Generated/figure.duf#F_bone1?rotation/x/value",
      operations: [{ op: "push", url: "F:#CTRL?value" }, { op: "push", val: 30 }, { op: "mult" }],
    },
  ]));
  assert.deepEqual(warnings, [
    "dson: erc.duf at /modifier_library/2/formulas/1: 2 ERC formula(s) driving morphs or bones of this scene " +
    "are not evaluated (the first outputs 'F:#M?value'): what they drive keeps its written value, so a " +
    "shape or pose Daz derives from controllers is not reproduced",
  ]);
  // Not evaluated: Daz would show M at 1 (the controller's value); the decode keeps the written 0.
  const mesh = scene.getRoot().listMeshes()[0];
  assert.deepEqual((mesh.getExtras() as Json).targetNames, ["M"]);
  assert.deepEqual(mesh.getWeights(), [0]);
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("dson formulas: formulas that drive nothing decoded, or are not formulas, are not warned", async () => {
  const { warnings } = await pipeline(controlled([
    { output: "F:#Absent?value", operations: [] },
    { output: "F:#F_bone1?visible", operations: [] },
    { operations: [] },
    "not a formula",
  ]));
  assert.deepEqual(warnings, []);
  // A bone's own formula driving another bone's channel is warned at the node.
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  (json.node_library as Json[])[2].formulas = [{ output: "#F_bone0?scale/general/value", operations: [] }];
  assert.deepEqual((await pipeline(json)).warnings, [
    "dson: erc.duf at /node_library/2/formulas/0: 1 ERC formula(s) driving morphs or bones of this scene " +
    "are not evaluated (the first outputs '#F_bone0?scale/general/value'): what they drive keeps its " +
    "written value, so a shape or pose Daz derives from controllers is not reproduced",
  ]);
});
