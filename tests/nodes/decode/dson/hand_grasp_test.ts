/**
 * ERC formulas whose output is a bone channel: Genesis 9's `body_ctrl_lHandGrasp` (Genesis 8's
 * hand "Fist"/"Grasp" controllers) bends the finger bones through formulas
 * `#l_index1?rotation/z/value = ctrl · k`, and a finger's corrective reads the bent finger. The
 * figure is code-made in that shape (Genesis 9's names and URL forms); every expected rotation,
 * vertex and weight is computed here from the formulas and Daz's composition of a joint's pose
 * (a turn in its oriented axes about its centre), not read from the decoder.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import {
  channels,
  generateFigure,
  type Json,
  posePreset,
  shapePreset,
  splineCorrective,
} from "./generate.ts";
import { applyPreset, decodeJson, nodeNamed, quatMultiply, withContentFiles } from "./dson_runs.ts";
import { worldPositions } from "./posed_positions.ts";

const FILE = "/data/Daz 3D/Genesis 9/Base/Genesis9.dsf";
const CTRL = "body_ctrl_lHandGrasp";
const FINGERS = ["l_index1", "l_index2", "l_index3"];
const JCM = "pJCMIndex2Bend_L";
/** Orientations (degrees, XYZ) of the hand and fingers: turned axes, so a bend is not a plain z turn. */
const ORIENTATIONS = [[0, 0, 0], [15, 0, 10], [0, 5, 0], [10, 0, 10]];
/** l_index3's own written bend, beside what the controller adds. */
const OWN3 = -10;

/** Each finger's z rotation at controller `c`, from the formulas the figure writes. */
function fingerBends(c: number, own3 = OWN3): number[] {
  return [-60 * c, -80 * c, (own3 + -40 * c) * (1 + 0.5 * c)];
}

/** The corrective's weight at l_index2 bent `bend`° (a linear spline 0 → 0, −90 → 1, held). */
function jcmWeight(bend: number): number {
  return Math.min(1, Math.max(0, bend / -90));
}

const url = (id: string, property: string) => `${id}:${encodeURI(FILE)}#${id}?${property}`;
const ctrlPush = { op: "push", url: url(CTRL, "value") };

/**
 * The figure: bone chain l_hand → l_index1 → l_index2 → l_index3 (the generated 4 × 4 grid, vertex
 * row j weighted 1 : 2 by bones j and j + 1 mod 4), the grasp controller at `dial` with
 * `fingerFormulas` (default: the three bends), and l_index2's corrective on vertex 5.
 */
function handFigure(dial: number, fingerFormulas?: Json[], extra: Json[] = []): Json {
  const text = JSON.stringify(generateFigure({ side: 4, bones: 4, figureId: "Genesis9", assetId: FILE }));
  const json = JSON.parse(
    ["l_hand", ...FINGERS].reduce((t, id, k) => t.replaceAll(`Genesis9_bone${k}`, id), text),
  ) as Json;
  const nodes = json.node_library as Json[];
  ORIENTATIONS.forEach((o, k) => nodes[k + 1].orientation = channels("float", o));
  nodes[4].rotation = channels("float", [0, 0, OWN3]);
  const geometry = "#Genesis9_geo";
  const formulas = fingerFormulas ?? [
    {
      output: url("l_index1", "rotation/z/value"),
      operations: [ctrlPush, { op: "push", val: -60 }, { op: "mult" }],
    },
    {
      output: url("l_index2", "rotation/z/value"),
      stage: "sum",
      operations: [ctrlPush, { op: "push", val: -80 }, { op: "mult" }],
    },
    {
      output: url("l_index3", "rotation/z/value"),
      operations: [ctrlPush, { op: "push", val: -40 }, { op: "mult" }],
    },
    // Genesis 8 spells the stage "multiply": (own + sums) · (1 + c/2).
    {
      output: url("l_index3", "rotation/z/value"),
      stage: "multiply",
      operations: [{ op: "push", val: 1 }, ctrlPush, { op: "push", val: 0.5 }, { op: "mult" }, { op: "add" }],
    },
  ];
  (json.modifier_library as Json[]).push(
    {
      id: CTRL,
      name: CTRL,
      parent: geometry,
      channel: { id: "value", type: "float", value: 0, current_value: dial, min: 0, max: 1, clamped: true },
      formulas,
    },
    splineCorrective({
      id: JCM,
      parent: geometry,
      output: `Genesis9:${encodeURI(FILE)}#${JCM}?value`,
      input: url("l_index2", "rotation/z/value"),
      keys: [[0, 0], [-90, 1]],
      vertex: 5,
      delta: [0, 2, 0],
    }),
    ...extra,
  );
  const scene = json.scene as { modifiers: Json[] };
  for (const id of [CTRL, JCM, ...extra.map((m) => m.id as string)]) {
    scene.modifiers.push({ id: `${id}-1`, url: `#${id}`, parent: "#Genesis9_geo-1" });
  }
  return json;
}

const decode = (json: Json) => decodeJson(json, "Genesis9.duf");

// Quaternions [x, y, z, w] and 4 × 4 column-major matrices, written here, not the decoder's.
type Quat = number[];
const axisQuat = (axis: number, degrees: number): Quat => {
  const q = [0, 0, 0, Math.cos((degrees * Math.PI) / 360)];
  q[axis] = Math.sin((degrees * Math.PI) / 360);
  return q;
};
const conj = ([x, y, z, w]: Quat): Quat => [-x, -y, -z, w];
/** Daz's orientation: XYZ Euler angles, X turning first (about the parent's axes). */
const orientQuat = ([x, y, z]: number[]): Quat =>
  quatMultiply(axisQuat(2, z), quatMultiply(axisQuat(1, y), axisQuat(0, x)));

type Mat = number[];
const mulM = (a: Mat, b: Mat): Mat =>
  Array.from({ length: 16 }, (_, k) => {
    const [c, r] = [Math.floor(k / 4), k % 4];
    return [0, 1, 2, 3].reduce((sum, i) => sum + a[i * 4 + r] * b[c * 4 + i], 0);
  });
const translate = ([x, y, z]: number[]): Mat => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1];
const rotate = ([x, y, z, w]: Quat): Mat => [
  1 - 2 * (y * y + z * z),
  2 * (x * y + w * z),
  2 * (x * z - w * y),
  0,
  2 * (x * y - w * z),
  1 - 2 * (x * x + z * z),
  2 * (y * z + w * x),
  0,
  2 * (x * z + w * y),
  2 * (y * z - w * x),
  1 - 2 * (x * x + y * y),
  0,
  0,
  0,
  0,
  1,
];

/** The bone centres (cm) of the generated chain: 3 · k / 4 up +Y. */
const centre = (k: number) => [0, (3 * k) / 4, 0];

/**
 * Each bone's skinning matrix (cm) in Daz's composition: the parent's, then a turn of its pose in
 * its oriented axes about its centre, `T(c) · O · P · O⁻¹ · T(−c)`. Bones: hand, then fingers.
 */
function skinningMatrices(bends: number[]): Mat[] {
  const out: Mat[] = [];
  let parent = translate([0, 0, 0]);
  ORIENTATIONS.forEach((o, k) => {
    const orient = orientQuat(o);
    const pose = axisQuat(2, k === 0 ? 0 : bends[k - 1]);
    const turn = mulM(
      mulM(mulM(translate(centre(k)), rotate(orient)), rotate(pose)),
      mulM(rotate(conj(orient)), translate(centre(k).map((v) => -v))),
    );
    parent = mulM(parent, turn);
    out.push(parent);
  });
  return out;
}

/** Where vertex (2, 2) — weighted 1 : 2 by l_index2 and l_index3 — is drawn at `bends` (metres). */
function expectedVertex10(bends: number[]): number[] {
  const [, , s2, s3] = skinningMatrices(bends);
  const v = [2, 2, 0, 1];
  const apply = (m: Mat) =>
    [0, 1, 2].map((r) => [0, 1, 2, 3].reduce((sum, c) => sum + m[c * 4 + r] * v[c], 0));
  const [a, b] = [apply(s2), apply(s3)];
  return [0, 1, 2].map((k) => ((a[k] + 2 * b[k]) / 3) * 0.01);
}

/** Asserts finger `k`'s local rotation is `inv(O_parent) · O_k · Rz(bend)` (either sign). */
function assertFinger(scene: Document, k: number, bend: number, what: string) {
  const expected = quatMultiply(
    quatMultiply(conj(orientQuat(ORIENTATIONS[k])), orientQuat(ORIENTATIONS[k + 1])),
    axisQuat(2, bend),
  );
  const got = nodeNamed(scene, FINGERS[k]).getRotation();
  const sign = Math.sign(got.reduce((sum, v, i) => sum + v * expected[i], 0)) || 1;
  assert.ok(
    got.every((v, i) => Math.abs(v - sign * expected[i]) < 1e-6),
    `${what}: ${FINGERS[k]} rotation ${got} expected ${expected} (bend ${bend})`,
  );
}

function assertVertex10(scene: Document, bends: number[], what: string) {
  const meshNode = scene.getRoot().listNodes().find((n) => n.getMesh() && n.getSkin())!;
  const positions = worldPositions(meshNode);
  const array = meshNode.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!;
  const at = Array.from({ length: array.getCount() }, (_, i) => array.getElement(i, []))
    .findIndex((p) => Math.abs(p[0] - 0.02) < 1e-7 && Math.abs(p[1] - 0.02) < 1e-7 && Math.abs(p[2]) < 1e-7);
  assert.ok(at >= 0, "vertex (2, 2) is in the mesh");
  const expected = expectedVertex10(bends);
  assert.ok(
    positions[at].every((v, k) => Math.abs(v - expected[k]) < 1e-6),
    `${what}: vertex (2, 2) at ${positions[at]}, expected ${expected}`,
  );
}

function jcmOf(scene: Document): number {
  const mesh = scene.getRoot().listMeshes()[0];
  const names = (mesh.getExtras() as { targetNames: string[] }).targetNames;
  return mesh.getWeights()[names.indexOf(JCM)];
}

Deno.test("dson hand grasp: a controller at 0.5 and 1 bends three finger bones through its formulas, the skin follows, and so does the bent finger's corrective", async () => {
  // The expectations, by hand: at 1 the fingers bend −60°, −80° and (−10 − 40) · 1.5 = −75°.
  assert.deepEqual(fingerBends(1), [-60, -80, -75]);
  assert.deepEqual(fingerBends(0.5), [-30, -40, -37.5]);
  for (const dial of [0, 0.5, 1]) {
    const { scene, warnings } = await decode(handFigure(dial));
    assert.deepEqual(warnings, [], `dial ${dial}`);
    const bends = fingerBends(dial);
    bends.forEach((bend, k) => assertFinger(scene, k, bend, `dial ${dial}`));
    // Before (decode.dson v16): the fingers kept their written pose (0, 0, −10) at any dial.
    assertVertex10(scene, bends, `dial ${dial}`);
    assert.ok(Math.abs(jcmOf(scene) - jcmWeight(bends[1])) < 1e-9, `dial ${dial}: JCM ${jcmOf(scene)}`);
  }
  assert.ok(Math.abs(jcmWeight(fingerBends(1)[1]) - 8 / 9) < 1e-12, "the reference curve");
  // The posed GLB is valid.
  const { scene } = await decode(handFigure(1));
  const glb = (await runNode(exportGltf, { scene }, {}, testContext())).bytes.bytes as Uint8Array;
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("dson hand grasp: a preset dialling the controller poses the fingers and drives the corrective; a pose preset on top sets a finger's own value", async () => {
  const { scene: decoded, warnings } = await decode(handFigure(0));
  assert.deepEqual(warnings, []);
  // Before (dson.apply_preset v10): the fingers stayed open, with a warning naming the controller.
  const gripped = await applyPreset(decoded, shapePreset([[CTRL, 1]]));
  assert.deepEqual(gripped.warnings, []);
  fingerBends(1).forEach((bend, k) => assertFinger(gripped.scene, k, bend, "preset at 1"));
  assertVertex10(gripped.scene, fingerBends(1), "preset at 1");
  assert.ok(Math.abs(jcmOf(gripped.scene) - 8 / 9) < 1e-9);
  const record = (gripped.scene.getRoot().listScenes()[0].getExtras() as {
    partgraph: { dson: { presets: { driven_joints: number; missing: string[] }[] } };
  }).partgraph.dson.presets.at(-1)!;
  assert.equal(record.driven_joints, 3);
  assert.deepEqual(record.missing, []);
  // Half a grasp from the decoded scene, which the first preset did not change.
  const half = await applyPreset(decoded, shapePreset([[CTRL, 0.5]]));
  fingerBends(0.5).forEach((bend, k) => assertFinger(half.scene, k, bend, "preset at 0.5"));
  fingerBends(0).forEach((bend, k) => assertFinger(decoded, k, bend, "the decoded scene"));
  // A pose preset setting l_index3's bend to −20 after the grasp: its own value, beside the
  // controller kept at 1: (−20 − 40) · 1.5 = −90; the other fingers keep the grasp.
  const posed = await applyPreset(gripped.scene, posePreset([["l_index3", "rotation/z", -20]]));
  assert.deepEqual(posed.warnings, []);
  fingerBends(1, -20).forEach((bend, k) => assertFinger(posed.scene, k, bend, "pose on the grasp"));
  assert.equal(fingerBends(1, -20)[2], -90);
  assertVertex10(posed.scene, fingerBends(1, -20), "pose on the grasp");
});

Deno.test("dson hand grasp: a finger formula reading itself (a loop) or a node's orientation stays warned, the others pose", async () => {
  const [f1, f2, f3, f3mult] = [
    // l_index1 reads its own bend: a loop, which Daz breaks somewhere we cannot tell.
    {
      output: url("l_index1", "rotation/z/value"),
      operations: [{ op: "push", url: url("l_index1", "rotation/z/value") }],
    },
    // l_index2 reads l_index1's orientation: not a pose channel.
    {
      output: url("l_index2", "rotation/z/value"),
      operations: [{ op: "push", url: url("l_index1", "orientation/x/value") }],
    },
    {
      output: url("l_index3", "rotation/z/value"),
      operations: [ctrlPush, { op: "push", val: -40 }, { op: "mult" }],
    },
    {
      output: url("l_index3", "rotation/z/value"),
      stage: "multiply",
      operations: [{ op: "push", val: 1 }, ctrlPush, { op: "push", val: 0.5 }, { op: "mult" }, { op: "add" }],
    },
  ];
  const { scene, warnings } = await decode(handFigure(1, [f1, f2, f3, f3mult]));
  // The two left as written (0), the third posed; the corrective reads the unknown l_index2: as written.
  assertFinger(scene, 0, 0, "loop");
  assertFinger(scene, 1, 0, "orientation input");
  assertFinger(scene, 2, fingerBends(1)[2], "evaluable");
  assert.equal(jcmOf(scene), 0);
  assert.deepEqual(warnings, [
    "dson: Genesis9.duf at /modifier_library/1/formulas/0: 3 ERC formula(s) driving morphs or bones of this " +
    `scene are not evaluated (the first outputs '${url("l_index1", "rotation/z/value")}'): what they drive ` +
    "keeps its written value, so a shape or pose Daz derives from controllers is not reproduced",
  ]);
  // A preset posing l_index1 feeds the loop: said, the finger keeps the preset's own value.
  const posed = await applyPreset(scene, posePreset([["l_index1", "rotation/z", -30]]));
  assertFinger(posed.scene, 0, -30, "loop posed");
  assert.deepEqual(posed.warnings, [
    "dson preset: 1 bone channel(s) driven by ERC formulas cannot be evaluated at the preset's values (an " +
    "input not evaluated, or a loop); they keep their pose: l_index1 rotation/z",
  ]);
});

Deno.test("dson hand grasp: a controller driving a bone of no figure here is still said when a preset dials it", async () => {
  const absent = {
    output: url("r_index1", "rotation/z/value"),
    operations: [ctrlPush, { op: "push", val: -60 }, { op: "mult" }],
  };
  const formulas = [
    {
      output: url("l_index1", "rotation/z/value"),
      operations: [ctrlPush, { op: "push", val: -60 }, { op: "mult" }],
    },
    absent,
  ];
  const { scene, warnings } = await decode(handFigure(0, formulas));
  // A bone the scene lacks: nothing decoded is driven, nothing said at decode.
  assert.deepEqual(warnings, []);
  const { scene: gripped, warnings: said } = await applyPreset(scene, shapePreset([[CTRL, 1]]));
  assertFinger(gripped, 0, -60, "the finger the scene has");
  assert.deepEqual(said, [
    "dson preset: 1 controller(s) the preset dials also drive bones through ERC formulas that are not " +
    "evaluated (a bone of no figure here, or a conforming item's, which follows its target); their morphs and " +
    `other bones are: ${CTRL}`,
  ]);
});

Deno.test("dson hand grasp: formulas driving a translation and a general scale move and size the bone", async () => {
  const formulas = [
    // l_index1 grows to 1 + c/2 (its own general scale 1 plus the formula's), l_index2 slides 2c cm
    // along its parent's y.
    {
      output: url("l_index1", "general_scale/value"),
      operations: [ctrlPush, { op: "push", val: 0.5 }, { op: "mult" }],
    },
    {
      output: url("l_index2", "translation/y/value"),
      operations: [ctrlPush, { op: "push", val: 2 }, { op: "mult" }],
    },
  ];
  for (const dial of [0.5, 1]) {
    const { scene, warnings } = await decode(handFigure(dial, formulas));
    assert.deepEqual(warnings, []);
    const scale = nodeNamed(scene, "l_index1").getScale();
    assert.ok(scale.every((v) => Math.abs(v - (1 + dial / 2)) < 1e-9), `dial ${dial}: scale ${scale}`);
    // l_index2's offset from l_index1 (centres 0.75 cm apart up y) plus 2c cm, in l_index1's axes.
    const offset = [0, 0.75 + 2 * dial, 0, 0].map((v) => v * 0.01);
    const o = orientQuat(ORIENTATIONS[1]);
    const expected = quatMultiply(quatMultiply(conj(o), offset), o).slice(0, 3);
    const got = nodeNamed(scene, "l_index2").getTranslation();
    assert.ok(got.every((v, k) => Math.abs(v - expected[k]) < 1e-9), `dial ${dial}: ${got} vs ${expected}`);
  }
  // And again from a preset.
  const { scene } = await decode(handFigure(0, formulas));
  const { scene: grown, warnings } = await applyPreset(scene, shapePreset([[CTRL, 1]]));
  assert.deepEqual(warnings, []);
  assert.ok(nodeNamed(grown, "l_index1").getScale().every((v) => Math.abs(v - 1.5) < 1e-9));
});

Deno.test("dson hand grasp: a finger the bone's own definition also drives stays as written and warned; the others pose", async () => {
  const json = handFigure(1);
  // l_index2's definition drives its own bend too: a node's formula is not evaluated, so neither is
  // the controller's half of that channel (half of what drives it would be a wrong pose).
  (json.node_library as Json[])[3].formulas = [{
    output: url("l_index2", "rotation/z/value"),
    operations: [{ op: "push", val: 5 }],
  }];
  const { scene, warnings } = await decode(json);
  assertFinger(scene, 0, -60, "controller only");
  assertFinger(scene, 1, 0, "driven by its node too");
  assertFinger(scene, 2, -75, "controller only");
  // The corrective reads the unknown l_index2: as written.
  assert.equal(jcmOf(scene), 0);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /at \/node_library\/3\/formulas\/0: 3 ERC formula\(s\) driving morphs or bones/);
});

/**
 * A glove conforming to the hand (each in its own file, as Daz content is): the same grid and bone
 * names, so its bones follow the body's. The body's grasp controller is at `dial`.
 */
async function gloved(dial: number, test: (scene: Document, warnings: string[]) => Promise<void> | void) {
  const body = handFigure(dial);
  delete body.scene;
  const text = JSON.stringify(
    generateFigure({ side: 4, bones: 4, figureId: "Glove", assetId: "/data/Glove.dsf" }),
  );
  const glove = JSON.parse(
    ["l_hand", ...FINGERS].reduce((t, id, k) => t.replaceAll(`Glove_bone${k}`, id), text),
  ) as Json;
  delete glove.scene;
  const json = {
    file_version: "0.6.1.0",
    asset_info: { id: "/scenes/gloved.duf", type: "scene" },
    scene: {
      nodes: [
        {
          id: "Genesis9-1",
          url: `${encodeURI(FILE)}#Genesis9`,
          geometries: [{ id: "Genesis9_geo-1", url: `${encodeURI(FILE)}#Genesis9_geo` }],
        },
        {
          id: "Glove-1",
          url: "/data/Glove.dsf#Glove",
          parent: "#Genesis9-1",
          conform_target: "#Genesis9-1",
          geometries: [{ id: "Glove_geo-1", url: "/data/Glove.dsf#Glove_geo" }],
        },
      ],
    },
  };
  await withContentFiles([[FILE, body], ["/data/Glove.dsf", glove]], async (root) => {
    const { scene, warnings } = await decodeJson(json, "gloved.duf", [root]);
    await test(scene, warnings);
  });
}

/** Each skinned mesh's drawn vertices (metres), body first. */
function drawn(scene: Document): number[][][] {
  const skinned = scene.getRoot().listNodes().filter((n) => n.getMesh() && n.getSkin());
  skinned.sort((a, b) =>
    Number(b.getName().startsWith("Genesis9")) - Number(a.getName().startsWith("Genesis9"))
  );
  return skinned.map(worldPositions);
}

Deno.test("dson hand grasp: a conforming glove's fingers follow the fingers the controller bends, at decode and after a preset", async () => {
  const assertGloveOnHand = (scene: Document, what: string) => {
    const [hand, glove] = drawn(scene);
    assert.ok(hand && glove, `${what}: two skinned meshes`);
    assert.equal(glove.length, hand.length);
    // The same grid skinned alike: drawn in the same place, the grasp's bends included.
    glove.forEach((p, i) =>
      assert.ok(p.every((v, k) => Math.abs(v - hand[i][k]) < 1e-6), `${what}: vertex ${i}`)
    );
  };
  await gloved(1, (scene, warnings) => {
    assert.deepEqual(warnings, []);
    fingerBends(1).forEach((bend, k) => assertFinger(scene, k, bend, "gloved at 1"));
    assertVertex10(scene, fingerBends(1), "gloved at 1");
    assertGloveOnHand(scene, "decoded at 1");
  });
  await gloved(0, async (scene) => {
    const { scene: gripped, warnings } = await applyPreset(scene, shapePreset([[CTRL, 1]]));
    assert.deepEqual(warnings, []);
    fingerBends(1).forEach((bend, k) => assertFinger(gripped, k, bend, "gloved, preset at 1"));
    assertGloveOnHand(gripped, "preset at 1");
  });
});
