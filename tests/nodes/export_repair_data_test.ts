/**
 * `dataRepairs` (export repairs of skin and animation data): weights that do not sum to 1, joints
 * listed twice, tangent signs, non-unit rotation keys, key times before 0, repeated key times and damaged inverse bind
 * matrices are repaired to what the Khronos validator accepts, with one warning per property, and
 * the scene handed in is left as it was. Each kind is tested on `dataRepairs` itself, and through
 * `export.gltf`.
 */
import assert from "node:assert/strict";
import { type Accessor, Document, type Node, type TypedArray } from "@gltf-transform/core";
import { dataRepairs } from "../../nodes/export/repair_data.ts";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { copyScene } from "../../runtime/scene/copy.ts";
import { readGltf, writeGlb } from "../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../support/context.ts";
import { validateGltf } from "../support/validator.ts";

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

type ArrayType = Float32ArrayConstructor | Uint8ArrayConstructor | Uint16ArrayConstructor;

/** What {@link skinnedScene} builds; every field has a valid default. */
interface SkinSpec {
  /** Per influence set, 4 weights per vertex. */
  weights?: number[][];
  /** Per influence set, 4 joint indices (of 4 joints) per vertex. */
  joints?: number[][];
  /** Float weights, or normalized unsigned bytes or shorts. */
  weightType?: ArrayType;
  tangents?: number[];
  /** Normals beside the tangents (default +Z). */
  normals?: number[];
  /** Float vertex colours, RGBA. */
  colours?: number[];
  /** Inverse bind matrices, 16 values each, one per joint. */
  inverseBinds?: number[];
}

/** Mesh 'wing' skinned by skin 'body' to the chain hip → knee → ankle → toe. */
function skinnedScene(spec: SkinSpec = {}): { doc: Document; joints: Node[] } {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (type: "SCALAR" | "VEC3" | "VEC4" | "MAT4", array: TypedArray) =>
    doc.createAccessor().setType(type).setBuffer(buffer).setArray(array);
  const weights = spec.weights ?? [[1, 0, 0, 0, 0.5, 0.5, 0, 0, 0.25, 0.25, 0.25, 0.25]];
  const joints = spec.joints ?? weights.map((set) => set.map((_, i) => i % 4));
  const count = weights[0].length / 4;
  const primitive = doc.createPrimitive().setAttribute(
    "POSITION",
    accessor("VEC3", new Float32Array(count * 3).map((_, i) => i)),
  );
  const WeightType = spec.weightType ?? Float32Array;
  for (let s = 0; s < weights.length; s++) {
    const w = accessor("VEC4", new WeightType(weights[s])).setNormalized(WeightType !== Float32Array);
    primitive.setAttribute(`WEIGHTS_${s}`, w).setAttribute(
      `JOINTS_${s}`,
      accessor("VEC4", new Uint8Array(joints[s])),
    );
  }
  if (spec.tangents) {
    const normals = spec.normals ?? Array.from({ length: count * 3 }, (_, i) => i % 3 === 2 ? 1 : 0);
    primitive.setAttribute("NORMAL", accessor("VEC3", new Float32Array(normals)));
    primitive.setAttribute("TANGENT", accessor("VEC4", new Float32Array(spec.tangents)));
  }
  if (spec.colours) primitive.setAttribute("COLOR_0", accessor("VEC4", new Float32Array(spec.colours)));
  const chain = ["hip", "knee", "ankle", "toe"].map((name) => doc.createNode(name));
  for (let i = 1; i < chain.length; i++) chain[i - 1].addChild(chain[i].setTranslation([0, -1, 0]));
  const skin = doc.createSkin("body").setSkeleton(chain[0]);
  for (const joint of chain) skin.addJoint(joint);
  skin.setInverseBindMatrices(
    accessor("MAT4", new Float32Array(spec.inverseBinds ?? chain.flatMap(() => IDENTITY))),
  );
  const wing = doc.createNode("wing").setMesh(doc.createMesh("wing").addPrimitive(primitive)).setSkin(skin);
  doc.createScene("s").addChild(wing).addChild(chain[0]);
  return { doc, joints: chain };
}

/** Every accessor's values, to compare before and after. */
function snapshot(doc: Document): number[][] {
  return doc.getRoot().listAccessors().map((a) => Array.from(a.getArray() ?? []));
}

/** `dataRepairs` both ways on `doc`: the messages, and the repaired copy. */
function repaired(doc: Document): { messages: string[]; copy: Document } {
  const before = snapshot(doc);
  const dry: string[] = [];
  dataRepairs(doc, false, dry);
  assert.deepEqual(snapshot(doc), before, "apply=false changes nothing");
  // As repairForExport copies: the arrays shared, each repair copying the one it writes into.
  const copy = copyScene(doc, { shareData: true });
  const messages: string[] = [];
  dataRepairs(copy, true, messages);
  assert.deepEqual(messages, dry, "the same messages whether applied or not");
  assert.deepEqual(snapshot(doc), before, "the original keeps its arrays");
  return { messages, copy };
}

function attribute(doc: Document, name: string): number[] {
  const primitive = doc.getRoot().listMeshes()[0].listPrimitives()[0];
  return Array.from(primitive.getAttribute(name)!.getArray()!);
}

const f32 = Math.fround;

/** The export of `doc`: it succeeds, passes the validator, and warns `expected` (each, among others). */
async function exportedValid(doc: Document, expected: string[]): Promise<{ back: Document; json: GltfJson }> {
  const before = snapshot(doc);
  const ctx = testContext();
  const { bytes } = await runNode(exportGltf, { scene: doc }, {}, ctx);
  const report = await validateGltf(bytes.bytes);
  assert.equal(report.errors, 0, report.messages.join("\n"));
  const warnings = ctx.warnings.map((w) => w.message);
  for (const message of expected) {
    assert.ok(warnings.includes(message), `${message}\nin\n${warnings.join("\n")}`);
  }
  assert.deepEqual(snapshot(doc), before, "export.gltf leaves its input as it was");
  return { back: await readGltf(bytes.bytes), json: glbJson(bytes.bytes) };
}

interface GltfJson {
  accessors: { count: number; min?: number[]; max?: number[] }[];
  animations: { samplers: { input: number; output: number }[] }[];
}

function glbJson(glb: Uint8Array): GltfJson {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

/** The validator's codes for `doc` written as it is. */
async function validatorCodes(doc: Document): Promise<string[]> {
  return (await validateGltf(await writeGlb(doc, { generator: "test" }))).codes;
}

// ---------------------------------------------------------------------------------------------
// a. Weights

/** Float weights: one sums to 0.9, one has a negative weight, one is all zero, one is good; two sets. */
function badWeights() {
  return skinnedScene({
    weights: [
      [0.4, 0, 0, 0, 0.5, -0.2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0.3, 0, 0, 0],
      [0.5, 0, 0, 0, 0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.2, 0, 0, 0],
    ],
    joints: [
      [0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      [1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0],
    ],
  }).doc;
}

const WEIGHTS_MESSAGE = "4 vertex weight set(s) of mesh 'wing' made to sum to 1 " +
  "(1 with negative weights set to 0; 1 all zero, given weight 1 on their first joint)";

function assertRepairedWeights(doc: Document): void {
  // Across both sets: (0.4 | 0.5) sums to 0.9; (0.5, −0.2 | 0.5) to 1 once the −0.2 is 0; (0.3 | 0.2) to 0.5.
  assert.deepEqual(attribute(doc, "WEIGHTS_0"), [
    ...[f32(f32(0.4) / (f32(0.4) + f32(0.5))), 0, 0, 0],
    ...[0.5, 0, 0, 0],
    ...[1, 0, 0, 0],
    ...[1, 0, 0, 0],
    ...[f32(f32(0.3) / (f32(0.3) + f32(0.2))), 0, 0, 0],
  ]);
  assert.deepEqual(attribute(doc, "WEIGHTS_1"), [
    ...[f32(f32(0.5) / (f32(0.4) + f32(0.5))), 0, 0, 0],
    ...[0.5, 0, 0, 0],
    ...[0, 0, 0, 0],
    ...[0, 0, 0, 0],
    ...[f32(f32(0.2) / (f32(0.3) + f32(0.2))), 0, 0, 0],
  ]);
}

Deno.test("validator facts: all-zero weights are refused, a joint repeated with zero weight is not", async () => {
  const zero = skinnedScene({ weights: [[0, 0, 0, 0]], joints: [[0, 0, 0, 0]] }).doc;
  assert.deepEqual(await validatorCodes(zero), ["ACCESSOR_WEIGHTS_NON_NORMALIZED"]);
  const repeatedAtZero = skinnedScene({ weights: [[1, 0, 0, 0]], joints: [[1, 1, 1, 0]] }).doc;
  assert.deepEqual(await validatorCodes(repeatedAtZero), []);
  // Within 2e-7 per weight of 1 in float32 passes; 1e-6 off with two weights does not.
  const near = skinnedScene({ weights: [[0.5, 0.5000002, 0, 0]], joints: [[0, 1, 0, 0]] }).doc;
  assert.deepEqual(await validatorCodes(near), []);
  const off = skinnedScene({ weights: [[0.5, 0.500001, 0, 0]], joints: [[0, 1, 0, 0]] }).doc;
  assert.deepEqual(await validatorCodes(off), ["ACCESSOR_WEIGHTS_NON_NORMALIZED"]);
});

Deno.test("float weights are made to sum to 1 across all sets: negative ones zeroed, all-zero given joint 1", async () => {
  const doc = badWeights();
  const { messages, copy } = repaired(doc);
  assert.deepEqual(messages, [WEIGHTS_MESSAGE]);
  assertRepairedWeights(copy);
  assert.deepEqual(await validatorCodes(copy), []);
  assert.deepEqual(await validatorCodes(doc), [
    "ACCESSOR_WEIGHTS_NON_NORMALIZED",
    "ACCESSOR_WEIGHTS_NEGATIVE",
  ]);
});

Deno.test("normalized byte and short weights are rescaled to sum to 255 / 65535 exactly", async () => {
  const bytes = skinnedScene({ weightType: Uint8Array, weights: [[100, 100, 0, 0, 200, 100, 50, 10]] }).doc;
  const { messages, copy } = repaired(bytes);
  assert.deepEqual(messages, ["2 vertex weight set(s) of mesh 'wing' made to sum to 1"]);
  // 127.5 + 127.5 round to 256: the largest (the first of equals) gives back 1.
  // 141.67, 70.83, 35.42, 7.08 round to 142 + 71 + 35 + 7 = 255.
  assert.deepEqual(attribute(copy, "WEIGHTS_0"), [127, 128, 0, 0, 142, 71, 35, 7]);
  assert.deepEqual(await validatorCodes(copy), []);
  const shorts = skinnedScene({ weightType: Uint16Array, weights: [[1000, 3000, 0, 0]] }).doc;
  const fixed = repaired(shorts).copy;
  assert.deepEqual(attribute(fixed, "WEIGHTS_0"), [16384, 49151, 0, 0]);
  assert.deepEqual(await validatorCodes(fixed), []);
  assert.deepEqual(
    repaired(skinnedScene({ weightType: Uint8Array, weights: [[63, 64, 64, 64]] }).doc).messages,
    [],
  );
});

Deno.test("export.gltf: weights repaired, warned and valid", async () => {
  const { back } = await exportedValid(badWeights(), [WEIGHTS_MESSAGE]);
  assertRepairedWeights(back);
});

// ---------------------------------------------------------------------------------------------
// b. A joint listed twice

/** Vertex 0 lists joint 1 twice in one set, vertex 1 across sets (and sums to 0.8), vertex 2 is good. */
function repeatedJoints() {
  return skinnedScene({
    weights: [[0.5, 0.5, 0, 0, 0.4, 0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0.4, 0, 0, 0, 0, 0, 0, 0]],
    joints: [[1, 1, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0], [0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0]],
  }).doc;
}

const DUPLICATE_MESSAGE =
  "2 vertex(es) of mesh 'wing' listed a joint twice; its weights merged into the first";

function assertMergedJoints(doc: Document): void {
  assert.deepEqual(attribute(doc, "JOINTS_0"), [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]);
  assert.deepEqual(attribute(doc, "WEIGHTS_0"), [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
  assert.deepEqual(attribute(doc, "JOINTS_1"), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(attribute(doc, "WEIGHTS_1"), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
}

Deno.test("a joint listed twice with weight (within a set and across sets) is merged into its first listing", async () => {
  const doc = repeatedJoints();
  assert.deepEqual(await validatorCodes(doc), [
    "ACCESSOR_JOINTS_INDEX_DUPLICATE",
    "ACCESSOR_WEIGHTS_NON_NORMALIZED",
  ]);
  const { messages, copy } = repaired(doc);
  // Vertex 1's merged 0.4 + 0.4 is 0.8: rescaled too.
  assert.deepEqual(messages, [
    "1 vertex weight set(s) of mesh 'wing' made to sum to 1",
    DUPLICATE_MESSAGE,
  ]);
  assertMergedJoints(copy);
  const report = await validateGltf(await writeGlb(copy, { generator: "test" }));
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("export.gltf: repeated joints merged, warned and valid", async () => {
  const { back } = await exportedValid(repeatedJoints(), [DUPLICATE_MESSAGE]);
  assertMergedJoints(back);
});

// ---------------------------------------------------------------------------------------------
// c. Tangent signs

function badTangents() {
  return skinnedScene({
    weights: [[1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]],
    tangents: [1, 0, 0, 0.5, 1, 0, 0, -0.3, 1, 0, 0, 0, 1, 0, 0, -1],
  }).doc;
}

const TANGENT_MESSAGE = "3 tangent sign(s) (w) of mesh 'wing' set to 1 or -1";

Deno.test("tangent w other than ±1 is made +1 (w ≥ 0) or −1 (w < 0)", async () => {
  const doc = badTangents();
  assert.deepEqual(await validatorCodes(doc), ["ACCESSOR_INVALID_SIGN"]);
  const { messages, copy } = repaired(doc);
  assert.deepEqual(messages, [TANGENT_MESSAGE]);
  assert.deepEqual(attribute(copy, "TANGENT"), [1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 1, 0, 0, -1]);
  assert.deepEqual(await validatorCodes(copy), []);
});

Deno.test("export.gltf: tangent signs repaired, warned and valid", async () => {
  const { back } = await exportedValid(badTangents(), [TANGENT_MESSAGE]);
  assert.deepEqual(attribute(back, "TANGENT"), [1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 1, 0, 0, -1]);
});

function longTangents() {
  return skinnedScene({
    weights: [[1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]],
    // Twice unit length; zero (MikkTSpace's tangent on degenerate UVs) at a normal along +X; 5 long; unit.
    tangents: [2, 0, 0, 1, 0, 0, 0, 1, 0, 3, 4, -1, 0.6, 0.8, 0, 1],
    normals: [0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1],
  }).doc;
}

const LENGTH_MESSAGE =
  "3 tangent(s) of mesh 'wing' made unit length (a zero one made perpendicular to its normal)";

Deno.test("tangent directions are made unit length; a zero one perpendicular to its normal", async () => {
  const doc = longTangents();
  assert.deepEqual(await validatorCodes(doc), ["ACCESSOR_VECTOR3_NON_UNIT"]);
  const { messages, copy } = repaired(doc);
  assert.deepEqual(messages, [LENGTH_MESSAGE]);
  assert.deepEqual(
    attribute(copy, "TANGENT"),
    [1, 0, 0, 1, 0, 1, 0, 1, 0, 0.6, 0.8, -1, 0.6, 0.8, 0, 1].map(f32),
  );
  assert.deepEqual(await validatorCodes(copy), []);
});

Deno.test("export.gltf: tangent lengths repaired, warned and valid", async () => {
  const { back } = await exportedValid(longTangents(), [LENGTH_MESSAGE]);
  assert.deepEqual(attribute(back, "TANGENT").slice(4, 8), [0, 1, 0, 1]);
});

// ---------------------------------------------------------------------------------------------
// c2. Vertex colours

function brightColours() {
  return skinnedScene({
    weights: [[1, 0, 0, 0, 1, 0, 0, 0]],
    colours: [2, 0.5, -0.25, 1, 1, 1, 1, 1.5],
  }).doc;
}

const COLOUR_MESSAGE =
  "3 vertex colour value(s) of mesh 'wing' outside 0..1 (lowest -0.25, highest 2) clamped: glTF's vertex colours are 0..1";

Deno.test("float vertex colours outside 0..1 are clamped", async () => {
  const doc = brightColours();
  assert.deepEqual(await validatorCodes(doc), ["ACCESSOR_NON_CLAMPED"]);
  const { messages, copy } = repaired(doc);
  assert.deepEqual(messages, [COLOUR_MESSAGE]);
  assert.deepEqual(attribute(copy, "COLOR_0"), [1, 0.5, 0, 1, 1, 1, 1, 1]);
  assert.deepEqual(await validatorCodes(copy), []);
});

Deno.test("export.gltf: vertex colours clamped, warned and valid", async () => {
  const { back } = await exportedValid(brightColours(), [COLOUR_MESSAGE]);
  assert.deepEqual(attribute(back, "COLOR_0"), [1, 0.5, 0, 1, 1, 1, 1, 1]);
});

// ---------------------------------------------------------------------------------------------
// d. Rotation keys

/** Animation 'walk': sampler 0 linear float, 1 cubic-spline float, 2 normalized bytes — all rotations. */
function badRotations() {
  const { doc, joints } = skinnedScene();
  const buffer = doc.getRoot().listBuffers()[0];
  const accessor = (type: "SCALAR" | "VEC4", array: TypedArray, normalized = false) =>
    doc.createAccessor().setType(type).setBuffer(buffer).setArray(array).setNormalized(normalized);
  const times = accessor("SCALAR", new Float32Array([0, 1, 2]));
  const animation = doc.createAnimation("walk");
  const outputs: [Accessor, "LINEAR" | "CUBICSPLINE"][] = [
    [accessor("VEC4", new Float32Array([0, 0, 0, 2, 0, 0, 0, 0, 0, 0.6, 0, 0.8])), "LINEAR"],
    [
      accessor(
        "VEC4",
        new Float32Array([
          1,
          1,
          1,
          1,
          0,
          0,
          2,
          0,
          1,
          1,
          1,
          1,
          0,
          0,
          0,
          0,
          0,
          1,
          0,
          0,
          0,
          0,
          0,
          0,
          3,
          3,
          3,
          3,
          0,
          0,
          0,
          3,
          3,
          3,
          3,
          3,
        ]),
      ),
      "CUBICSPLINE",
    ],
    [accessor("VEC4", new Int8Array([0, 0, 0, 100, 64, 64, 64, 64, 0, 0, 0, 127]), true), "LINEAR"],
  ];
  for (let i = 0; i < outputs.length; i++) {
    const sampler = doc.createAnimationSampler().setInput(times).setOutput(outputs[i][0])
      .setInterpolation(outputs[i][1]);
    animation.addSampler(sampler).addChannel(
      doc.createAnimationChannel().setTargetNode(joints[i]).setTargetPath("rotation").setSampler(sampler),
    );
  }
  return doc;
}

const ROTATION_MESSAGES = [
  "2 rotation key(s) of animation 'walk' sampler 0 made unit length",
  "2 rotation key(s) of animation 'walk' sampler 1 made unit length",
  "2 rotation key(s) of animation 'walk' sampler 2 made unit length",
];

function assertUnitRotations(doc: Document): void {
  const outputs = doc.getRoot().listAnimations()[0].listSamplers().map((s) =>
    Array.from(s.getOutput()!.getArray()!)
  );
  // Zero length → identity; the unit key (0, 0.6, 0, 0.8) kept as it was (in float32).
  assert.deepEqual(outputs[0], [0, 0, 0, 1, 0, 0, 0, 1, 0, f32(0.6), 0, f32(0.8)]);
  // Only the middle of each triple is a value: tangents (1, 1, 1, 1) and (3, 3, 3, 3) are kept.
  assert.deepEqual(outputs[1], [
    1,
    1,
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    1,
    1,
    1,
    0,
    0,
    0,
    0,
    0,
    1,
    0,
    0,
    0,
    0,
    0,
    0,
    3,
    3,
    3,
    3,
    0,
    0,
    0,
    1,
    3,
    3,
    3,
    3,
  ]);
  // Bytes: (0, 0, 0, 100) → (0, 0, 0, 127); (64, 64, 64, 64) (length 1.008) → within 0.004 of 1.
  assert.deepEqual(outputs[2].slice(0, 4), [0, 0, 0, 127]);
  assert.deepEqual(outputs[2].slice(8), [0, 0, 0, 127]);
  const length = Math.hypot(...outputs[2].slice(4, 8).map((v) => v / 127));
  assert.ok(Math.abs(length - 1) < 0.004, `${outputs[2].slice(4, 8)} has length ${length}`);
}

Deno.test("rotation keys are made unit length: floats, cubic-spline values only, normalized bytes", async () => {
  const doc = badRotations();
  assert.deepEqual(await validatorCodes(doc), [
    "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION",
  ]);
  const { messages, copy } = repaired(doc);
  assert.deepEqual(messages, ROTATION_MESSAGES);
  assertUnitRotations(copy);
  assert.deepEqual(await validatorCodes(copy), []);
});

Deno.test("quantized rotations the validator accepts are left alone", () => {
  const doc = badRotations();
  const output = doc.getRoot().listAnimations()[0].listSamplers()[2].getOutput()!;
  // (90, 0, 0, 90)/127 is 45° about X with length 1.0022, as a byte exporter rounds it.
  output.setArray(new Int8Array([90, 0, 0, 90, 90, 0, 0, 90, 0, 0, 0, 127]));
  assert.deepEqual(repaired(doc).messages, ROTATION_MESSAGES.slice(0, 2));
});

Deno.test("export.gltf: rotation keys repaired, warned and valid", async () => {
  const { back } = await exportedValid(badRotations(), ROTATION_MESSAGES);
  assertUnitRotations(back);
});

// ---------------------------------------------------------------------------------------------
// e. Key times

/**
 * Animation 'bake': times (1, 2, 0.5, 3) shared by a linear rotation (sampler 0), a step
 * translation (1) and a linear morph weights sampler of 2 targets (2); a cubic-spline translation
 * (3) on times (0, 0.5, 0.5, 1); a linear scale (4) on its own good times. Times' original minimum
 * 0.5 is a dropped key: the written min must be 1.
 */
function repeatedTimes() {
  const { doc, joints } = skinnedScene();
  const buffer = doc.getRoot().listBuffers()[0];
  const accessor = (type: "SCALAR" | "VEC3" | "VEC4", values: number[]) =>
    doc.createAccessor().setType(type).setBuffer(buffer).setArray(new Float32Array(values));
  const target = doc.createPrimitiveTarget("open").setAttribute(
    "POSITION",
    accessor("VEC3", [0, 1, 0, 0, 1, 0, 0, 1, 0]),
  );
  const morph = doc.createPrimitive().setAttribute("POSITION", accessor("VEC3", [0, 0, 0, 1, 0, 0, 0, 0, 1]))
    .addTarget(target)
    .addTarget(
      doc.createPrimitiveTarget("shut").setAttribute(
        "POSITION",
        accessor("VEC3", [0, 0, 1, 0, 0, 1, 0, 0, 1]),
      ),
    );
  const flap = doc.createNode("flap").setMesh(doc.createMesh("flap").addPrimitive(morph).setWeights([0, 0]));
  doc.getRoot().listScenes()[0].addChild(flap);
  const shared = accessor("SCALAR", [1, 2, 0.5, 3]);
  const cubicTimes = accessor("SCALAR", [0, 0.5, 0.5, 1]);
  const samplers: [Accessor, Accessor, string, Node, string][] = [
    [
      shared,
      accessor("VEC4", [0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0]),
      "LINEAR",
      joints[0],
      "rotation",
    ],
    [shared, accessor("VEC3", [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]), "STEP", joints[0], "translation"],
    [shared, accessor("SCALAR", [0, 1, 0.1, 0.9, 0.2, 0.8, 0.3, 0.7]), "LINEAR", flap, "weights"],
    [
      cubicTimes,
      accessor("VEC3", Array.from({ length: 36 }, (_, i) => i)),
      "CUBICSPLINE",
      joints[1],
      "translation",
    ],
    [accessor("SCALAR", [0, 1]), accessor("VEC3", [1, 1, 1, 2, 2, 2]), "LINEAR", joints[1], "scale"],
  ];
  const animation = doc.createAnimation("bake");
  for (const [input, output, interpolation, node, path] of samplers) {
    const sampler = doc.createAnimationSampler().setInput(input).setOutput(output)
      .setInterpolation(interpolation as "LINEAR");
    animation.addSampler(sampler).addChannel(
      doc.createAnimationChannel().setTargetNode(node).setTargetPath(path as "rotation").setSampler(sampler),
    );
  }
  return doc;
}

const TIME_MESSAGES = [
  "1 key(s) of animation 'bake' sampler 0 dropped: their times did not increase",
  "1 key(s) of animation 'bake' sampler 1 dropped: their times did not increase",
  "1 key(s) of animation 'bake' sampler 2 dropped: their times did not increase",
  "1 key(s) of animation 'bake' sampler 3 dropped: their times did not increase",
];

function assertKeptKeys(doc: Document): void {
  const samplers = doc.getRoot().listAnimations()[0].listSamplers();
  const values = (a: Accessor | null) => Array.from(a!.getArray()!);
  assert.deepEqual(values(samplers[0].getInput()), [1, 2, 3]);
  assert.ok(samplers[1].getInput() === samplers[0].getInput(), "the samplers that shared times still do");
  assert.ok(samplers[2].getInput() === samplers[0].getInput());
  assert.deepEqual(values(samplers[0].getOutput()), [0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0]);
  assert.deepEqual(values(samplers[1].getOutput()), [1, 1, 1, 2, 2, 2, 4, 4, 4]);
  // Weights: 2 per key; the third key's (0.2, 0.8) dropped.
  assert.deepEqual(values(samplers[2].getOutput()), [0, 1, 0.1, 0.9, 0.3, 0.7].map(f32));
  // Cubic spline: the third key's whole triple (elements 6–8, values 18–26) dropped.
  assert.deepEqual(values(samplers[3].getInput()), [0, 0.5, 1]);
  assert.deepEqual(
    values(samplers[3].getOutput()),
    Array.from({ length: 36 }, (_, i) => i).filter((i) => i < 18 || i >= 27),
  );
  assert.deepEqual(values(samplers[4].getInput()), [0, 1]);
  assert.deepEqual(values(samplers[4].getOutput()), [1, 1, 1, 2, 2, 2]);
  // 15 accessors made by the fixture: each replaced one is gone.
  assert.equal(doc.getRoot().listAccessors().length, 15, "the replaced accessors are gone");
}

Deno.test("keys whose times do not increase are dropped with their outputs; shared times stay shared", async () => {
  const doc = repeatedTimes();
  assert.deepEqual(await validatorCodes(doc), ["ACCESSOR_ANIMATION_INPUT_NON_INCREASING"]);
  const { messages, copy } = repaired(doc);
  assert.deepEqual(messages, TIME_MESSAGES);
  assertKeptKeys(copy);
  assert.deepEqual(await validatorCodes(copy), []);
});

Deno.test("export.gltf: repeated key times dropped, warned and valid, with the written bounds of the kept times", async () => {
  const { back, json } = await exportedValid(repeatedTimes(), TIME_MESSAGES);
  assertKeptKeys(back);
  const input = json.accessors[json.animations[0].samplers[0].input];
  assert.deepEqual([input.count, input.min, input.max], [3, [1], [3]]);
});

/**
 * Two clips with keys before 0, as Blender's exporter wrote for frames before 0: `takeoff` (from
 * −1 s) and `idle` (from −3 s) share one time accessor, and each has one of its own; `cruise`
 * starts at 0.25 s and must be left where it is.
 */
function negativeTimes() {
  const { doc, joints } = skinnedScene();
  const buffer = doc.getRoot().listBuffers()[0];
  const accessor = (type: "SCALAR" | "VEC3", values: number[]) =>
    doc.createAccessor().setType(type).setBuffer(buffer).setArray(new Float32Array(values));
  const shared = accessor("SCALAR", [-1, 0, 1]);
  const clips: [string, Accessor[]][] = [
    ["takeoff", [shared, accessor("SCALAR", [-0.5, 2])]],
    ["idle", [shared, accessor("SCALAR", [-3, 0])]],
    ["cruise", [accessor("SCALAR", [0.25, 1])]],
  ];
  for (const [name, inputs] of clips) {
    const animation = doc.createAnimation(name);
    inputs.forEach((input, i) => {
      const output = accessor("VEC3", Array.from({ length: 3 * input.getCount() }, (_, k) => k));
      const sampler = doc.createAnimationSampler().setInput(input).setOutput(output);
      animation.addSampler(sampler).addChannel(
        doc.createAnimationChannel().setTargetNode(joints[i]).setTargetPath("translation").setSampler(
          sampler,
        ),
      );
    });
  }
  return doc;
}

const NEGATIVE_TIME_MESSAGES = [-1, -3].map((start, i) =>
  `animation '${["takeoff", "idle"][i]}' starts at ${start} s (keys before 0, as exporters write for ` +
  "frames before a scene's start): slid to start at 0, its timing kept"
);

function assertSlidTimes(doc: Document): void {
  const times = (name: string) =>
    doc.getRoot().listAnimations().find((a) => a.getName() === name)!.listSamplers()
      .map((sampler) => Array.from(sampler.getInput()!.getArray()!));
  assert.deepEqual(times("takeoff"), [[0, 1, 2], [0.5, 3]]);
  assert.deepEqual(times("idle"), [[2, 3, 4], [0, 3]]);
  assert.deepEqual(times("cruise"), [[0.25, 1]]);
}

Deno.test("clips with keys before 0 are slid to start at 0, each by its own start; a shared input is copied", async () => {
  const doc = negativeTimes();
  // The validator also calls a 0 after a negative time non-increasing (it takes the negative one as 0).
  assert.ok((await validatorCodes(doc)).includes("ACCESSOR_ANIMATION_INPUT_NEGATIVE"));
  const { messages, copy } = repaired(doc);
  assert.deepEqual(messages, NEGATIVE_TIME_MESSAGES);
  assertSlidTimes(copy);
  assert.deepEqual(await validatorCodes(copy), []);
  // The shared input both clips got copies of is gone: the fixture's 13 accessors, 2 copies, 1 less.
  assert.equal(copy.getRoot().listAccessors().length, 14);
});

Deno.test("export.gltf: clips with keys before 0 slid, warned and valid", async () => {
  const { back } = await exportedValid(negativeTimes(), NEGATIVE_TIME_MESSAGES);
  assertSlidTimes(back);
});

// ---------------------------------------------------------------------------------------------
// f. Inverse bind matrices

/** Joint 0: row-major, translation (1, 2, 3) in the last row; joint 1: 0.5 in element 3 as well as a translation. */
function badInverseBinds() {
  const rowMajor = [1, 0, 0, 1, 0, 1, 0, 2, 0, 0, 1, 3, 0, 0, 0, 1];
  const stray = [1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 4, 0, 1];
  return skinnedScene({ inverseBinds: [...rowMajor, ...stray, ...IDENTITY, ...IDENTITY] }).doc;
}

const IBM_MESSAGE =
  "inverse bind matrices of skin 'body': 1 written row-major, transposed; 1 given the last row (0, 0, 0, 1)";

function assertInverseBinds(doc: Document): void {
  assert.deepEqual(Array.from(doc.getRoot().listSkins()[0].getInverseBindMatrices()!.getArray()!), [
    ...[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1],
    ...[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 4, 0, 1],
    ...IDENTITY,
    ...IDENTITY,
  ]);
}

Deno.test("inverse bind matrices: a row-major one transposed, another's last row set to (0, 0, 0, 1)", async () => {
  const doc = badInverseBinds();
  assert.deepEqual(await validatorCodes(doc), ["ACCESSOR_INVALID_IBM"]);
  const { messages, copy } = repaired(doc);
  assert.deepEqual(messages, [IBM_MESSAGE]);
  assertInverseBinds(copy);
  assert.deepEqual(await validatorCodes(copy), []);
});

Deno.test("export.gltf: inverse bind matrices repaired, warned and valid", async () => {
  const { back } = await exportedValid(badInverseBinds(), [IBM_MESSAGE]);
  assertInverseBinds(back);
});

// ---------------------------------------------------------------------------------------------
// Clean scenes, and everything at once

Deno.test("a clean skinned, animated scene gets no message and no change, and exports without warnings", async () => {
  const doc = repeatedTimes();
  const times = doc.getRoot().listAnimations()[0].listSamplers()[0].getInput()!;
  times.setArray(new Float32Array([0.5, 1, 2, 3]));
  doc.getRoot().listAnimations()[0].listSamplers()[3].getInput()!.setArray(
    new Float32Array([0, 0.5, 0.6, 1]),
  );
  const before = snapshot(doc);
  const messages: string[] = [];
  dataRepairs(doc, false, messages);
  dataRepairs(doc, true, messages);
  assert.deepEqual(messages, []);
  assert.deepEqual(snapshot(doc), before);
  const ctx = testContext();
  const { bytes } = await runNode(exportGltf, { scene: doc }, {}, ctx);
  assert.deepEqual(ctx.warnings, []);
  assert.equal((await validateGltf(bytes.bytes)).errors, 0);
});

Deno.test("every kind at once: repaired on the copy, the original's arrays untouched", async () => {
  const doc = badRotations();
  const skin = doc.getRoot().listSkins()[0];
  skin.getInverseBindMatrices()!.setArray(
    badInverseBinds().getRoot().listSkins()[0].getInverseBindMatrices()!.getArray(),
  );
  const primitive = doc.getRoot().listMeshes()[0].listPrimitives()[0];
  primitive.getAttribute("WEIGHTS_0")!.setArray(
    new Float32Array([0.5, 0.5, 0, 0, 0.5, 0, 0, 0, 0.2, 0.2, 0, 0]),
  );
  primitive.getAttribute("JOINTS_0")!.setArray(new Uint8Array([1, 1, 0, 0, 0, 1, 2, 3, 0, 1, 2, 3]));
  const { messages, copy } = repaired(doc);
  assert.deepEqual(messages, [
    "2 vertex weight set(s) of mesh 'wing' made to sum to 1",
    DUPLICATE_MESSAGE.replace("2 vertex", "1 vertex"),
    IBM_MESSAGE,
    ...ROTATION_MESSAGES,
  ]);
  assert.deepEqual(await validatorCodes(copy), []);
  await exportedValid(doc, messages);
});
