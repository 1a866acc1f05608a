/**
 * Writing a scene with morph targets and mesh extras (every Carnivores `.car`): the scene's own extras
 * stay as they were, the bytes are the same as from a copy, and no copy of the scene is made.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { writeGlbVia, type WriteOptions } from "../../../runtime/scene/gltf_io.ts";
import { copyScene } from "../../../runtime/scene/copy.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { runNode } from "../../support/context.ts";
import { decodeCar } from "../../../nodes/decode/carnivores/decode_car.ts";
import { encodeCar } from "../../support/carnivores/encode.ts";
import { gridCar } from "../../nodes/decode/carnivores/fixtures.ts";

const OPTIONS: WriteOptions = { generator: GENERATOR, uniqueNames: true };

/** Graph edges created while `run` runs: a copy of a scene makes one per reference it holds. */
async function edgesCreated(doc: Document, run: () => Promise<unknown>): Promise<number> {
  const prototype = Object.getPrototypeOf(doc.getGraph()) as { _createEdge: (...args: unknown[]) => unknown };
  const original = prototype._createEdge;
  let edges = 0;
  prototype._createEdge = function (this: unknown, ...args: unknown[]) {
    edges++;
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    prototype._createEdge = original;
  }
  return edges;
}

async function carScene(extras: Record<string, unknown>): Promise<Document> {
  const { scene } = await runNode(decodeCar, {
    bytes: { bytes: encodeCar(gridCar(6, 5, 40)), name: "w.car" },
  });
  const mesh = scene.getRoot().listMeshes()[0];
  mesh.setExtras({ ...mesh.getExtras(), ...extras });
  return scene;
}

Deno.test("a morph-target mesh with extras is written from the scene itself, its extras untouched", async () => {
  for (const via of ["direct-only", "gltf-transform"] as const) {
    // A mesh whose extras lack targetNames: the writer would add them to the object it is given.
    const scene = await carScene({ note: { kept: [1, 2] } });
    const mesh = scene.getRoot().listMeshes()[0];
    const { targetNames: _, ...rest } = mesh.getExtras();
    mesh.setExtras(rest);
    const extras = mesh.getExtras();
    const before = JSON.stringify(extras);
    const reference = await writeGlbVia(copyScene(scene), OPTIONS, via);
    const edges = await edgesCreated(scene, () => writeGlbVia(scene, OPTIONS, via));
    assert.equal(mesh.getExtras(), extras, `${via}: the mesh keeps its own extras object`);
    assert.equal(JSON.stringify(mesh.getExtras()), before, `${via}: no targetNames added`);
    // Before: the scene was copied for the writer, an edge per reference (hundreds here).
    assert.equal(edges, 0, `${via}: ${edges} graph edges made while writing`);
    const glb = await writeGlbVia(scene, OPTIONS, via);
    assert.equal(glb.findIndex((byte, i) => byte !== reference[i]), -1, `${via}: same bytes as from a copy`);
    assert.equal(glb.byteLength, reference.byteLength);
  }
});
