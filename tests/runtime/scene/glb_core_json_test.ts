/**
 * The GLB JSON built straight from the document (`core_json.ts`) against glTF-Transform's writer
 * (`direct-writer-json`, as before) and its whole GLB (`gltf-transform`): the same bytes, on every
 * graph's output, code-made scenes of each source (realistic Freelancer compounds, Carnivores
 * .3df/.car, DSON figures, user glTF of small exporters and hand edits, random scenes, the demo
 * fighter, some given Freelancer's material extensions); and nearly all of those (sparse accessors
 * and those extensions too) written without the writer.
 */
import assert from "node:assert/strict";
import { type Document, NodeIO } from "@gltf-transform/core";
import {
  EXTTextureAVIF,
  KHRLightsPunctual,
  KHRMaterialsDiffuseTransmission,
  KHRMaterialsDispersion,
  KHRMaterialsEmissiveStrength,
  KHRMaterialsIOR,
  KHRMaterialsPBRSpecularGlossiness,
  KHRMaterialsSpecular,
  KHRMaterialsUnlit,
  KHRMaterialsVariants,
  KHRMeshQuantization,
  KHRNodeVisibility,
  KHRTextureTransform,
  KHRXMP,
} from "@gltf-transform/extensions";
import { prng } from "../../support/prng.ts";
import { extensionImagesScene } from "../../nodes/export/extension_images.ts";
import { fallbackNamesScene } from "../../nodes/export/fallback_names.ts";
import {
  gltfWriterWrites,
  readGltf,
  writeGlbVia,
  writeGltfJson,
  writeGltfJsonVia,
} from "../../../runtime/scene/gltf_io.ts";
import { morphNamesScene } from "../../nodes/export/long_names.ts";
import { writeCoreJson } from "../../../runtime/scene/glb_writer/core_json.ts";
import { chunkLayout } from "../../../runtime/scene/glb_writer/layout.ts";
import { buffered } from "../../../runtime/scene/writable.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { realisticCmp } from "../../support/realistic_cmp.ts";
import { randomScene } from "../../support/random_scene.ts";
import { runNode, testContext } from "../../support/context.ts";
import { GRAPH_CASES, missingCorpus, runCase } from "../../support/graph_runs.ts";
import { decodeCmp } from "../../../nodes/decode/freelancer/decode_cmp.ts";
import { constraintsResolve } from "../../../nodes/constraints/resolve.ts";
import { decodeCar } from "../../../nodes/decode/carnivores/decode_car.ts";
import { decode3df } from "../../../nodes/decode/carnivores/decode_3df.ts";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { encode3df, encodeCar } from "../../support/carnivores/encode.ts";
import { animatedCar, boxModel, gridCar, limbModel } from "../../nodes/decode/carnivores/fixtures.ts";
import { decodeJson } from "../../nodes/decode/dson/dson_runs.ts";
import { generateFigure } from "../../nodes/decode/dson/generate.ts";
import {
  fragmentChildren,
  materialLibrary,
  type MaterialSpec,
  meshLibrary,
} from "../../support/freelancer/encode_model.ts";
import { encodeU32, encodeUtf, utfDir, utfLeaf } from "../../support/freelancer/encode_utf.ts";
import { refTo, texelTexture, triangleMesh } from "../../nodes/decode/freelancer/triangle_models.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { SMALL_EXPORT_HABITS, smallExport } from "../../nodes/decode/gltf/small_exporters.ts";
import { HAND_EDITS, handEdited } from "../../nodes/decode/gltf/hand_edits.ts";

/**
 * Scenes compared, how many of them the core JSON wrote (no fallback to the writer), and how many
 * of their `.gltf` files it wrote.
 */
const tally = { scenes: 0, core: 0, sparse: 0, sparseCore: 0, gltfCore: 0 };

/**
 * Asserts the three writers give `doc` the same GLB bytes and the two `.gltf` writers the same `.gltf`
 * bytes, in both name spellings; counts the core ones.
 */
async function assertSameBytes(doc: Document, label: string): Promise<void> {
  for (const uniqueNames of [false, true]) {
    const options = { generator: GENERATOR, uniqueNames };
    const writer = await writeGlbVia(doc, options, "direct-writer-json");
    const direct = await writeGlbVia(doc, options, "direct");
    const reference = await writeGlbVia(doc, options, "gltf-transform");
    const where = `${label}${uniqueNames ? ", unique names" : ""}`;
    assertEqualBytes(direct, writer, `${where}: core JSON against the writer's JSON`);
    assertEqualBytes(direct, reference, `${where}: against glTF-Transform's GLB`);
  }
  if (await assertSameGltf(doc, label)) tally.gltfCore++;
  tally.scenes++;
  const source = buffered(doc);
  const layout = chunkLayout(source);
  const core = !("unsupported" in layout) && !("unsupported" in writeCoreJson(source, layout));
  if (core) tally.core++;
  if (source.getRoot().listAccessors().some((accessor) => accessor.getSparse())) {
    tally.sparse++;
    if (core) tally.sparseCore++;
  }
}

/**
 * Asserts the direct `.gltf` writer gives `doc` the bytes of glTF-Transform's (or refuses it alike),
 * in both name spellings; returns whether it wrote them without the writer.
 */
async function assertSameGltf(doc: Document, label: string): Promise<boolean> {
  const fallbacks = gltfWriterWrites.count;
  for (const uniqueNames of [false, true]) {
    const options = { generator: GENERATOR, uniqueNames };
    const where = `${label}${uniqueNames ? ", unique names" : ""}`;
    // A file the writer refuses (an image named as the buffer) is refused alike.
    const gltf = await writeGltfJsonVia(doc, options, "direct").catch((error: Error) => error);
    const gltfReference = await writeGltfJsonVia(doc, options, "gltf-transform")
      .catch((error: Error) => error);
    if (gltf instanceof Error || gltfReference instanceof Error) {
      assert.equal(String(gltf), String(gltfReference), `${where}: .gltf refused alike`);
    } else assertEqualBytes(gltf, gltfReference, `${where}: .gltf against glTF-Transform's writer`);
  }
  // Two reference writes, one per spelling: any more were fallbacks of the direct path.
  return gltfWriterWrites.count - fallbacks === 2;
}

function assertEqualBytes(actual: Uint8Array, expected: Uint8Array, label: string): void {
  const at = actual.findIndex((byte, i) => byte !== expected[i]);
  assert.ok(
    at === -1 && actual.byteLength === expected.byteLength,
    `${label}: first different byte at ${at} (lengths ${actual.byteLength}, ${expected.byteLength}): ` +
      JSON.stringify(new TextDecoder().decode(actual.subarray(Math.max(0, at - 60), at + 60))) + " vs " +
      JSON.stringify(new TextDecoder().decode(expected.subarray(Math.max(0, at - 60), at + 60))),
  );
}

for (const c of GRAPH_CASES) {
  const missing = missingCorpus(c);
  Deno.test({
    name: `core JSON: ${c.label}'s outputs write the same bytes${
      missing ? ` (skipped: corpus file ${missing} absent)` : ""
    }`,
    ignore: missing !== undefined,
    async fn() {
      const { outputs, glb } = await runCase(c);
      assert.ok(glb, "the graph gave a GLB");
      await assertSameBytes(await readGltf(glb), `${c.label} GLB read back`);
      for (const [name, value] of Object.entries(outputs)) {
        if (value && typeof value === "object" && "getRoot" in value) {
          await assertSameBytes(value as Document, `${c.label} output ${name}`);
        }
      }
    },
  });
}

Deno.test("core JSON: realistic Freelancer compounds, decoded and resolved, write the same bytes", async () => {
  const ctx = testContext();
  for (let seed = 21; seed <= 28; seed++) {
    const bytes = realisticCmp(seed, { parts: 4 + seed % 9 });
    const { scene } = await runNode(decodeCmp, { bytes: { bytes, name: `r${seed}.cmp` } }, {
      libraries: "none",
    }, ctx);
    await assertSameBytes(scene, `realistic ${seed} decoded`);
    const resolved = await runNode(constraintsResolve, { scene }, {}, ctx);
    await assertSameBytes(resolved.scene, `realistic ${seed} resolved`);
  }
});

Deno.test("core JSON: code-made Carnivores models write the same bytes", async () => {
  const ctx = testContext();
  const models = [
    ["limb.3df", encode3df(limbModel())],
    ["box.3df", encode3df(boxModel(32, 0x7c1f))],
  ] as const;
  for (const [name, bytes] of models) {
    await assertSameBytes((await runNode(decode3df, { bytes: { bytes, name } }, {}, ctx)).scene, name);
  }
  const cars = [["animated.car", encodeCar(animatedCar())], [
    "grid.car",
    encodeCar(gridCar(5, 4, 3)),
  ]] as const;
  for (const [name, bytes] of cars) {
    await assertSameBytes((await runNode(decodeCar, { bytes: { bytes, name } }, {}, ctx)).scene, name);
  }
});

Deno.test("core JSON: code-made DSON figures write the same bytes", async () => {
  for (
    const [side, bones, seam, twoSurfaces] of [[3, 1, false, false], [5, 3, true, false], [
      6,
      4,
      true,
      true,
    ]] as const
  ) {
    const { scene } = await decodeJson(generateFigure({ side, bones, seam, twoSurfaces }), `f${side}.duf`);
    await assertSameBytes(scene, `figure ${side}x${side}, ${bones} bones`);
  }
});

Deno.test("core JSON: user glTF (small exporters' habits, hand edits) decoded write the same bytes", async () => {
  const ctx = testContext();
  const files: [string, Uint8Array][] = [];
  let rejected = 0;
  for (const kind of Object.keys(SMALL_EXPORT_HABITS)) {
    for (const seed of [31, 32]) files.push([`${kind} ${seed}`, smallExport(kind, seed).bytes]);
  }
  for (const kind of Object.keys(HAND_EDITS)) {
    files.push([`hand edit ${kind}`, (await handEdited(kind, 33)).bytes]);
  }
  for (const [label, bytes] of files) {
    // Some hand edits are not JSON a strict reader takes (a trailing comma): decode.gltf's repairs do.
    const read = await readGltf(bytes).catch(() => undefined);
    if (read) await assertSameBytes(read, `${label} as read`);
    // A hand edit decode.gltf rejects (it says where) has no scene to write.
    const decoded = await runNode(decodeGltf, { bytes: { bytes, name: "user.glb" } }, {}, ctx)
      .catch(() => undefined);
    if (decoded) await assertSameBytes(decoded.scene, `${label} decoded`);
    else rejected++;
  }
  assert.ok(rejected < files.length / 2, `${rejected} of ${files.length} user files rejected`);
});

Deno.test("core JSON: random scenes and the demo fighter write the same bytes", async () => {
  for (let seed = 101; seed <= 130; seed++) await assertSameBytes(randomScene(seed), `random scene ${seed}`);
  for (const detail of [1, 2, 4]) {
    const { scene } = await runNode(demoFighter, {}, { detail });
    await assertSameBytes(scene, `fighter detail ${detail}`);
  }
  // An empty document, one with only an empty scene, and a scene whose glTF-Transform asset was edited.
  const { Document } = await import("@gltf-transform/core");
  await assertSameBytes(new Document(), "empty document");
  const doc = new Document();
  doc.createScene("").addChild(doc.createNode(""));
  doc.getRoot().getAsset().copyright = "x";
  await assertSameBytes(doc, "bare scene");
  await assertSameBytes(
    await new NodeIO().readBinary(await writeGlbVia(doc, { generator: GENERATOR }, "direct")),
    "read back",
  );
});

/**
 * Gives `doc`'s materials the extensions Freelancer's decoder uses, in its habits and some others:
 * unlit (every third), an emissive strength, texture transforms on the base colour and emissive
 * textures (offsets, a rotation, a scale, a UV set or none); `required` marks one required. Returns
 * how many texture infos got a transform.
 */
function withFreelancerExtensions(doc: Document, seed: number, required: boolean): number {
  const unlit = doc.createExtension(KHRMaterialsUnlit);
  const strength = doc.createExtension(KHRMaterialsEmissiveStrength);
  const transforms = doc.createExtension(KHRTextureTransform).setRequired(required);
  let transformed = 0;
  for (const [i, material] of doc.getRoot().listMaterials().entries()) {
    const k = (i + seed) % 3;
    if (k === 0) material.setExtension(unlit.extensionName, unlit.createUnlit());
    if (k === 1) {
      material.setExtension(
        strength.extensionName,
        strength.createEmissiveStrength().setEmissiveStrength(1 + (i % 4) * 0.5).setName(i % 2 ? "glow" : ""),
      );
    }
    for (const info of [material.getBaseColorTextureInfo(), material.getEmissiveTextureInfo()]) {
      if (!info || (i + seed) % 4 === 3) continue;
      const transform = transforms.createTransform().setOffset([((i * 7) % 5) / 8, 0]).setScale(
        i % 2 ? [1, 1] : [0.5, 2],
      ).setRotation(i % 3 ? 0 : 0.25).setTexCoord(i % 5 === 0 ? 1 : null);
      info.setExtension(transforms.extensionName, transform);
      transformed++;
    }
  }
  return transformed;
}

Deno.test("core JSON: Freelancer's material extensions (unlit, emissive strength, texture transforms) write the same bytes", async () => {
  const ctx = testContext();
  let transformed = 0, scenes = 0;
  const before = tally.core;
  for (let seed = 31; seed <= 34; seed++) {
    const bytes = realisticCmp(seed, { parts: 5 + seed % 7 });
    const { scene } = await runNode(decodeCmp, { bytes: { bytes, name: `x${seed}.cmp` } }, {
      libraries: "none",
    }, ctx);
    transformed += withFreelancerExtensions(scene, seed, seed % 2 === 0);
    await assertSameBytes(scene, `realistic ${seed} with material extensions`);
    scenes++;
  }
  for (let seed = 141; seed <= 150; seed++) {
    const scene = randomScene(seed);
    transformed += withFreelancerExtensions(scene, seed, seed % 3 === 0);
    await assertSameBytes(scene, `random scene ${seed} with material extensions`);
    scenes++;
  }
  const { scene } = await runNode(demoFighter, {}, { detail: 2 });
  withFreelancerExtensions(scene, 0, false);
  await assertSameBytes(scene, "fighter with material extensions");
  scenes++;
  assert.ok(transformed > 10, `${transformed} texture transforms`);
  assert.equal(tally.core - before, scenes, "every scene with these extensions by core JSON");
});

Deno.test("core JSON: Freelancer's decoder's own materials (every type from a .mat, with textures) write the same bytes", async () => {
  await loadPngEncoder();
  // Each kind with diffuse, emissive and detail values in its habits (a .mat beside the model).
  const types = [
    "DcDt",
    "DcDtEc",
    "DcDtOcOt",
    "DcDtEt",
    "Nebula",
    "NomadMaterial",
    "DetailMapMaterial",
    "BtDetailMapMaterial",
    "IllumDetailMapMaterial",
    "GlassMaterial",
    "EcEt",
    "Dc",
  ];
  const materials: MaterialSpec[] = types.map((type, i) => ({
    name: `as_${type}`,
    type,
    dc: [0.5, 0.25, 1],
    // An Ec past 1 is a glow (KHR_materials_emissive_strength); a detail map's flip u / flip v a
    // texture transform.
    ec: i % 2 ? (i % 4 === 3 ? [4, 2, 0] : [0.2, 0.1, 0]) : undefined,
    leaves: type.includes("DetailMap")
      ? [
        utfLeaf(i % 2 ? "flip u" : "flip v", encodeU32(1)),
        ...(i % 3 ? [utfLeaf("flip v", encodeU32(1))] : []),
      ]
      : undefined,
    dtName: i % 3 === 2 ? "grey.dds" : "blue.dds",
    etName: type.includes("Et") ? "glow.dds" : undefined,
    dtFlags: i % 4 === 1 ? 0 : undefined,
  }));
  const model = utfDir("\\", [
    meshLibrary([{ name: "m.vms", data: triangleMesh(materials.map((m) => m.name)) }]),
    ...fragmentChildren({ lods: [refTo("m.vms", materials.length)] }),
  ]);
  const mat = utfDir("\\", [
    materialLibrary(materials),
    utfDir("Texture library", [
      texelTexture("grey.dds", [[[128, 128, 128, 128]]]),
      texelTexture("blue.dds", [[[0, 0, 255, 255], [0, 0, 128, 255]]]),
      texelTexture("glow.dds", [[[255, 200, 0, 255]]]),
    ]),
  ]);
  const before = tally.core;
  const { scene } = await runNode(
    decodeCmp,
    {
      bytes: { bytes: encodeUtf(model), name: "kinds.3db" },
      materials: { bytes: encodeUtf(mat), name: "kinds.mat" },
    },
    { libraries: "none" },
    testContext(),
  );
  const used = scene.getRoot().listExtensionsUsed().map((extension: { extensionName: string }) =>
    extension.extensionName
  );
  for (const name of ["KHR_materials_emissive_strength", "KHR_materials_unlit", "KHR_texture_transform"]) {
    assert.ok(used.includes(name), `extensions ${used}`);
  }
  await assertSameBytes(scene, "Freelancer material kinds");
  assert.equal(tally.core - before, 1, `written by core JSON (extensions ${used})`);
});

Deno.test("core JSON: most of the scenes above were written without glTF-Transform's writer", () => {
  // Sanity of the comparison: a fallback everywhere would compare the writer with itself.
  const said =
    `${tally.core} of ${tally.scenes} scenes by core JSON, ${tally.sparseCore} of ${tally.sparse} with sparse accessors`;
  console.log(said);
  assert.ok(tally.scenes > 50 && tally.sparse > 10, said);
  assert.ok(tally.core >= tally.scenes * 0.9 && tally.sparseCore >= tally.sparse * 0.9, said);
});

Deno.test("core JSON: most of the scenes above were written as .gltf without glTF-Transform's writer", () => {
  const said = `${tally.gltfCore} of ${tally.scenes} .gltf files by core JSON`;
  console.log(said);
  assert.ok(tally.scenes > 50 && tally.gltfCore >= tally.scenes * 0.9, said);
});

Deno.test("core JSON: .gltf image URIs as the writer gives them (repeated, the buffer's, none, texture-only files)", async () => {
  // The writer copies image bytes as they are: a signature and a marker byte each.
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 0]);
  /** A scene whose materials sample textures of the given URIs (null: a texture without an image). */
  const scene = (uris: (string | null)[], mesh: boolean) => {
    const doc = randomScene(151 + uris.length);
    if (!mesh) {
      for (const m of doc.getRoot().listMeshes()) m.dispose();
      for (const a of doc.getRoot().listAccessors()) a.dispose();
    }
    uris.forEach((uri, i) => {
      const texture = doc.createTexture(`t${i}`).setMimeType(i % 2 ? "image/jpeg" : "image/png");
      if (uri !== null) texture.setImage(png.slice().fill(i, 12)).setURI(uri);
      const material = doc.createMaterial(`m${i}`);
      if (i % 3 === 0) material.setBaseColorTexture(texture);
      else if (i % 3 === 1) material.setEmissiveTexture(texture);
    });
    return doc;
  };
  const cases: [string, (string | null)[]][] = [
    ["one unnamed", [""]],
    ["unnamed in slots", ["", "", "", ""]],
    ["a URI twice", ["a.png", "a.png", ""]],
    ["a generated name taken", ["baseColor_1.png", "", ""]],
    ["the buffer's URI", ["scene.bin", ""]],
    ["no image", [null, "", null]],
  ];
  let direct = 0;
  for (const [label, uris] of cases) {
    for (const mesh of [true, false]) {
      if (await assertSameGltf(scene(uris, mesh), `${label}${mesh ? "" : ", no mesh"}`)) direct++;
    }
  }
  // All but the refused one (an image named as the buffer, with a mesh): the writer throws it.
  assert.equal(direct, cases.length * 2 - 1);
});

/**
 * Gives `doc` the extensions files of Blender, three.js and glTF-Transform carry besides Freelancer's,
 * in their habits: punctual lights on some nodes (a spot with cone angles, a point with a range), one
 * node hidden (KHR_node_visibility), material variants mapped on some primitives, IOR, dispersion and
 * a specular factor on some materials, an XMP packet on the file and one material. Picked by `seed`.
 */
function withCommonExtensions(doc: Document, seed: number): void {
  const next = prng(seed);
  const lights = doc.createExtension(KHRLightsPunctual);
  const visibility = doc.createExtension(KHRNodeVisibility);
  const variants = doc.createExtension(KHRMaterialsVariants);
  const ior = doc.createExtension(KHRMaterialsIOR);
  const dispersion = doc.createExtension(KHRMaterialsDispersion);
  const specular = doc.createExtension(KHRMaterialsSpecular);
  const xmp = doc.createExtension(KHRXMP);
  const root = doc.getRoot();
  root.listNodes().forEach((node, i) => {
    if (next() < 0.3) {
      const spot = next() < 0.5;
      const light = lights.createLight(i % 3 ? `lamp_${i}` : "").setType(spot ? "spot" : "point")
        .setIntensity(Math.round(next() * 800) / 10).setColor([1, 0.9, next() < 0.5 ? 0.8 : 1]);
      if (spot) light.setInnerConeAngle(0.2).setOuterConeAngle(0.6);
      else if (next() < 0.5) light.setRange(25);
      node.setExtension(lights.extensionName, light);
    }
    if (i === 1) node.setExtension(visibility.extensionName, visibility.createVisibility().setVisible(false));
  });
  const materials = root.listMaterials();
  const named = [variants.createVariant("Red"), variants.createVariant("Chrome")];
  for (const mesh of root.listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      if (materials.length === 0 || next() < 0.5) continue;
      const list = variants.createMappingList();
      for (const variant of named) {
        const material = materials[Math.floor(next() * materials.length)];
        list.addMapping(variants.createMapping().setMaterial(material).addVariant(variant));
      }
      primitive.setExtension(variants.extensionName, list);
    }
  }
  materials.forEach((material, i) => {
    if (i % 3 === seed % 3) material.setExtension(ior.extensionName, ior.createIOR().setIOR(1.45));
    if (i % 4 === 1) {
      material.setExtension(dispersion.extensionName, dispersion.createDispersion().setDispersion(0.2));
    }
    if (i % 5 === 2) {
      material.setExtension(specular.extensionName, specular.createSpecular().setSpecularFactor(0.5));
    }
  });
  // Less common ones: a leaf's diffuse transmission and an old spec-gloss material sampling the base
  // colour's texture, an AVIF decal on the first material's occlusion slot, quantized UVs (normalised
  // 16-bit) on one primitive, as gltfpack writes them.
  const diffuse = doc.createExtension(KHRMaterialsDiffuseTransmission);
  const specGloss = doc.createExtension(KHRMaterialsPBRSpecularGlossiness);
  doc.createExtension(EXTTextureAVIF);
  doc.createExtension(KHRMeshQuantization).setRequired(true);
  materials.forEach((material, i) => {
    const texture = material.getBaseColorTexture();
    if (i % 4 === 2) {
      const leaf = diffuse.createDiffuseTransmission().setDiffuseTransmissionFactor(0.4);
      material.setExtension(diffuse.extensionName, leaf.setDiffuseTransmissionColorTexture(texture));
    }
    if (i % 6 === 5) {
      const old = specGloss.createPBRSpecularGlossiness().setDiffuseTexture(texture).setGlossinessFactor(0.3);
      material.setExtension(specGloss.extensionName, old.setSpecularFactor([0.2, 0.2, 0.2]));
    }
  });
  const decal = doc.createTexture("decal").setMimeType("image/avif")
    .setImage(new Uint8Array([0, 0, 0, 28, 102, 116, 121, 112, 97, 118, 105, 102, seed & 255]));
  if (materials.length) materials[0].setOcclusionTexture(decal);
  const primitive = root.listMeshes()[0]?.listPrimitives()[0];
  const count = primitive?.getAttribute("POSITION")?.getCount() ?? 0;
  if (primitive && count) {
    const uv = new Int16Array(count * 2).map((_, k) => (k * 977 + seed) % 32767);
    const buffer = root.listBuffers()[0];
    primitive.setAttribute(
      "TEXCOORD_1",
      doc.createAccessor().setType("VEC2").setArray(uv).setNormalized(true).setBuffer(buffer),
    );
  }
  const packet = () =>
    xmp.createPacket().setContext({ dc: "http://purl.org/dc/elements/1.1/" })
      .setProperty("dc:creator", { "@list": [`artist ${seed}`] });
  root.setExtension(xmp.extensionName, packet());
  if (materials.length) materials[0].setExtension(xmp.extensionName, packet());
}

Deno.test("core JSON: the common extensions (material slots, WebP/KTX2 with fallbacks, lights, variants, visibility, XMP) write the same bytes", async () => {
  await loadPngEncoder();
  const before = { scenes: tally.scenes, core: tally.core, gltfCore: tally.gltfCore };
  const scenes: [string, Document][] = [];
  for (let seed = 311; seed <= 314; seed++) {
    scenes.push([`extension images ${seed}`, extensionImagesScene(seed).scene]);
    scenes.push([`fallback names ${seed}`, await fallbackNamesScene(seed)]);
    const random = randomScene(seed);
    withCommonExtensions(random, seed);
    scenes.push([`random scene ${seed} with common extensions`, random]);
  }
  const { scene } = await runNode(demoFighter, {}, { detail: 2 });
  withCommonExtensions(scene, 7);
  scenes.push(["fighter with common extensions", scene]);
  const used = new Set<string>();
  for (const [label, doc] of scenes) {
    for (const extension of doc.getRoot().listExtensionsUsed()) used.add(extension.extensionName);
    await assertSameBytes(doc, label);
    // As decode.gltf's reader gives them back (its extension classes: the WebP and KTX2 fallbacks').
    const read = await readGltf(await writeGlbVia(doc, { generator: GENERATOR }, "gltf-transform"));
    await assertSameBytes(read, `${label}, read back`);
  }
  assert.ok(used.size >= 20, `extensions ${[...used]}`);
  const said = `${tally.core - before.core} GLB and ${tally.gltfCore - before.gltfCore} .gltf of ${
    tally.scenes - before.scenes
  } scenes by core JSON (extensions ${[...used].sort()})`;
  console.log(said);
  assert.equal(tally.core - before.core, tally.scenes - before.scenes, said);
  assert.equal(tally.gltfCore - before.gltfCore, tally.scenes - before.scenes, said);
});

Deno.test("core JSON: a .gltf of a morphed mesh with extras keeps its material variants, as its GLB does", async () => {
  // A shape-keyed car body with a paint variant and one no primitive maps yet (a configurator's list):
  // glTF-Transform's writer adds targetNames to the mesh's extras, and the scene was copied for it,
  // which lost the unmapped variant.
  const doc = morphNamesScene();
  const variants = doc.createExtension(KHRMaterialsVariants);
  variants.createVariant("Matte");
  const [red, chrome] = [doc.createMaterial("red"), doc.createMaterial("chrome")];
  const mesh = doc.getRoot().listMeshes()[0].setExtras({ part: "body" });
  const primitive = mesh.listPrimitives()[0].setMaterial(red);
  primitive.setExtension(
    variants.extensionName,
    variants.createMappingList().addMapping(
      variants.createMapping().setMaterial(chrome).addVariant(variants.createVariant("Chrome")),
    ),
  );
  const options = { generator: GENERATOR };
  const gltf = JSON.parse(new TextDecoder().decode(await writeGltfJson(doc, options)));
  const glb = await readGltf(await writeGlbVia(doc, options, "gltf-transform"));
  const glbVariants = glb.getRoot().listExtensionsUsed()
    .find((e) => e.extensionName === variants.extensionName) as KHRMaterialsVariants | undefined;
  assert.deepEqual(gltf.extensions?.KHR_materials_variants, {
    variants: [{ name: "Matte" }, { name: "Chrome" }],
  });
  assert.deepEqual(gltf.meshes[0].primitives[0].extensions?.KHR_materials_variants, {
    mappings: [{ material: 1, variants: [1] }],
  });
  assert.deepEqual(glbVariants?.listVariants().map((variant) => variant.getName()), ["Matte", "Chrome"]);
});
