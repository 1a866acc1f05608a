/**
 * ERC formulas reading bones and splines, and presets driving formulas again. Daz's joint
 * correctives ("pJCM" morphs, which keep an elbow or knee from collapsing when bent) are driven by
 * a bone's rotation through a spline and scaled by a `mult` stage ("JCMs On"); shape controllers
 * drive several morphs. The figures are code-made in that shape (Genesis 8's names and URL forms)
 * and the expected weights are computed here from the curve's keys, not read from the decoder.
 */
import assert from "node:assert/strict";
import type { Document, Mesh } from "@gltf-transform/core";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import {
  channels,
  gridPosition,
  type Json,
  libraryFigure,
  posePreset,
  shapePreset,
  splineCorrective,
} from "./generate.ts";
import { JCM, JCM_DELTA_CM, JCM_FIGURE_FILE, jcmCurve, jcmFigure } from "./jcm_figure.ts";
import { applyPreset, decodeJson, withContentFiles } from "./dson_runs.ts";

const decode = (json: Json) => decodeJson(json, "Genesis8Female.duf");

function meshOf(scene: Document): Mesh {
  return scene.getRoot().listMeshes()[0];
}

/** Each morph's weight by target name. */
function weightsOf(scene: Document): Record<string, number> {
  const mesh = meshOf(scene);
  const names = (mesh.getExtras() as { targetNames: string[] }).targetNames;
  return Object.fromEntries(names.map((name, k) => [name, mesh.getWeights()[k]]));
}

/**
 * Where the glTF puts DSON vertex 5 (grid (1, 1)) with its morphs at their weights: found by its
 * base position, then base + Σ weight · target delta (metres).
 */
function morphedVertex5(scene: Document): number[] {
  const mesh = meshOf(scene);
  const [prim] = mesh.listPrimitives();
  const position = prim.getAttribute("POSITION")!;
  const base = gridPosition(1, 1).map((v) => v * 0.01);
  let found = -1;
  for (let i = 0; i < position.getCount(); i++) {
    const p = position.getElement(i, [] as number[]);
    if (p.every((v, k) => Math.abs(v - base[k]) < 1e-7)) found = i;
  }
  assert.ok(found >= 0, "vertex 5 is in the mesh");
  const out = position.getElement(found, [] as number[]) as number[];
  prim.listTargets().forEach((target, t) => {
    const delta = target.getAttribute("POSITION")!.getElement(found, [] as number[]);
    for (let k = 0; k < 3; k++) out[k] += mesh.getWeights()[t] * delta[k];
  });
  return out;
}

Deno.test("dson JCM formulas: a corrective driven by the forearm's rotation through a linear spline and a mult stage takes the curve's value at the decoded pose", async () => {
  for (const bend of [0, -45, -90, -135, -150, 20]) {
    const { scene, warnings } = await decode(jcmFigure(bend));
    assert.deepEqual(warnings, [], `bend ${bend}`);
    const expected = jcmCurve(bend);
    assert.ok(Math.abs(weightsOf(scene)[JCM] - expected) < 1e-9, `bend ${bend}: ${weightsOf(scene)[JCM]}`);
    // The morph moves the vertex: 2 cm along +Y at weight 1.
    const [x, y, z] = morphedVertex5(scene);
    assert.ok(Math.abs(x - 0.01) < 1e-7 && Math.abs(z) < 1e-7);
    assert.ok(Math.abs(y - (0.01 + expected * JCM_DELTA_CM * 0.01)) < 1e-6, `bend ${bend}: y ${y}`);
  }
  // -90° is two thirds of the way to the 135° key; "JCMs On" at 0.5 halves it, at 0 turns it off.
  assert.ok(Math.abs(jcmCurve(-90) - 2 / 3) < 1e-12, "the reference curve");
  const half = await decode(jcmFigure(-90, "spline_linear", 0.5));
  assert.ok(Math.abs(weightsOf(half.scene)[JCM] - 1 / 3) < 1e-9);
  assert.equal(weightsOf((await decode(jcmFigure(-90, "spline_linear", 0))).scene)[JCM], 0);
  // The GLB is valid with the evaluated weight.
  const ctx = testContext();
  const glb = (await runNode(exportGltf, { scene: half.scene }, {}, ctx)).bytes.bytes as Uint8Array;
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("dson JCM formulas: a TCB spline is evaluated on its keys and warned between them", async () => {
  // At rest (0°, the first key) and at 135° (the second), a TCB curve passes through its keys.
  for (const bend of [0, -135]) {
    const { scene, warnings } = await decode(jcmFigure(bend, "spline_tcb"));
    assert.deepEqual(warnings, []);
    assert.equal(weightsOf(scene)[JCM], jcmCurve(bend));
  }
  // Past its end keys it holds them, as the readers that evaluate it (Diffeomorphic, pymods) do.
  for (const [bend, held] of [[-150, 1], [20, 0]]) {
    const { scene, warnings } = await decode(jcmFigure(bend, "spline_tcb"));
    assert.deepEqual(warnings, []);
    assert.equal(weightsOf(scene)[JCM], held);
  }
  // Between keys the readers disagree: the DSON spec's Kochanek–Bartels reading is used (two knots of
  // zero tension, continuity and bias with reflected end chords: the line, 2/3 at s = 45/135 = 1/3),
  // warned with pymods's (tangents −1/2 at both keys, each end key its own neighbour:
  // h00 + h10·(−½) + h11·(−½) = 19/27) and the straight one.
  const { scene, warnings } = await decode(jcmFigure(-90, "spline_tcb"));
  const s = 1 / 3, h00 = 2 * s ** 3 - 3 * s ** 2 + 1, h10 = s ** 3 - 2 * s ** 2 + s, h11 = s ** 3 - s ** 2;
  assert.ok(Math.abs(h00 - 0.5 * h10 - 0.5 * h11 - 19 / 27) < 1e-12);
  assert.ok(Math.abs(weightsOf(scene)[JCM] - 2 / 3) < 1e-6, `${weightsOf(scene)[JCM]}`);
  const round = (x: number) => Number(x.toPrecision(4));
  assert.deepEqual(warnings, [
    "dson: Genesis8Female.duf at /modifier_library/2/formulas/0: ERC formula driving " +
    `'Genesis8Female:${
      encodeURI(JCM_FIGURE_FILE)
    }#${JCM}?value': its spline_tcb's input -90 lies between keys ` +
    `(-135, 1) and (0, 0): read as the DSON spec's Kochanek–Bartels spline (each knot's own tension, ` +
    `continuity and bias, as Daz's keyed channels) it gives ${round(2 / 3)}, used; pymods reads ${
      round(19 / 27)
    }, Diffeomorphic (straight) ${round(2 / 3)}; up to ${round(19 / 27 - 2 / 3)} apart (Daz's end tangents ` +
    "are not published)",
  ]);
});

Deno.test("dson JCM formulas: inputs that cannot be known stay warned: a bone a node's formula drives, a bone of no figure here, a node's orientation", async () => {
  const morph = (id: string, input: string): Json => ({
    id,
    name: id,
    parent: "#Genesis8Female_geo",
    channel: { id: "value", type: "float", value: 0 },
    formulas: [{ output: `#${id}?value`, operations: [{ op: "push", url: input }] }],
    morph: { vertex_count: 16, deltas: { count: 1, values: [[6, 0, 1, 0]] } },
  });
  const extra = [
    morph("pJCMShldrUp_90_L", `lShldrBend:${encodeURI(JCM_FIGURE_FILE)}#lShldrBend?rotation/z/value`),
    morph("pJCMForeArmFwd_135_R", `rForearmBend:${encodeURI(JCM_FIGURE_FILE)}#rForearmBend?rotation/y/value`),
    morph("OrientationDriven", `lForearmBend:${encodeURI(JCM_FIGURE_FILE)}#lForearmBend?orientation/y/value`),
  ];
  // The shoulder's own definition drives its bend (a formula of a node, not of a modifier of the
  // mesh: not evaluated), and the shoulder's JCM reads that channel.
  const figure = jcmFigure(-90, "spline_linear", 1, extra);
  (figure.node_library as Json[])[1].formulas = [{
    output: `lShldrBend:${encodeURI(JCM_FIGURE_FILE)}#lShldrBend?rotation/z/value`,
    operations: [{ op: "push", val: 80 }],
  }];
  const { scene, warnings } = await decode(figure);
  const weights = weightsOf(scene);
  // The evaluable JCM is still evaluated beside them.
  assert.ok(Math.abs(weights[JCM] - 2 / 3) < 1e-9);
  assert.deepEqual(
    [weights.pJCMShldrUp_90_L, weights.pJCMForeArmFwd_135_R, weights.OrientationDriven],
    [0, 0, 0],
  );
  // The shoulder's bone formula and the three morphs' formulas.
  assert.deepEqual(warnings, [
    "dson: Genesis8Female.duf at /node_library/1/formulas/0: 4 ERC formula(s) driving morphs or bones of this " +
    `scene are not evaluated (the first outputs 'lShldrBend:${
      encodeURI(JCM_FIGURE_FILE)
    }#lShldrBend?rotation/z/value'): ` +
    "what they drive keeps its written value, so a shape or pose Daz derives from controllers is not reproduced",
  ]);
  // A preset bending the forearm drives the JCM again; the three it cannot know read nothing it
  // changed, so it says nothing new of them (the decode did).
  const bent = await applyPreset(scene, posePreset([["lForearmBend", "rotation/y", -45]]));
  assert.deepEqual(bent.warnings, []);
  assert.ok(Math.abs(weightsOf(bent.scene)[JCM] - jcmCurve(-45)) < 1e-9);
  assert.equal(weightsOf(bent.scene).pJCMShldrUp_90_L, 0);
});

Deno.test("dson JCM formulas: a pose preset bending the forearm drives its corrective, a second preset starts from it, and the decoded scene is untouched", async () => {
  const { scene: decoded } = await decode(jcmFigure(0));
  assert.equal(weightsOf(decoded)[JCM], 0);
  // Before (dson.apply_preset v9): the elbow bent and the corrective stayed at 0.
  const bent = await applyPreset(decoded, posePreset([["lForearmBend", "rotation/y", -90]]));
  assert.deepEqual(bent.warnings, []);
  assert.ok(Math.abs(weightsOf(bent.scene)[JCM] - jcmCurve(-90)) < 1e-9, String(weightsOf(bent.scene)[JCM]));
  const [, y] = morphedVertex5(bent.scene);
  assert.ok(Math.abs(y - (0.01 + jcmCurve(-90) * JCM_DELTA_CM * 0.01)) < 1e-6);
  // A shape preset turning "JCMs On" to 0.5 afterwards: the bend is kept, the corrective halves.
  const dimmed = await applyPreset(bent.scene, shapePreset([["JCMsOn", 0.5]]));
  assert.deepEqual(dimmed.warnings, []);
  assert.ok(Math.abs(weightsOf(dimmed.scene)[JCM] - jcmCurve(-90) / 2) < 1e-9);
  // Fully bent (and beyond the last key) is 1.
  const full = await applyPreset(decoded, posePreset([["lForearmBend", "rotation/y", -160]]));
  assert.equal(weightsOf(full.scene)[JCM], 1);
  assert.equal(weightsOf(decoded)[JCM], 0, "the decoded scene is not changed");
  const kept = (meshOf(decoded).getExtras() as { partgraph: { dson: { formulas: { bones: Json } } } })
    .partgraph.dson.formulas.bones;
  assert.deepEqual(Object.values(kept), [0]);
});

Deno.test("dson JCM formulas: formulas edited in the mesh's extras into something else are a warning; the morph keeps its weight", async () => {
  const { scene } = await decode(jcmFigure(0));
  const dson = getPartgraphExtras(meshOf(scene)).dson as Json;
  setPartgraphExtras(meshOf(scene), { dson: { ...dson, formulas: { channels: 1 } } as never });
  const bent = await applyPreset(scene, posePreset([["lForearmBend", "rotation/y", -90]]));
  assert.equal(weightsOf(bent.scene)[JCM], 0);
  assert.deepEqual(bent.warnings, [
    "dson preset: 1 mesh(es) carry extras.partgraph.dson.formulas that are not the formulas decode.dson " +
    "writes; their morphs are not re-evaluated: Genesis8Female_geo-1",
  ]);
});

Deno.test("dson JCM formulas: a TCB corrective posed between its keys takes the spec's Kochanek–Bartels reading, with a warning", async () => {
  const { scene: decoded } = await decode(jcmFigure(0, "spline_tcb"));
  const onKey = await applyPreset(decoded, posePreset([["lForearmBend", "rotation/y", -135]]));
  assert.deepEqual(onKey.warnings, []);
  assert.equal(weightsOf(onKey.scene)[JCM], 1);
  const between = await applyPreset(decoded, posePreset([["lForearmBend", "rotation/y", -100]]));
  // s = 35/135 of the span (−135, 1) → (0, 0): the spec's reading is the line, 1 − 7/27 = 20/27;
  // pymods's, both tangents −1/2: h00 − (h10 + h11)/2.
  const s = 35 / 135, h00 = 2 * s ** 3 - 3 * s ** 2 + 1, h10 = s ** 3 - 2 * s ** 2 + s, h11 = s ** 3 - s ** 2;
  const pymods = h00 - (h10 + h11) / 2;
  assert.ok(Math.abs(weightsOf(between.scene)[JCM] - 20 / 27) < 1e-6, `${weightsOf(between.scene)[JCM]}`);
  const round = (x: number) => Number(x.toPrecision(4));
  assert.deepEqual(between.warnings, [
    "dson preset: 1 ERC formula(s) met a spline_tcb input between its keys, where readers disagree; the DSON " +
    `spec's Kochanek–Bartels reading is used: Genesis8Female_geo-1/${JCM}: input -100 lies between keys ` +
    `(-135, 1) and (0, 0): read as the DSON spec's Kochanek–Bartels spline (each knot's own tension, ` +
    `continuity and bias, as Daz's keyed channels) it gives ${round(20 / 27)}, used; pymods reads ${
      round(pymods)
    }, Diffeomorphic (straight) ${round(20 / 27)}; up to ${round(pymods - 20 / 27)} apart (Daz's end ` +
    "tangents are not published)",
  ]);
});

Deno.test("dson JCM formulas: a preset that does not move a TCB corrective between its keys does not warn of it again", async () => {
  // The forearm bent to −90° (between the keys, warned by the decode) and a controller driving a
  // morph of its own; a preset dialling the controller leaves the corrective where the decode put it.
  const extra = [
    {
      id: "CTRLBodyTone",
      name: "CTRLBodyTone",
      parent: "#Genesis8Female_geo",
      channel: { id: "value", type: "float", value: 0, min: 0, max: 1 },
    },
    {
      id: "BodyToneArms",
      name: "BodyToneArms",
      parent: "#Genesis8Female_geo",
      channel: { id: "value", type: "float", value: 0 },
      formulas: [{
        output: "#BodyToneArms?value",
        operations: [{ op: "push", url: "Genesis8Female:#CTRLBodyTone?value" }],
      }],
      morph: { vertex_count: 16, deltas: { count: 1, values: [[9, 1, 0, 0]] } },
    },
  ];
  const { scene: decoded, warnings } = await decode(jcmFigure(-90, "spline_tcb", 1, extra));
  assert.equal(warnings.filter((w) => w.includes("spline_tcb")).length, 1);
  const { scene, warnings: preset } = await applyPreset(decoded, shapePreset([["CTRLBodyTone", 0.5]]));
  assert.deepEqual(preset, []);
  assert.equal(weightsOf(scene).BodyToneArms, 0.5);
  // 2/3 (see the decode test above), as the decode gave it.
  assert.ok(Math.abs(weightsOf(scene)[JCM] - 2 / 3) < 1e-6, `${weightsOf(scene)[JCM]}`);
});

Deno.test("dson JCM formulas: a shape preset dialling a body controller moves the two morphs it drives", async () => {
  const morph = (id: string, vertex: number, own: number, formulas: Json[], channel: Json = {}): Json => ({
    id,
    name: id,
    parent: "#Genesis8Female_geo",
    channel: { id: "value", type: "float", value: own, ...channel },
    formulas,
    morph: { vertex_count: 16, deltas: { count: 1, values: [[vertex, 1, 0, 0]] } },
  });
  const ctrl = { op: "push", url: "Genesis8Female:#CTRLBodyTone?value" };
  const extra = [
    {
      id: "CTRLBodyTone",
      name: "CTRLBodyTone",
      parent: "#Genesis8Female_geo",
      channel: { id: "value", type: "float", value: 0, min: 0, max: 1, clamped: true },
    },
    // Arms at 0.8 of the controller; legs at their own 0.1 plus the controller, clamped to 1.
    morph("BodyToneArms", 9, 0, [{
      output: "#BodyToneArms?value",
      operations: [ctrl, { op: "push", val: 0.8 }, { op: "mult" }],
    }]),
    morph("BodyToneLegs", 10, 0.1, [{ output: "#BodyToneLegs?value", operations: [ctrl] }], {
      min: 0,
      max: 1,
      clamped: true,
    }),
  ];
  const { scene: decoded, warnings } = await decode(jcmFigure(0, "spline_linear", 1, extra));
  assert.deepEqual(warnings, []);
  assert.deepEqual([weightsOf(decoded).BodyToneArms, weightsOf(decoded).BodyToneLegs], [0, 0.1]);
  // Before (v9): the controller was "a value naming no morph" and both morphs stayed put.
  for (const [dial, arms, legs] of [[0.5, 0.4, 0.6], [1, 0.8, 1]]) {
    const { scene, warnings } = await applyPreset(decoded, shapePreset([["CTRLBodyTone", dial]]));
    assert.deepEqual(warnings, [], `dial ${dial}`);
    const got = weightsOf(scene);
    assert.ok(
      Math.abs(got.BodyToneArms - arms) < 1e-9 && Math.abs(got.BodyToneLegs - legs) < 1e-9,
      `dial ${dial}`,
    );
    assert.equal(got[JCM], 0, "the corrective's inputs did not change");
  }
  // A morph the preset sets directly joins the controller's push as its own value: 0.3 + 0.5.
  const both = await applyPreset(decoded, shapePreset([["CTRLBodyTone", 0.5], ["BodyToneLegs", 0.3]]));
  assert.ok(Math.abs(weightsOf(both.scene).BodyToneLegs - 0.8) < 1e-9);
});

/**
 * A sleeve conforming to a body (each in its own file, as Daz content is): the sleeve's bones carry
 * the body's names and take their pose, and the sleeve's corrective reads its own `Body_bone1`,
 * whose pose in Daz is the body's. The body's bone 1 is bent `degrees` about z in the scene.
 */
async function dressed(degrees: number, test: (scene: Document, warnings: string[]) => Promise<void> | void) {
  const sleeve = JSON.parse(
    JSON.stringify(libraryFigure("Body")).replaceAll('"#Body"', '"#Sleeve"').replaceAll(
      "Body_geo",
      "Sleeve_geo",
    ),
  ) as Json;
  const nodes = sleeve.node_library as Json[];
  nodes[0].id = nodes[0].name = "Sleeve";
  (sleeve.modifier_library as Json[]).push(splineCorrective({
    id: "pJCMSleeveBend",
    parent: "#Sleeve_geo",
    output: "Sleeve:/data/Sleeve.dsf#pJCMSleeveBend?value",
    input: "Body_bone1:/data/Sleeve.dsf#Body_bone1?rotation/z/value",
    keys: [[0, 0], [-90, 1]],
    vertex: 5,
    delta: [0, 0, 1],
    clamped: false,
  }));
  const json = {
    file_version: "0.6.1.0",
    asset_info: { id: "/scenes/dressed.duf", type: "scene" },
    scene: {
      nodes: [
        {
          id: "Body-1",
          url: "/data/Body.dsf#Body",
          geometries: [{ id: "Body_geo-1", url: "/data/Body.dsf#Body_geo" }],
        },
        { id: "Body_bone0", url: "/data/Body.dsf#Body_bone0", parent: "#Body-1" },
        {
          id: "Body_bone1",
          url: "/data/Body.dsf#Body_bone1",
          parent: "#Body_bone0",
          rotation: channels("float", [0, 0, degrees]),
        },
        {
          id: "Sleeve-1",
          url: "/data/Sleeve.dsf#Sleeve",
          parent: "#Body-1",
          conform_target: "#Body-1",
          geometries: [{ id: "Sleeve_geo-1", url: "/data/Sleeve.dsf#Sleeve_geo" }],
        },
      ],
    },
  };
  await withContentFiles(
    [["/data/Body.dsf", libraryFigure("Body")], ["/data/Sleeve.dsf", sleeve]],
    async (root) => {
      const { scene, warnings } = await decodeJson(json, "dressed.duf", [root]);
      await test(scene, warnings);
    },
  );
}

/** The sleeve's corrective weight. */
function sleeveJcm(scene: Document): number {
  const mesh = scene.getRoot().listMeshes().find((m) => m.getName().startsWith("Sleeve"))!;
  const names = (mesh.getExtras() as { targetNames: string[] }).targetNames;
  return mesh.getWeights()[names.indexOf("pJCMSleeveBend")];
}

Deno.test("dson JCM formulas: a conforming sleeve's corrective reads its bone as posed by the body's, at decode and after a preset", async () => {
  // The sleeve's own Body_bone1 is written at rest; Daz drives it from the body's, bent −60°: 60/90.
  await dressed(-60, (scene, warnings) => {
    assert.deepEqual(warnings, []);
    assert.ok(Math.abs(sleeveJcm(scene) - 60 / 90) < 1e-9, String(sleeveJcm(scene)));
  });
  await dressed(0, async (scene) => {
    assert.equal(sleeveJcm(scene), 0);
    // Bending the body's arm bends the sleeve's, and drives the sleeve's corrective: 45/90.
    const bent = await applyPreset(scene, posePreset([["Body_bone1", "rotation/z", -45]]));
    assert.deepEqual(bent.warnings, []);
    assert.ok(Math.abs(sleeveJcm(bent.scene) - 0.5) < 1e-9, String(sleeveJcm(bent.scene)));
  });
});

Deno.test("dson JCM formulas: a file chaining 20,000 controllers decodes; the morph at its end is warned, not evaluated", async () => {
  const links = 20_000;
  const extra: Json[] = [];
  for (let k = 0; k < links; k++) {
    extra.push({
      id: `Chain${k}`,
      name: `Chain${k}`,
      parent: "#Genesis8Female_geo",
      channel: { id: "value", type: "float", value: k === 0 ? 1 : 0 },
      ...(k
        ? {
          formulas: [{
            output: `#Chain${k}?value`,
            operations: [{ op: "push", url: `#Chain${k - 1}?value` }],
          }],
        }
        : {}),
      ...(k === links - 1
        ? { morph: { vertex_count: 16, deltas: { count: 1, values: [[6, 1, 0, 0]] } } }
        : {}),
    });
  }
  const { scene, warnings } = await decode(jcmFigure(-90, "spline_linear", 1, extra));
  assert.equal(weightsOf(scene)[`Chain${links - 1}`], 0);
  assert.ok(Math.abs(weightsOf(scene)[JCM] - jcmCurve(-90)) < 1e-9);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /ERC formula\(s\) driving morphs or bones of this scene are not evaluated/);
});

Deno.test("dson JCM formulas: a preset dialling a controller that drives a morph and a bone moves the morph and turns the bone", async () => {
  const ctrl = "body_ctrl_lHandGrasp";
  const extra: Json[] = [
    {
      id: ctrl,
      name: ctrl,
      parent: "#Genesis8Female_geo",
      channel: { id: "value", type: "float", value: 0 },
      formulas: [{
        output: `lForearmBend:${encodeURI(JCM_FIGURE_FILE)}#lForearmBend?rotation/x/value`,
        operations: [{ op: "push", url: `#${ctrl}?value` }, { op: "push", val: 30 }, { op: "mult" }],
      }],
    },
    {
      id: "HandGraspFlesh",
      name: "HandGraspFlesh",
      parent: "#Genesis8Female_geo",
      channel: { id: "value", type: "float", value: 0 },
      formulas: [{ output: "#HandGraspFlesh?value", operations: [{ op: "push", url: `#${ctrl}?value` }] }],
      morph: { vertex_count: 16, deltas: { count: 1, values: [[6, 1, 0, 0]] } },
    },
  ];
  const { scene } = await decode(jcmFigure(0, "spline_linear", 1, extra));
  const { scene: gripped, warnings } = await applyPreset(scene, shapePreset([[ctrl, 0.6]]));
  assert.equal(weightsOf(gripped).HandGraspFlesh, 0.6);
  // Before (dson.apply_preset v10): the bone stayed put, with a warning naming the controller.
  assert.deepEqual(warnings, []);
  const forearm = gripped.getRoot().listNodes().find((n) => n.getName() === "lForearmBend")!;
  const rest = scene.getRoot().listNodes().find((n) => n.getName() === "lForearmBend")!;
  // Turned 0.6 · 30 = 18° about its own (oriented) x: the rest rotation times a turn about x, the
  // only channel set, so the rotation order does not matter.
  const half = (18 * Math.PI / 180) / 2;
  const [x, y, z, w] = rest.getRotation();
  const turn = [Math.sin(half), 0, 0, Math.cos(half)];
  const expected = [
    w * turn[0] + x * turn[3] + y * turn[2] - z * turn[1],
    w * turn[1] - x * turn[2] + y * turn[3] + z * turn[0],
    w * turn[2] + x * turn[1] - y * turn[0] + z * turn[3],
    w * turn[3] - x * turn[0] - y * turn[1] - z * turn[2],
  ];
  const got = forearm.getRotation();
  const sign = Math.sign(got.reduce((sum, v, k) => sum + v * expected[k], 0)) || 1;
  assert.ok(got.every((v, k) => Math.abs(v - sign * expected[k]) < 1e-6), `${got} vs ${expected}`);
});
