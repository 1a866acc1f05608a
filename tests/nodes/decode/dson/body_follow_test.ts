/**
 * A conforming garment's follower morph reading the body it is fitted to (Daz's auto-follow: the
 * dress's `FBMHeavy` is driven by a formula pushing `Genesis8Female:/data/…#FBMHeavy?value`). Body
 * and dress are code-made, each in its own content file as Daz content is; every expected weight is
 * worked out here from the dials and formulas the files write.
 */
import assert from "node:assert/strict";
import { Document, type Mesh } from "@gltf-transform/core";
import type { FormulaGraph } from "../../../../nodes/decode/dson/codec/formula_graph.ts";
import { reevaluateFormulas } from "../../../../nodes/decode/dson/codec/preset_formulas.ts";
import type { JsonValue } from "../../../../runtime/node.ts";
import { setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { halfController, type Json, libraryFigure, shapePreset } from "./generate.ts";
import { applyPreset, decodeJson, type Run, withContentFiles } from "./dson_runs.ts";

const BODY_FILE = "/data/DAZ 3D/Genesis 8/Female/Genesis8Female.dsf";
const DRESS_FILE = "/data/Dress/Dress.dsf";
const MORPH = "FBMHeavy";
const CTRL = "CTRLBodyShape";
/** The body's FBMHeavy: its own dial plus half the body-shape controller. */
const bodyHeavy = (own: number, ctrl: number) => own + 0.5 * ctrl;

const morph = (figure: string, vertex: number) => ({
  vertex_count: 16,
  deltas: { count: 1, values: [[vertex, 0, 1, 0]] },
  parent: `#${figure}_geo`,
});

/** The body: FBMHeavy (driven by the controller too) and the controller. */
function body(): Json {
  return libraryFigure("Genesis8Female", BODY_FILE, [
    {
      id: MORPH,
      name: MORPH,
      parent: "#Genesis8Female_geo",
      channel: { id: "value", type: "float", value: 0, min: 0, max: 1, clamped: true },
      morph: morph("Genesis8Female", 5),
    },
    halfController("Genesis8Female", BODY_FILE, CTRL, MORPH),
  ]);
}

/** The dress: its own follower `id`, following the body's FBMHeavy through a formula pushing `push`. */
function dress(push = `Genesis8Female:${encodeURI(BODY_FILE)}#${MORPH}?value`, id = MORPH): Json {
  return libraryFigure("Dress", DRESS_FILE, [{
    id,
    name: id,
    parent: "#Dress_geo",
    channel: { id: "value", type: "float", value: 0, min: 0, max: 1, clamped: true, auto_follow: true },
    formulas: [{ output: `Dress:${DRESS_FILE}#${id}?value`, operations: [{ op: "push", url: push }] }],
    morph: morph("Dress", 6),
  }]);
}

/** The scene: the body with its dials, and the dress fitted to it (`fitted`: its conform_target). */
function sceneFile(own: number, ctrl: number, fitted = "#Genesis8Female-1", withBody = true): Json {
  const url = encodeURI(BODY_FILE);
  const nodes: Json[] = [];
  if (withBody) {
    nodes.push({
      id: "Genesis8Female-1",
      url: `${url}#Genesis8Female`,
      geometries: [{ id: "Genesis8Female_geo-1", url: `${url}#Genesis8Female_geo` }],
    });
  }
  nodes.push({
    id: "Dress-1",
    url: `${DRESS_FILE}#Dress`,
    ...(withBody ? { parent: "#Genesis8Female-1" } : {}),
    conform_target: fitted,
    geometries: [{ id: "Dress_geo-1", url: `${DRESS_FILE}#Dress_geo` }],
  });
  const dial = (id: string, value: number) => ({
    id: `${id}-1`,
    url: `${url}#${id}`,
    parent: "#Genesis8Female_geo-1",
    channel: { id: "value", current_value: value },
  });
  return {
    file_version: "0.6.1.0",
    asset_info: { id: "/scenes/dressed.duf", type: "scene" },
    scene: { nodes, modifiers: withBody ? [dial(MORPH, own), dial(CTRL, ctrl)] : [] },
  };
}

/** Decodes `scene` with the body and `dressJson` installed in a content root. */
function decodeDressed(scene: Json, dressJson = dress()): Promise<Run> {
  return withContentFiles(
    [[BODY_FILE, body()], [DRESS_FILE, dressJson]],
    (root) => decodeJson(scene, "dressed.duf", [root]),
  );
}

/** The weight of FBMHeavy on the mesh whose name starts with `figure`. */
function heavy(scene: Document, figure: string): number {
  const mesh = scene.getRoot().listMeshes().find((m: Mesh) => m.getName().startsWith(figure));
  assert.ok(mesh, `a mesh of ${figure}`);
  const names = (mesh.getExtras() as { targetNames: string[] }).targetNames;
  assert.ok(names.includes(MORPH), `${figure} has ${MORPH}`);
  return mesh.getWeights()[names.indexOf(MORPH)];
}

function near(got: number, expected: number, what: string) {
  assert.ok(Math.abs(got - expected) < 1e-9, `${what}: ${got}, expected ${expected}`);
}

Deno.test("dson body follow: a fitted dress's follower morph takes the body's value, the body's own formulas applied", async () => {
  const { scene, warnings } = await decodeDressed(sceneFile(0.4, 0.6));
  assert.deepEqual(warnings, []);
  // The body: 0.4 + 0.5 · 0.6 = 0.7; the dress follows it (its own dial 0 plus the body's).
  near(heavy(scene, "Genesis8Female"), bodyHeavy(0.4, 0.6), "body");
  near(heavy(scene, "Dress"), bodyHeavy(0.4, 0.6), "dress");
  // The same with no node path, the body's file named (the dress has no FBMHeavy of that file).
  const renamed = dress(`${encodeURI(BODY_FILE)}#${MORPH}?value`, "Dress_FBMHeavy");
  const { scene: other, warnings: said } = await decodeDressed(sceneFile(0.2, 0), renamed);
  assert.deepEqual(said, []);
  const mesh = other.getRoot().listMeshes().find((m) => m.getName().startsWith("Dress"))!;
  const names = (mesh.getExtras() as { targetNames: string[] }).targetNames;
  near(mesh.getWeights()[names.indexOf("Dress_FBMHeavy")], 0.2, "a differently named follower");
});

Deno.test("dson body follow: a preset dialling the body moves the dress's follower with it, not twice", async () => {
  const { scene } = await decodeDressed(sceneFile(0.4, 0));
  near(heavy(scene, "Dress"), 0.4, "decoded");
  // The controller to 1: the body is 0.4 + 0.5 = 0.9, and so is the dress.
  const { scene: shaped, warnings } = await applyPreset(scene, shapePreset([[CTRL, 1]]));
  assert.deepEqual(warnings, []);
  near(heavy(shaped, "Genesis8Female"), bodyHeavy(0.4, 1), "body after the controller");
  near(heavy(shaped, "Dress"), bodyHeavy(0.4, 1), "dress after the controller");
  // FBMHeavy itself to 0.2 on top: the body is 0.2 + 0.5 = 0.7; the dress follows that, its own dial
  // left at 0 (setting it too would give 0.9).
  const { scene: heavier, warnings: again } = await applyPreset(shaped, shapePreset([[MORPH, 0.2]]));
  assert.deepEqual(again, []);
  near(heavy(heavier, "Genesis8Female"), bodyHeavy(0.2, 1), "body dialled");
  near(heavy(heavier, "Dress"), bodyHeavy(0.2, 1), "dress dialled");
});

Deno.test("dson body follow: with the body absent, or lacking the morph, the follower keeps its value and is warned", async () => {
  // The dress alone: its conform_target names nothing.
  const alone = await decodeDressed(sceneFile(0, 0, "#Genesis8Female-1", false));
  near(heavy(alone.scene, "Dress"), 0, "alone");
  assert.ok(
    alone.warnings.some((w) =>
      /1 ERC formula\(s\) driving morphs or bones of this scene are not evaluated/.test(w)
    ),
    alone.warnings.join("\n"),
  );
  // Fitted to the body, but reading a morph the body does not have.
  const missing = dress(`Genesis8Female:${encodeURI(BODY_FILE)}#FBMThin?value`);
  const { scene, warnings } = await decodeDressed(sceneFile(0.4, 0), missing);
  near(heavy(scene, "Dress"), 0, "a morph the body lacks");
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(warnings[0], /Dress\.dsf at \/modifier_library\/1\/formulas\/0: 1 ERC formula\(s\) driving/);
});

Deno.test("dson body follow: a graft merged into its body reads the body's own dial, which a preset sets", () => {
  // The merged mesh's graph (the body's first): the body's FBMHeavy at 0.4, and the graft's follower
  // reading the body's FBMHeavy as decode.dson stored it (`of` the body, which is this mesh's figure).
  const graph: FormulaGraph = {
    figure: "Genesis8Female-1",
    channels: {
      [MORPH]: { value: 0.4 },
      Graft_FBMHeavy: {
        value: 0,
        formulas: [{ stage: "sum", ops: [{ value: `Genesis8Female-1:#${MORPH}` }] }],
      },
      [`Genesis8Female-1:#${MORPH}`]: { value: 0.4, of: "Genesis8Female-1", id: MORPH },
    },
    bones: {},
    morphs: [MORPH, "Graft_FBMHeavy"],
  };
  const doc = new Document();
  const mesh = doc.createMesh("Genesis8Female").setWeights([0.4, 0.4]);
  setPartgraphExtras(mesh, {
    dson: { morphs: [{ id: MORPH }, { id: "Graft_FBMHeavy" }], formulas: graph as unknown as JsonValue },
  });
  const warnings: string[] = [];
  reevaluateFormulas(doc, new Map([[MORPH, 0.7]]), new Map(), (w) => warnings.push(w));
  assert.deepEqual(warnings, []);
  // The body's own dial is set (it is no other figure's value), and the graft follows it.
  assert.deepEqual(mesh.getWeights(), [0.7, 0.7]);
});

Deno.test("dson body follow: a graft's morph of the body's name, merged into the body, follows a controller the preset dials", () => {
  // The merged mesh: the body's FBMHeavy (driven by the controller) and the graft's auto-follow
  // FBMHeavy, one graph channel of that id (the body's, as mergeFormulaGraphs keeps it).
  const graph: FormulaGraph = {
    figure: "Genesis8Female-1",
    channels: {
      [MORPH]: {
        value: 0.4,
        formulas: [{ stage: "sum", ops: [{ value: CTRL }, 0.5, "mult"] }],
      },
      [CTRL]: { value: 0 },
    },
    bones: {},
    morphs: [MORPH],
  };
  const doc = new Document();
  const mesh = doc.createMesh("Genesis8Female").setWeights([0.4, 0.4]);
  setPartgraphExtras(mesh, {
    dson: { morphs: [{ id: MORPH }, { id: MORPH }], formulas: graph as unknown as JsonValue },
  });
  const warnings: string[] = [];
  reevaluateFormulas(doc, new Map([[CTRL, 1]]), new Map(), (w) => warnings.push(w));
  assert.deepEqual(warnings, []);
  // Both at the body's 0.4 + 0.5 · 1 (before: the graft's stayed at 0.4).
  const expected = bodyHeavy(0.4, 1);
  mesh.getWeights().forEach((w, k) => near(w, expected, `morph ${k}`));
});
