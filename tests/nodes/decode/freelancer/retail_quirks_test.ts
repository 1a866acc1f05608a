import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import {
  compoundTree,
  encodeVMeshData,
  fragmentChildren,
  materialLibrary,
  meshLibrary,
  packVertices,
  textureLibrary,
  type VMeshRefSpec,
} from "../../../support/freelancer/encode_model.ts";
import { encodeUtf, utfDir, utfLeaf, type UtfNode } from "../../../support/freelancer/encode_utf.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";

const TRIANGLE = [0, 0, 0, 1, 0, 0, 0, 1, 0];

/** A one-triangle mesh (FVF 0x002) whose positions are offset by `y`, plus `emptyGroups` groups of 0 indices. */
function triangleMesh(y: number, emptyGroups = 0): Uint8Array {
  return encodeVMeshData({
    fvf: 0x002,
    groups: [
      { materialId: 0, vertexStart: 0, vertexEnd: 2, indexCount: 3 },
      ...Array.from(
        { length: emptyGroups },
        () => ({ materialId: 0, vertexStart: 0, vertexEnd: 0, indexCount: 0 }),
      ),
    ],
    indices: [0, 1, 2],
    vertices: packVertices(0x002, 3, { positions: TRIANGLE.map((v, i) => (i % 3 === 1 ? v + y : v)) }),
  });
}

const ref = (mesh: string, groupCount: number): VMeshRefSpec => ({
  meshId: flCrc32(mesh),
  vertexStart: 0,
  vertexCount: 3,
  indexStart: 0,
  indexCount: 3,
  groupStart: 0,
  groupCount,
});

async function decode(root: UtfNode, name: string) {
  const ctx = testContext();
  // LancerEdit's layout, LODs and wireframes as child nodes (the default keeps them off-node).
  const { scene } = await runNode(
    decodeCmp,
    { bytes: { bytes: encodeUtf(root), name } },
    { lods: "all" },
    ctx,
  );
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

Deno.test("a mesh group with no indices draws nothing and the GLB stays valid", async () => {
  const root = utfDir("\\", [
    meshLibrary([{ name: "zero.vms", data: triangleMesh(0, 2) }]),
    ...fragmentChildren({ lods: [ref("zero.vms", 3)] }),
  ]);
  const { scene } = await decode(root, "zero.3db");
  const mesh = scene.getRoot().listNodes()[0].getMesh()!;
  assert.equal(mesh.listPrimitives().length, 1, "only the group with triangles");
  assert.equal(mesh.listPrimitives()[0].getIndices()!.getCount(), 3);
  const report = await validateGltf(await writeGlb(scene, { generator: GENERATOR }));
  assert.equal(report.errors, 0, JSON.stringify(report.messages));
});

Deno.test("a .3db without mesh, hardpoints or parts (m10_navbuoy) is an empty part, with a warning", async () => {
  const root = utfDir("\\", [utfLeaf("Exporter Version", new TextEncoder().encode("3DB v1\0"))]);
  const { scene, warnings } = await decode(root, "m10_navbuoy.3db");
  const nodes = scene.getRoot().listNodes();
  assert.deepEqual(nodes.map((n) => n.getName()), ["Root"]);
  assert.equal(nodes[0].getMesh(), null);
  assert.ok(warnings.some((w) => w.includes("no mesh")), warnings.join("\n"));
  const report = await validateGltf(await writeGlb(scene, { generator: GENERATOR }));
  assert.equal(report.errors, 0, JSON.stringify(report.messages));
  // A camera fragment on its own is a model too, and a material library alone still is not.
  const camera = fragmentChildren({ lods: [], camera: { fovx: 0.6, fovy: 0.45, znear: 0.5, zfar: 5000 } });
  const cam = await decode(utfDir("\\", camera), "camera.3db");
  assert.ok(cam.scene.getRoot().listNodes()[0].getCamera());
  const notAModel = utfDir("\\", [utfDir("Material library", [utfDir("hull", [])])]);
  await assert.rejects(() => decode(notAModel, "ships.mat"), DecodeError);
});

Deno.test("every VMeshLibrary directory is read, not only the first", async () => {
  const root = utfDir("\\", [
    meshLibrary([{ name: "first.vms", data: triangleMesh(0) }]),
    meshLibrary([{ name: "second.vms", data: triangleMesh(7) }]),
    ...fragmentChildren({ lods: [ref("first.vms", 1), ref("second.vms", 1)] }),
  ]);
  const { scene, warnings } = await decode(root, "two_libraries.3db");
  assert.ok(!warnings.some((w) => w.includes("no loaded library")), warnings.join("\n"));
  const lod1 = scene.getRoot().listNodes().find((n) => n.getName() === "Root$lod1")!;
  const positions = lod1.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!.getArray()!;
  assert.deepEqual(Array.from(positions), [0, 7, 0, 1, 7, 0, 0, 8, 0]);
});

Deno.test("compound quirks: missing fragment, duplicate part name, shared hardpoint names, a Rev leaf of several records, 11 LODs", async () => {
  const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const hardpoint = (name: string) => ({
    name,
    kind: "fix" as const,
    position: [0, 1, 0],
    orientation: identity,
  });
  const rev = (parent: string, child: string, x: number) => ({
    kind: "rev" as const,
    parent,
    child,
    translation: [x, 0, 0],
    rotation: identity,
    axis: [0, 1, 0],
    min: -1,
    max: 1,
  });
  const tree = compoundTree({
    meshes: [{ name: "tri.vms", data: triangleMesh(0) }],
    parts: [
      {
        name: "Root",
        fileName: "root.3db",
        fragment: { lods: Array(11).fill(ref("tri.vms", 1)), hardpoints: [hardpoint("HpFX")] },
      },
      { name: "Gun", fileName: "gun.3db", fragment: { lods: [ref("tri.vms", 1)] } },
      { name: "Barrel", fileName: "barrel.3db", fragment: { lods: [], hardpoints: [hardpoint("HpFX")] } },
      { name: "Door", fileName: "door.3db", fragment: { lods: [ref("tri.vms", 1)] } },
      { name: "ROOT", fileName: "door.3db", fragment: { lods: [] } },
    ],
    // One Rev leaf holding three records.
    constraints: [rev("Root", "Gun", 1), rev("Gun", "Barrel", 2), rev("Root", "Door", 3)],
  });
  // Retail tolerates a Cmpnd entry whose fragment is not in the file: drop gun.3db.
  const children = (tree as { children: readonly UtfNode[] }).children.filter((c) => c.name !== "gun.3db");
  const { scene, warnings } = await decode(utfDir("\\", children), "quirks.cmp");
  const roots = scene.getRoot().getDefaultScene()!.listChildren().map((n) => n.getName());
  assert.deepEqual(roots, ["Root", "Barrel", "Door"]);
  assert.ok(warnings.some((w) => w.includes("'gun.3db' not found")), warnings.join("\n"));
  assert.ok(warnings.some((w) => w.includes("duplicate part name 'ROOT'")), warnings.join("\n"));
  const root = scene.getRoot().listNodes().find((n) => n.getName() === "Root")!;
  assert.deepEqual(
    root.listChildren().map((n) => n.getName()),
    [...Array.from({ length: 10 }, (_, i) => `Root$lod${i + 1}`), "HpFX"],
  );
  const ctx = testContext();
  const { scene: resolved } = await runNode(constraintsResolve, { scene }, {}, ctx);
  const doc = resolved as Document;
  const door = doc.getRoot().listNodes().find((n) => n.getName() === "Door")!;
  assert.equal(door.getParentNode()?.getName(), "Door_joint", "the third record of the Rev leaf");
  const messages = ctx.warnings.map((w) => w.message);
  assert.ok(messages.some((w) => w.includes('"Gun"') && w.includes("does not exist")), messages.join("\n"));
  const report = await validateGltf(await writeGlb(doc, { generator: GENERATOR }));
  assert.equal(report.errors, 0, JSON.stringify(report.messages));
});

Deno.test("an image we cannot decode gets a named placeholder and a warning; the model still decodes", async () => {
  // A Huffman/delta-compressed colour-mapped Targa (type 32): in the Targa specification, read by
  // neither Freelancer nor Librelancer. (RLE Targa, type 10, which this test used before, now decodes.)
  const rle = new Uint8Array(18 + 4);
  rle[2] = 32;
  rle[12] = 1;
  rle[14] = 1;
  rle[16] = 24;
  const mesh = encodeVMeshData({
    fvf: 0x102,
    groups: [{ materialId: flCrc32("painted"), vertexStart: 0, vertexEnd: 2, indexCount: 3 }],
    indices: [0, 1, 2],
    vertices: packVertices(0x102, 3, { positions: TRIANGLE, uvs: [[0, 0, 1, 0, 0, 1]] }),
  });
  const root = utfDir("\\", [
    meshLibrary([{ name: "m.vms", data: mesh }]),
    materialLibrary([{ name: "painted", dc: [1, 0, 0], dtName: "paint.tga" }]),
    textureLibrary([{ name: "paint.tga", tga: rle }]),
    ...fragmentChildren({ lods: [ref("m.vms", 1)] }),
  ]);
  const { scene, warnings } = await decode(root, "painted.3db");
  const material = scene.getRoot().listMaterials()[0];
  assert.equal(material.getName(), "painted");
  assert.equal(material.getBaseColorTexture()?.getName(), "paint.tga (undecodable)");
  assert.ok(
    warnings.some((w) => w.includes("'paint.tga' (Texture library/paint.tga/MIP0")),
    warnings.join("\n"),
  );
  const report = await validateGltf(await writeGlb(scene, { generator: GENERATOR }));
  assert.equal(report.errors, 0, JSON.stringify(report.messages));
});

Deno.test("a short hardpoint Orientation or Position leaf falls back like a garbage one", async () => {
  const root = utfDir("\\", [
    utfDir("Hardpoints", [
      utfDir("Fixed", [
        utfDir("HpShort", [
          utfLeaf("Orientation", new Uint8Array(8)),
          utfLeaf("Position", new Uint8Array(4)),
        ]),
      ]),
    ]),
  ]);
  const { scene, warnings } = await decode(root, "short.3db");
  const hp = scene.getRoot().listNodes().find((n) => n.getName() === "HpShort")!;
  assert.deepEqual(hp.getRotation(), [0, 0, 0, 1]);
  assert.deepEqual(hp.getTranslation(), [0, 0, 0]);
  assert.equal(warnings.filter((w) => w.includes("HpShort")).length, 2, warnings.join("\n"));
});

Deno.test("a .cmp none of whose parts has its fragment is a DecodeError at Cmpnd, not an empty scene", async () => {
  const tree = compoundTree({
    parts: [{ name: "Root", fileName: "root.3db", fragment: { lods: [] } }],
    constraints: [],
  });
  const children = (tree as { children: readonly UtfNode[] }).children.filter((c) => c.name !== "root.3db");
  const error = await decode(utfDir("\\", children), "hollow.cmp").then(() => undefined, (e) => e);
  assert.ok(error instanceof DecodeError, String(error));
  assert.match(error.message, /at least one Cmpnd part/);
});
