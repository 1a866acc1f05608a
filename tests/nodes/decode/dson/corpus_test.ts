import assert from "node:assert/strict";
import type { Document, Node } from "@gltf-transform/core";
import { mat4 } from "gl-matrix";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { describeDson } from "../../../../nodes/decode/dson/codec/describe.ts";
import { decodeAuto } from "../../../../nodes/decode/auto.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { getSourceInfo } from "../../../../runtime/scene/source.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import { corpusFile, withoutCorpus } from "../../../support/corpus.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { type Json, readJsonFile } from "./generate.ts";
import { unpackIndices } from "../../../../nodes/decode/dson/codec/packed_ints.ts";

const MOUTH = "dson/game_engine_mouth_geograft.duf";

async function decodeMouth() {
  const path = corpusFile(MOUTH)!;
  const ctx = testContext();
  const { scene } = await runNode(
    decodeDson,
    { bytes: { bytes: await Deno.readFile(path), name: "mouth.duf" } },
    {},
    ctx,
  );
  return { scene: scene as Document, ctx, json: await readJsonFile(path) };
}

function dsonOf(node: Node): Json {
  return getPartgraphExtras(node).dson as Json;
}

Deno.test({
  name: "dson corpus: gzip geograft figure decodes with 41 bones, a figure root and matching rest positions",
  ignore: withoutCorpus(MOUTH),
  async fn() {
    const { scene, json } = await decodeMouth();
    const summary = describeDson(scene);
    assert.equal((summary.bones as string[]).length, 41);
    assert.equal((summary.figures as Json[]).length, 1);
    const library = json.node_library as Json[];
    const boneIds = library.filter((n) => n.type === "bone").map((n) => n.id);
    assert.deepEqual(summary.bones, boneIds);
    assert.equal(getSourceInfo(scene)?.format, "dson");
    // Every bone's world position is its center_point in metres.
    for (const node of scene.getRoot().listNodes()) {
      const dson = dsonOf(node);
      if (dson?.type !== "bone") continue;
      const def = library.find((n) => n.id === dson.id)!;
      const center = (def.center_point as Json[]).map((c) => (c.current_value ?? c.value) as number);
      const world = node.getWorldTranslation();
      for (let k = 0; k < 3; k++) {
        assert.ok(Math.abs(world[k] - center[k] / 100) < 1e-6, `${dson.id} axis ${k}`);
      }
    }
    // The parent hierarchy follows the library's parent links.
    const tongue03 = scene.getRoot().listNodes().find((n) => dsonOf(n)?.id === "tongue03")!;
    assert.equal(dsonOf(tongue03.getParentNode()!).id, "tongue02");
  },
});

Deno.test({
  name:
    "dson corpus: skin keeps the 4 strongest weights of the binding, renormalised, with rest inverse binds",
  ignore: withoutCorpus(MOUTH),
  async fn() {
    const { scene, json } = await decodeMouth();
    const skin = scene.getRoot().listSkins()[0];
    assert.ok(skin);
    const joints = skin.listJoints();
    assert.equal(joints.length, 42, "figure root + 41 bones");
    const ibm = skin.getInverseBindMatrices()!.getArray()!;
    joints.forEach((joint, j) => {
      const product = mat4.multiply(
        mat4.create(),
        joint.getWorldMatrix() as unknown as mat4,
        ibm.subarray(j * 16, j * 16 + 16) as unknown as mat4,
      );
      assert.ok(
        mat4.equals(product, mat4.create()),
        `joint ${joint.getName()} world · IBM = I (file is at rest)`,
      );
    });
    // Independently: per DSON vertex, the binding's weights by bone id.
    const binding = (json.modifier_library as Json[])[0].skin as Json;
    const expected = new Map<number, Map<string, number>>();
    for (const joint of binding.joints as Json[]) {
      for (const [v, w] of (joint.node_weights as Json).values as number[][]) {
        const byBone = expected.get(v) ?? new Map();
        byBone.set(joint.id as string, w);
        expected.set(v, byBone);
      }
    }
    const primitive = scene.getRoot().listMeshes()[0].listPrimitives()[0];
    const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
    const jointAttr = primitive.getAttribute("JOINTS_0")!.getArray()!;
    const weightAttr = primitive.getAttribute("WEIGHTS_0")!.getArray()!;
    let checked = 0;
    for (let i = 0; i < ids.length; i++) {
      const want = [...(expected.get(ids[i]) ?? new Map()).entries()].sort((a, b) => b[1] - a[1]).slice(0, 4);
      const total = want.reduce((s, [, w]) => s + w, 0);
      const got = new Map<string, number>();
      for (let s = 0; s < 4; s++) {
        const w = weightAttr[i * 4 + s];
        if (w > 0) {
          const bone = dsonOf(joints[jointAttr[i * 4 + s]]).id as string;
          got.set(bone, (got.get(bone) ?? 0) + w);
        }
      }
      assert.equal(got.size, want.length);
      for (const [bone, w] of want) {
        assert.ok(Math.abs(got.get(bone)! - w / total) < 1e-6, `vertex ${ids[i]} ${bone}`);
      }
      checked++;
    }
    assert.equal(checked, 6);
  },
});

Deno.test({
  name: "dson corpus: graft data kept in extras and missing content reported as warnings",
  ignore: withoutCorpus(MOUTH),
  async fn() {
    const { scene, ctx, json } = await decodeMouth();
    const mesh = scene.getRoot().listMeshes()[0];
    const graft = (getPartgraphExtras(mesh).dson as Json).graft as Json;
    const source = (json.geometry_library as Json[])[0].graft as Json;
    assert.equal(graft.merged, false);
    // Packed (decode.dson v33): the graft's column of pairs, then the body's; the hidden polygons.
    const pairs = (source.vertex_pairs as Json).values as number[][];
    const hidden = (source.hidden_polys as Json).values as number[];
    assert.equal(graft.vertex_pair_count, pairs.length);
    assert.deepEqual(
      [...unpackIndices(graft.vertex_pairs_packed as string)!],
      [...pairs.map((p) => p[0]), ...pairs.map((p) => p[1])],
    );
    assert.equal(graft.hidden_poly_count, hidden.length);
    assert.deepEqual([...unpackIndices(graft.hidden_polys_packed as string)!], hidden);
    // The record as v32 wrote it (JSON lists) against the packed one.
    const packedBytes = JSON.stringify(graft).length;
    const listBytes = JSON.stringify({
      merged: graft.merged,
      target_vertex_count: graft.target_vertex_count,
      target_poly_count: graft.target_poly_count,
      vertex_pairs: pairs,
      hidden_polys: hidden,
    }).length;
    console.log(`graft record ${packedBytes} bytes packed, ${listBytes} as lists`);
    assert.ok(packedBytes * 2.5 < listBytes, `${packedBytes} vs ${listBytes}`);
    assert.equal(graft.target_vertex_count, 5079);
    const messages = ctx.warnings.map((w) => w.message);
    assert.ok(messages.some((m) => m.includes("Genesis9_Mouth_D_1001.jpg")), messages.join("\n"));
    assert.ok(
      messages.some((m) => m.includes("/Genesis 9/Mouth") && m.includes("5079")),
      messages.join("\n"),
    );
    const unresolved = describeDson(scene).unresolved as Json[];
    assert.equal(unresolved.length, 2);
    // UVs are flipped for glTF: v_gltf = 1 - v.
    const uvs = ((json.uv_set_library as Json[])[0].uvs as Json).values as number[][];
    const primitive = mesh.listPrimitives()[0];
    const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
    const texcoords = primitive.getAttribute("TEXCOORD_0")!.getArray()!;
    for (let i = 0; i < ids.length; i++) {
      assert.ok(Math.abs(texcoords[i * 2] - uvs[ids[i]][0]) < 1e-6);
      assert.ok(Math.abs(texcoords[i * 2 + 1] - (1 - uvs[ids[i]][1])) < 1e-6);
    }
  },
});

Deno.test({
  name: "dson corpus: GLB passes the Khronos validator with 0 errors and is deterministic",
  ignore: withoutCorpus(MOUTH),
  async fn() {
    const first = await writeGlb((await decodeMouth()).scene, { generator: GENERATOR });
    const report = await validateGltf(first);
    assert.equal(report.errors, 0, report.messages.join("\n"));
    const second = await writeGlb((await decodeMouth()).scene, { generator: GENERATOR });
    assert.deepEqual(second, first);
  },
});

Deno.test({
  name: "dson corpus: decode.auto picks decode.dson for gzip by extension",
  ignore: withoutCorpus(MOUTH),
  async fn() {
    const bytes = await Deno.readFile(corpusFile(MOUTH)!);
    const { scene } = await runNode(decodeAuto, { bytes: { bytes, name: "x.duf" } });
    assert.equal(getSourceInfo(scene)?.format, "dson");
  },
});
