import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { checkGraph } from "../../../../mod.ts";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import {
  compoundTree,
  encodeVMeshData,
  materialLibrary,
  meshLibrary,
  oneTriangleRef,
  packVertices,
  textureLibrary,
} from "../../../support/freelancer/encode_model.ts";
import { encodeUtf, utfDir } from "../../../support/freelancer/encode_utf.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { dxt1Dds, rotationRows } from "./fixtures.ts";

const mesh = (y: number) =>
  encodeVMeshData({
    fvf: 0x102,
    groups: [{ materialId: flCrc32("FamilyPaint"), vertexStart: 0, vertexEnd: 2, indexCount: 3 }],
    indices: [0, 1, 2],
    vertices: packVertices(0x102, 3, { positions: [0, y, 0, 1, y, 0, 0, y, 1], uvs: [[0, 0, 1, 0, 0, 1]] }),
  });

const ref = (name: string) => oneTriangleRef(flCrc32(name));

/** A compound whose hull mesh lives in a separate .vms and whose material lives in a separate .mat. */
function split() {
  const cmp = encodeUtf(compoundTree({
    // The file's own copy of "shared.vms" must win over the library's.
    meshes: [{ name: "shared.vms", data: mesh(5) }],
    parts: [
      { name: "Root", fileName: "hull.3db", fragment: { lods: [ref("ship.hull.vms")] } },
      { name: "Fin", fileName: "fin.3db", fragment: { lods: [ref("SHARED.vms")] } },
    ],
    constraints: [{
      kind: "fix",
      parent: "Root",
      child: "Fin",
      translation: [0, 1, 0],
      rotation: rotationRows([0, 0, 1], 0),
    }],
  }));
  const vms = encodeUtf(
    utfDir("\\", [
      meshLibrary([{ name: "ship.hull.vms", data: mesh(7) }, { name: "shared.vms", data: mesh(9) }]),
    ]),
  );
  const mat = encodeUtf(utfDir("\\", [
    materialLibrary([{ name: "FamilyPaint", dc: [1, 1, 1], dtName: "paint.tga" }]),
    textureLibrary([{ name: "Paint.TGA", dds: dxt1Dds(0x001f) }]),
  ]));
  return { cmp, vms, mat };
}

const firstY = (doc: Document, node: string) =>
  doc.getRoot().listNodes().find((n) => n.getName() === node)!.getMesh()!.listPrimitives()[0].getAttribute(
    "POSITION",
  )!
    .getArray()![1];

Deno.test("meshes, materials and textures resolve across the optional library inputs (file first)", async () => {
  const { cmp, vms, mat } = split();
  const ctx = testContext();
  const { scene } = await runNode(
    decodeCmp,
    {
      bytes: { bytes: cmp, name: "ship.cmp" },
      library: { bytes: vms, name: "ship.vms" },
      materials: { bytes: mat, name: "family.mat" },
    },
    {},
    ctx,
  );
  const doc = scene as Document;
  assert.equal(firstY(doc, "Root"), 7, "hull mesh from the .vms library");
  assert.equal(firstY(doc, "Fin"), 5, "the file's own mesh wins over the library's duplicate");
  assert.ok(ctx.warnings.some((w) => /duplicate mesh 'shared.vms'/.test(w.message)));
  const [material] = doc.getRoot().listMaterials();
  assert.equal(material.getName(), "FamilyPaint");
  assert.ok(
    material.getBaseColorTexture(),
    "texture found in the .mat's texture library, case-insensitively",
  );
});

Deno.test("without the libraries: named warnings and placeholders, no failure", async () => {
  const ctx = testContext();
  const { scene } = await runNode(decodeCmp, { bytes: { bytes: split().cmp, name: "ship.cmp" } }, {}, ctx);
  const doc = scene as Document;
  assert.equal(doc.getRoot().listNodes().find((n) => n.getName() === "Root")!.getMesh(), null);
  assert.ok(
    ctx.warnings.some((w) => w.message.includes("give its .vms as 'library'")),
    ctx.warnings.map((w) => w.message).join("\n"),
  );
  assert.equal(
    doc.getRoot().listMaterials()[0].getName(),
    `material_0x${flCrc32("FamilyPaint").toString(16).toUpperCase().padStart(8, "0")}`,
  );
});

Deno.test("a bare .vms decodes to one node per mesh", async () => {
  const { scene } = await runNode(decodeCmp, { bytes: { bytes: split().vms, name: "ship.vms" } });
  const doc = scene as Document;
  assert.deepEqual(doc.getRoot().listNodes().map((n) => n.getName()), ["ship.hull.vms", "shared.vms"]);
  assert.equal(firstY(doc, "shared.vms"), 9);
});

Deno.test("graphs/freelancer.json validates against the registered nodes", async () => {
  const issues = await checkGraph(new URL("../../../../graphs/freelancer.json", import.meta.url).pathname, {
    inputs: { model: "ship.cmp" },
  });
  assert.deepEqual(issues, []);
});
