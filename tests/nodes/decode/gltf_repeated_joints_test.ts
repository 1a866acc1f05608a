/**
 * A skin listing a node twice among its joints (`deno task fuzz --formats hostile-gltf`, family
 * skin-refs). Before decode.gltf v56, glTF-Transform kept the node once, in its last slot: every slot
 * between shifted onto another bone (the limb's hip, ankle, knee, tail came back ankle, knee, tail,
 * hip), silently. Now each repeat is a child of its node with no transform of its own, in its own slot.
 */
import assert from "node:assert/strict";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import { hostileInput, joinGlb, splitGlb } from "../../fuzz/hostile.ts";
import { encode3df } from "../../support/carnivores/encode.ts";
import { limbModel } from "./carnivores/fixtures.ts";
import { decodeAuto } from "../../../nodes/decode/auto.ts";
import { constraintsResolve } from "../../../nodes/constraints/resolve.ts";
import { writeGlb } from "../../../runtime/scene/gltf_io.ts";
import type { Document } from "@gltf-transform/core";

/** The limb `.3df` decoded and resolved (a skin of four joints), with `edit` applied to its JSON and buffer. */
// deno-lint-ignore no-explicit-any
async function limbGlb(edit: (json: any, bin: Uint8Array) => Uint8Array): Promise<Uint8Array> {
  const ctx = testContext();
  const decoded =
    (await runNode(decodeAuto, { bytes: { bytes: encode3df(limbModel()), name: "limb.3df" } }, {}, ctx))
      .scene;
  const resolved = (await runNode(constraintsResolve, { scene: decoded }, {}, ctx)).scene;
  const { json, bin } = splitGlb(await writeGlb(resolved, { generator: "test" }));
  const grown = edit(json, bin);
  return joinGlb(new TextEncoder().encode(JSON.stringify(json)), grown);
}

Deno.test("a joint a skin lists twice keeps every slot on its own bone, with a warning at the skin's joints", async () => {
  let fileJoints: string[] = [];
  const bytes = await limbGlb((json, bin) => {
    const skin = json.skins[0];
    fileJoints = skin.joints.map((n: number) => json.nodes[n].name);
    // The first joint again, with a matrix of its own (the first one's), as a fifth slot.
    const ibm = json.accessors[skin.inverseBindMatrices];
    const from = (json.bufferViews[ibm.bufferView].byteOffset ?? 0) + (ibm.byteOffset ?? 0);
    const matrices = new Uint8Array(ibm.count * 64 + 64);
    matrices.set(bin.subarray(from, from + ibm.count * 64));
    matrices.set(bin.subarray(from, from + 64), ibm.count * 64);
    const at = Math.ceil(bin.byteLength / 4) * 4;
    const out = new Uint8Array(at + matrices.byteLength);
    out.set(bin);
    out.set(matrices, at);
    json.buffers[0].byteLength = out.byteLength;
    json.bufferViews.push({ buffer: 0, byteOffset: at, byteLength: matrices.byteLength });
    json.accessors.push({
      ...ibm,
      bufferView: json.bufferViews.length - 1,
      byteOffset: 0,
      count: ibm.count + 1,
    });
    skin.inverseBindMatrices = json.accessors.length - 1;
    skin.joints.push(skin.joints[0]);
    return out;
  });
  const ctx = testContext();
  const scene = (await runNode(decodeGltf, { bytes: { bytes, name: "limb.glb" } }, {}, ctx))
    .scene as Document;
  const joints = scene.getRoot().listSkins()[0].listJoints();
  assert.equal(joints.length, fileJoints.length + 1);
  // Each slot the file lists first is the same bone, in the same place.
  assert.deepEqual(joints.slice(0, fileJoints.length).map((j) => j.getName()), fileJoints);
  // The repeat: a child of the first joint, with no transform, so the same world matrix.
  const repeat = joints[fileJoints.length];
  assert.equal(repeat.getParentNode(), joints[0]);
  assert.deepEqual(repeat.getWorldMatrix(), joints[0].getWorldMatrix());
  const warning = ctx.warnings.find((w) => w.message.includes("/skins/0/joints"));
  assert.ok(warning, JSON.stringify(ctx.warnings));
  assert.match(
    warning.message,
    new RegExp(`slot ${fileJoints.length} repeats node \\d+ '${fileJoints[0]}' of slot 0`),
  );
});

Deno.test("hostile skins listing a joint twice end in a valid output or a typed error, no slot shifted", async () => {
  let seen = 0;
  for (let i = 0; i < 40 && seen < 3; i++) {
    const { name, bytes } = await hostileInput("hostile-gltf", 7001, i, {
      family: "skin-refs",
      base: "limb",
    });
    const json = JSON.parse(new TextDecoder().decode(bytes));
    const joints: number[] = json.skins[0].joints;
    const matrices = json.accessors[json.skins[0].inverseBindMatrices].count;
    // Only repeats given a matrix of their own: with too few matrices the skin is refused, rightly.
    if (joints.length > 10 || joints.at(-1) !== joints[0] || matrices < joints.length) continue;
    seen++;
    const ctx = testContext();
    const scene = (await runNode(decodeGltf, { bytes: { bytes, name } }, {}, ctx)).scene as Document;
    const decoded = scene.getRoot().listSkins()[0].listJoints().map((j) => j.getName());
    const listed = joints.map((n) => json.nodes[n].name);
    assert.deepEqual(decoded.slice(0, -1), listed.slice(0, -1), `case ${i}`);
  }
  assert.ok(seen > 0);
});
