/**
 * `dson.apply_preset`: the corpus pose preset (`roblox_hand_grip.duf`, 452 channels) and code-made
 * presets applied to a code-made figure with the preset's bones. Posed joints are compared with
 * Daz's composition of the channels (D3 `node.py`, quoted in the format notes B.6), computed here
 * with plain matrices: `global_rotation = parent · O · R · O⁻¹`, `head = parent head +
 * parent global_rotation · (center_offset + translation)`.
 */
import assert from "node:assert/strict";
import { Document, type Node } from "@gltf-transform/core";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { eulerDegrees, eulerQuat } from "../../../../nodes/decode/dson/codec/rest_pose.ts";
import { dsonApplyPreset } from "../../../../nodes/decode/dson/apply_preset.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { settleExtras } from "../../../../runtime/scene/copy.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import { corpusFile, withoutCorpus } from "../../../support/corpus.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { channels, dsonBytes, generateFigure, type Json, readJsonFile } from "./generate.ts";
import { eulerMatrix, type M3, matMul, type V3 } from "./rigidity_reference.ts";

const GRIP = "dson/roblox_hand_grip.duf";
const ORDERS = ["XYZ", "YZX", "ZYX", "XZY", "YXZ", "ZXY"];

/** The bones a pose preset's joint channels name (`name://@selection/<bone>:?…`). */
function presetBones(preset: Json): string[] {
  const names = ((preset.scene as Json).animations as Json[]).map((a) => String(a.url))
    .filter((url) => !url.includes("#")).map((url) => url.split("/@selection/")[1].split(":")[0]);
  return [...new Set(names)];
}

/** The parent a hand bone has in a Genesis-like hand: 3 → 2 → 1 → metacarpal → hand → figure. */
function parentOf(bone: string, bones: readonly string[]): string {
  const digit = /^(.*?)([123])$/.exec(bone);
  if (digit && digit[2] !== "1") return `${digit[1]}${Number(digit[2]) - 1}`;
  if (digit && bones.includes(`${digit[1]}metacarpal`)) return `${digit[1]}metacarpal`;
  if (bone.endsWith("_hand")) return "Genesis9";
  return bone.slice(0, 2) + "hand";
}

interface BonePose {
  center: V3;
  orientation: V3;
  order: string;
  rotation: V3;
  translation: V3;
}

/** A figure with the given bones under it: centre points, orientations and orders vary per bone. */
function figureWith(
  bones: readonly string[],
  pose: (k: number) => Pick<BonePose, "rotation" | "translation">,
) {
  const json = generateFigure({ side: 4, bones: 2, figureId: "Genesis9" });
  const truth = new Map<string, BonePose>();
  bones.forEach((bone, k) => {
    const side = bone.startsWith("l_") ? 1 : -1;
    const center: V3 = [side * (60 + 2 * (k % 7)), 140 - 1.5 * (k % 5), 3 * ((k % 3) - 1)];
    const orientation: V3 = [(k * 7) % 30 - 15, (k * 11) % 40 - 20, (k * 13) % 50 - 25];
    truth.set(bone, { center, orientation, order: ORDERS[k % 6], ...pose(k) });
  });
  for (const [bone, p] of truth) {
    (json.node_library as Json[]).push({
      id: bone,
      name: bone,
      type: "bone",
      parent: `#${parentOf(bone, bones)}`,
      rotation_order: p.order,
      center_point: channels("float", p.center),
      end_point: channels("float", [p.center[0] + 2, p.center[1], p.center[2]]),
      orientation: channels("float", p.orientation),
      rotation: channels("float", p.rotation),
      translation: channels("float", p.translation),
    });
  }
  return { json, truth };
}

const transpose = (m: M3): M3 => [0, 1, 2].map((r) => [m[0][r], m[1][r], m[2][r]]) as M3;
const apply = (m: M3, v: V3): V3 => m.map((row) => row[0] * v[0] + row[1] * v[1] + row[2] * v[2]) as V3;

/**
 * Daz's posed transform of each bone (figure space at rest → posed, metres): rotation and the
 * image of the origin, composed from the channels in each bone's rotation order.
 */
function dazTransforms(truth: Map<string, BonePose>, bones: readonly string[]) {
  const out = new Map<string, { rotation: M3; head: V3 }>();
  const visit = (bone: string): { rotation: M3; head: V3 } => {
    const known = out.get(bone);
    if (known) return known;
    const p = truth.get(bone)!;
    const parentName = parentOf(bone, bones);
    const parent = truth.has(parentName)
      ? { ...visit(parentName), center: truth.get(parentName)!.center }
      : { rotation: eulerMatrix([0, 0, 0], "XYZ"), head: [0, 0, 0] as V3, center: [0, 0, 0] as V3 };
    const o = eulerMatrix(p.orientation, "XYZ");
    const rotation = matMul(
      matMul(parent.rotation, o),
      matMul(eulerMatrix(p.rotation, p.order), transpose(o)),
    );
    const offset = [0, 1, 2].map((k) => p.center[k] - parent.center[k] + p.translation[k]) as V3;
    const head = apply(parent.rotation, offset).map((x, k) => x + parent.head[k]) as V3;
    const result = { rotation, head };
    out.set(bone, result);
    return result;
  };
  bones.forEach(visit);
  return out;
}

/** Largest difference between the glTF joint's skinning matrix (world · inverse bind) and Daz's. */
function worstJointError(doc: Document, truth: Map<string, BonePose>, bones: readonly string[]): number {
  const daz = dazTransforms(truth, bones);
  const skin = doc.getRoot().listSkins()[0];
  const ibm = skin.getInverseBindMatrices()!.getArray()!;
  let worst = 0;
  let compared = 0;
  skin.listJoints().forEach((joint: Node, j) => {
    const want = daz.get(joint.getName());
    if (!want) return;
    compared++;
    const world = joint.getWorldMatrix();
    const m = new Array(16).fill(0);
    for (let r = 0; r < 4; r++) {
      for (let c = 0; c < 4; c++) {
        for (let k = 0; k < 4; k++) m[c * 4 + r] += world[k * 4 + r] * ibm[j * 16 + c * 4 + k];
      }
    }
    // Daz: p ↦ head + R·(p − centre), in cm; glTF in metres.
    const center = truth.get(joint.getName())!.center;
    const turned = apply(want.rotation, center);
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(m[c * 4 + r] - want.rotation[r][c]));
      worst = Math.max(worst, Math.abs(m[12 + r] - (want.head[r] - turned[r]) / 100));
    }
  });
  assert.equal(compared, bones.length, "every bone is a joint of the skin");
  return worst;
}

async function decode(json: Json): Promise<Document> {
  return (await runNode(decodeDson, { bytes: { bytes: dsonBytes(json), name: "figure.duf" } })).scene;
}

/** A preset with these animation entries. */
function presetJson(animations: Json[], type = "preset_pose"): Json {
  return { file_version: "0.6.1.0", asset_info: { id: "/code/preset.duf", type }, scene: { animations } };
}

const posed = (k: number) => ({
  rotation: [(k * 17) % 60 - 30, (k * 23) % 50 - 25, (k * 29) % 70 - 35] as V3,
  translation: [0, 0, 0] as V3,
});

Deno.test({
  name:
    "dson preset: the corpus hand grip re-poses every named bone (Daz composition within 1e-5), valid GLB",
  ignore: withoutCorpus(GRIP),
  async fn() {
    const preset = await readJsonFile(corpusFile(GRIP)!);
    const bones = presetBones(preset);
    assert.equal(bones.length, 42);
    // The figure starts posed; the preset sets every bone's channels (zero turns, unit scales).
    const { json, truth } = figureWith(bones, posed);
    const doc = await decode(json);
    assert.ok(worstJointError(doc, truth, bones) < 1e-5, "the decoded figure matches Daz's pose");
    const keyed = new Map<string, BonePose>();
    for (const [bone, p] of truth) keyed.set(bone, { ...p, rotation: [0, 0, 0], translation: [0, 0, 0] });
    assert.ok(worstJointError(doc, keyed, bones) > 0.1, "before the preset, the bones are not at its values");
    const ctx = testContext();
    const bytes = await Deno.readFile(corpusFile(GRIP)!);
    const { scene } = await runNode(
      dsonApplyPreset,
      { scene: doc, preset: { bytes, name: "grip.duf" } },
      {},
      ctx,
    );
    assert.ok(worstJointError(scene, keyed, bones) < 1e-5);
    // The 32 controller values name modifiers this figure lacks: one warning, listed in extras.
    const warnings = ctx.warnings.map((w) => w.message);
    assert.ok(warnings.some((w) => /32 value\(s\) name no morph.*body_ctrl_/.test(w)), warnings.join("\n"));
    const record = ((getPartgraphExtras(scene.getRoot().listScenes()[0]).dson as Json).presets as Json[])[0];
    assert.equal(record.joints, 42);
    assert.equal((record.missing as string[]).length, 32);
    const glb = await writeGlb(scene, { generator: GENERATOR });
    const report = await validateGltf(glb);
    assert.equal(report.errors, 0, report.messages.join("\n"));
    // three.js loads it, with the bones where the preset put them.
    const gltf = await new Promise<{ scene: { getObjectByName(name: string): unknown } }>((resolve, reject) =>
      new GLTFLoader().parse(glb.slice().buffer, "", resolve as never, reject)
    );
    const hand = gltf.scene.getObjectByName("l_hand") as { isBone?: boolean; quaternion: { x: number } };
    assert.ok(hand?.isBone, "l_hand is a three.js bone");
  },
});

Deno.test("dson preset: rotations compose in each bone's rotation order; unset channels keep the figure's pose", async () => {
  const bones = ["l_hand", "l_index1", "l_index2", "l_index3", "l_thumb1", "l_thumb2", "r_hand", "r_mid1"];
  const { json, truth } = figureWith(bones, posed);
  const doc = await decode(json);
  const entries: Json[] = [];
  const expected = new Map<string, BonePose>();
  bones.forEach((bone, k) => {
    const p = truth.get(bone)!;
    const rotation: V3 = [...p.rotation];
    const translation: V3 = [...p.translation];
    // Every other bone gets all channels; the rest only x rotation and y translation.
    const axes = k % 2 ? ["x"] : ["x", "y", "z"];
    for (const axis of axes) {
      const value = 40 * Math.sin(k + axis.charCodeAt(0));
      rotation["xyz".indexOf(axis)] = value;
      entries.push({ url: `name://@selection/${bone}:?rotation/${axis}/value`, keys: [[0, value]] });
    }
    translation[1] = k * 0.25;
    entries.push({ url: `name://@selection/${bone}:?translation/y/value`, keys: [[0, k * 0.25]] });
    expected.set(bone, { ...p, rotation, translation });
  });
  const preset = { bytes: dsonBytes(presetJson(entries)), name: "pose.duf" };
  const { scene } = await runNode(dsonApplyPreset, { scene: doc, preset });
  const error = worstJointError(scene, expected, bones);
  assert.ok(error < 1e-5, `off by ${error}`);
  assert.ok(worstJointError(scene, truth, bones) > 0.01, "the check can fail: the preset changed the pose");
});

/** Adds a morph `id` (its name the same) to the figure's geometry, moving vertex 5 by 1 along Y at weight 1. */
function addMorph(json: Json, id: string): void {
  (json.modifier_library as Json[]).push({
    id,
    name: id,
    parent: "#Genesis9_geo",
    channel: { id: "value", type: "float", value: 0 },
    morph: { vertex_count: 16, deltas: { count: 1, values: [[5, 0, 1, 0]] } },
  });
}

Deno.test("dson preset: morph values set morph weights; missing nodes and extra keys are warnings, an auto_follow joint is not", async () => {
  const { json } = figureWith(["l_hand"], () => ({ rotation: [0, 0, 0], translation: [0, 0, 0] }));
  addMorph(json, "body_ctrl_lThumbGrasp");
  const doc = await decode(json);
  const ctx = testContext();
  const entries = [
    { url: "name://@selection#body_ctrl_lThumbGrasp:?value/value", keys: [[0, 0.4]] },
    { url: "name://@selection/l_hand:?rotation/z/value", keys: [[0, 30], [10, 60]], auto_follow: true },
    { url: "name://@selection/l_elbow:?rotation/x/value", keys: [[0, 10]] },
    { url: "name://@selection/l_hand:?visible", keys: [[0, 1]] },
  ];
  const mixed = presetJson(entries);
  (mixed.scene as Json).modifiers = [{ id: "extra-1", url: "/data/extra.dsf#extra" }];
  const preset = { bytes: dsonBytes(mixed), name: "mixed.duf" };
  const { scene } = await runNode(dsonApplyPreset, { scene: doc, preset }, {}, ctx);
  const mesh = scene.getRoot().listMeshes()[0];
  assert.deepEqual(mesh.getWeights(), [0.4]);
  const messages = ctx.warnings.map((w) => w.message).join("\n");
  assert.match(messages, /1 node\(s\) not in the scene, not posed: l_elbow/);
  assert.match(
    messages,
    /2 channel\(s\) not applied: name:\/\/@selection\/l_hand:\?visible.*scene\.modifiers/,
  );
  assert.match(messages, /several keys; only frame 0/);
  // An auto_follow joint channel says nothing: fitted items' bones follow their target's pose.
  assert.doesNotMatch(messages, /auto_follow/);
  // The frame-0 key was applied: l_hand turned 30° about its own z (its rotation order applies).
  const named = (d: Document) => d.getRoot().listNodes().find((n: Node) => n.getName() === "l_hand")!;
  const [q1, q0] = [named(scene).getRotation(), named(doc).getRotation()];
  const cosHalf = Math.abs(q1[0] * q0[0] + q1[1] * q0[1] + q1[2] * q0[2] + q1[3] * q0[3]);
  const turn = Math.acos(Math.min(1, cosHalf)) * 2 * 180 / Math.PI;
  assert.ok(Math.abs(turn - 30) < 1e-3, `turned ${turn}°`);
});

Deno.test("dson preset: material presets and files with nothing to apply are DecodeErrors; no preset passes through", async () => {
  const { json } = figureWith(["l_hand"], posed);
  const doc = await decode(json);
  const material = presetJson(
    [{ url: "name://@selection:/materials/Skin?diffuse/value", keys: [[0, 1]] }],
    "preset_material",
  );
  await assert.rejects(
    () => runNode(dsonApplyPreset, { scene: doc, preset: { bytes: dsonBytes(material), name: "m.duf" } }),
    (e: unknown) => e instanceof DecodeError && /material presets are not applied/.test(e.message),
  );
  const empty = { file_version: "0.6.1.0", asset_info: { type: "preset_pose" }, scene: { materials: [] } };
  await assert.rejects(
    () => runNode(dsonApplyPreset, { scene: doc, preset: { bytes: dsonBytes(empty), name: "e.duf" } }),
    (e: unknown) => e instanceof DecodeError && /scene\.animations/.test(e.message),
  );
  const badKey = presetJson([{ url: "name://@selection/l_hand:?rotation/x/value", keys: [[0, "ten"]] }]);
  await assert.rejects(
    () => runNode(dsonApplyPreset, { scene: doc, preset: { bytes: dsonBytes(badKey), name: "k.duf" } }),
    (e: unknown) => e instanceof DecodeError && e.message.includes("/scene/animations/0/keys/0/1"),
  );
  const { scene } = await runNode(dsonApplyPreset, { scene: doc });
  assert.equal(scene, doc);
  const plain = new Document();
  plain.createScene("s").addChild(plain.createNode("l_hand"));
  const pose = presetJson([{ url: "name://@selection/l_hand:?rotation/x/value", keys: [[0, 10]] }]);
  await assert.rejects(
    () => runNode(dsonApplyPreset, { scene: plain, preset: { bytes: dsonBytes(pose), name: "p.duf" } }),
    /no DSON nodes/,
  );
});

Deno.test("dson preset: a name shared by two figure instances poses both, with one warning", async () => {
  const { json } = figureWith(
    ["l_hand", "l_thumb1"],
    () => ({ rotation: [0, 0, 0], translation: [0, 0, 0] }),
  );
  ((json.scene as Json).nodes as Json[]).push({ id: "Genesis9-2", url: "#Genesis9", name: "Genesis9" });
  const doc = await decode(json);
  const entries = ["l_hand", "l_thumb1"].map((bone) => ({
    url: `name://@selection/${bone}:?rotation/y/value`,
    keys: [[0, 20]],
  }));
  const ctx = testContext();
  const preset = { bytes: dsonBytes(presetJson(entries)), name: "two.duf" };
  const { scene } = await runNode(dsonApplyPreset, { scene: doc, preset }, {}, ctx);
  const hands = (d: Document) => d.getRoot().listNodes().filter((n: Node) => n.getName() === "l_hand");
  assert.equal(hands(scene).length, 2);
  hands(scene).forEach((hand, i) => assert.notDeepEqual(hand.getRotation(), hands(doc)[i].getRotation()));
  const messages = ctx.warnings.map((w) => w.message);
  assert.deepEqual(messages.filter((m) => /match several nodes/.test(m)).length, 1, messages.join("\n"));
});

Deno.test("dson preset: a node's pose is read back as Euler angles in every rotation order", () => {
  for (const order of ORDERS) {
    for (const angles of [[10, 20, 30], [-170, 80, 45], [5, -89, 170], [120, 100, -60], [0, 0, 0]]) {
      const back = eulerDegrees(eulerQuat(angles, order), order);
      // The same rotation (the angles themselves may differ: e.g. a middle angle past 90°).
      const [want, got] = [eulerMatrix(angles, order), eulerMatrix(back, order)];
      const error = Math.max(...want.flatMap((row, r) => row.map((x, c) => Math.abs(x - got[r][c]))));
      // 1e-5: gl-matrix quaternions are float32, which costs precision a degree from gimbal lock.
      assert.ok(error < 1e-5, `${order} ${angles} → ${back}: ${error}`);
    }
  }
});

Deno.test("dson.apply_preset: a scene it owns is posed in place, to the bytes of posing a copy", async () => {
  const bones = ["l_hand", "l_index1", "r_hand"];
  const { json } = figureWith(bones, posed);
  const entries = bones.map((bone, k) => ({
    url: `name://@selection/${bone}:?rotation/x/value`,
    keys: [[0, 10 + k]],
  }));
  const preset = { bytes: dsonBytes(presetJson(entries)), name: "pose.duf" };
  const copied = await decode(json), owned = await decode(json);
  settleExtras(owned); // as the executor does when it hands a scene over
  const fromCopy = (await runNode(dsonApplyPreset, { scene: copied, preset })).scene;
  const ctx = { ...testContext(), owns: () => true };
  const inPlace = (await runNode(dsonApplyPreset, { scene: owned, preset }, {}, ctx)).scene;
  assert.ok(inPlace === owned && fromCopy !== copied);
  const glb = (doc: Document) => writeGlb(doc, { generator: GENERATOR });
  assert.deepStrictEqual(await glb(inPlace), await glb(fromCopy));
});

Deno.test("dson preset: scaling a bone leaves its children that do not inherit scale their size, as Daz does", async () => {
  const bones = ["l_hand", "l_index1", "l_index2"];
  const { json } = figureWith(bones, () => ({ rotation: [0, 0, 0], translation: [0, 0, 0] }));
  for (const node of json.node_library as Json[]) {
    if (node.id === "l_index1" || node.id === "l_index2") node.inherits_scale = false;
  }
  const doc = await decode(json);
  const preset = (entries: [string, string, number][]) => ({
    bytes: dsonBytes(presetJson(entries.map(([bone, channel, value]) => ({
      url: `name://@selection/${bone}:?${channel}/value`,
      keys: [[0, value]],
    })))),
    name: "scale.duf",
  });
  /** Each bone's world scale along its own x, y and z (the lengths of its world matrix's columns). */
  const worldScales = (scene: Document) =>
    Object.fromEntries(bones.map((bone) => {
      const m = scene.getRoot().listNodes().find((n) => n.getName() === bone)!.getWorldMatrix();
      return [bone, [0, 4, 8].map((c) => Number(Math.hypot(m[c], m[c + 1], m[c + 2]).toFixed(6)))];
    }));
  const grown =
    (await runNode(dsonApplyPreset, { scene: doc, preset: preset([["l_hand", "scale/general", 1.5]]) }))
      .scene;
  assert.deepEqual(worldScales(grown), {
    l_hand: [1.5, 1.5, 1.5],
    l_index1: [1, 1, 1],
    l_index2: [1, 1, 1],
  });
  // A second preset on the posed scene: the finger's own scale is composed under the hand's, not its own.
  const doubled = (await runNode(dsonApplyPreset, {
    scene: grown,
    preset: preset([["l_index1", "scale/general", 2]]),
  })).scene;
  assert.deepEqual(worldScales(doubled), {
    l_hand: [1.5, 1.5, 1.5],
    l_index1: [2, 2, 2],
    l_index2: [1, 1, 1],
  });
  // Scaled unevenly, a parent's scale cannot be undone in glTF across the child's turn: the child
  // takes the nearest scale and is named with how far off (before v51 it inherited the stretch).
  const ctx = testContext();
  const stretched = (await runNode(
    dsonApplyPreset,
    { scene: doubled, preset: preset([["l_index1", "scale/x", 3]]) },
    {},
    ctx,
  )).scene;
  assert.ok(
    ctx.warnings.some((w) =>
      /1 node\(s\) that do not inherit scale .*: 'l_index2' under 'l_index1' \(scale 3, 2, 2\), up to [\d.]+% of its size off$/
        .test(w.message)
    ),
    ctx.warnings.map((w) => w.message).join("\n"),
  );
  for (const s of worldScales(stretched).l_index2) assert.ok(Math.abs(s - 1) < 0.15, `l_index2 ${s}`);
});

Deno.test("dson preset: a key whose value is null (a JSON writer's NaN) is skipped, with one warning naming it", async () => {
  const bones = ["l_hand", "l_index1"];
  const zero = () => ({ rotation: [0, 0, 0] as V3, translation: [0, 0, 0] as V3 });
  const { json, truth } = figureWith(bones, zero);
  const doc = await decode(json);
  const ctx = testContext();
  const entries = [
    // Frame 0 is null: the next key is the earliest with a value.
    { url: "name://@selection/l_hand:?rotation/x/value", keys: [[0, null], [10, 30]] },
    { url: "name://@selection/l_index1:?rotation/y/value", keys: [[0, null]] },
  ];
  const preset = { bytes: dsonBytes(presetJson(entries)), name: "nan.duf" };
  const { scene } = await runNode(dsonApplyPreset, { scene: doc, preset }, {}, ctx);
  const expected = new Map(truth);
  expected.set("l_hand", { ...truth.get("l_hand")!, rotation: [30, 0, 0] });
  const error = worstJointError(scene, expected, bones);
  assert.ok(error < 1e-5, `off by ${error}`);
  assert.ok(worstJointError(scene, truth, bones) > 0.01, "the check can fail: l_hand turned");
  assert.deepEqual(ctx.warnings.map((w) => w.message), [
    "dson preset: nan.duf at /scene/animations/0/keys/0/1: 2 key(s) with a null value (how JSON writers " +
    "store NaN or infinity) skipped; 1 channel(s) left with no key, not applied: " +
    "'name://@selection/l_index1:?rotation/y/value'",
  ]);
  const record = getPartgraphExtras(scene.getRoot().listScenes()[0]).dson as Json;
  assert.equal((record.presets as Json[])[0].joints, 1, "only l_hand was posed");
});

Deno.test("dson preset: a key whose time is null is skipped like a null value, not a DecodeError; the warning says time", async () => {
  const bones = ["l_hand", "l_index1", "r_hand"];
  const zero = () => ({ rotation: [0, 0, 0] as V3, translation: [0, 0, 0] as V3 });
  const { json, truth } = figureWith(bones, zero);
  const doc = await decode(json);
  const apply = async (entries: Json[]) => {
    const ctx = testContext();
    const preset = { bytes: dsonBytes(presetJson(entries)), name: "nan.duf" };
    const { scene } = await runNode(dsonApplyPreset, { scene: doc, preset }, {}, ctx);
    return { scene, warnings: ctx.warnings.map((w) => w.message) };
  };
  // A null time before frame 0 would win as "the earliest" if read as anything: it must be skipped.
  const times = await apply([
    { url: "name://@selection/l_hand:?rotation/x/value", keys: [[null, 70], [0, 30]] },
    { url: "name://@selection/l_index1:?rotation/y/value", keys: [[null, 45]] },
  ]);
  const expected = new Map(truth);
  expected.set("l_hand", { ...truth.get("l_hand")!, rotation: [30, 0, 0] });
  const error = worstJointError(times.scene, expected, bones);
  assert.ok(error < 1e-5, `off by ${error}`);
  assert.ok(worstJointError(times.scene, truth, bones) > 0.01, "the check can fail: l_hand turned");
  assert.deepEqual(times.warnings, [
    "dson preset: nan.duf at /scene/animations/0/keys/0/0: 2 key(s) with a null time (how JSON writers " +
    "store NaN or infinity) skipped; 1 channel(s) left with no key, not applied: " +
    "'name://@selection/l_index1:?rotation/y/value'",
  ]);
  // Null times and values together: one warning, naming the first null (here a value) and both kinds.
  const both = await apply([
    { url: "name://@selection/r_hand:?rotation/z/value", keys: [[0, null], [null, 5], [3, 12]] },
  ]);
  assert.deepEqual(both.warnings, [
    "dson preset: nan.duf at /scene/animations/0/keys/0/1: 2 key(s) with a null time or value (how JSON " +
    "writers store NaN or infinity) skipped",
  ]);
  const rHand = new Map(truth);
  rHand.set("r_hand", { ...truth.get("r_hand")!, rotation: [0, 0, 12] });
  assert.ok(worstJointError(both.scene, rHand, bones) < 1e-5);
  // A time that is no number stays a DecodeError at its path, also beside a null value.
  const error2 = await apply([{ url: "name://@selection/r_hand:?rotation/z/value", keys: [["0", null]] }])
    .catch((e) => e);
  assert.ok(error2 instanceof DecodeError, String(error2));
  assert.deepEqual(error2.at, { jsonPath: "/scene/animations/0/keys/0/0" });
});

Deno.test("dson preset: channels on @selection itself pose the figure's root, and every bone with it", async () => {
  // Daz writes a figure's own transform as `name://@selection:?…` (a sitting or lying pose moves
  // it); Diffeomorphic applies it to the rig object. The generated figure's root turns in YXZ.
  const bones = ["l_hand", "l_index1", "l_index2", "r_hand", "r_mid1"];
  const { json, truth } = figureWith(bones, posed);
  const doc = await decode(json);
  const root: BonePose = {
    center: [0, 0, 0],
    orientation: [0, 0, 0],
    order: "YXZ",
    rotation: [20, -35, 10],
    translation: [4, -30, 12],
  };
  const entries: Json[] = [];
  for (const [k, axis] of ["x", "y", "z"].entries()) {
    entries.push({ url: `name://@selection:?rotation/${axis}/value`, keys: [[0, root.rotation[k]]] });
    entries.push({ url: `name://@selection:?translation/${axis}/value`, keys: [[0, root.translation[k]]] });
  }
  const ctx = testContext();
  const preset = { bytes: dsonBytes(presetJson(entries)), name: "sit.duf" };
  const { scene } = await runNode(dsonApplyPreset, { scene: doc, preset }, {}, ctx);
  assert.deepEqual(ctx.warnings.map((w) => w.message), []);
  const withRoot = new Map(truth).set("Genesis9", root);
  const all = [...bones, "Genesis9"];
  const error = worstJointError(scene, withRoot, all);
  assert.ok(error < 1e-5, `off by ${error}`);
  // Before (dson.apply_preset v6) the six channels were skipped: the root stayed at rest.
  const resting = new Map(truth).set("Genesis9", { ...root, rotation: [0, 0, 0], translation: [0, 0, 0] });
  assert.ok(worstJointError(scene, resting, all) > 0.1, "the root moved");
  const record = ((getPartgraphExtras(scene.getRoot().listScenes()[0]).dson as Json).presets as Json[])[0];
  assert.equal(record.joints, 1);
});

Deno.test("dson preset: @selection poses every top-level figure, not a conforming one, with one warning", async () => {
  const { json } = figureWith(["l_hand"], () => ({ rotation: [0, 0, 0], translation: [0, 0, 0] }));
  const nodes = (json.scene as Json).nodes as Json[];
  // A second person, and a conforming item (its conform_target the first) under the first.
  nodes.push(
    { id: "Genesis9-2", url: "#Genesis9", name: "Genesis9" },
    { id: "Shirt-1", url: "#Genesis9", name: "Shirt", parent: "#Genesis9-1", conform_target: "#Genesis9-1" },
  );
  const doc = await decode(json);
  const ctx = testContext();
  const entries = [{ url: "name://@selection:?translation/x/value", keys: [[0, 50]] }];
  const { scene } = await runNode(
    dsonApplyPreset,
    { scene: doc, preset: { bytes: dsonBytes(presetJson(entries)), name: "move.duf" } },
    {},
    ctx,
  );
  const byKey = (key: string) =>
    scene.getRoot().listNodes().find((n: Node) =>
      (getPartgraphExtras(n).dson as Json | undefined)?.key === key
    )!;
  assert.deepEqual(byKey("Genesis9-1").getTranslation(), [0.5, 0, 0]);
  assert.deepEqual(byKey("Genesis9-2").getTranslation(), [0.5, 0, 0]);
  assert.deepEqual(byKey("Shirt-1").getTranslation(), [0, 0, 0], "the shirt moves with its parent");
  assert.deepEqual(ctx.warnings.map((w) => w.message), [
    "dson preset: Daz applies a preset to the selected figure, and this scene has 2 figures ('Genesis9' labelled " +
    "'Generated' (instance Genesis9-1), 'Genesis9' labelled 'Generated' (instance Genesis9-2)), the preset names none of them: applied to all of them; set the figure parameter to choose one",
    "dson preset: 1 name(s) match several nodes, all posed: @selection (the figure's root)",
  ]);
  // The figure parameter picks the selected figure (dson.apply_preset v18): the second alone moves.
  const chosen = testContext();
  const picked = (await runNode(
    dsonApplyPreset,
    { scene: doc, preset: { bytes: dsonBytes(presetJson(entries)), name: "move.duf" } },
    { figure: "Genesis9-2" },
    chosen,
  )).scene;
  const pickedKey = (key: string) =>
    picked.getRoot().listNodes().find((n: Node) =>
      (getPartgraphExtras(n).dson as Json | undefined)?.key === key
    )!;
  assert.deepEqual(pickedKey("Genesis9-1").getTranslation(), [0, 0, 0]);
  assert.deepEqual(pickedKey("Genesis9-2").getTranslation(), [0.5, 0, 0]);
  assert.deepEqual(chosen.warnings, []);
});

Deno.test("dson preset: a node or morph id stored percent-encoded matches the preset's decoded URL", async () => {
  // Some files keep ids percent-encoded like their URIs; the preset's URL is decoded ("l hand").
  const { json } = figureWith(["l_hand"], () => ({ rotation: [0, 0, 0], translation: [0, 0, 0] }));
  const hand = (json.node_library as Json[]).find((n) => n.id === "l_hand")!;
  hand.id = "l%20hand";
  hand.name = "l%20hand";
  addMorph(json, "My%20Smile");
  const doc = await decode(json);
  const ctx = testContext();
  const entries = [
    { url: "name://@selection#My%20Smile:?value/value", keys: [[0, 0.7]] },
    { url: "name://@selection/l%20hand:?rotation/z/value", keys: [[0, 30]] },
  ];
  const { scene } = await runNode(
    dsonApplyPreset,
    { scene: doc, preset: { bytes: dsonBytes(presetJson(entries)), name: "smile.duf" } },
    {},
    ctx,
  );
  assert.deepEqual(ctx.warnings.map((w) => w.message), []);
  const mesh = scene.getRoot().listMeshes()[0];
  assert.ok(Math.abs(mesh.getWeights()[0] - 0.7) < 1e-7, `${mesh.getWeights()}`);
  const node = (d: Document) =>
    d.getRoot().listNodes().find((n: Node) =>
      (getPartgraphExtras(n).dson as Json | undefined)?.id === "l%20hand"
    )!;
  const [q1, q0] = [node(scene).getRotation(), node(doc).getRotation()];
  const cosHalf = Math.abs(q1[0] * q0[0] + q1[1] * q0[1] + q1[2] * q0[2] + q1[3] * q0[3]);
  assert.ok(Math.abs(Math.acos(Math.min(1, cosHalf)) * 360 / Math.PI - 30) < 1e-3, "l hand turned 30°");
});

Deno.test("dson preset: a node id with a literal '%' is found by its %25 address; a decoded twin is not taken for it", async () => {
  // Daz writes a '%' of an id as %25 in a URI, and keeps a lone '%' (no two hex digits after it)
  // as written. Names differ from ids here, so only the id can match. Before (dson.apply_preset
  // v8) ids were only compared decoded: `Bone%41` was 'not in the scene' (its decoded key was
  // `BoneA`), and `A%20B` and `A B` both answered to `A B`.
  const ids = ["Bone%41", "A%20B", "A B", "100%", "%E9t%C3%A9"];
  const { json } = figureWith(["l_hand"], () => ({ rotation: [0, 0, 0], translation: [0, 0, 0] }));
  ids.forEach((id, k) => {
    (json.node_library as Json[]).push({
      id,
      name: `Name ${k}`,
      type: "bone",
      parent: "#l_hand",
      center_point: channels("float", [60 + k, 140, 0]),
      end_point: channels("float", [62 + k, 140, 0]),
    });
  });
  const doc = await decode(json);
  const nodeOf = (scene: Document, id: string) =>
    scene.getRoot().listNodes().find((n: Node) =>
      (getPartgraphExtras(n).dson as Json | undefined)?.id === id
    )!;
  /** How far (degrees) the preset turned node `id` from its decoded pose. */
  const turnOf = (scene: Document, id: string) => {
    const [q1, q0] = [nodeOf(scene, id).getRotation(), nodeOf(doc, id).getRotation()];
    const cosHalf = Math.abs(q1[0] * q0[0] + q1[1] * q0[1] + q1[2] * q0[2] + q1[3] * q0[3]);
    // Rounded to 0.1°: acos near 1 magnifies float32 rounding (0.024° on untouched nodes).
    return Math.round(Math.acos(Math.min(1, cosHalf)) * 360 / Math.PI * 10) / 10;
  };
  for (
    const [address, posedId] of [
      ["Bone%2541", "Bone%41"],
      ["A%2520B", "A%20B"],
      ["A%20B", "A B"],
      ["100%25", "100%"],
      ["100%", "100%"], // a lone '%', kept as written
      ["%25E9t%25C3%25A9", "%E9t%C3%A9"],
    ]
  ) {
    const ctx = testContext();
    const preset = presetJson([{ url: `name://@selection/${address}:?rotation/z/value`, keys: [[0, 30]] }]);
    const { scene } = await runNode(
      dsonApplyPreset,
      { scene: doc, preset: { bytes: dsonBytes(preset), name: "p.duf" } },
      {},
      ctx,
    );
    assert.deepEqual(ctx.warnings.map((w) => w.message), [], address);
    assert.deepEqual(
      ids.map((id) => [id, turnOf(scene, id)]),
      ids.map((id) => [id, id === posedId ? 30 : 0]),
      address,
    );
  }
});
