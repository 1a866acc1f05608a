/**
 * Conforming figures (`conform_target`): in Daz, clothing fitted to a body has its bones follow the
 * body's bones of the same name, and a bone the body lacks rides its parent. The decoder gives each
 * item node the world transform that moves it as its target moves from rest, so the item's skin
 * deforms as the body's does (before, decode.dson v11: the item stayed at rest, with a warning).
 *
 * The body is the generated 4 × 4 grid (1 cm apart, z = 0) with bones 0–2 (heads at y = 0, 1, 2 cm;
 * bone 1 oriented 10° about z). The sleeve is the same grid 0.2 cm in front (z = 0.2), skinned with
 * the same weights to bones of the same names, plus a cuff bone (head (0, 1.5, 0) cm) under bone 1
 * that the body lacks. Every pose here turns about z, which leaves a z offset as it is: each sleeve
 * vertex must stay exactly 0.2 cm from its body vertex however the body is posed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Document, Node } from "@gltf-transform/core";
import { dsonApplyPreset } from "../../../../nodes/decode/dson/apply_preset.ts";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { tempDir } from "../../../support/temp.ts";
import { channels, dsonBytes, type Json, libraryFigure, posePreset } from "./generate.ts";
import { worldPositions } from "./posed_positions.ts";

/** How far in front of the body the sleeve is made (cm). */
const GAP_CM = 0.2;

/** The sleeve's file: the body's grid and weights moved `GAP_CM` forward, its own bones, a cuff. */
function sleeveFile(bone1Centre = 1): Json {
  const sleeve = libraryFigure("Body");
  const nodes = sleeve.node_library as Json[];
  nodes[0].id = nodes[0].name = "Sleeve";
  nodes[1].parent = "#Sleeve";
  nodes[2].center_point = channels("float", [0, bone1Centre, 0]);
  nodes.push({
    id: "Sleeve_cuff",
    name: "Sleeve_cuff",
    type: "bone",
    label: "Cuff",
    parent: "#Body_bone1",
    center_point: channels("float", [0, 1.5, 0]),
    end_point: channels("float", [0, 1.8, 0]),
  });
  const geometry = (sleeve.geometry_library as Json[])[0];
  geometry.id = geometry.name = "Sleeve_geo";
  const vertices = geometry.vertices as { values: number[][] };
  vertices.values = vertices.values.map(([x, y, z]) => [x, y, z + GAP_CM]);
  const skin = (sleeve.modifier_library as Json[])[0];
  skin.id = skin.name = "SleeveSkin";
  skin.parent = "#Sleeve_geo";
  Object.assign(skin.skin as Json, { node: "#Sleeve", geometry: "#Sleeve_geo" });
  return sleeve;
}

/** A content root holding Body.dsf and Sleeve.dsf (each in its own file, as Daz content is). */
async function withContent(test: (root: string) => Promise<void>, bone1Centre = 1): Promise<void> {
  const root = await tempDir();
  try {
    await Deno.mkdir(join(root, "data"), { recursive: true });
    await Deno.writeFile(join(root, "data", "Body.dsf"), dsonBytes(libraryFigure("Body")));
    await Deno.writeFile(join(root, "data", "Sleeve.dsf"), dsonBytes(sleeveFile(bone1Centre)));
    await test(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** How the scene poses and places things. */
interface Staging {
  /** Body bone 1's rotation about z (degrees). */
  degrees: number;
  /** The sleeve's own bone 1 rotation as the file writes it (absent: not listed). */
  sleeveDegrees?: number;
  /** The sleeve's parent (default the body). */
  sleeveParent?: string | null;
  /** What the sleeve conforms to. */
  conformTarget?: string;
  /** The body figure's own translation and rotation about z (cm, degrees). */
  body?: { translation: number[]; degrees: number };
}

/** The scene: the body posed, and the sleeve conforming to it. */
function scene(staging: Staging): Json {
  const body: Json = {
    id: "Body-1",
    url: "/data/Body.dsf#Body",
    geometries: [{ id: "Body_geo-1", url: "/data/Body.dsf#Body_geo" }],
  };
  if (staging.body) {
    body.translation = channels("float", staging.body.translation);
    body.rotation = channels("float", [0, 0, staging.body.degrees]);
  }
  const sleeve: Json = {
    id: "Sleeve-1",
    url: "/data/Sleeve.dsf#Sleeve",
    conform_target: staging.conformTarget ?? "#Body-1",
    geometries: [{ id: "Sleeve_geo-1", url: "/data/Sleeve.dsf#Sleeve_geo" }],
  };
  if (staging.sleeveParent !== null) sleeve.parent = staging.sleeveParent ?? "#Body-1";
  const nodes: Json[] = [
    body,
    { id: "Body_bone0", url: "/data/Body.dsf#Body_bone0", parent: "#Body-1" },
    {
      id: "Body_bone1",
      url: "/data/Body.dsf#Body_bone1",
      parent: "#Body_bone0",
      rotation: channels("float", [0, 0, staging.degrees]),
    },
    sleeve,
  ];
  if (staging.sleeveDegrees !== undefined) {
    nodes.push({ id: "Sleeve_bone0", url: "/data/Sleeve.dsf#Body_bone0", parent: "#Sleeve-1" }, {
      id: "Sleeve_bone1",
      url: "/data/Sleeve.dsf#Body_bone1",
      parent: "#Sleeve_bone0",
      rotation: channels("float", [0, 0, staging.sleeveDegrees]),
    });
  }
  return {
    file_version: "0.6.1.0",
    asset_info: { id: "/scenes/dressed.duf", type: "scene" },
    scene: { nodes },
  };
}

async function decode(json: Json, root: string) {
  const ctx = testContext();
  const doc: Document =
    (await runNode(decodeDson, { bytes: { bytes: dsonBytes(json), name: "dressed.duf" } }, {
      content_roots: [root],
    }, ctx)).scene;
  return { doc, warnings: ctx.warnings.map((w) => w.message) };
}

/** Drawn world positions (m) of a geometry's vertices, by DSON vertex index. */
function drawn(doc: Document, geometry: string): Map<number, number[]> {
  const node = doc.getRoot().listNodes().find((n: Node) =>
    (getPartgraphExtras(n.getMesh() ?? n).dson as Json | undefined)?.geometry === geometry
  )!;
  assert.ok(node.getSkin(), `${geometry} is skinned`);
  const index = node.getMesh()!.listPrimitives()[0].getAttribute("_DSON_VERTEX")!.getArray()!;
  const positions = worldPositions(node);
  return new Map(positions.map((p, k) => [index[k], p]));
}

/** Each sleeve vertex's distance (cm) from the same body vertex, and how far the body's moved from rest. */
function gaps(doc: Document): { gap: number[]; moved: number[] } {
  const body = drawn(doc, "Body_geo"), sleeve = drawn(doc, "Sleeve_geo");
  assert.equal(body.size, 16);
  assert.equal(sleeve.size, 16);
  const gap: number[] = [], moved: number[] = [];
  for (const [v, p] of body) {
    gap.push(Math.hypot(...p.map((c, k) => c - sleeve.get(v)![k])) * 100);
    const rest = [v % 4, Math.floor(v / 4), 0];
    moved.push(Math.hypot(...p.map((c, k) => c * 100 - rest[k])));
  }
  return { gap, moved };
}

function node(doc: Document, name: string): Node {
  const found = doc.getRoot().listNodes().filter((n: Node) => n.getName() === name);
  assert.equal(found.length, 1, name);
  return found[0];
}

Deno.test("dson conform: a sleeve follows its body's posed arm, each vertex staying 0.2 cm from the body's", async () => {
  await withContent(async (root) => {
    const { doc, warnings } = await decode(scene({ degrees: 40 }), root);
    assert.deepEqual(warnings, []);
    const { gap, moved } = gaps(doc);
    // The arm really moved: vertex 15 (3, 3) is weighted 1 : 2 to bones 2 and 0, so it goes a third
    // of the way to where bone 1's 40° turn about (0, 1) takes it, (3 cos 40° − 2 sin 40°, 1 + 3 sin 40°
    // + 2 cos 40°); the most any vertex moves is 2.16 cm.
    const rad = (40 * Math.PI) / 180;
    const turned = [3 * Math.cos(rad) - 2 * Math.sin(rad), 1 + 3 * Math.sin(rad) + 2 * Math.cos(rad), 0];
    const expected = turned.map((c, k) => (c + 2 * [3, 3, 0][k]) / 3 / 100);
    const top = drawn(doc, "Body_geo").get(15)!;
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(top[k] - expected[k]) < 1e-7, `vertex 15: ${top}`);
    assert.ok(Math.max(...moved) > 2, `body moved at most ${Math.max(...moved)} cm`);
    // And the sleeve went with it (before, v11, it stayed at rest: up to 2.16 cm from the arm).
    for (const g of gap) assert.ok(Math.abs(g - GAP_CM) < 1e-5, `a sleeve vertex is ${g} cm from the body`);
    const bone1 = doc.getRoot().listNodes().filter((n: Node) => n.getName() === "Body_bone1");
    const follows = bone1.map((n) => (getPartgraphExtras(n).dson as Json).follows ?? null);
    assert.deepEqual(follows.sort(), ["Body_bone1", null]);
  });
});

Deno.test("dson conform: a sleeve bone the body lacks follows its parent (the cuff turns with the arm)", async () => {
  await withContent(async (root) => {
    const { doc } = await decode(scene({ degrees: 40 }), root);
    // Bone 1 turns 40° about z about its head (0, 1, 0) cm: the cuff's head (0, 1.5, 0) goes to
    // (−0.5 sin 40°, 1 + 0.5 cos 40°, 0) cm, and the cuff turns 40° with it.
    const world = node(doc, "Sleeve_cuff").getWorldMatrix();
    const rad = (40 * Math.PI) / 180;
    const expected = [-0.5 * Math.sin(rad), 1 + 0.5 * Math.cos(rad), 0].map((c) => c / 100);
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(world[12 + k] - expected[k]) < 1e-9, `${world[12 + k]}`);
    assert.ok(Math.abs(Math.atan2(world[1], world[0]) - rad) < 1e-6, "the cuff turned 40°");
    assert.equal((getPartgraphExtras(node(doc, "Sleeve_cuff")).dson as Json).follows, undefined);
  });
});

Deno.test("dson conform: the body's pose wins over the item's own bone channels, as Daz drives them", async () => {
  await withContent(async (root) => {
    for (const sleeveDegrees of [0, 40, -25]) {
      const { doc, warnings } = await decode(scene({ degrees: 40, sleeveDegrees }), root);
      assert.deepEqual(warnings, []);
      for (const g of gaps(doc).gap) assert.ok(Math.abs(g - GAP_CM) < 1e-5, `${sleeveDegrees}°: ${g} cm`);
    }
  });
});

Deno.test("dson conform: a sleeve whose elbow sits 0.2 cm off the body's still deforms with the body", async () => {
  // The item's bone 1 head at y = 1.2 cm, the body's at 1: it moves as the body's bone moves from
  // rest, so the skin follows exactly (turning the sleeve about its own head would part them).
  await withContent(async (root) => {
    const { doc, warnings } = await decode(scene({ degrees: 40 }), root);
    assert.deepEqual(warnings, []);
    for (const g of gaps(doc).gap) assert.ok(Math.abs(g - GAP_CM) < 1e-5, `${g} cm`);
  }, 1.2);
});

Deno.test("dson conform: a sleeve at the scene root still takes the moved and turned body's place", async () => {
  await withContent(async (root) => {
    const staging = { degrees: 40, sleeveParent: null, body: { translation: [50, 10, -5], degrees: 30 } };
    const { doc, warnings } = await decode(scene(staging), root);
    assert.deepEqual(warnings, []);
    const { gap, moved } = gaps(doc);
    assert.ok(Math.min(...moved) > 40, "the whole body moved");
    for (const g of gap) assert.ok(Math.abs(g - GAP_CM) < 1e-5, `${g} cm`);
  });
});

Deno.test("dson conform: a conform target that names no node is a warning, and the item keeps its rest pose", async () => {
  await withContent(async (root) => {
    const { doc, warnings } = await decode(scene({ degrees: 40, conformTarget: "#Nobody-1" }), root);
    assert.deepEqual(warnings, [
      "dson: unresolved reference '#Nobody-1': names no node of this scene: conforming figure 'Sleeve-1' " +
      "keeps its own pose, not its target's",
    ]);
    // Left at rest, the sleeve's top row is centimetres from the posed arm.
    assert.ok(Math.max(...gaps(doc).gap) > 2);
  });
});

/** Applies a preset setting each `[node, channel, value]` to a decoded scene. */
async function applyPreset(doc: Document, settings: [string, string, number][]) {
  const ctx = testContext();
  const { scene } = await runNode(dsonApplyPreset, { scene: doc, preset: posePreset(settings) }, {}, ctx);
  return { doc: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

Deno.test("dson conform: a pose preset bending the arm and moving the figure poses the sleeve as decode does", async () => {
  // The sleeve's elbow 0.2 cm above the body's; the sleeve under the body, and at the scene root.
  // The preset turns bone 1 40° and moves and turns the body's root (`@selection:`). Before
  // (dson.apply_preset v7) the sleeve's bone 1 was posed by name about its own head (1.2 cm), and
  // the root move left a sleeve at the scene root behind: gaps off 0.2 cm by up to 0.042 cm under
  // the body and 50.9 cm at the root, with a warning that Body_bone1 matched several nodes.
  await withContent(async (root) => {
    const settings: [string, string, number][] = [
      ["Body_bone1", "rotation/z", 40],
      ["", "translation/x", 50],
      ["", "translation/y", 10],
      ["", "translation/z", -5],
      ["", "rotation/z", 30],
    ];
    for (const sleeveParent of [undefined, null]) {
      const rest = await decode(scene({ degrees: 0, sleeveParent }), root);
      const { doc, warnings } = await applyPreset(rest.doc, settings);
      const { gap, moved } = gaps(doc);
      assert.ok(Math.min(...moved) > 40, "the whole body moved");
      for (const g of gap) assert.ok(Math.abs(g - GAP_CM) < 1e-5, `parent ${sleeveParent}: ${g} cm`);
      assert.deepEqual(warnings, []);
      // The same pose written in the file and decoded draws every sleeve vertex at the same place.
      const staging = { degrees: 40, sleeveParent, body: { translation: [50, 10, -5], degrees: 30 } };
      const written = drawn((await decode(scene(staging), root)).doc, "Sleeve_geo");
      for (const [v, p] of drawn(doc, "Sleeve_geo")) {
        const d = Math.hypot(...p.map((c, k) => c - written.get(v)![k]));
        assert.ok(d < 1e-7, `vertex ${v} is ${d} m from the decoded pose`);
      }
      const sleeveRoot = doc.getRoot().listNodes().find((n: Node) =>
        (getPartgraphExtras(n).dson as Json | undefined)?.key === "Sleeve-1"
      )!;
      assert.equal((getPartgraphExtras(sleeveRoot).dson as Json).follows, "Body-1");
    }
  }, 1.2);
});

Deno.test("dson conform: a preset naming only a conforming item's bone is a warning; the bone follows its target", async () => {
  await withContent(async (root) => {
    const rest = await decode(scene({ degrees: 0 }), root);
    // Sleeve_cuff follows nothing (the body has no cuff): posed by name. The sleeve's own id
    // `Sleeve` names its figure root only, which follows the body.
    const { doc, warnings } = await applyPreset(rest.doc, [["Sleeve_cuff", "rotation/z", 30], [
      "Sleeve",
      "rotation/z",
      90,
    ]]);
    assert.deepEqual(warnings, [
      "dson preset: 1 name(s) match only nodes of conforming items, which follow their target (as Daz drives them), " +
      "not posed: Sleeve",
    ]);
    const cuff = node(doc, "Sleeve_cuff").getWorldMatrix();
    assert.ok(Math.abs(Math.atan2(cuff[1], cuff[0]) - Math.PI / 6) < 1e-6, "the cuff turned 30°");
    for (const g of gaps(doc).gap) assert.ok(Math.abs(g - GAP_CM) < 1e-5, `${g} cm`);
  });
});

Deno.test("dson conform: an instance of the dressed figure copies the sleeve with the posed body, each copied vertex 0.2 cm from the copied body's", async () => {
  await withContent(async (root) => {
    const json = scene({ degrees: 40 });
    json.node_library = [{ id: "instance", name: "instance", type: "node" }];
    (json.scene as { nodes: Json[] }).nodes.push({
      id: "Body Copy",
      name: "Body Copy",
      url: "#instance",
      translation: channels("float", [50, 0, 0]),
      extra: [
        { type: "studio/node/instance" },
        {
          type: "studio_node_channels",
          channels: [{ channel: { id: "Instance Target", type: "node", node: "#Body-1" } }],
        },
      ],
    });
    const { doc, warnings } = await decode(json, root);
    assert.deepEqual(warnings, []);
    const skinned = doc.getRoot().listNodes().filter((n) => n.getSkin());
    assert.equal(skinned.length, 4, skinned.map((n) => n.getName()).join(", "));
    const byName = (name: string) => worldPositions(skinned.find((n) => n.getName() === name)!);
    const [body, sleeve] = [byName("Body_geo-1"), byName("Sleeve_geo-1")];
    const [bodyCopy, sleeveCopy] = [byName("Body_geo-1 (Body Copy)"), byName("Sleeve_geo-1 (Body Copy)")];
    // Each copy is its original moved 0.5 m along x; the originals keep their 0.2 cm gap (tested above).
    const moved = (a: number[][], b: number[][]) =>
      a.forEach((p, v) =>
        p.forEach((c, k) => assert.ok(Math.abs(b[v][k] - c - [0.5, 0, 0][k]) < 1e-7, `${b[v]} vs ${p}`))
      );
    moved(body, bodyCopy);
    moved(sleeve, sleeveCopy);
  });
});
