/**
 * What `decode.gltf` keeps of a file's provenance and names: the tool that wrote it
 * (`asset.generator`, which glTF-Transform overwrites) as `asset.extras.partgraph.sourceGenerator`;
 * the names three.js's loader respelt (`Flap.L` → `FlapL`, a repeat `Wing_1`), restored from the
 * `extras.name` its exporter keeps them in, as from partgraph's own unique names; and no texture
 * nothing samples (a Flight Simulator detail layer's), while every texture a material or extension
 * samples stays.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { KHRMaterialsClearcoat, KHRMaterialsVariants } from "@gltf-transform/extensions";
import { GLTFExporter } from "three/examples/jsm/exporters/GLTFExporter.js";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { encodeRgbaPng, loadPngEncoder } from "../../../runtime/scene/png.ts";
import { runNode, testContext } from "../../support/context.ts";
import { editedGlb, glbJson } from "../../support/shapes.ts";
import { load } from "../../support/threejs_client.ts";
import { repeatedNamesScene } from "../export/repeated_names.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

async function decoded(bytes: Uint8Array, name = "model.glb") {
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes, name } }, {}, ctx);
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

async function exported(scene: Document): Promise<Uint8Array> {
  return (await runNode(exportGltf, { scene })).bytes.bytes;
}

/** A small scene of named nodes: a user's aircraft with Blender-style side suffixes and spaces. */
function namedScene(names: readonly string[]): Document {
  const doc = new Document();
  const scene = doc.createScene("Scene");
  for (const name of names) scene.addChild(doc.createNode(name).setTranslation([names.indexOf(name), 0, 0]));
  return doc;
}

Deno.test("the tool that wrote the file is kept as asset.extras.partgraph.sourceGenerator, through partgraph's own outputs", async () => {
  const blender = editedGlb(await writeGlb(namedScene(["Wing"]), { generator: "x" }), (json) => {
    json.asset = { generator: "Khronos glTF Blender I/O v3.4.50", version: "2.0", extras: { author: "me" } };
  });
  const first = await exported((await decoded(blender)).scene);
  const asset = glbJson(first).asset;
  assert(asset.generator.startsWith("partgraph "), asset.generator);
  assertEquals(asset.extras, {
    author: "me",
    partgraph: { sourceGenerator: "Khronos glTF Blender I/O v3.4.50" },
  });
  // partgraph's output read again still names Blender; a file another tool rewrote names that tool.
  assertEquals(glbJson(await exported((await decoded(first)).scene)).asset.extras, asset.extras);
  const rewritten = editedGlb(first, (json) => json.asset.generator = "glTF-Transform v4.5.1");
  assertEquals(
    glbJson(await exported((await decoded(rewritten)).scene)).asset.extras.partgraph.sourceGenerator,
    "glTF-Transform v4.5.1",
  );
  // No generator: nothing recorded.
  const anonymous = editedGlb(blender, (json) => json.asset = { version: "2.0" });
  assertEquals(glbJson(await exported((await decoded(anonymous)).scene)).asset.extras, undefined);
});

Deno.test("names three.js's exporter wrote as its loader respelt them are restored from extras.name", async () => {
  const names = ["Flap.L", "Flap.R", "Wing L", "Gear:Door[0]", "Circle", "Circle", "Rudder"];
  const source = await writeGlb(namedScene(names), { generator: "x" });
  // A web editor's save: loaded with GLTFLoader, written with GLTFExporter.
  const { scene: three } = await load(source);
  const saved = new Uint8Array(await new GLTFExporter().parseAsync(three, { binary: true }) as ArrayBuffer);
  const written = glbJson(saved).nodes.map((n: Json) => n.name);
  for (const respelt of ["FlapL", "Wing_L", "GearDoor0", "Circle_1"]) {
    assert(written.includes(respelt), respelt);
  }
  const { scene, warnings } = await decoded(saved, "editor.glb");
  const nodes = scene.getRoot().listNodes().filter((n) => n.getName() !== "AuxScene");
  assertEquals(nodes.map((n) => n.getName()).filter((n) => names.includes(n)).sort(), [...names].sort());
  // What was restored carries no extras.name any more; a name three.js kept keeps its copy.
  for (const node of nodes) {
    const extras = node.getExtras() as Json;
    assert(extras.name === undefined || extras.name === node.getName(), node.getName());
  }
  const restored = warnings.filter((w) => w.includes("restored from extras.name"));
  assertEquals(restored.length, 1, warnings.join("\n"));
  assert(restored[0].startsWith("editor.glb: 5 names restored"), restored[0]);
  assert(restored[0].includes("'FlapL' → 'Flap.L'"), restored[0]);
});

Deno.test("an extras.name that is no respelling of the name is left alone", async () => {
  const glb = editedGlb(
    await writeGlb(namedScene(["Wing_1", "FlapL", "Door"]), { generator: "x" }),
    (json) => {
      json.nodes[0].extras = { name: "left wing" }; // the author's own label
      json.nodes[1].extras = { name: "Flap.R" }; // FlapL is no spelling of Flap.R
      json.nodes[2].extras = { name: "Door" };
    },
  );
  const { scene, warnings } = await decoded(glb);
  assertEquals(scene.getRoot().listNodes().map((n) => [n.getName(), n.getExtras()]), [
    ["Wing_1", { name: "left wing" }],
    ["FlapL", { name: "Flap.R" }],
    ["Door", { name: "Door" }],
  ]);
  assertEquals(warnings, []);
});

Deno.test("partgraph's own unique names read back as the names they were made from, and write to the same bytes", async () => {
  const doc = await repeatedNamesScene(2);
  const first = await exported(doc);
  const { scene } = await decoded(first);
  const root = scene.getRoot();
  assertEquals(root.listMaterials().map((m) => m.getName()), ["Glass", "Paint", "Paint"]);
  assertEquals(root.listAnimations().map((a) => a.getName()), ["Action", "Action"]);
  assertEquals(root.listTextures().map((t) => t.getName()), ["texture", "texture"]);
  assert(root.listMaterials().every((m) => (m.getExtras() as Json).name === undefined));
  assertEquals(await exported(scene), first, "decode → export is the identity on partgraph's output");
});

/** A noisy RGBA PNG of `size`², as a detail map's tiling grain is (it compresses badly). */
function noise(size: number, seed: number): Uint8Array {
  const data = new Uint8Array(size * size * 4);
  let x = seed;
  for (let i = 0; i < data.length; i++) data[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  return encodeRgbaPng(size, size, data);
}

/**
 * A Flight Simulator model as its exporter writes it: a body whose material has a base colour and a
 * detail layer (`ASOBO_material_detail_map`, colour and normal, 256² noise), a clear-coated glass, and a
 * livery material only a `KHR_materials_variants` variant draws, plus one image no one uses.
 */
async function detailedAircraft(): Promise<Uint8Array> {
  await loadPngEncoder();
  const doc = new Document();
  const buffer = doc.createBuffer();
  const texture = (name: string, seed: number, size = 8) =>
    doc.createTexture(name).setImage(noise(size, seed)).setMimeType("image/png");
  const body = doc.createMaterial("body").setBaseColorTexture(texture("body_albedo", 1));
  const coat = doc.createExtension(KHRMaterialsClearcoat).createClearcoat().setClearcoatFactor(1)
    .setClearcoatTexture(texture("glass_coat", 2));
  const glass = doc.createMaterial("glass").setExtension("KHR_materials_clearcoat", coat);
  const livery = doc.createMaterial("livery").setBaseColorTexture(texture("livery_albedo", 3));
  texture("detail_color", 4, 256);
  texture("detail_normal", 5, 256);
  texture("orphan", 6);
  const position = doc.createAccessor().setBuffer(buffer).setType("VEC3").setArray(
    new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
  );
  const uv = doc.createAccessor().setBuffer(buffer).setType("VEC2").setArray(
    new Float32Array([0, 0, 1, 0, 0, 1]),
  );
  const variants = doc.createExtension(KHRMaterialsVariants);
  const variant = variants.createVariant("airline");
  const scene = doc.createScene("Scene");
  for (const material of [body, glass]) {
    const primitive = doc.createPrimitive().setAttribute("POSITION", position).setAttribute("TEXCOORD_0", uv)
      .setMaterial(material);
    if (material === body) {
      primitive.setExtension(
        "KHR_materials_variants",
        variants.createMappingList().addMapping(
          variants.createMapping().setMaterial(livery).addVariant(variant),
        ),
      );
    }
    scene.addChild(
      doc.createNode(material.getName()).setMesh(doc.createMesh(material.getName()).addPrimitive(primitive)),
    );
  }
  return editedGlb(await writeGlb(doc, { generator: "x" }), (json) => {
    // glTF-Transform writes a texture only where a material samples it: the layer's are added here.
    const detail = (name: string) =>
      json.textures.push({ source: json.images.findIndex((i: Json) => i.name === name) }) - 1;
    json.extensionsUsed.push("ASOBO_material_detail_map");
    json.materials[0].extensions = {
      ASOBO_material_detail_map: {
        UVScale: 8,
        detailColorTexture: { index: detail("detail_color") },
        detailNormalTexture: { index: detail("detail_normal") },
      },
    };
  });
}

Deno.test("textures nothing samples (a Flight Simulator detail layer's, an orphan) are left out; every used one stays", async () => {
  const source = await detailedAircraft();
  const { scene, warnings } = await decoded(source, "aircraft.glb");
  const kept = scene.getRoot().listTextures().map((t) => t.getName());
  assertEquals(kept, ["body_albedo", "glass_coat", "livery_albedo"]);
  const note = warnings.find((w) => w.includes("nothing draws"));
  assert(
    note?.startsWith("aircraft.glb: 3 textures nothing draws ('detail_color', 'detail_normal', 'orphan'; "),
    warnings.join("\n"),
  );
  const out = await exported(scene);
  assert(out.length < source.length / 4, `${source.length} → ${out.length} bytes`);
  assertEquals(glbJson(out).images.map((i: Json) => i.name), kept);
  assertEquals(await exported((await decoded(source, "aircraft.glb")).scene), out, "deterministic");
  // A file whose every texture is used loses none and says nothing of it.
  const clean = await decoded(out);
  assertEquals(clean.scene.getRoot().listTextures().length, 3);
  assert(!clean.warnings.some((w) => w.includes("nothing draws")), clean.warnings.join("\n"));
});
