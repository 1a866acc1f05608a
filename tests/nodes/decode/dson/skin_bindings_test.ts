/**
 * Skin bindings and library modifiers as real scenes have them: weights naming vertices past the
 * geometry (old content, converters), a second `skin_binding` on one geometry (a scene's own,
 * re-rigged binding beside its figure file's), and a figure instanced twice in one scene whose
 * file's modifiers the scene instances for one of them only. Every file is made here by code.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Document, Node } from "@gltf-transform/core";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { tempDir } from "../../../support/temp.ts";
import { dsonBytes, generateFigure, type Json, libraryFigure } from "./generate.ts";

async function decode(bytes: Uint8Array, roots: string[] = []) {
  const ctx = testContext();
  const { scene } = await runNode(decodeDson, { bytes: { bytes, name: "skins.duf" } }, {
    content_roots: roots,
  }, ctx);
  return { doc: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

/** Per mesh node (by name): each drawn vertex's `[joint name, weight]` pairs with a weight above 0. */
function skinOf(doc: Document): Map<string, [string, number][][]> {
  const out = new Map<string, [string, number][][]>();
  for (const node of doc.getRoot().listNodes()) {
    const skin = node.getSkin();
    const mesh = node.getMesh();
    if (!mesh) continue;
    const vertices: [string, number][][] = [];
    for (const primitive of mesh.listPrimitives()) {
      const joints = primitive.getAttribute("JOINTS_0")?.getArray();
      const weights = primitive.getAttribute("WEIGHTS_0")?.getArray();
      if (!skin || !joints || !weights) continue;
      for (let v = 0; v < joints.length / 4; v++) {
        const pairs: [string, number][] = [];
        for (let s = 0; s < 4; s++) {
          const w = weights[v * 4 + s];
          if (w > 0) pairs.push([skin.listJoints()[joints[v * 4 + s]].getName(), Math.round(w * 1e6) / 1e6]);
        }
        vertices.push(pairs);
      }
    }
    out.set(node.getName(), vertices);
  }
  return out;
}

const modifiers = (json: Json) => json.modifier_library as Json[];
const skin = (json: Json, k = 0) => modifiers(json)[k].skin as Json;
const joint = (json: Json, j: number) => (skin(json).joints as Json[])[j];

Deno.test("dson skin: weights naming vertices past the geometry are left out, once warned; the other weights kept", async () => {
  // Before (decode.dson v13) the first such weight was a DecodeError for the whole scene.
  const clean = generateFigure({ side: 4, bones: 2, figureId: "F" });
  const damaged = generateFigure({ side: 4, bones: 2, figureId: "F" });
  ((joint(damaged, 0).node_weights as Json).values as number[][]).push([16, 1], [40, 0.5]);
  ((joint(damaged, 1).node_weights as Json).values as number[][]).splice(1, 0, [99, 1]);
  for (const j of [0, 1]) {
    const map = joint(damaged, j).node_weights as Json;
    map.count = (map.values as unknown[]).length; // counted as written: only the indices are bad
  }
  const expected = skinOf((await decode(dsonBytes(clean))).doc);
  const { doc, warnings } = await decode(dsonBytes(damaged));
  assert.deepEqual(warnings, [
    "dson: skins.duf at /modifier_library/0/skin: skin binding 'SkinBinding' has 3 weights naming vertices " +
    "past the geometry's 16 (the first, vertex 16, at /modifier_library/0/skin/joints/0/node_weights/values/16/0); " +
    "left out, the other weights kept",
  ]);
  const got = skinOf(doc);
  assert.deepEqual(got, expected);
  // Real numbers: the generator weights vertex 0 by bone 0 (1) and bone 1 (2), normalised.
  assert.deepEqual(got.get("F_geo-1")![0], [["F_bone0", 0.333333], ["F_bone1", 0.666667]]);

  // A TriAx joint (local_weights, Genesis 1/2) past the geometry: named at its axis.
  const triax = generateFigure({ side: 4, bones: 2, figureId: "F" });
  const weights = joint(triax, 1).node_weights as Json;
  delete joint(triax, 1).node_weights;
  joint(triax, 1).local_weights = { y: weights, z: { count: 1, values: [[17, 0.5]] } };
  const local = await decode(dsonBytes(triax));
  assert.deepEqual(local.warnings, [
    "dson: skins.duf at /modifier_library/0/skin: skin binding 'SkinBinding' has 1 weight naming vertices " +
    "past the geometry's 16 (the first, vertex 17, at /modifier_library/0/skin/joints/1/local_weights/z/values/0/0); " +
    "left out, the other weights kept",
  ]);
  assert.deepEqual(skinOf(local.doc), expected);
});

Deno.test("dson skin: a second skin binding on one geometry is left out with a warning naming both; the first is kept", async () => {
  // The scene instances its binding; the file holds another for the same geometry (all on bone 0),
  // as a scene saved after re-rigging keeps its own beside the figure file's. Before (v13) the
  // library's replaced the instanced one silently.
  const clean = generateFigure({ side: 4, bones: 2, figureId: "F" });
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  const all = Array.from({ length: 16 }, (_, v) => [v, 1]);
  modifiers(json).push({
    id: "OldBinding",
    name: "OldBinding",
    parent: "#F_geo",
    skin: {
      node: "#F",
      geometry: "#F_geo",
      vertex_count: 16,
      joints: [{ id: "F_bone0", node: "#F_bone0", node_weights: { count: 16, values: all } }],
    },
  });
  const expected = skinOf((await decode(dsonBytes(clean))).doc);
  const { doc, warnings } = await decode(dsonBytes(json));
  assert.deepEqual(skinOf(doc), expected);
  assert.deepEqual(warnings, [
    "dson: skins.duf at /modifier_library/1: the mesh has a skin binding already (skins.duf at " +
    "/modifier_library/0); this one (skins.duf at /modifier_library/1) is not applied",
  ]);
  const unresolved =
    (getPartgraphExtras(doc.getRoot().listScenes()[0]).dson as { unresolved: Json[] }).unresolved;
  assert.deepEqual(unresolved.map((u) => [u.uri, u.path]), [
    ["/data/generated/figure.duf#OldBinding", "/modifier_library/1"],
  ]);

  // Both instanced by the scene: the first instance's binding stays, the second is named.
  (json.scene as { modifiers: Json[] }).modifiers.push({
    id: "Old-1",
    url: "#OldBinding",
    parent: "#F_geo-1",
  });
  const both = await decode(dsonBytes(json));
  assert.deepEqual(skinOf(both.doc), expected);
  assert.equal(both.warnings.length, 1);
  // Listed first, the old binding is the one kept: every vertex on bone 0 alone.
  (json.scene as { modifiers: Json[] }).modifiers.reverse();
  const reversed = await decode(dsonBytes(json));
  assert.deepEqual([...new Set(skinOf(reversed.doc).get("F_geo-1")!.map((v) => JSON.stringify(v)))], [
    '[["F_bone0",1]]',
  ]);
  assert.match(
    reversed.warnings[0],
    /^dson: skins\.duf at \/modifier_library\/0: the mesh has a skin binding already/,
  );
});

Deno.test("dson skin: a figure instanced twice gets its file's modifiers on both, whichever the scene instances them for", async () => {
  const figure = libraryFigure("F");
  modifiers(figure).push({
    id: "Smile",
    name: "Smile",
    parent: "#F_geo",
    channel: { id: "value", type: "float", value: 0, current_value: 0.1 },
    morph: { vertex_count: 16, deltas: { count: 1, values: [[5, 0, 1, 0]] } },
  });
  const root = await tempDir();
  try {
    await Deno.mkdir(join(root, "data"));
    await Deno.writeFile(join(root, "data", "F.dsf"), dsonBytes(figure));
    const url = "/data/F.dsf";
    const sceneWith = (instanced: Json[]) => ({
      file_version: "0.6.1.0",
      asset_info: { id: "/scenes/twice.duf", type: "scene" },
      scene: {
        nodes: [
          { id: "F", url: `${url}#F`, geometries: [{ id: "F_geo", url: `${url}#F_geo` }] },
          { id: "F-1", url: `${url}#F`, geometries: [{ id: "F_geo-1", url: `${url}#F_geo` }] },
        ],
        modifiers: instanced,
      },
    });
    const weights = (doc: Document) =>
      Object.fromEntries(doc.getRoot().listMeshes().map((m) => [m.getName(), m.getWeights()]));
    const jointsOf = (doc: Document) => {
      const nodes = doc.getRoot().listNodes();
      return nodes.filter((n) => n.getMesh()).map((n: Node) =>
        n.getSkin()?.listJoints().map((j) => nodes.indexOf(j))
      );
    };
    // The scene instances the binding and the morph (dialled to 0.5) for the first figure only.
    // Before (v13) the second figure got neither: no skin (it stood still when posed), no morph.
    const { doc, warnings } = await decode(
      dsonBytes(sceneWith([
        { id: "SkinBinding", url: `${url}#SkinBinding`, parent: "#F" },
        { id: "Smile", url: `${url}#Smile`, parent: "#F", channel: { id: "value", current_value: 0.5 } },
      ])),
      [root],
    );
    assert.deepEqual(warnings, []);
    assert.deepEqual(weights(doc), { F_geo: [0.5], "F_geo-1": [0.1] });
    const skins = skinOf(doc);
    assert.equal(skins.get("F_geo-1")!.length, skins.get("F_geo")!.length);
    assert.deepEqual(skins.get("F_geo-1"), skins.get("F_geo"));
    // Each bound to its own figure's bones (the first figure's are nodes 0, 2, 4, 6).
    assert.deepEqual(jointsOf(doc), [[0, 2, 4, 6], [1, 3, 5, 7]]);

    // Instanced for both, each at its own dial.
    const again = await decode(
      dsonBytes(sceneWith([
        { id: "Smile", url: `${url}#Smile`, parent: "#F", channel: { id: "value", current_value: 0.5 } },
        { id: "Smile-1", url: `${url}#Smile`, parent: "#F-1", channel: { id: "value", current_value: 0.25 } },
      ])),
      [root],
    );
    assert.deepEqual(again.warnings, []);
    assert.deepEqual(weights(again.doc), { F_geo: [0.5], "F_geo-1": [0.25] });
    assert.deepEqual(jointsOf(again.doc), [[0, 2, 4, 6], [1, 3, 5, 7]]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("dson skin: a legacy_skin binding is not decoded, and a warning says so (was silent)", async () => {
  // Diffeomorphic reads `legacy_skin` as a skin but finds its vertex groups missing, and asks the
  // user to convert the figure to a prop in Daz. The mesh stays unskinned here too; before
  // (decode.dson v13) nothing said why it did not follow its bones.
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  modifiers(json)[0].legacy_skin = skin(json);
  delete modifiers(json)[0].skin;
  const { doc, warnings } = await decode(dsonBytes(json));
  assert.equal(doc.getRoot().listSkins().length, 0);
  assert.deepEqual(warnings, [
    "dson: skins.duf at /modifier_library/0/legacy_skin: skin binding 'SkinBinding' is a legacy_skin (an older " +
    "figure generation's), which is not decoded: the mesh is not skinned and does not follow its bones",
  ]);
  const unresolved =
    (getPartgraphExtras(doc.getRoot().listScenes()[0]).dson as { unresolved: Json[] }).unresolved;
  assert.deepEqual(unresolved.map((u) => [u.uri, u.path]), [
    ["/data/generated/figure.duf#SkinBinding", "/modifier_library/0/legacy_skin"],
  ]);
});
