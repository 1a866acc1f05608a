/**
 * A geograft merged into its body brings morphs of its own, some named as the body's (Daz projects a
 * body morph onto a graft under the body morph's name). Daz drives a fitted figure's morph by its
 * body's only when it follows it (auto-follow, or a formula reading the body): one merely sharing
 * the name keeps its own value when a controller of the body dials the body's. Body and graft are
 * code-made, each in its own content file; expected weights are worked out here from the dials.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { halfController, type Json, libraryFigure, shapePreset } from "./generate.ts";
import { applyPreset, decodeJson, withContentFiles } from "./dson_runs.ts";

const BODY_FILE = "/data/DAZ 3D/Genesis 8/Female/Genesis8Female.dsf";
const GRAFT_FILE = "/data/Vendor/Graft/Graft.dsf";
const MORPH = "FBMHeavy";
const CTRL = "CTRLBodyShape";

/** The body: FBMHeavy on vertex 5, and a controller adding half its value to it. */
function body(): Json {
  return libraryFigure("Genesis8Female", BODY_FILE, [
    {
      id: MORPH,
      name: MORPH,
      parent: "#Genesis8Female_geo",
      channel: { id: "value", type: "float", value: 0, min: 0, max: 1, clamped: true },
      morph: { vertex_count: 16, deltas: { count: 1, values: [[5, 0, 1, 0]] } },
    },
    halfController("Genesis8Female", BODY_FILE, CTRL, MORPH),
  ]);
}

/**
 * The graft: one quad over the body's first cell, with its own FBMHeavy — `follows`: auto_follow;
 * `"controller"`: driven by a graft controller that reads the body's FBMHeavy.
 */
function graft(bodyJson: Json, follows: boolean | "controller"): Json {
  const geo = (bodyJson.geometry_library as Json[])[0];
  return {
    file_version: "0.6.0.0",
    asset_info: { id: GRAFT_FILE, type: "figure" },
    node_library: [{ id: "Graft", name: "Graft", type: "figure", center_point: [] }],
    geometry_library: [{
      id: "Graft_geo",
      vertices: { count: 4, values: [[0, 0, 0], [1, 0, 0], [1, 1, 5], [0, 1, 5]] },
      polygon_material_groups: { count: 1, values: ["Graft"] },
      polylist: { count: 1, values: [[0, 0, 0, 1, 2, 3]] },
      graft: {
        vertex_count: (geo.vertices as Json).count,
        poly_count: (geo.polylist as Json).count,
        vertex_pairs: { count: 2, values: [[0, 0], [1, 1]] },
        hidden_polys: { count: 1, values: [0] },
      },
    }],
    modifier_library: [{
      id: MORPH,
      name: MORPH,
      parent: "#Graft_geo",
      channel: {
        id: "value",
        type: "float",
        value: 0,
        min: 0,
        max: 1,
        ...(follows === true ? { auto_follow: true } : {}),
      },
      morph: { vertex_count: 4, deltas: { count: 1, values: [[2, 0, 0, 1]] } },
    }, ...(follows === "controller" ? graftController() : [])],
  };
}

/** A graft controller reading the body's FBMHeavy, driving the graft's own FBMHeavy. */
function graftController(): Json[] {
  return [{
    id: "GraftShape",
    name: "GraftShape",
    parent: "#Graft_geo",
    channel: { id: "value", type: "float", value: 0, min: 0, max: 1 },
    formulas: [
      {
        output: `Graft:${GRAFT_FILE}#${MORPH}?value`,
        operations: [{ op: "push", url: "#GraftShape?value" }],
      },
      {
        output: `Graft:${GRAFT_FILE}#GraftShape?value`,
        operations: [{ op: "push", url: `Genesis8Female:${encodeURI(BODY_FILE)}#${MORPH}?value` }],
      },
    ],
  }];
}

/** The scene: the body with the controller at `ctrl`, the graft fitted to it, its FBMHeavy at `own`. */
function scene(ctrl: number, own: number): Json {
  const url = encodeURI(BODY_FILE);
  return {
    file_version: "0.6.1.0",
    asset_info: { id: "/scenes/grafted.duf", type: "scene" },
    scene: {
      nodes: [
        {
          id: "Genesis8Female-1",
          url: `${url}#Genesis8Female`,
          geometries: [{ id: "Genesis8Female_geo-1", url: `${url}#Genesis8Female_geo` }],
        },
        {
          id: "Graft-1",
          url: `${GRAFT_FILE}#Graft`,
          parent: "#Genesis8Female-1",
          conform_target: "#Genesis8Female-1",
          geometries: [{ id: "Graft_geo-1", url: `${GRAFT_FILE}#Graft_geo` }],
        },
      ],
      modifiers: [
        {
          id: `${CTRL}-1`,
          url: `${url}#${CTRL}`,
          parent: "#Genesis8Female_geo-1",
          channel: { current_value: ctrl },
        },
        {
          id: `${MORPH}-2`,
          url: `${GRAFT_FILE}#${MORPH}`,
          parent: "#Graft_geo-1",
          channel: { current_value: own },
        },
      ],
    },
  };
}

/** The merged mesh's FBMHeavy weights: the body's, then the graft's. */
function heavies(doc: Document): number[] {
  const meshes = doc.getRoot().listMeshes();
  assert.equal(meshes.length, 1, "the graft is merged into the body");
  const names = (meshes[0].getExtras() as { targetNames: string[] }).targetNames;
  const weights = meshes[0].getWeights();
  return names.flatMap((name, k) => (name === MORPH ? [weights[k]] : []));
}

async function decodeGrafted(follows: boolean | "controller", ctrl: number, own: number) {
  const bodyJson = body();
  return await withContentFiles(
    [[BODY_FILE, bodyJson], [GRAFT_FILE, graft(bodyJson, follows)]],
    (root) => decodeJson(scene(ctrl, own), "grafted.duf", [root]),
  );
}

function near(got: readonly number[], expected: readonly number[], what: string) {
  assert.equal(got.length, expected.length, what);
  got.forEach((g, k) => assert.ok(Math.abs(g - expected[k]) < 1e-9, `${what}: ${got}, expected ${expected}`));
}

Deno.test("dson graft morphs: a merged graft's own morph of the body's name keeps its value when a preset dials the body's controller", async () => {
  const { scene: doc, warnings } = await decodeGrafted(false, 1, 0.3);
  assert.deepEqual(warnings, []);
  // The body's: 0.5 · 1; the graft's own dial, which follows nothing.
  near(heavies(doc), [0.5, 0.3], "decoded");
  const after = await applyPreset(doc, shapePreset([[CTRL, 0.4]]));
  assert.deepEqual(after.warnings, []);
  // The body's: 0.5 · 0.4; the graft's still 0.3 (before: set to the body's 0.2).
  near(heavies(after.scene), [0.2, 0.3], "after the preset");
  // A preset setting the body's FBMHeavy by name sets the body's only (apply_preset v25; before, the
  // graft's own too, to 0.2). The body's: its dial 0.2 plus the controller's 0.5 · 1.
  const direct = await applyPreset(doc, shapePreset([[MORPH, 0.2]]));
  assert.deepEqual(direct.warnings, []);
  near(heavies(direct.scene), [0.7, 0.3], "after a preset dialling the morph by name");
});

Deno.test("dson graft morphs: a merged graft's auto_follow morph of the body's name follows the body's controller", async () => {
  const { scene: doc, warnings } = await decodeGrafted(true, 1, 0.3);
  assert.deepEqual(warnings, []);
  // The follower takes the body's value (inherited, its own dial replaced).
  near(heavies(doc), [0.5, 0.5], "decoded");
  const after = await applyPreset(doc, shapePreset([[CTRL, 0.4]]));
  assert.deepEqual(after.warnings, []);
  near(heavies(after.scene), [0.2, 0.2], "after the preset");
  const direct = await applyPreset(doc, shapePreset([[MORPH, 0.2]]));
  assert.deepEqual(direct.warnings, []);
  near(heavies(direct.scene), [0.7, 0.7], "after a preset dialling the morph by name");
});

Deno.test("dson graft morphs: a merged graft's morph driven by its own controller reading the body follows the body's controller", async () => {
  const { scene: doc, warnings } = await decodeGrafted("controller", 1, 0);
  assert.deepEqual(warnings, []);
  // The graft's FBMHeavy: 0 + GraftShape, which is 0 + the body's 0.5.
  near(heavies(doc), [0.5, 0.5], "decoded");
  const after = await applyPreset(doc, shapePreset([[CTRL, 0.4]]));
  assert.deepEqual(after.warnings, []);
  near(heavies(after.scene), [0.2, 0.2], "after the preset");
});
