/**
 * The fast output check rule by rule, against the Khronos validator: each case breaks one rule of a
 * valid written GLB (an accessor element or a JSON value, after `repair.ts` would have run) and
 * asserts the fast check's verdict and the validator's agree — the check never says "valid" where
 * the validator finds an error, and names the validator's own code when it refuses. Values at the
 * edge of each tolerance are tried on both sides.
 */
import assert from "node:assert/strict";
import { type GlbEditor, richGlb } from "./check_scenes.ts";
import { crossCheck, describeCrossCheck } from "../../support/output_check.ts";

interface RuleCase {
  readonly name: string;
  readonly edit: (glb: GlbEditor) => unknown;
  /** The fast check's answer: a Khronos code it refuses with, "valid", or "outside" (the validator decides). */
  readonly fast: string;
  /** The refusal must name `fast` itself, not only an error the validator reports too (two are broken). */
  readonly first?: boolean;
}

const SQRT_HALF = Math.SQRT1_2;
const CASES: RuleCase[] = [
  { name: "the scene as written", edit: () => {}, fast: "valid" },
  // Accessor data
  { name: "NaN position", edit: (g) => g.set("position", 1, 0, NaN), fast: "ACCESSOR_INVALID_FLOAT" },
  { name: "infinite UV", edit: (g) => g.set("uv", 2, 1, Infinity), fast: "ACCESSOR_INVALID_FLOAT" },
  { name: "position past max", edit: (g) => g.set("position", 2, 0, 1.5), fast: "ACCESSOR_MAX_MISMATCH" },
  { name: "position under min", edit: (g) => g.set("position", 3, 1, -0.25), fast: "ACCESSOR_MIN_MISMATCH" },
  {
    name: "min not the data's",
    edit: (g) => g.json.accessors[g.accessor("position")].min[0] = -1,
    fast: "ACCESSOR_MIN_MISMATCH",
  },
  {
    // Every value is checked finite before any bound: the NaN is found first, though a bound of an
    // earlier component is wrong too.
    name: "NaN in the last component, the first's min not the data's",
    edit: (g) => {
      g.set("position", 1, 2, NaN);
      g.json.accessors[g.accessor("position")].min[0] = -1;
    },
    fast: "ACCESSOR_INVALID_FLOAT",
    first: true,
  },
  { name: "index past the last vertex", edit: (g) => g.set("indices", 4, 0, 4), fast: "ACCESSOR_INDEX_OOB" },
  {
    name: "primitive restart index",
    edit: (g) => g.set("indices", 0, 0, 65535),
    fast: "ACCESSOR_INDEX_PRIMITIVE_RESTART",
  },
  { name: "normal of length 2", edit: (g) => g.set("normal", 1, 2, 2), fast: "ACCESSOR_VECTOR3_NON_UNIT" },
  {
    name: "normal of length 1.0067 (inside tolerance)",
    edit: (g) => g.set("normal", 1, 2, 1.0067),
    fast: "valid",
  },
  {
    name: "normal of length 1.0068 (outside tolerance)",
    edit: (g) => g.set("normal", 1, 2, 1.0068),
    fast: "ACCESSOR_VECTOR3_NON_UNIT",
  },
  {
    name: "normal of length 0.9933 (inside tolerance)",
    edit: (g) => g.set("normal", 0, 2, 0.9933),
    fast: "valid",
  },
  {
    name: "normal of length 0.9932 (outside tolerance)",
    edit: (g) => g.set("normal", 0, 2, 0.9932),
    fast: "ACCESSOR_VECTOR3_NON_UNIT",
  },
  { name: "zero normal", edit: (g) => g.set("normal", 3, 2, 0), fast: "ACCESSOR_VECTOR3_NON_UNIT" },
  { name: "tangent not unit", edit: (g) => g.set("tangent", 2, 0, 0.5), fast: "ACCESSOR_VECTOR3_NON_UNIT" },
  { name: "tangent w of 0.5", edit: (g) => g.set("tangent", 2, 3, 0.5), fast: "ACCESSOR_INVALID_SIGN" },
  { name: "colour above 1", edit: (g) => g.set("colour", 1, 2, 1.5), fast: "ACCESSOR_NON_CLAMPED" },
  { name: "colour below 0", edit: (g) => g.set("colour", 0, 3, -0.01), fast: "ACCESSOR_NON_CLAMPED" },
  {
    name: "negative time",
    edit: (g) => g.set("times", 0, 0, -0.5),
    fast: "ACCESSOR_ANIMATION_INPUT_NEGATIVE",
  },
  {
    name: "repeated time",
    edit: (g) => g.set("times", 2, 0, 0.5),
    fast: "ACCESSOR_ANIMATION_INPUT_NON_INCREASING",
  },
  {
    name: "time going back",
    edit: (g) => g.set("times", 1, 0, 2),
    fast: "ACCESSOR_ANIMATION_INPUT_NON_INCREASING",
  },
  {
    name: "rotation key not unit",
    edit: (g) => g.set("turn", 1, 1, 0.8),
    fast: "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION",
  },
  { name: "rotation key of length 1.0076 (inside)", edit: (g) => g.set("turn", 0, 3, 1.0076), fast: "valid" },
  {
    name: "rotation key of length 1.0078 (outside)",
    edit: (g) => g.set("turn", 0, 3, 1.0078),
    fast: "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION",
  },
  {
    name: "rotation key (√½, 0, √½, 0)",
    edit: (g) => g.set("turn", 1, 0, SQRT_HALF).set("turn", 1, 1, 0),
    fast: "valid",
  },
  {
    name: "inverse bind matrix with a last row",
    edit: (g) => g.set("inverse binds", 1, 3, 0.5),
    fast: "ACCESSOR_INVALID_IBM",
  },
  {
    name: "inverse bind matrix w of 2",
    edit: (g) => g.set("inverse binds", 0, 15, 2),
    fast: "ACCESSOR_INVALID_IBM",
  },
  {
    name: "joint past the skin's joints",
    edit: (g) => g.set("joints", 0, 1, 2),
    fast: "ACCESSOR_JOINTS_INDEX_OOB",
  },
  {
    name: "joint used twice",
    edit: (g) => g.set("joints", 0, 1, 0),
    fast: "ACCESSOR_JOINTS_INDEX_DUPLICATE",
  },
  {
    name: "joint repeated at zero weight",
    edit: (g) => g.set("joints", 2, 1, 1).set("joints", 2, 2, 1),
    fast: "valid",
  },
  {
    name: "negative weight",
    edit: (g) => g.set("weights", 1, 0, -0.25).set("weights", 1, 1, 1.25),
    fast: "ACCESSOR_WEIGHTS_NEGATIVE",
  },
  {
    name: "weights summing to 0.9",
    edit: (g) => g.set("weights", 0, 1, 0.4),
    fast: "ACCESSOR_WEIGHTS_NON_NORMALIZED",
  },
  {
    name: "weights 0.3 + 0.7 (float32 rounding within tolerance)",
    edit: (g) => g.set("weights", 0, 0, 0.3).set("weights", 0, 1, 0.7),
    fast: "valid",
  },
  {
    name: "weights 0.5 + 0.5000006 (past the float32 tolerance)",
    edit: (g) => g.set("weights", 0, 1, 0.5000006),
    fast: "ACCESSOR_WEIGHTS_NON_NORMALIZED",
  },
  {
    name: "a primitive without POSITION (a warning only)",
    edit: (g) => withoutPosition(g),
    fast: "valid",
  },
  {
    name: "a primitive without POSITION, index past its vertices",
    edit: (g) => (withoutPosition(g), g.set("indices", 1, 0, 4)),
    fast: "ACCESSOR_INDEX_OOB",
  },
  // Sparse accessors
  { name: "sparse index past the count", edit: (g) => sparseIndex(g, 9), fast: "ACCESSOR_SPARSE_INDEX_OOB" },
  // Structure the check leaves to the validator
  { name: "camera-less node camera", edit: (g) => g.json.nodes[0].camera = 0, fast: "outside" },
  {
    name: "an extension",
    edit: (
      g,
    ) => (g.json.extensionsUsed = ["KHR_materials_unlit"],
      g.json.materials[0].extensions = { KHR_materials_unlit: {} }),
    fast: "outside",
  },
  { name: "image declared JPEG", edit: (g) => g.json.images[0].mimeType = "image/jpeg", fast: "outside" },
  {
    name: "image truncated",
    edit: (g) => g.json.bufferViews[g.json.images[0].bufferView].byteLength = 20,
    fast: "outside",
  },
  {
    name: "material sampling TEXCOORD_1",
    edit: (g) => g.json.materials[0].pbrMetallicRoughness.baseColorTexture.texCoord = 1,
    fast: "outside",
  },
  {
    name: "rotation outside [-1, 1]",
    edit: (g) => g.json.nodes[1].rotation = [0, 0, 0, 1.5],
    fast: "outside",
  },
  {
    name: "skin joints without a common root",
    edit: (g) => g.json.skins[0].joints = [1, 2],
    fast: "outside",
  },
  {
    name: "two channels on one target",
    edit: (g) => g.json.animations[0].channels[1].target.path = "rotation",
    fast: "outside",
  },
];

/** Drops the quad's POSITION, and with it the morph target (a target needs its base attribute). */
function withoutPosition(g: GlbEditor): void {
  const primitive = g.json.meshes[0].primitives[0];
  delete primitive.attributes.POSITION;
  delete primitive.targets;
  delete g.json.meshes[0].weights;
  g.json.animations[0].channels = g.json.animations[0].channels.filter(
    (c: { target: { path: string } }) => c.target.path !== "weights",
  );
}

/** Sets the first sparse index of the sparse accessor to `value`. */
function sparseIndex(g: GlbEditor, value: number): void {
  const { sparse } = g.json.accessors[g.accessor("bulge")];
  const view = g.json.bufferViews[sparse.indices.bufferView];
  g.bin[(view.byteOffset ?? 0) + (sparse.indices.byteOffset ?? 0)] = value;
}

Deno.test(`fast check and Khronos validator agree on ${CASES.length} hand-made outputs, one rule each`, async () => {
  const counts = { valid: 0, invalid: 0, outside: 0 };
  for (const rule of CASES) {
    const glb = await richGlb();
    rule.edit(glb);
    const result = await crossCheck(glb.bytes());
    const account = `${rule.name}: ${describeCrossCheck(result)} [${result.codes}]`;
    counts[result.fast.kind]++;
    assert.ok(!result.unsafe, `UNSAFE — ${account}`);
    assert.ok(!result.needless, `needless refusal — ${account}`);
    if (result.fast.kind === "valid") assert.equal(result.khronosErrors, 0, account);
    // A refusal names an error the validator reports too (the first the check meets).
    if (result.fast.kind === "invalid") assert.ok(result.codes.includes(result.fast.code), account);
    if (rule.fast === "valid" || rule.fast === "outside") assert.equal(result.fast.kind, rule.fast, account);
    else {
      assert.equal(result.fast.kind, "invalid", account);
      assert.ok(result.codes.includes(rule.fast), `the case does not break its rule — ${account}`);
      if (rule.first) assert.equal(result.fast.code, rule.fast, account);
    }
  }
  console.log(`hand-made outputs: ${JSON.stringify(counts)}`);
});
