/**
 * Joint limits: a bone channel written `clamped: true` keeps its value within `min`/`max` — the
 * file's own value, a preset's, and the value ERC formulas drive (a grasp controller bending a
 * finger), whose whole `(own + Σ sums) · Π mults` is clamped; a corrective reading the finger reads
 * the clamped bend. The figure is code-made; every expected bend and weight is worked out here from
 * the limits and the formulas the figure writes, not read from the decoder.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import {
  channels,
  generateFigure,
  type Json,
  posePreset,
  shapePreset,
  splineCorrective,
} from "./generate.ts";
import { applyPreset, decodeJson, nodeNamed } from "./dson_runs.ts";

const FIGURE = "Genesis9";
const FINGER = "l_index1";
const CTRL = "body_ctrl_lHandGrasp";
const JCM = "pJCMIndex1Bend_L";
/** The finger's bend limits (degrees), as Genesis writes a finger's z rotation. */
const MIN = -90, MAX = 20;
/** Degrees the controller at 1 adds to the finger's bend. */
const PER_DIAL = -120;

const clamp = (v: number) => Math.min(MAX, Math.max(MIN, v));
/** The corrective's weight at a bend: a linear spline 0 → 0, −180 → 1. */
const jcm = (bend: number) => Math.min(1, Math.max(0, bend / -180));

/**
 * Bones: the figure's bone0 → l_index1 → bone2, no orientations (so a finger's local rotation is a
 * plain z turn), l_index1 written at `own`° with limits `MIN..MAX` (`clamped`), the controller at
 * `dial` bending it, and a corrective reading it.
 */
function limitedFigure(own: number, dial: number, clamped = true): Json {
  const text = JSON.stringify(generateFigure({ side: 4, bones: 3, figureId: FIGURE }));
  const json = JSON.parse(text.replaceAll(`${FIGURE}_bone1`, FINGER)) as Json;
  const nodes = json.node_library as Json[];
  for (const node of nodes.slice(1)) node.orientation = channels("float", [0, 0, 0]);
  const rotation = channels("float", [0, 0, own]);
  rotation[2] = { ...rotation[2], min: MIN, max: MAX, clamped };
  nodes[2].rotation = rotation;
  const geometry = `#${FIGURE}_geo`;
  (json.modifier_library as Json[]).push(
    {
      id: CTRL,
      name: CTRL,
      parent: geometry,
      channel: { id: "value", type: "float", value: 0, current_value: dial, min: 0, max: 1, clamped: true },
      formulas: [{
        output: `${FINGER}:#${FINGER}?rotation/z/value`,
        operations: [{ op: "push", url: `#${CTRL}?value` }, { op: "push", val: PER_DIAL }, { op: "mult" }],
      }],
    },
    splineCorrective({
      id: JCM,
      parent: geometry,
      output: `#${JCM}?value`,
      input: `${FINGER}:#${FINGER}?rotation/z/value`,
      keys: [[0, 0], [-180, 1]],
      vertex: 5,
      delta: [0, 2, 0],
    }),
  );
  const scene = json.scene as { modifiers: Json[] };
  for (const id of [CTRL, JCM]) {
    scene.modifiers.push({ id: `${id}-1`, url: `#${id}`, parent: `${geometry}-1` });
  }
  return json;
}

const decode = (json: Json) => decodeJson(json, "limits.duf");

/** The finger's bend (degrees) from its local rotation, a z turn. */
function bendOf(scene: Document): number {
  const [x, y, z, w] = nodeNamed(scene, FINGER).getRotation();
  assert.ok(Math.abs(x) < 1e-9 && Math.abs(y) < 1e-9, `a z turn: ${[x, y, z, w]}`);
  return (2 * Math.atan2(z, w) * 180) / Math.PI;
}

function jcmOf(scene: Document): number {
  const mesh = scene.getRoot().listMeshes()[0];
  const names = (mesh.getExtras() as { targetNames: string[] }).targetNames;
  return mesh.getWeights()[names.indexOf(JCM)];
}

/** Within `tolerance`: 1e-9 for weights, 1e-5° for a bend read back from a float32 quaternion. */
function near(got: number, expected: number, what: string, tolerance = 1e-9) {
  assert.ok(Math.abs(got - expected) < tolerance, `${what}: ${got}, expected ${expected}`);
}

Deno.test("dson joint limits: a grasp driving a finger past its limit stops there, and the corrective reads the clamped bend", async () => {
  // Own −10 plus −120 at a full grasp is −130, past −90: the finger stops at −90.
  const unclamped = -10 + PER_DIAL;
  assert.equal(clamp(unclamped), MIN);
  const { scene, warnings } = await decode(limitedFigure(-10, 1));
  near(bendOf(scene), MIN, "bend", 1e-5);
  // The corrective at −90 is 0.5; at the unclamped −130 it would be 0.722.
  near(jcmOf(scene), jcm(MIN), "corrective");
  assert.notEqual(jcm(MIN), jcm(unclamped));
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(
    warnings[0],
    /limits\.duf at \/node_library\/2\/rotation: 1 bone channel\(s\) ERC formulas drive/,
  );
  assert.ok(warnings[0].includes(`'${FINGER}' rotation/z -130 → -90 (limits -90..20)`), warnings[0]);
  // Within the limits nothing changes and nothing is said: half a grasp is −10 − 60 = −70.
  const half = await decode(limitedFigure(-10, 0.5));
  near(bendOf(half.scene), -70, "half a grasp", 1e-5);
  near(jcmOf(half.scene), jcm(-70), "half a grasp's corrective");
  assert.deepEqual(half.warnings, []);
  // The limits are kept on the node for dson.apply_preset.
  const extras = nodeNamed(scene, FINGER).getExtras() as { partgraph: { dson: { limits: Json } } };
  assert.deepEqual(extras.partgraph.dson.limits, { "rotation/z": { min: MIN, max: MAX } });
});

Deno.test("dson joint limits: a written value past the limit is clamped as it is set, then the formulas' sum again", async () => {
  // Own 50 is past 20: set as 20 (as Daz sets a limited value), then the grasp at 0.25 adds −30:
  // −10. Clamping only the sum would give 50 − 30 = 20.
  const { scene, warnings } = await decode(limitedFigure(50, 0.25));
  const expected = clamp(clamp(50) + 0.25 * PER_DIAL);
  assert.equal(expected, -10);
  near(bendOf(scene), expected, "bend", 1e-5);
  near(jcmOf(scene), jcm(expected), "corrective");
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.ok(
    warnings[0].includes(`node '${FINGER}': 1 channel value(s) past the joint's limits`),
    warnings[0],
  );
  assert.ok(warnings[0].includes("rotation/z 50 → 20 (limits -90..20)"), warnings[0]);
  // Undriven (the grasp at 0): the written 50 stands at 20.
  const still = await decode(limitedFigure(50, 0));
  near(bendOf(still.scene), MAX, "undriven", 1e-5);
});

Deno.test("dson joint limits: a channel with limits off (clamped false), or a scene instance turning them off, is not clamped", async () => {
  const off = await decode(limitedFigure(-10, 1, false));
  near(bendOf(off.scene), -130, "limits off", 1e-5);
  near(jcmOf(off.scene), jcm(-130), "its corrective");
  assert.deepEqual(off.warnings, []);
  // The instance's `clamped: false` overrides its definition's `true`, field by field.
  const json = limitedFigure(-10, 1);
  // Its bones listed in the scene, as Daz Studio saves one.
  (json.scene as { nodes: Json[] }).nodes.push(
    { id: `${FIGURE}_bone0`, url: `#${FIGURE}_bone0`, parent: `#${FIGURE}-1` },
    { id: FINGER, url: `#${FINGER}`, parent: `#${FIGURE}_bone0`, rotation: [{ id: "z", clamped: false }] },
    { id: `${FIGURE}_bone2`, url: `#${FIGURE}_bone2`, parent: `#${FINGER}` },
  );
  const instance = await decode(json);
  near(bendOf(instance.scene), -130, "limits off on the instance", 1e-5);
});

Deno.test("dson joint limits: a preset posing past a limit, or dialling a grasp past it, is clamped with a warning", async () => {
  const { scene, warnings } = await decode(limitedFigure(0, 0));
  assert.deepEqual(warnings, []);
  // A pose preset bending the finger to −150: set as −90.
  const posed = await applyPreset(scene, posePreset([[FINGER, "rotation/z", -150]]));
  near(bendOf(posed.scene), MIN, "posed", 1e-5);
  near(jcmOf(posed.scene), jcm(MIN), "posed corrective");
  assert.deepEqual(posed.warnings, [
    "dson preset: 1 channel value(s) past the joint's limits (clamped: true) clamped to them, as Daz sets a " +
    `limited joint: ${FINGER} rotation/z -150 → -90 (limits -90..20)`,
  ]);
  // A shape preset dialling the grasp to 1: 0 − 120 stops at −90.
  const gripped = await applyPreset(scene, shapePreset([[CTRL, 1]]));
  near(bendOf(gripped.scene), clamp(PER_DIAL), "gripped", 1e-5);
  near(jcmOf(gripped.scene), jcm(clamp(PER_DIAL)), "gripped corrective");
  assert.deepEqual(gripped.warnings, [
    "dson preset: 1 bone channel(s) ERC formulas drive past the joint's limits (clamped: true) clamped to them, " +
    `as Daz stops the joint there: ${FINGER} rotation/z -120 → -90 (limits -90..20)`,
  ]);
  // Both: the preset's 30 is set as 20, the grasp at 0.5 adds −60: −40, within the limits.
  const both = await applyPreset(gripped.scene, posePreset([[FINGER, "rotation/z", 30]]));
  const half = await applyPreset(both.scene, shapePreset([[CTRL, 0.5]]));
  near(bendOf(half.scene), clamp(clamp(30) + 0.5 * PER_DIAL), "own clamped, then half a grasp", 1e-5);
  near(jcmOf(half.scene), jcm(-40), "its corrective");
});
