/**
 * Layouts real Daz content has that the generated figure alone does not: the same figure twice in
 * one scene, morphs made for another vertex count, and a Genesis-style figure whose geometry is
 * `#geometry`, whose UV set lives in its own percent-encoded file, loaded from a BOM + CRLF scene
 * with a Windows asset id, `extra` sections, formulas, `name://` animation URIs and unknown keys.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Document, Node } from "@gltf-transform/core";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { describeDson } from "../../../../nodes/decode/dson/codec/describe.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import { runNode, type TestContext, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { channels, dsonBytes, generateFigure, gzipDsonBytes, type Json } from "./generate.ts";
import { tempDir } from "../../../support/temp.ts";

async function decode(bytes: Uint8Array, roots: string[] = [], ctx: TestContext = testContext()) {
  const { scene } = await runNode(decodeDson, { bytes: { bytes, name: "scene.duf" } }, {
    content_roots: roots,
  }, ctx);
  return scene as Document;
}

async function assertValid(doc: Document): Promise<void> {
  const report = await validateGltf(await writeGlb(doc, { generator: GENERATOR }));
  assert.equal(report.errors, 0, report.messages.join("\n"));
}

/** The figure-root ancestor (or self) of a node. */
function figureRoot(node: Node): Node {
  let at = node;
  for (let up = at.getParentNode(); up; up = up.getParentNode()) at = up;
  return at;
}

for (const listed of [true, false]) {
  Deno.test(`the same figure twice in a scene: each copy has its own bones and skin (bones ${listed ? "listed" : "implied"})`, async () => {
    const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
    const scene = json.scene as Json;
    const nodes = scene.nodes as Json[];
    nodes.push({
      id: "F-2",
      url: "#F",
      name: "F",
      translation: channels("float", [100, 0, 0]),
      geometries: [{ id: "F_geo-2", url: "#F_geo" }],
    });
    if (listed) {
      nodes.push(
        { id: "F_bone0-a", url: "#F_bone0", parent: "#F-1" },
        { id: "F_bone1-a", url: "#F_bone1", parent: "#F_bone0-a" },
        { id: "F_bone0-b", url: "#F_bone0", parent: "#F-2" },
        { id: "F_bone1-b", url: "#F_bone1", parent: "#F_bone0-b" },
      );
    }
    (scene.modifiers as Json[]).push({ id: "SkinBinding-2", url: "#SkinBinding", parent: "#F_geo-2" });
    const doc = await decode(dsonBytes(json));
    const figures = doc.getRoot().listNodes().filter((n) => n.getName() === "F");
    assert.equal(figures.length, 2);
    for (const figure of figures) {
      assert.deepEqual(figure.listChildren().map((c) => c.getName()), ["F_bone0"], "one skeleton per copy");
    }
    const skins = doc.getRoot().listSkins();
    assert.equal(skins.length, 2);
    const [first, second] = skins.map((skin) => new Set(skin.listJoints().map(figureRoot)));
    assert.equal(first.size, 1);
    assert.equal(second.size, 1);
    assert.notEqual([...first][0], [...second][0], "the second mesh is bound to the second skeleton");
    // Both meshes weight the same bones the same way (not everything on the root joint).
    const joints = (skin: number) =>
      Array.from(doc.getRoot().listMeshes()[skin].listPrimitives()[0].getAttribute("JOINTS_0")!.getArray()!);
    assert.deepEqual(joints(1), joints(0));
    assert.ok(joints(1).some((j) => j !== 0));
    await assertValid(doc);
  });
}

Deno.test("a morph or UV set made for another vertex count is skipped with a warning, not a failure", async () => {
  const json = generateFigure({ side: 3, bones: 1, figureId: "F" });
  // Another figure's UV set, chosen on the scene's material: its overrides name polygons we lack.
  (json.uv_set_library as Json[]).push({
    id: "OtherUVs",
    vertex_count: 16556,
    uvs: { count: 1, values: [[0.5, 0.5]] },
    polygon_vertex_indices: [[16000, 3, 0]],
  });
  (json.scene as Json).materials = [{
    id: "Skin-1",
    url: "#Skin",
    geometry: "#F_geo-1",
    groups: ["Skin"],
    uv_set: "#OtherUVs",
  }];
  (json.modifier_library as Json[]).push({
    id: "OtherGeneration",
    name: "OtherGeneration",
    parent: "#F_geo",
    channel: { id: "value", type: "float", value: 1 },
    morph: { vertex_count: 16556, deltas: { count: 1, values: [[12000, 0, 1, 0]] } },
  }, {
    id: "FitsMorph",
    name: "FitsMorph",
    parent: "#F_geo",
    channel: { id: "value", type: "float", value: 1 },
    morph: { vertex_count: 9, deltas: { count: 1, values: [[4, 0, 1, 0]] } },
  });
  const ctx = testContext();
  const doc = await decode(dsonBytes(json), [], ctx);
  const geometry = (describeDson(doc).geometries as Json[])[0];
  assert.deepEqual(geometry.morphs, ["FitsMorph"]);
  const uv = doc.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute("TEXCOORD_0")!;
  assert.equal(uv.getCount(), 9, "the figure's own UV set stays");
  assert.ok(ctx.warnings.some((w) => w.message.includes("OtherUVs") && w.message.includes("16556 vertices")));
  assert.ok(
    ctx.warnings.some((w) => w.message.includes("OtherGeneration") && w.message.includes("16556 vertices")),
    ctx.warnings.map((w) => w.message).join("\n"),
  );
  await assertValid(doc);
});

// Daz writes ids decoded ("Base Female"), but some files keep them percent-encoded like the URIs.
for (const storedUvId of ["Base Female", "Base%20Female"]) {
  Deno.test(`a Genesis-style layout: #geometry, UV set '${storedUvId}' in its own encoded file, BOM + CRLF scene, extras`, async () => {
    const FIGURE = "/data/DAZ%203D/Genesis%208/Female/Genesis8Female.dsf";
    const UVS = "/data/DAZ%203D/Genesis%208/Female/UV%20Sets/DAZ/Base/Base%20Female.dsf";
    const MORPH = "/data/DAZ%203D/Genesis%208/Female/Morphs/DAZ%203D/Base/FBMHeavy.dsf";
    const root = await tempDir();
    try {
      const figure = generateFigure({ side: 4, bones: 2, figureId: "Genesis8Female" });
      delete figure.scene;
      const geometry = (figure.geometry_library as Json[])[0];
      geometry.id = "geometry";
      geometry.default_uv_set = `${UVS}#Base%20Female`;
      geometry.extra = [{ type: "studio_geometry_channels", channels: [] }];
      const uvSets = figure.uv_set_library as Json[];
      uvSets[0].id = storedUvId;
      delete figure.uv_set_library;
      const [skin] = figure.modifier_library as Json[];
      skin.parent = "#Genesis8Female";
      (skin.skin as Json).geometry = "#geometry";
      (figure.modifier_library as Json[]).push({
        id: "CTRLBodyMorph",
        parent: "#Genesis8Female",
        channel: { id: "value", type: "float", value: 0 },
        formulas: [{ output: "Genesis8Female:#FBMHeavy?value", operations: [{ op: "push", val: 1 }] }],
      });
      const write = async (uri: string, json: Json, gzip: boolean) => {
        const path = join(root, ...decodeURIComponent(uri).split("/").filter(Boolean));
        await Deno.mkdir(join(path, ".."), { recursive: true });
        await Deno.writeFile(path, gzip ? await gzipDsonBytes(json) : dsonBytes(json));
      };
      await write(FIGURE, figure, true);
      await write(UVS, {
        file_version: "0.6.0.0",
        asset_info: { id: UVS, type: "uv_set" },
        uv_set_library: uvSets,
      }, false);
      await write(MORPH, {
        file_version: "0.6.0.0",
        asset_info: { id: MORPH, type: "modifier" },
        modifier_library: [{
          id: "FBMHeavy",
          parent: `${FIGURE}#Genesis8Female`,
          channel: { id: "value", type: "float", value: 0, min: 0, max: 1 },
          region: "Actor",
          morph: { vertex_count: 16, deltas: { count: 1, values: [[5, 0, 2, 0]] } },
        }],
      }, false);
      const duf = {
        file_version: "0.6.0.0",
        asset_info: { id: "/C%3A/Users/Me/Documents/DAZ%203D/Studio/Scenes/test.duf", type: "scene" },
        an_unknown_key: { anything: [1, 2] },
        scene: {
          nodes: [
            {
              id: "Genesis8Female",
              url: `${FIGURE}#Genesis8Female`,
              geometries: [{ id: "Genesis8Female-1", url: `${FIGURE}#geometry`, extra: [{ type: "x" }] }],
              extra: [{ type: "studio/node/figure_skeleton" }],
            },
            { id: "Genesis8Female_bone0", url: `${FIGURE}#Genesis8Female_bone0`, parent: "#Genesis8Female" },
            {
              id: "Genesis8Female_bone1",
              url: `${FIGURE}#Genesis8Female_bone1`,
              parent: "#Genesis8Female_bone0",
            },
          ],
          modifiers: [
            { id: "SkinBinding", parent: "#Genesis8Female", url: `${FIGURE}#SkinBinding` },
            {
              id: "FBMHeavy",
              parent: "#Genesis8Female",
              url: `${MORPH}#FBMHeavy`,
              channel: { id: "value", type: "float", current_value: 0.5 },
            },
            { id: "CTRLBodyMorph", parent: "#Genesis8Female", url: `${FIGURE}#CTRLBodyMorph` },
          ],
          materials: [{
            id: "Skin",
            url: "#Skin",
            geometry: "#Genesis8Female-1",
            groups: ["Skin"],
            uv_set: `${UVS}#Base%20Female`,
          }],
          animations: [{ url: "name://@selection/Genesis8Female_bone1:?rotation/x/value", keys: [[0, 20]] }],
          extra: [{ type: "studio/scene_data/aux_viewport" }],
        },
      };
      const text = "\uFEFF" + JSON.stringify(duf, null, 1).replaceAll("\n", "\r\n");
      const ctx = testContext();
      const doc = await decode(new TextEncoder().encode(text), [root], ctx);
      // The controller's formula adds 1 to FBMHeavy's own 0.5 (evaluated since decode.dson v15; its
      // channel is not `clamped`, so its max of 1 does not cap it). Before, a warning, and 0.5.
      assert.deepEqual(ctx.warnings.map((w) => w.message.replace(root, "<root>")), []);
      const summary = describeDson(doc);
      assert.deepEqual(summary.bones, ["Genesis8Female_bone0", "Genesis8Female_bone1"]);
      const [mesh] = summary.geometries as Json[];
      assert.equal(mesh.skinned, true);
      assert.deepEqual(mesh.morphs, ["FBMHeavy"]);
      const gltfMesh = doc.getRoot().listMeshes()[0];
      assert.deepEqual(gltfMesh.getWeights(), [1.5]);
      const uv = gltfMesh.listPrimitives()[0].getAttribute("TEXCOORD_0");
      assert.ok(uv, "the UV set from its own file is applied");
      await assertValid(doc);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}

Deno.test("stray trailing commas (as Diffeomorphic repairs) are ignored with a warning; a comma in a string is kept", async () => {
  const json = generateFigure({ side: 3, bones: 1, figureId: "F" });
  (json.node_library as Json[])[0].label = "Tom, Dick, ]";
  const text = JSON.stringify(json, null, 1)
    .replace('"values": [\n     "Skin"\n    ]', '"values": [\n     "Skin",\n    ]')
    .replace(/\n}$/, ",\n}");
  assert.throws(() => JSON.parse(text), "the fixture really is invalid JSON");
  const ctx = testContext();
  const doc = await decode(new TextEncoder().encode(text), [], ctx);
  assert.deepEqual(ctx.warnings.map((w) => w.message), [
    "dson: scene.duf: 2 stray trailing comma(s) ignored",
  ]);
  assert.equal((describeDson(doc).figures as Json[])[0].label, "Tom, Dick, ]");
  await assertValid(doc);
});

Deno.test("a pose, material or character preset is a DecodeError saying what it holds, not an empty invalid scene", async () => {
  const presets: [string, Json][] = [
    ["preset_pose", {
      animations: [{ url: "name://@selection/l_hand_anchor:?translation/x/value", keys: [[0, 1]] }],
    }],
    ["preset_material", {
      materials: [{ id: "Skin", url: "#Skin", geometry: "name://@selection", groups: ["Skin"] }],
    }],
    ["preset_character", {
      modifiers: [{ id: "FBMX", parent: "Genesis9:", url: "Genesis9:/data/G9/Morphs/x.dsf#FBMX" }],
    }],
  ];
  for (const [type, scene] of presets) {
    const json = { file_version: "0.6.0.0", asset_info: { id: `/Presets/${type}.duf`, type }, scene };
    const error = await decode(dsonBytes(json)).then(() => undefined, (e) => e);
    assert.ok(error instanceof DecodeError, `${type}: ${error}`);
    assert.match(error.message, new RegExp(`'${type}' file with scene \\{${Object.keys(scene)[0]}\\}`));
  }
});

Deno.test("two skin joints naming one bone share its glTF joint: their weights add up, the GLB stays valid", async () => {
  const json = generateFigure({ side: 3, bones: 2, figureId: "F", influences: 2 });
  const [binding] = json.modifier_library as Json[];
  // Every vertex is weighted 1:2 by the two joints; both now name bone 0.
  ((binding.skin as Json).joints as Json[])[1].node = "#F_bone0";
  const doc = await decode(dsonBytes(json));
  const [skin] = doc.getRoot().listSkins();
  const bone0 = skin.listJoints().findIndex((j) => j.getName() === "F_bone0");
  const primitive = doc.getRoot().listMeshes()[0].listPrimitives()[0];
  const joints = primitive.getAttribute("JOINTS_0")!.getArray()!;
  const weights = primitive.getAttribute("WEIGHTS_0")!.getArray()!;
  for (let v = 0; v < joints.length / 4; v++) {
    assert.equal(joints[v * 4], bone0);
    assert.ok(Math.abs(weights[v * 4] - 1) < 1e-6, `vertex ${v}: ${weights.slice(v * 4, v * 4 + 4)}`);
    assert.deepEqual(Array.from(weights.slice(v * 4 + 1, v * 4 + 4)), [0, 0, 0]);
  }
  await assertValid(doc);
});
