/**
 * `constraints.resolve` on Carnivores scenes: the bone table becomes joints whose world positions are
 * the (mapped, scaled) pivots, a skin with `JOINTS_0 = owner`, weight 1 and inverse bind matrices;
 * broken tables (cycles, bad parents, junk pivots, bad owners) are repaired with warnings.
 */
import assert from "node:assert/strict";
import type { Document, Node } from "@gltf-transform/core";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { decodeCar } from "../../../../nodes/decode/carnivores/decode_car.ts";
import { encode3df, encodeCar } from "../../../support/carnivores/encode.ts";
import { readGltf, writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import { MAX_HIERARCHY_DEPTH } from "../../../../runtime/depth.ts";
import type { Bone, Model3df } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { animatedCar, LIMB_BONES, limbModel } from "./fixtures.ts";
import { faceCorners, modelNode, near } from "./probe.ts";

const SCALE = 0.5;

async function resolve(model: Model3df, params: Record<string, unknown> = {}) {
  const ctx = testContext();
  const bytes = { bytes: encode3df(model), name: "limb.3df" };
  const decoded = (await runNode(decode3df, { bytes }, { scale: SCALE }, ctx)).scene as Document;
  // deno-lint-ignore no-explicit-any
  const scene = (await runNode(constraintsResolve, { scene: decoded }, params as any, ctx)).scene as Document;
  return { decoded, scene, warnings: ctx.warnings.map((w) => w.message), node: modelNode(scene) };
}

/** The file pivot of a bone in scene space: scale·(x, y, −z). */
function scenePivot(bone: Bone): number[] {
  return [SCALE * bone.pivot[0], SCALE * bone.pivot[1], -SCALE * bone.pivot[2]];
}

/** Column-major 4×4 product. */
function multiply(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  }
  return out;
}

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

Deno.test("bones become joints at their world pivots, parented as stored, bound at rest", async () => {
  const model = limbModel();
  const { scene, node, warnings, decoded } = await resolve(model);
  assert.deepEqual(warnings, []);
  const skin = node.getSkin()!;
  const joints = skin.listJoints();
  assert.deepEqual(joints.map((j) => j.getName()), LIMB_BONES.map((b) => b.name));
  const parentOf = (joint: Node) => joint.getParentNode()?.getName();
  assert.deepEqual(joints.map(parentOf), ["limb_skeleton", "knee", "hip", "hip"]);
  const ibm = skin.getInverseBindMatrices()!;
  joints.forEach((joint, b) => {
    near(joint.getWorldTranslation(), scenePivot(LIMB_BONES[b]), 1e-6, `joint ${b} world pivot`);
    near(joint.getRotation(), [0, 0, 0, 1], 0, `joint ${b} rotation`);
    const inverse = ibm.getElement(b, [] as number[]);
    near(multiply(inverse, joint.getWorldMatrix()), IDENTITY, 1e-6, `joint ${b} inverse bind × world`);
  });
  assert.equal(skin.getSkeleton()?.getName(), "limb_skeleton");

  // Every face corner is bound to its source point's owner with weight 1.
  const mesh = node.getMesh()!;
  for (let f = 0; f < model.faces.count; f++) {
    faceCorners(mesh, f).forEach((corner, k) => {
      const owner = model.points.owners[model.faces.indices[f * 3 + k]];
      near(corner.primitive.getAttribute("JOINTS_0")!.getElement(corner.vertex, [] as number[]), [
        owner,
        0,
        0,
        0,
      ], 0);
      near(corner.primitive.getAttribute("WEIGHTS_0")!.getElement(corner.vertex, [] as number[]), [
        1,
        0,
        0,
        0,
      ], 0);
    });
  }
  for (const p of mesh.listPrimitives()) assert.equal(p.getAttribute("_OWNER"), null);
  // The input scene is untouched.
  assert.equal(modelNode(decoded).getSkin(), null);
  const report = await validateGltf(await writeGlb(scene, { generator: GENERATOR }));
  assert.equal(report.errors, 0, report.messages.join("\n"));
  assert.equal(report.warnings, 0, report.messages.join("\n"));
});

Deno.test("parent cycles and out-of-range parents are broken with warnings; pivots still match", async () => {
  const bones: Bone[] = [
    { name: "a", pivot: [0, 0, 0], parent: 1, hide: 0 },
    { name: "b", pivot: [0, 10, 4], parent: 0, hide: 0 },
    { name: "c", pivot: [2, 20, 6], parent: 9, hide: 0 },
    { name: "d", pivot: [-3, 2, -8], parent: 3, hide: 0 },
  ];
  const { node, warnings, scene } = await resolve(limbModel(bones));
  assert.equal(warnings.length, 3, warnings.join("\n"));
  assert.match(warnings[0], /bone 2 'c': parent 9 is out of range; made a root/);
  assert.match(warnings[1], /bone 3 'd': parent 3 is itself; made a root/);
  assert.match(warnings[2], /cycle \(0 'a' → 1 'b' → 0 'a'\); bone 0 made a root/);
  const joints = node.getSkin()!.listJoints();
  assert.deepEqual(joints.map((j) => j.getParentNode()?.getName()), [
    "limb_skeleton",
    "a",
    "limb_skeleton",
    "limb_skeleton",
  ]);
  joints.forEach((joint, b) => near(joint.getWorldTranslation(), scenePivot(bones[b]), 1e-6, `joint ${b}`));
  const report = await validateGltf(await writeGlb(scene, { generator: GENERATOR }));
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("a bone chain deeper than a hierarchy may be is left static with a warning; one within it is a skin", async () => {
  const chain = (length: number): Bone[] =>
    Array.from({ length }, (_, b) => ({ name: `b${b}`, pivot: [b, 0, 0], parent: b - 1, hide: 0 }));
  // The joints hang under the skeleton root: a chain of n bones is n + 1 levels.
  const over = await resolve(limbModel(chain(MAX_HIERARCHY_DEPTH)));
  // (A box per bone: more vertices and faces than the engine draws, which the decoder also says.)
  const resolverWarnings = (warnings: string[]) => warnings.filter((w) => !/engine's/.test(w));
  const levels = MAX_HIERARCHY_DEPTH + 1;
  assert.deepEqual(resolverWarnings(over.warnings), [
    `the bone chain makes a hierarchy ${levels} levels deep, more than ${MAX_HIERARCHY_DEPTH}; left static`,
  ]);
  assert.equal(over.node.getSkin(), null);
  assert.equal(over.scene.getRoot().listNodes().length, 1);
  const within = await resolve(limbModel(chain(MAX_HIERARCHY_DEPTH - 1)));
  assert.deepEqual(resolverWarnings(within.warnings), []);
  assert.equal(within.node.getSkin()!.listJoints().length, MAX_HIERARCHY_DEPTH - 1);
});

Deno.test("junk pivots fall back to their vertices' centroid (or the parent's pivot) with a warning", async () => {
  const bones: Bone[] = [
    { name: "hip", pivot: [0, 0, 0], parent: -1, hide: 0 },
    { name: "far", pivot: [900, -700, 400], parent: 0, hide: 0 },
    { name: "nan", pivot: [NaN, 0, 0], parent: 0, hide: 0 },
    { name: "empty", pivot: [Infinity, 1, 1], parent: 1, hide: 0 },
  ];
  const model = limbModel(bones, LIMB_BONES.map((b) => b.pivot));
  // Bone 3 owns no vertex: give its box to bone 0.
  const owners = model.points.owners.map((o) => (o === 3 ? 0 : o));
  const { node, warnings } = await resolve({ ...model, points: { ...model.points, owners } });
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(
    warnings[0],
    /3 bone pivot\(s\) missing or far from their vertices.*1 'far', 2 'nan', 3 'empty'/,
  );
  const centroid = (bone: number) => {
    const sum = [0, 0, 0];
    let n = 0;
    for (let p = 0; p < model.points.count; p++) {
      if (owners[p] !== bone) continue;
      const [x, y, z] = model.points.positions.subarray(p * 3, p * 3 + 3);
      sum[0] += SCALE * x;
      sum[1] += SCALE * y;
      sum[2] -= SCALE * z;
      n++;
    }
    return sum.map((s) => s / n);
  };
  const joints = node.getSkin()!.listJoints();
  near(joints[0].getWorldTranslation(), [0, 0, 0], 1e-6, "hip keeps its pivot");
  near(joints[1].getWorldTranslation(), centroid(1), 1e-5, "far → centroid");
  near(joints[2].getWorldTranslation(), centroid(2), 1e-5, "nan → centroid");
  near(joints[3].getWorldTranslation(), centroid(1), 1e-5, "empty → parent's pivot");
});

Deno.test("owners that name no bone are bound to joint 0 with a warning", async () => {
  const model = limbModel();
  const owners = model.points.owners.slice();
  owners[0] = 7;
  owners[1] = -2;
  const { warnings } = await resolve({ ...model, points: { ...model.points, owners } });
  assert.deepEqual(warnings, ["2 vertex owner(s) name no bone (4 bones); bound to bone 0"]);
});

Deno.test("without bones the model stays a static mesh; a .car has no bones; pose is ignored with a note", async () => {
  // A bone-less .3df's points carry owner 0 (points naming bones are named: converter_habits_test).
  const limb = limbModel();
  limb.points.owners.fill(0);
  const { node, warnings } = await resolve({ ...limb, bones: [] });
  assert.equal(node.getSkin(), null);
  assert.deepEqual(warnings, []);

  const ctx = testContext();
  const car =
    (await runNode(decodeCar, { bytes: { bytes: encodeCar(animatedCar()), name: "a.car" } }, {}, ctx))
      .scene;
  const resolved = (await runNode(constraintsResolve, { scene: car }, { pose: { hip: 10 } }, ctx)).scene;
  assert.equal(modelNode(resolved).getSkin(), null);
  assert.equal(resolved.getRoot().listAnimations().length, 2);
  assert.deepEqual(ctx.warnings.map((w) => w.message), [
    "'car' scenes take no parameter 'pose' (the cmp/3db/vms/sph resolver's); it is ignored",
  ]);
});

Deno.test("the bone table and owners survive the GLB cache codec: resolving a re-read scene is the same", async () => {
  const model = limbModel();
  const ctx = testContext();
  const decoded =
    (await runNode(decode3df, { bytes: { bytes: encode3df(model), name: "limb.3df" } }, {}, ctx))
      .scene as Document;
  const reread = await readGltf(await writeGlb(decoded, { generator: GENERATOR }));
  const direct = (await runNode(constraintsResolve, { scene: decoded }, {}, ctx)).scene as Document;
  const cached = (await runNode(constraintsResolve, { scene: reread }, {}, ctx)).scene as Document;
  assert.deepEqual(ctx.warnings, []);
  assert.deepEqual(
    await writeGlb(cached, { generator: GENERATOR }),
    await writeGlb(direct, { generator: GENERATOR }),
  );
});
