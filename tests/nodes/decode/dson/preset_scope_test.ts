/**
 * A preset reaches one figure and the items fitted to it, as Daz applies a preset to the selected
 * figure: two instances of one code-made body (Alice and Bob, same bone and morph names) and a
 * dress fitted to Bob, each with an `FBMHeavy` morph, in a content root.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { dsonApplyPreset } from "../../../../nodes/decode/dson/apply_preset.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { dsonBytes, type Json, libraryFigure, posePreset, shapePreset } from "./generate.ts";
import { decodeJson, nodeNamed, withContentFiles } from "./dson_runs.ts";

const BODY_FILE = "/data/DAZ 3D/Genesis 8/Female/Genesis8Female.dsf";
const DRESS_FILE = "/data/Items/Dress.dsf";
const MORPH = "FBMHeavy";

/**
 * The dress's FBMHeavy auto-follows the body's, as the Transfer Utility makes a clothing morph; a
 * preset reaches it only so (`follows: false`: one that follows nothing, which the preset leaves).
 */
function figureFile(figure: string, file: string, follows = figure === "Dress"): Json {
  return libraryFigure(figure, file, [{
    id: MORPH,
    name: MORPH,
    parent: `#${figure}_geo`,
    channel: {
      id: "value",
      type: "float",
      value: 0,
      min: 0,
      max: 1,
      ...(follows ? { auto_follow: true } : {}),
    },
    morph: { vertex_count: 16, deltas: { count: 1, values: [[5, 0, 1, 0]] } },
  }]);
}

const bodyInstance = (n: number, name: string): Json => ({
  id: `Genesis8Female-${n}`,
  name,
  url: `${encodeURI(BODY_FILE)}#Genesis8Female`,
  geometries: [{ id: `Genesis8Female_geo-${n}`, url: `${encodeURI(BODY_FILE)}#Genesis8Female_geo` }],
});

const SCENE = {
  file_version: "0.6.1.0",
  asset_info: { id: "/scene.duf", type: "scene" },
  scene: {
    nodes: [bodyInstance(1, "Alice"), bodyInstance(2, "Bob"), {
      id: "Dress-1",
      name: "Dress",
      url: `${DRESS_FILE}#Dress`,
      parent: "#Genesis8Female-2",
      conform_target: "#Genesis8Female-2",
      geometries: [{ id: "Dress_geo-1", url: `${DRESS_FILE}#Dress_geo` }],
    }],
  },
};

/** Each mesh node's FBMHeavy weight, by the mesh node's name. */
function heavy(doc: Document): Record<string, number> {
  const out: Record<string, number> = {};
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (mesh) out[node.getName()] = mesh.getWeights()[0] ?? NaN;
  }
  return out;
}

async function withScene(
  use: (scene: Document) => Promise<void>,
  json: Json = SCENE,
  dress = figureFile("Dress", DRESS_FILE),
): Promise<void> {
  await withContentFiles([
    [BODY_FILE, figureFile("Genesis8Female", BODY_FILE)],
    [DRESS_FILE, dress],
  ], async (root) => {
    const { scene, warnings } = await decodeJson(json, "two.duf", [root]);
    assert.deepEqual(warnings, []);
    assert.deepEqual(heavy(scene), {
      "Genesis8Female_geo-1": 0,
      "Genesis8Female_geo-2": 0,
      "Dress_geo-1": 0,
    });
    await use(scene);
  });
}

async function apply(scene: Document, preset: { bytes: Uint8Array; name: string }, figure?: string) {
  const ctx = testContext();
  const out = (await runNode(dsonApplyPreset, { scene, preset }, figure === undefined ? {} : { figure }, ctx))
    .scene as Document;
  return { scene: out, warnings: ctx.warnings.map((w) => w.message) };
}

Deno.test("dson preset scope: figure Bob dials Bob and the dress fitted to him, not Alice's same-named morph", async () => {
  await withScene(async (scene) => {
    for (const figure of ["Bob", "Genesis8Female-2"]) {
      const { scene: out, warnings } = await apply(scene, shapePreset([[MORPH, 0.8]]), figure);
      assert.deepEqual(warnings, []);
      assert.deepEqual(heavy(out), {
        "Genesis8Female_geo-1": 0,
        "Genesis8Female_geo-2": 0.8,
        "Dress_geo-1": 0.8,
      });
    }
    const alice = await apply(scene, shapePreset([[MORPH, 0.6]]), "Alice");
    assert.deepEqual(heavy(alice.scene), {
      "Genesis8Female_geo-1": 0.6,
      "Genesis8Female_geo-2": 0,
      "Dress_geo-1": 0,
    });
  });
});

Deno.test("dson preset scope: a dress morph of the body's name that follows nothing keeps its value; one only the dress has is set", async () => {
  // Daz applies the preset to Bob's own FBMHeavy; the dress's moves with it only by auto-follow or a
  // formula (apply_preset v25; before, set by name to 0.8). A name Bob lacks is the dress's own.
  const dress = libraryFigure(
    "Dress",
    DRESS_FILE,
    [MORPH, "DressLong"].map((id) => ({
      id,
      name: id,
      parent: "#Dress_geo",
      channel: { id: "value", type: "float", value: 0, min: 0, max: 1 },
      morph: { vertex_count: 16, deltas: { count: 1, values: [[5, 0, 1, 0]] } },
    })),
  );
  await withScene(
    async (scene) => {
      const { scene: out, warnings } = await apply(
        scene,
        shapePreset([[MORPH, 0.8], ["DressLong", 0.3]]),
        "Bob",
      );
      assert.deepEqual(warnings, []);
      assert.deepEqual(heavy(out), {
        "Genesis8Female_geo-1": 0,
        "Genesis8Female_geo-2": 0.8,
        "Dress_geo-1": 0,
      });
      const dressMesh = out.getRoot().listMeshes().find((m) => m.getName().startsWith("Dress"))!;
      assert.deepEqual(dressMesh.getWeights(), [0, 0.3]);
    },
    SCENE,
    dress,
  );
});

Deno.test("dson preset scope: a dress at the scene root is Bob's by its conform_target", async () => {
  const nodes = SCENE.scene.nodes.map((node) =>
    node.id === "Dress-1" ? { ...node, parent: undefined } : node
  );
  await withScene(async (scene) => {
    assert.equal(nodeNamed(scene, "Dress").getParentNode(), null);
    const { scene: out } = await apply(scene, shapePreset([[MORPH, 0.8]]), "Bob");
    assert.deepEqual(heavy(out), {
      "Genesis8Female_geo-1": 0,
      "Genesis8Female_geo-2": 0.8,
      "Dress_geo-1": 0.8,
    });
    const alice = await apply(scene, shapePreset([[MORPH, 0.6]]), "Alice");
    assert.deepEqual(heavy(alice.scene), {
      "Genesis8Female_geo-1": 0.6,
      "Genesis8Female_geo-2": 0,
      "Dress_geo-1": 0,
    });
  }, { ...SCENE, scene: { nodes } });
});

Deno.test("dson preset scope: a pose preset for Bob bends Bob's bone only (before: both, warned as shared)", async () => {
  await withScene(async (scene) => {
    const bone = "Genesis8Female_bone1";
    const rotationOf = (doc: Document, figure: string) => {
      const stack = [nodeNamed(doc, figure)];
      while (stack.length) {
        const node = stack.pop()!;
        if (node.getName() === bone) return node.getRotation().map((x) => Math.round(x * 1e6) / 1e6);
        stack.push(...node.listChildren());
      }
      throw new Error(`no ${bone} under ${figure}`);
    };
    const before = { alice: rotationOf(scene, "Alice"), bob: rotationOf(scene, "Bob") };
    assert.deepEqual(before.alice, before.bob);
    const { scene: out, warnings } = await apply(scene, posePreset([[bone, "rotation/z", 30]]), "Bob");
    assert.deepEqual(warnings, []);
    assert.deepEqual(rotationOf(out, "Alice"), before.alice);
    assert.notDeepEqual(rotationOf(out, "Bob"), before.bob);
  });
});

Deno.test("dson preset scope: the preset's own scene naming one instance picks it; naming none, all are dialled and warned", async () => {
  await withScene(async (scene) => {
    const named = {
      file_version: "0.6.1.0",
      asset_info: { id: "/code/shape.duf", type: "preset_shape" },
      scene: {
        nodes: [{ id: "Genesis8Female-2", url: `${encodeURI(BODY_FILE)}#Genesis8Female` }],
        animations: [{ url: `name://@selection#${MORPH}:?value/value`, keys: [[0, 0.5]] }],
      },
    };
    const picked = await apply(scene, { bytes: dsonBytes(named), name: "shape.duf" });
    assert.deepEqual(heavy(picked.scene), {
      "Genesis8Female_geo-1": 0,
      "Genesis8Female_geo-2": 0.5,
      "Dress_geo-1": 0.5,
    });
    assert.ok(picked.warnings.every((w) => !w.includes("selected figure")), picked.warnings.join("\n"));

    const all = await apply(scene, shapePreset([[MORPH, 0.4]]));
    assert.deepEqual(heavy(all.scene), {
      "Genesis8Female_geo-1": 0.4,
      "Genesis8Female_geo-2": 0.4,
      "Dress_geo-1": 0.4,
    });
    assert.deepEqual(all.warnings, [
      "dson preset: Daz applies a preset to the selected figure, and this scene has 2 figures ('Alice' labelled " +
      "'Generated' (instance Genesis8Female-1), 'Bob' labelled 'Generated' (instance Genesis8Female-2)), the preset names none of them: applied to all of them; set the figure parameter to choose one",
    ]);
  });
});

Deno.test("dson preset scope: a figure parameter naming several figures (their shared DSON id) reaches all, warned", async () => {
  await withScene(async (scene) => {
    const both = await apply(scene, shapePreset([[MORPH, 0.6]]), "Genesis8Female");
    assert.deepEqual(heavy(both.scene), {
      "Genesis8Female_geo-1": 0.6,
      "Genesis8Female_geo-2": 0.6,
      "Dress_geo-1": 0.6,
    });
    assert.deepEqual(both.warnings, [
      "dson preset: figure 'Genesis8Female' names 2 figures of the scene ('Alice' labelled 'Generated' (instance " +
      "Genesis8Female-1), 'Bob' labelled 'Generated' (instance Genesis8Female-2)): applied to all of them; set the " +
      "figure parameter to one's instance id (Genesis8Female-1, Genesis8Female-2) to choose it",
    ]);
  });
});

Deno.test("dson preset scope: a figure parameter naming no figure is an error listing the figures", async () => {
  await withScene(async (scene) => {
    await assert.rejects(
      () => apply(scene, shapePreset([[MORPH, 0.8]]), "Carol"),
      /figure 'Carol' names no figure of the scene \('Alice' labelled 'Generated' \(instance Genesis8Female-1\), 'Bob' labelled 'Generated' \(instance Genesis8Female-2\)\)/,
    );
  });
});

Deno.test("dson preset scope: two bodies of one name and label are told apart by instance id; an ambiguous figure names both", async () => {
  // As Daz saves two Genesis bodies: one name, both labelled alike, the first instance's id the
  // figure's own (`Genesis8Female`, which is also both instances' DSON id), the second's suffixed.
  const twin = (id: string, label: string): Json => ({
    id,
    name: "Genesis8Female",
    label,
    url: `${encodeURI(BODY_FILE)}#Genesis8Female`,
    geometries: [{ id: `${id}_geo`, url: `${encodeURI(BODY_FILE)}#Genesis8Female_geo` }],
  });
  const scene = (second: string) => ({
    ...SCENE,
    scene: { nodes: [twin("Genesis8Female", "Genesis 8 Female"), twin("Genesis8Female-1", second)] },
  });
  const weights = (doc: Document) => {
    const out = heavy(doc);
    return [out["Genesis8Female_geo"], out["Genesis8Female-1_geo"]];
  };
  await withContentFiles([[BODY_FILE, figureFile("Genesis8Female", BODY_FILE)]], async (root) => {
    const same = (await decodeJson(scene("Genesis 8 Female"), "twins.duf", [root])).scene;
    // The instance id first: `Genesis8Female` is the first's instance id (and both's DSON id).
    const first = await apply(same, shapePreset([[MORPH, 0.8]]), "Genesis8Female");
    assert.deepEqual(first.warnings, []);
    assert.deepEqual(weights(first.scene), [0.8, 0]);
    const second = await apply(same, shapePreset([[MORPH, 0.7]]), "Genesis8Female-1");
    assert.deepEqual(second.warnings, []);
    assert.deepEqual(weights(second.scene), [0, 0.7]);
    // The shared label names both: applied to both, the warning naming each and its instance id.
    const both = await apply(same, shapePreset([[MORPH, 0.6]]), "Genesis 8 Female");
    assert.deepEqual(weights(both.scene), [0.6, 0.6]);
    assert.deepEqual(both.warnings, [
      "dson preset: figure 'Genesis 8 Female' names 2 figures of the scene ('Genesis8Female' labelled " +
      "'Genesis 8 Female', 'Genesis8Female' labelled 'Genesis 8 Female' (instance Genesis8Female-1)): applied " +
      "to all of them; set the figure parameter to one's instance id (Genesis8Female, Genesis8Female-1) to choose it",
    ]);
    // A label naming one figure picks it, though the name names both.
    const labelled = (await decodeJson(scene("Genesis 8 Female (2)"), "twins.duf", [root])).scene;
    const byLabel = await apply(labelled, shapePreset([[MORPH, 0.5]]), "Genesis 8 Female (2)");
    assert.deepEqual(byLabel.warnings, []);
    assert.deepEqual(weights(byLabel.scene), [0, 0.5]);
  });
});
