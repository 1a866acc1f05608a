/**
 * Conforming figures (`conform_target`): in Daz, clothing fitted to a body has its bones follow the
 * body's bones of the same name. The decoder keeps each skeleton's own pose channels; where the
 * item's bones are posed differently from the body's, that is a warning (before: silent).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Document } from "@gltf-transform/core";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { tempDir } from "../../../support/temp.ts";
import { channels, dsonBytes, type Json, libraryFigure } from "./generate.ts";

/** A body and a shirt whose bones have the body's names, each in its own file, as Daz content is. */
async function withContent(test: (root: string) => Promise<void>): Promise<void> {
  const root = await tempDir();
  try {
    await Deno.mkdir(join(root, "data"), { recursive: true });
    await Deno.writeFile(join(root, "data", "Body.dsf"), dsonBytes(libraryFigure("Body")));
    const shirt = libraryFigure("Body");
    const nodes = shirt.node_library as Json[];
    nodes[0].id = nodes[0].name = "Shirt";
    nodes[1].parent = "#Shirt";
    delete shirt.geometry_library;
    delete shirt.modifier_library;
    delete shirt.uv_set_library;
    await Deno.writeFile(join(root, "data", "Shirt.dsf"), dsonBytes(shirt));
    await test(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** The scene: the body with bone 1 turned `degrees` about z, and the shirt conforming to it. */
function scene(degrees: number, shirtDegrees = 0): Json {
  const nodes: Json[] = [
    {
      id: "Body-1",
      url: "/data/Body.dsf#Body",
      geometries: [{ id: "Body_geo-1", url: "/data/Body.dsf#Body_geo" }],
    },
    { id: "Body_bone0", url: "/data/Body.dsf#Body_bone0", parent: "#Body-1" },
    {
      id: "Body_bone1",
      url: "/data/Body.dsf#Body_bone1",
      parent: "#Body_bone0",
      rotation: channels("float", [0, 0, degrees]),
    },
    { id: "Shirt-1", url: "/data/Shirt.dsf#Shirt", parent: "#Body-1", conform_target: "#Body-1" },
  ];
  if (shirtDegrees) {
    nodes.push({ id: "Shirt_bone0", url: "/data/Shirt.dsf#Body_bone0", parent: "#Shirt-1" }, {
      id: "Shirt_bone1",
      url: "/data/Shirt.dsf#Body_bone1",
      parent: "#Shirt_bone0",
      rotation: channels("float", [0, 0, shirtDegrees]),
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

Deno.test("dson conform: a shirt whose bones are not posed like its posed body's is a warning naming the first", async () => {
  await withContent(async (root) => {
    const { doc, warnings } = await decode(scene(40), root);
    assert.deepEqual(warnings, [
      "dson: dressed.duf at /scene/nodes/3/conform_target: conforming figure 'Shirt-1' follows " +
      "'Body-1': in Daz its bones take the pose of the target's bones of the same name, here they keep their " +
      "own, and 1 differ (the first, 'Body_bone1': rotation (0, 0, 0) here, (0, 0, 40) on the target), so the " +
      "item does not follow the target's pose there",
    ]);
    // The shirt's bone 1 stays at rest under its own bone 0, as the warning says (it is not moved).
    const shirtBones = doc.getRoot().listNodes().filter((n) => n.getName() === "Body_bone1");
    assert.equal(shirtBones.length, 2);
    const turned = shirtBones.map((n) => Math.round(Math.abs(n.getRotation()[2]) * 1e6) / 1e6).sort();
    // Bone 1's orientation turns it 10° about z at rest: the shirt's stays there, the body's is 50°.
    const half = (deg: number) => Math.round(Math.sin((deg * Math.PI) / 360) * 1e6) / 1e6;
    assert.deepEqual(turned, [half(10), half(50)]);
  });
});

Deno.test("dson conform: a shirt posed like its body, or an unposed body, is quiet", async () => {
  await withContent(async (root) => {
    assert.deepEqual((await decode(scene(0), root)).warnings, []);
    assert.deepEqual((await decode(scene(40, 40), root)).warnings, []);
  });
});
