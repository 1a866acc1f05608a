/**
 * ERC formulas: those driving a morph from other modifiers' values on the same mesh (a controller
 * dialled to 1 moving its morph) are evaluated as the DSON spec's `formula` says — RPN operations,
 * `sum` formulas added to the morph's own value, `multiply` ones scaling the sum, a `clamped`
 * channel kept in its range (bone inputs and splines: `jcm_formulas_test.ts`). The others (a
 * TCB spline off its keys, a node's orientation, loops) are not: one that drives
 * a morph or a bone of the decoded scene is warned once, naming the first such formula's JSON path
 * and output; formulas driving nothing decoded stay quiet.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { controlledFigure, dsonBytes, generateFigure, type Json } from "./generate.ts";

async function pipeline(json: Json) {
  const ctx = testContext();
  const bytes = { bytes: dsonBytes(json), name: "erc.duf" };
  const scene = (await runNode(decodeDson, { bytes }, {}, ctx)).scene as Document;
  const resolved = (await runNode(constraintsResolve, { scene }, {}, ctx)).scene;
  const glb = (await runNode(exportGltf, { scene: resolved }, {}, ctx)).bytes.bytes as Uint8Array;
  return { scene, glb, warnings: ctx.warnings.map((w) => w.message) };
}

/** A spline operation (a joint-controlled morph's curve), which the decode does not evaluate. */
const SPLINE = { op: "spline_tcb", val: [2, [0, 0, 0, 0, 0], [1, 1, 0, 0, 0]] };

Deno.test("dson formulas: formulas not evaluated that drive a decoded morph or bone are one warning naming the first; the morph keeps its written 0", async () => {
  const { scene, glb, warnings } = await pipeline(controlledFigure([
    { output: "F:#Absent?value", operations: [{ op: "push", url: "F:#CTRL?value" }] },
    { output: "F:#M?value", operations: [{ op: "push", url: "F:#CTRL?value" }, SPLINE] },
    // A bone's orientation (its rest axes) moves with a dial since decode.dson v58; one reading a
    // bone's pose is no form the rest frame's formulas take: not evaluated.
    {
      output: "F:/data/Generated/figure.duf#F_bone1?orientation/x/value",
      operations: [{ op: "push", url: "F:#F_bone0?rotation/x" }, { op: "push", val: 30 }, { op: "mult" }],
    },
  ]));
  assert.deepEqual(warnings, [
    "dson: erc.duf at /modifier_library/2/formulas/1: 2 ERC formula(s) driving morphs or bones of this scene " +
    "are not evaluated (the first outputs 'F:#M?value'): what they drive keeps its written value, so a " +
    "shape or pose Daz derives from controllers is not reproduced",
  ]);
  // Not evaluated: Daz would show M on the spline's curve; the decode keeps the written 0.
  const mesh = scene.getRoot().listMeshes()[0];
  assert.deepEqual((mesh.getExtras() as Json).targetNames, ["M"]);
  assert.deepEqual(mesh.getWeights(), [0]);
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("dson formulas: formulas that drive nothing decoded, or are not formulas, are not warned", async () => {
  const { warnings } = await pipeline(controlledFigure([
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

/** The decoded weight of each morph of the one mesh, by id (rounded to 1e-6). */
async function weights(json: Json): Promise<{ weights: Record<string, number>; warnings: string[] }> {
  const { scene, warnings, glb } = await pipeline(json);
  const mesh = scene.getRoot().listMeshes()[0];
  const names = (mesh.getExtras() as { targetNames: string[] }).targetNames;
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
  return {
    weights: Object.fromEntries(names.map((name, k) => [name, Math.round(mesh.getWeights()[k] * 1e6) / 1e6])),
    warnings,
  };
}

/** A modifier of the generated figure: a morph of vertex 5 when `morph`, else a controller. */
function modifier(
  id: string,
  value: number,
  formulas: unknown[] = [],
  morph = true,
  channel: Json = {},
): Json {
  return {
    id,
    name: id,
    parent: "#F_geo",
    channel: { id: "value", type: "float", value: 0, current_value: value, ...channel },
    formulas,
    ...(morph ? { morph: { vertex_count: 16, deltas: { count: 1, values: [[5, 0, 1, 0]] } } } : {}),
  };
}

const push = (url: string) => ({ op: "push", url: `F:#${url}?value` });
const val = (n: number) => ({ op: "push", val: n });
const modifiers = (json: Json) => json.modifier_library as Json[];

Deno.test("dson formulas: a controller's formulas drive its morphs at the scene's dials, as the DSON spec combines them", async () => {
  // Before (decode.dson v14) none was evaluated: every morph kept its written value (here 0 or
  // 0.2), with one warning.
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  (json.modifier_library as Json[]).push(
    // CTRL at 1 drives Half by half its value.
    modifier(
      "CTRL",
      1,
      [{ output: "F:#Half?value", operations: [push("CTRL"), val(0.5), { op: "mult" }] }],
      false,
    ),
    modifier("Half", 0),
    // Mixed: own 0.2 + CTRL (1) + 0.3, times Scale (0.5): (0.2 + 1 + 0.3) · 0.5 = 0.75.
    modifier("Scale", 0.5, [], false),
    modifier("Mixed", 0.2, [
      { output: "#Mixed?value", operations: [push("CTRL")] },
      { output: "#Mixed?value", operations: [val(0.3)], stage: "sum" },
      { output: "#Mixed?value", operations: [push("Scale")], stage: "mult" },
    ]),
    // A chain: Twice = 2 · CTRL = 2 drives Clamped, whose clamped channel keeps it at 1.
    modifier(
      "Twice",
      0,
      [{ output: "#Twice?value", operations: [push("CTRL"), val(2), { op: "mult" }] }],
      false,
    ),
    modifier("Clamped", 0, [{ output: "#Clamped?value", operations: [push("Twice")] }], true, {
      min: 0,
      max: 1,
      clamped: true,
    }),
    // RPN order: 3 − 1 = 2 (not −2), 1 / 4 = 0.25 (not 4); `multiply`, the spec's spelling.
    modifier("Order", 0, [
      { output: "#Order?value", operations: [val(3), val(1), { op: "sub" }] },
      { output: "#Order?value", operations: [val(1), val(4), { op: "div" }], stage: "multiply" },
    ]),
  );
  const { weights: got, warnings } = await weights(json);
  assert.deepEqual(warnings, []);
  assert.deepEqual(got, { Half: 0.5, Mixed: 0.75, Clamped: 1, Order: 0.5 });
  // The scene's dial of the controller is the value formulas read.
  (json.scene as { modifiers: Json[] }).modifiers.push({
    id: "CTRL-1",
    url: "#CTRL",
    parent: "#F_geo-1",
    channel: { id: "value", current_value: 0.4 },
  });
  const dialled = await weights(json);
  assert.deepEqual(dialled.weights, { Half: 0.2, Mixed: 0.45, Clamped: 0.8, Order: 0.5 });
});

Deno.test("dson formulas: a morph with a formula that cannot be evaluated, or in a loop, keeps its value and is warned", async () => {
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  modifiers(json).push(
    modifier("CTRL", 1, [], false),
    // One evaluable formula beside a spline: evaluating half of what drives it would be wrong.
    modifier("Part", 0.1, [
      { output: "#Part?value", operations: [push("CTRL")] },
      { output: "#Part?value", operations: [push("CTRL"), SPLINE] },
    ]),
    // A loop: A drives B, B drives A.
    modifier("A", 0.25, [{ output: "#B?value", operations: [push("A")] }]),
    modifier("B", 0.5, [{ output: "#A?value", operations: [push("B")] }]),
    // A bone's orientation as input (its axis frame, not a pose channel: not evaluated; a bone's
    // rotation is, see jcm_formulas_test.ts).
    modifier("Bent", 0, [{
      output: "#Bent?value",
      operations: [{ op: "push", url: "F:#F_bone1?orientation/x/value" }],
    }]),
  );
  // A bone's own formula driving a controlled morph: evaluating the controller's alone would be half.
  modifiers(json).push(modifier("ByBone", 0, [{ output: "#ByBone?value", operations: [push("CTRL")] }]));
  (json.node_library as Json[])[2].formulas = [{ output: "#ByBone?value", operations: [val(1)] }];
  const { weights: got, warnings } = await weights(json);
  assert.deepEqual(got, { Part: 0.1, A: 0.25, B: 0.5, Bent: 0, ByBone: 0 });
  assert.deepEqual(warnings, [
    "dson: erc.duf at /node_library/2/formulas/0: 7 ERC formula(s) driving morphs or bones of this scene " +
    "are not evaluated (the first outputs '#ByBone?value'): what they drive keeps its written value, so a shape " +
    "or pose Daz derives from controllers is not reproduced",
  ]);
});
