/**
 * A scene node's `parent` that names no node instance of the scene: a bone of a figure whose bones
 * the scene does not list (they come along from the figure's `.dsf`), written as `#bone`, as the
 * definition URL, with a node path (`Fig-1:#bone`, or `#Fig-1:bone`), or as Daz's selection name
 * (`name://@selection/bone:`). Each resolves to the bone, the prop follows it, and each reading
 * other than as written is a warning naming the JSON path and the URI. What still names nothing
 * keeps the node at the scene root, with a warning naming both.
 *
 * The figure is the generated one in a library `.dsf`; bone 1 is turned 90° about z in its
 * definition, so a prop under it moves: at (5, 2, 0) cm, 1 cm above bone 1's head at (0, 1, 0),
 * it lands at (−1, 6, 0) cm.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Document, Node } from "@gltf-transform/core";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { tempDir } from "../../../support/temp.ts";
import { validateGltf } from "../../../support/validator.ts";
import { channels, dsonBytes, type Json, libraryFigure } from "./generate.ts";

const FIGURE = "/data/Gen/Figure.dsf";
const POSED = [-0.01, 0.06, 0];
const AT_REST = [0.05, 0.02, 0];

/** The figure file, bone 1 turned 90° about z. */
function figureFile(): Json {
  const json = libraryFigure("Fig");
  (json.node_library as Json[])[2].rotation = channels("float", [0, 0, 90]);
  return json;
}

/** A figure instance (its bones not listed), as a script or another tool writes a scene. */
const figureInstance = (id: string): Json => ({
  id,
  url: `${FIGURE}#Fig`,
  geometries: [{ id: `${id}-geo`, url: `${FIGURE}#Fig_geo` }],
});

/** A scene: the figure instances, then a sword prop (defined in the scene file) with `parent`. */
function scene(parent: string | undefined, figures = ["Fig-1"], sword: Json = {}): Json {
  return {
    file_version: "0.6.1.0",
    asset_info: { id: "/Scenes/scene.duf", type: "scene" },
    geometry_library: [{
      id: "Sword_geo",
      vertices: { count: 3, values: [[5, 2, 0], [6, 2, 0], [5, 3, 0]] },
      polylist: { count: 1, values: [[0, 0, 0, 1, 2]] },
    }],
    node_library: [{ id: "Sword", name: "Sword", type: "node", center_point: channels("float", [5, 2, 0]) }],
    scene: {
      nodes: [
        ...figures.map(figureInstance),
        {
          id: "Sword-1",
          url: "#Sword",
          parent,
          geometries: [{ id: "Sword_geo-1", url: "#Sword_geo" }],
          ...sword,
        },
      ],
    },
  };
}

async function decode(json: Json) {
  const root = await tempDir();
  const path = join(root, ...FIGURE.split("/").filter(Boolean));
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeFile(path, dsonBytes(figureFile()));
  const ctx = testContext();
  const bytes = { bytes: dsonBytes(json), name: "scene.duf" };
  const { scene } = await runNode(decodeDson, { bytes }, { content_roots: [root] }, ctx);
  const glb = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes as Uint8Array;
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
  return { doc: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

const named = (doc: Document, name: string): Node[] =>
  doc.getRoot().listNodes().filter((n) => n.getName() === name);
const sword = (doc: Document) => named(doc, "Sword")[0];
const figureOf = (node: Node): string => {
  let n: Node | null = node;
  while (n && (getPartgraphExtras(n).dson as Json | undefined)?.type !== "figure") n = n.getParentNode();
  return n ? String((getPartgraphExtras(n).dson as Json).key) : "";
};
function assertAt(node: Node, expected: number[]): void {
  const got = node.getWorldTranslation();
  expected.forEach((e, k) => assert.ok(Math.abs(got[k] - e) < 1e-6, `world ${k}: ${got[k]} vs ${e}`));
}

const resolved: { parent: string; warning?: string }[] = [
  {
    parent: "#Fig_bone1",
    warning:
      "parent '#Fig_bone1' read as 'Fig_bone1' of 'Fig-1' (no node instance has this id: the node made " +
      "from definition 'Fig_bone1')",
  },
  {
    parent: `${FIGURE}#Fig_bone1`,
    warning: `parent '${FIGURE}#Fig_bone1' read as 'Fig_bone1' of 'Fig-1' (it names a definition, not an ` +
      "instance: the node made from it)",
  },
  { parent: "Fig-1:#Fig_bone1" },
  {
    parent: "#Fig-1:Fig_bone1",
    warning:
      "parent '#Fig-1:Fig_bone1' read as 'Fig_bone1' of 'Fig-1' (the node path written after the '#' " +
      "('Fig-1:Fig_bone1'))",
  },
  {
    parent: "name://@selection/Fig_bone1:",
    warning:
      "parent 'name://@selection/Fig_bone1:' read as 'Fig_bone1' of 'Fig-1' (the selection read as the " +
      "whole scene)",
  },
];

for (const { parent, warning } of resolved) {
  Deno.test(`dson scene parents: '${parent}' names bone 1 of the figure, and the prop follows it`, async () => {
    const { doc, warnings } = await decode(scene(parent));
    assert.equal(sword(doc).getParentNode()?.getName(), "Fig_bone1");
    assertAt(sword(doc), POSED);
    assert.deepEqual(warnings, warning ? [`dson: scene.duf at /scene/nodes/1/parent: ${warning}`] : []);
    assert.deepEqual((getPartgraphExtras(doc.getRoot().listScenes()[0]).dson as Json).unresolved ?? [], []);
  });
}

const unresolved: { parent: string; reason: string }[] = [
  {
    parent: "#Nope",
    reason: "no node 'Nope' in the scene (no instance, and no node a figure brought along)",
  },
  { parent: "Fig-1:#Nope", reason: "no node 'Nope' in 'Fig-1'" },
  { parent: "Hat:#Fig_bone1", reason: "no node 'Hat' for its node path" },
  { parent: "name://@selection", reason: "it names no node" },
];

for (const { parent, reason } of unresolved) {
  Deno.test(`dson scene parents: '${parent}' names nothing; the prop stays at the scene root, said with path and URI`, async () => {
    const { doc, warnings } = await decode(scene(parent));
    assert.equal(sword(doc).getParentNode(), null);
    assertAt(sword(doc), AT_REST);
    assert.deepEqual(warnings, [
      `dson: scene.duf at /scene/nodes/1/parent: parent '${parent}' does not resolve (${reason}); node ` +
      "'Sword-1' stays at the scene root",
    ]);
    const listed = (getPartgraphExtras(doc.getRoot().listScenes()[0]).dson as Json).unresolved as Json[];
    assert.deepEqual(listed.map((u) => [u.uri, u.path, u.reason]), [[
      parent,
      "/scene/nodes/1/parent",
      reason,
    ]]);
  });
}

Deno.test("dson scene parents: a figure parented to its own bone would be a cycle: it stays a root, warned", async () => {
  const json = scene(undefined);
  ((json.scene as Json).nodes as Json[])[0].parent = "#Fig_bone1";
  const { doc, warnings } = await decode(json);
  assert.equal(named(doc, "Fig")[0].getParentNode(), null);
  assert.deepEqual(warnings, [
    "dson: scene.duf at /scene/nodes/0/parent: parent '#Fig_bone1' does not resolve (the only node it names " +
    "is this node or one of its descendants (a cycle)); node 'Fig-1' stays at the scene root",
  ]);
});

Deno.test("dson scene parents: with two figures, '#bone' takes the conform target's, else the first, saying so", async () => {
  const first = await decode(scene("#Fig_bone1", ["Fig-1", "Fig-2"]));
  assert.equal(figureOf(sword(first.doc)), "Fig-1");
  assert.match(
    first.warnings.join("\n"),
    /read as 'Fig_bone1' of 'Fig-1' \(.*; several nodes match, the first in scene order is used\)/,
  );
  const conforming = await decode(scene("#Fig_bone1", ["Fig-1", "Fig-2"], { conform_target: "#Fig-2" }));
  assert.equal(figureOf(sword(conforming.doc)), "Fig-2");
  assert.match(
    conforming.warnings.join("\n"),
    /of 'Fig-2' \(.*; several nodes match, the one in its conform target is used\)/,
  );
  assertAt(sword(conforming.doc), POSED);
  // The node path names the figure outright: no guess, no warning.
  const pathed = await decode(scene("Fig-2:#Fig_bone1", ["Fig-1", "Fig-2"]));
  assert.equal(figureOf(sword(pathed.doc)), "Fig-2");
  assert.deepEqual(pathed.warnings, []);
});

Deno.test("dson scene parents: a bone listed without its parent bone goes under the bone its figure brought (was: a root)", async () => {
  const json = scene(undefined);
  ((json.scene as Json).nodes as Json[])[1] = {
    id: "Fig_bone2-1",
    url: `${FIGURE}#Fig_bone2`,
    parent: "#Fig_bone1",
  };
  const { doc, warnings } = await decode(json);
  const bones = named(doc, "Fig_bone2");
  assert.equal(bones.length, 1, "no second copy of the listed bone");
  assert.equal(bones[0].getParentNode()?.getName(), "Fig_bone1");
  const joints = doc.getRoot().listSkins()[0].listJoints().map((j) => j.getName());
  assert.deepEqual(joints, ["Fig", "Fig_bone2", "Fig_bone0", "Fig_bone1"]);
  assert.deepEqual(warnings, [
    "dson: scene.duf at /scene/nodes/1/parent: parent '#Fig_bone1' read as 'Fig_bone1' of 'Fig-1' (no node " +
    "instance has this id: the node made from definition 'Fig_bone1')",
  ]);
});

Deno.test("dson scene parents: thousands of nodes named alike whose parents name that name are refused in a bounded search, not minutes of walks", async () => {
  // Each node's parent is any other node called "x" that is not below it: every try walks a chain
  // the earlier picks made, so an unbounded search costs nodes² × depth (2,000 nodes took 5.4 s,
  // 8,000 over two minutes). Bounded, it ends in a DecodeError naming the node whose search ran out.
  const nodes = Array.from(
    { length: 8_000 },
    (_, i) => ({ id: `n${i}`, url: "#x", parent: "name://@selection/x:" }),
  );
  const bytes = dsonBytes({
    file_version: "0.6.1.0",
    asset_info: { id: "/Scenes/many.duf", type: "scene" },
    node_library: [{ id: "x", name: "x", type: "node" }],
    scene: { nodes },
  });
  await assert.rejects(
    runNode(decodeDson, { bytes: { bytes, name: "many.duf" } }, {}, testContext()),
    (error: Error) => {
      assert.equal(error.name, "DecodeError");
      assert.match(
        error.message,
        /at \/scene\/nodes\/\d+\/parent: expected parents that resolve in a bounded search/,
      );
      return true;
    },
  );
});
