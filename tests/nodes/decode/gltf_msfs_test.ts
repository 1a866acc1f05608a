/**
 * Microsoft Flight Simulator models (Asobo's packing) through `decode.gltf`: half-float UVs and
 * colours and byte normals read as the sim reads them, each primitive's part of a shared index list
 * taken from its `ASOBO_primitive` extras, triangles turned to face along their normals, invisible
 * materials left out and UV tiling kept as `KHR_texture_transform` — and the output valid glTF.
 */
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import type { Document, Primitive, Texture } from "@gltf-transform/core";
import { decode as decodePng, encode } from "fast-png";
import type { Clearcoat, Transform } from "@gltf-transform/extensions";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { runNode, testContext } from "../../support/context.ts";
import { floatToHalf, packedBoxGlb, type PackedBoxOptions } from "../../support/msfs_packed.ts";
import { validateGltf } from "../../support/validator.ts";
import { halfToFloat } from "../../../nodes/decode/gltf/codec/msfs_attributes.ts";

async function decode(bytes: Uint8Array) {
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "box.gltf" } }, {}, ctx);
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

const primitiveOf = (scene: Document, material: string): Primitive =>
  scene.getRoot().listMeshes()[0].listPrimitives().find((p) => p.getMaterial()?.getName() === material)!;

/** The vertices a primitive's indices name, sorted. */
const usedVertices = (primitive: Primitive) =>
  [...new Set(primitive.getIndices()!.getArray()!)].sort((a, b) => a - b);

/** Per triangle, the dot of its winding's face normal with its first vertex's normal. */
function windingAgreement(primitive: Primitive): number[] {
  const index = primitive.getIndices()!.getArray()!;
  const p = primitive.getAttribute("POSITION")!.getArray()!;
  const n = primitive.getAttribute("NORMAL")!.getArray()!;
  const dots: number[] = [];
  for (let t = 0; t < index.length; t += 3) {
    const [a, b, c] = [index[t], index[t + 1], index[t + 2]].map((i) => 3 * i);
    const u = [0, 1, 2].map((k) => p[b + k] - p[a + k]), v = [0, 1, 2].map((k) => p[c + k] - p[a + k]);
    const face = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    dots.push(face[0] * n[a] + face[1] * n[a + 1] + face[2] * n[a + 2]);
  }
  return dots;
}

/** Adds `material` to the packed box's JSON and a primitive drawing the box's first face with it. */
function drawnOnFace(json: Parameters<Edit>[0], material: object): void {
  json.materials.push(material);
  json.meshes[0].primitives.push({
    ...json.meshes[0].primitives[0],
    material: json.materials.length - 1,
    extras: { ASOBO_primitive: { StartIndex: 0, PrimitiveCount: 2 } },
  });
}

Deno.test("MSFS: half floats round-trip the values the packing writes", () => {
  for (const value of [0, 0.25, 0.5, 1, -2, 0.125, 1000]) {
    assertEquals(halfToFloat(floatToHalf(value)), value);
  }
  assertEquals(halfToFloat(0x7c00), Infinity);
  assert(Number.isNaN(halfToFloat(0x7e00)));
  assertEquals(halfToFloat(0x0001), 2 ** -24); // the smallest subnormal
});

Deno.test("MSFS: a packed model is read as the sim draws it, with warnings saying what was read how", async () => {
  const input = packedBoxGlb();
  assert((await validateGltf(input)).errors > 0, "the input is outside glTF, as packed models are");
  const { scene, warnings } = await decode(input);
  const mesh = scene.getRoot().listMeshes()[0];
  // The invisible click spot is left out; the two drawn primitives keep their own triangles.
  assertEquals(mesh.listPrimitives().map((p) => p.getMaterial()!.getName()), ["body", "glass"]);
  const body = primitiveOf(scene, "body"), glass = primitiveOf(scene, "glass");
  assertEquals(body.getIndices()!.getCount(), 24);
  assertEquals(glass.getIndices()!.getCount(), 12);
  assertEquals(usedVertices(body), [...Array(16).keys()]);
  assertEquals(usedVertices(glass), [...Array(8).keys()].map((v) => v + 16), "BaseVertexIndex 16 added");
  // Every triangle now faces along its normals (the packing wound them the other way).
  for (const primitive of [body, glass]) {
    const dots = windingAgreement(primitive);
    assert(dots.every((d) => d > 0.99), `winding against normals: ${dots}`);
  }
  // Attributes as floats with the packed values.
  const uv = body.getAttribute("TEXCOORD_0")!;
  assertEquals(uv.getComponentType(), 5126);
  assertEquals([...uv.getArray()!.slice(0, 8)], [0, 0, 0.25, 0, 0.25, 0.5, 0, 0.5]);
  assertEquals([...body.getAttribute("TEXCOORD_1")!.getArray()!.slice(4, 6)], [0.125, 0.25]);
  const normal = body.getAttribute("NORMAL")!;
  assertEquals(normal.getType(), "VEC3");
  assertEquals([...normal.getArray()!.slice(0, 3)], [0, 0, 1]);
  const tangent = [...body.getAttribute("TANGENT")!.getArray()!.slice(0, 4)];
  assertEquals(tangent, [1, 0, 0, -1]);
  const colour = [...body.getAttribute("COLOR_0")!.getArray()!.slice(4 * 8, 4 * 8 + 4)];
  assertEquals(colour, [0.25, 0.5, 1, 1], "vertex 8 is on face 2: red 2/8");
  // The body's tiling is a texture transform.
  const transform = body.getMaterial()!.getBaseColorTextureInfo()!
    .getExtension<Transform>("KHR_texture_transform")!;
  assertEquals(transform.getScale(), [4, 2]);
  assertEquals(transform.getOffset(), [0, 0]);
  const said = (pattern: RegExp) =>
    assert(warnings.some((w) => pattern.test(w)), `${pattern}\n${warnings.join("\n")}`);
  said(/^box\.gltf: 3 primitives share an index list \(MSFS packing, extras ASOBO_primitive\)/);
  said(
    /^box\.gltf: 2 accessors of normals or tangents in signed bytes \(MSFS packing\)/,
  );
  said(/^box\.gltf: 3 accessors of texture coordinates or colours in 16-bit half floats filed as integers/);
  said(
    /the triangles of \/meshes\/0\/primitives\/0, \/meshes\/0\/primitives\/1, \/meshes\/0\/primitives\/2 were wound/,
  );
  said(
    /'click_spot' \(ASOBO_material_invisible\) never drawn in Flight Simulator: 1 primitive using it left out/,
  );
  said(/ASOBO_material_UV_options of 'body' kept as KHR_texture_transform/);
  assertEquals(warnings.length, 6, "one note per kind, not per primitive:\n" + warnings.join("\n"));
  assert(!warnings.some((w) => /which partgraph does not read/.test(w)), warnings.join("\n"));
  // The output is valid glTF.
  const out = (await runNode(exportGltf, { scene })).bytes.bytes;
  const report = await validateGltf(out);
  assertEquals(report.errors, 0, JSON.stringify(report.messages?.slice(0, 5)));
});

Deno.test("MSFS: a packed model already wound as glTF winds is not turned", async () => {
  const { scene, warnings } = await decode(packedBoxGlb({ glTFWinding: true }));
  assert(!warnings.some((w) => /turned round/.test(w)), warnings.join("\n"));
  for (const material of ["body", "glass"]) {
    assert(windingAgreement(primitiveOf(scene, material)).every((d) => d > 0.99));
  }
});

Deno.test("MSFS: the same formats in a file that does not say it is packed are refused as glTF's", async () => {
  await rejects(decode(packedBoxGlb({ unmarked: true })), (error: unknown) => {
    assert(error instanceof DecodeError);
    assert(/\/meshes\/0\/primitives\/0\/attributes\/NORMAL/.test(error.message), error.message);
    return true;
  });
});

Deno.test("MSFS: a primitive range past its index list is refused at its extras", async () => {
  const bytes = packedBoxGlb({
    edit: (json) => json.meshes[0].primitives[1].extras.ASOBO_primitive.PrimitiveCount = 9,
  });
  await rejects(decode(bytes), (error: unknown) => {
    assert(error instanceof DecodeError);
    assert(/\/meshes\/0\/primitives\/1\/extras\/ASOBO_primitive/.test(error.message), error.message);
    assert(/indices 24 to 51/.test(error.message), error.message);
    return true;
  });
  const negative = packedBoxGlb({
    edit: (json) => json.meshes[0].primitives[1].extras.ASOBO_primitive.StartIndex = -3,
  });
  await rejects(decode(negative), /ASOBO_primitive\/StartIndex/);
});

Deno.test("MSFS: a base vertex index past the pool is refused as any index past its vertices", async () => {
  const bytes = packedBoxGlb({
    edit: (json) => json.meshes[0].primitives[1].extras.ASOBO_primitive.BaseVertexIndex = 20,
  });
  await rejects(decode(bytes), /\/meshes\/0\/primitives\/1\/indices/);
});

Deno.test("MSFS: decals are blended by texture alpha and their blend factor; a colourless one is left out", async () => {
  const bytes = packedBoxGlb({
    edit: (json) => {
      json.extensionsUsed.push("ASOBO_material_blend_gbuffer", "ASOBO_material_geometry_decal");
      const decal = (name: string, extension: string, settings: object, alphaMode?: string) =>
        drawnOnFace(json, {
          name,
          ...(alphaMode ? { alphaMode } : {}),
          pbrMetallicRoughness: { baseColorTexture: { index: 0 }, baseColorFactor: [1, 1, 1, 0.8] },
          extensions: { [extension]: settings },
        });
      decal("lettering", "ASOBO_material_blend_gbuffer", { enabled: true });
      decal("grime", "ASOBO_material_geometry_decal", { baseColorBlendFactor: 0.25 }, "BLEND");
      decal("rivet_normals", "ASOBO_material_geometry_decal", { baseColorBlendFactor: 0 });
    },
  });
  const { scene, warnings } = await decode(bytes);
  const materials = new Map(
    scene.getRoot().listMeshes()[0].listPrimitives().map((p) => {
      const material = p.getMaterial()!;
      return [material.getName(), { mode: material.getAlphaMode(), alpha: material.getBaseColorFactor()[3] }];
    }),
  );
  assertEquals(materials.get("lettering"), { mode: "BLEND", alpha: 0.8 });
  assertEquals(materials.get("grime"), { mode: "BLEND", alpha: 0.2 });
  assertEquals(materials.has("rivet_normals"), false);
  assert(
    warnings.some((w) => /decal materials 'lettering', 'grime' blended by texture alpha/.test(w)),
    warnings.join("\n"),
  );
  assert(
    warnings.some((w) =>
      /'rivet_normals' \(ASOBO_material_geometry_decal, blending no colour\)/.test(w) &&
      /2 primitives using them left out/.test(w)
    ),
    warnings.join("\n"),
  );
});

Deno.test("MSFS: fields of the wrong type are read past or refused as glTF's, never broken on", async () => {
  // The packing is looked for before the structure check, where any field may be of any type.
  const edits = [
    (json: Record<string, unknown>) => json.extensionsUsed = { ASOBO_material_invisible: true },
    (json: Record<string, unknown>) => json.meshes = [null, { primitives: [null, { extras: 7 }] }],
  ];
  for (const edit of edits) await rejects(decode(packedBoxGlb({ edit })), DecodeError);
  // Null materials are read as empty ones (as tinygltf writes unset items); odd extensions are no look.
  const { scene } = await decode(packedBoxGlb({
    edit: (json) =>
      json.materials = [null, { extensions: 3 }, { extensions: { ASOBO_material_UV_options: null } }],
  }));
  assertEquals(scene.getRoot().listMeshes()[0].listPrimitives().length, 3);
});

type Edit = NonNullable<PackedBoxOptions["edit"]>;

/** A PNG data URI of `width`×1 pixels of `channels` channels, bytes `pixels` in order. */
function pngUri(pixels: number[], channels: 3 | 4): string {
  const png = encode({ width: pixels.length / channels, height: 1, data: new Uint8Array(pixels), channels });
  return `data:image/png;base64,${png.toBase64()}`;
}

/** The pixels of the PNG a texture holds, as fast-png reads them. */
const pixelsOf = (texture: Texture) => [...decodePng(texture.getImage()!).data];

Deno.test("MSFS: DirectX normal maps have their green inverted; a texture also used as colour is copied", async () => {
  const normal = [10, 200, 250, 128, 0, 255];
  const edit = (convention?: string): Edit => (json) => {
    if (convention) {
      json.asset.extensions = { ASOBO_normal_map_convention: { tangent_space_convention: convention } };
    } else delete json.extensions;
    json.images.push({ uri: pngUri(normal, 3) }, { uri: "data:image/jpeg;base64,/9j/4AAQ" });
    json.textures.push({ source: 1 }, { source: 2 });
    json.materials[0].normalTexture = { index: 1, scale: 0.5 };
    // The glass tints with the same image (as no model would, but a file may): it keeps its colours.
    json.materials[1].pbrMetallicRoughness.baseColorTexture = { index: 1 };
    json.materials[2].normalTexture = { index: 2 };
  };
  const { scene, warnings } = await decode(packedBoxGlb({ edit: edit("DirectX") }));
  const body = primitiveOf(scene, "body").getMaterial()!, glass = primitiveOf(scene, "glass").getMaterial()!;
  assertEquals(pixelsOf(body.getNormalTexture()!), [10, 55, 250, 255, 128, 255, 255, 255]);
  assertEquals(body.getNormalScale(), 0.5, "the slot's settings stay");
  assertEquals(pixelsOf(glass.getBaseColorTexture()!), normal, "the colour use keeps the original");
  assert(body.getNormalTexture() !== glass.getBaseColorTexture());
  const said = (pattern: RegExp) =>
    assert(warnings.some((w) => pattern.test(w)), `${pattern}\n${warnings.join("\n")}`);
  said(/normal map #1 in DirectX's convention \(ASOBO_normal_map_convention\): green inverted to glTF's/);
  said(/normal map #2 in DirectX's convention .* left as they are \(not a PNG partgraph can turn/);
  // Said otherwise, or not said, the maps are glTF's already.
  for (const convention of ["OpenGL", undefined]) {
    const plain = await decode(packedBoxGlb({ edit: edit(convention) }));
    const map = primitiveOf(plain.scene, "body").getMaterial()!.getNormalTexture()!;
    assertEquals(pixelsOf(map), normal);
    assert(!plain.warnings.some((w) => /green inverted/.test(w)), plain.warnings.join("\n"));
  }
});

Deno.test("MSFS: glass and windshields left OPAQUE are blended by their alpha; solid ones stay", async () => {
  const bytes = packedBoxGlb({
    edit: (json) => {
      json.extensionsUsed.push("ASOBO_material_glass_v2", "ASOBO_material_windshield_v3");
      const pane = (name: string, extension: string, alpha: number, alphaMode?: string) =>
        drawnOnFace(json, {
          name,
          ...(alphaMode ? { alphaMode } : {}),
          pbrMetallicRoughness: { baseColorFactor: [1, 1, 1, alpha], roughnessFactor: 0 },
          extensions: { [extension]: { glassWidth: 0.004 } },
        });
      pane("canopy", "ASOBO_material_windshield_v3", 0.01);
      pane("gauge_glass", "ASOBO_material_glass_v2", 0.2, "MASK");
      pane("frosted", "ASOBO_material_glass_v2", 1);
    },
  });
  const { scene, warnings } = await decode(bytes);
  const modes = new Map(
    scene.getRoot().listMaterials().map((m) => [m.getName(), m.getAlphaMode()]),
  );
  assertEquals(modes.get("canopy"), "BLEND");
  assertEquals(modes.get("gauge_glass"), "MASK", "a cutout keeps its own test");
  assertEquals(modes.get("frosted"), "OPAQUE", "nothing makes it see-through");
  assert(
    warnings.some((w) => /glass material 'canopy' marked OPAQUE blended by base colour alpha/.test(w)),
    warnings.join("\n"),
  );
  assert(!warnings.some((w) => /which partgraph does not read/.test(w)), warnings.join("\n"));
});

Deno.test("MSFS: a clear coat's dirt texture becomes KHR_materials_clearcoat (red the coat, green its roughness)", async () => {
  const dirt = [255, 64, 0, 128, 32, 0];
  const bytes = packedBoxGlb({
    edit: (json) => {
      json.extensionsUsed.push("ASOBO_material_clear_coat");
      json.images.push({ uri: pngUri(dirt, 3) });
      json.samplers = [{ wrapS: 33648, wrapT: 33071, magFilter: 12345 }];
      json.textures.push({ source: json.images.length - 1, sampler: 0 });
      const coat = (name: string, extension: object, uv?: object) =>
        drawnOnFace(json, {
          name,
          pbrMetallicRoughness: { baseColorFactor: [0.8, 0.1, 0.1, 1] },
          extensions: {
            ASOBO_material_clear_coat: extension,
            ...(uv ? { ASOBO_material_UV_options: uv } : {}),
          },
        });
      coat("paint", { dirtTexture: { index: json.textures.length - 1, texCoord: 1 } }, { UVTilingU: 3 });
      coat("bare_coat", {});
      // A texture without an image (valid glTF: its image may come from an extension partgraph lacks).
      json.textures.push({ sampler: 0 });
      coat("lost_coat", { dirtTexture: { index: json.textures.length - 1 } });
    },
  });
  const { scene, warnings } = await decode(bytes);
  const material = (name: string) => scene.getRoot().listMaterials().find((m) => m.getName() === name)!;
  const clearcoat = material("paint").getExtension<Clearcoat>("KHR_materials_clearcoat")!;
  assert(clearcoat, "the paint has a clear coat");
  assertEquals([clearcoat.getClearcoatFactor(), clearcoat.getClearcoatRoughnessFactor()], [1, 1]);
  assertEquals(pixelsOf(clearcoat.getClearcoatTexture()!), dirt);
  assert(
    clearcoat.getClearcoatRoughnessTexture() === clearcoat.getClearcoatTexture(),
    "one texture, two channels",
  );
  for (const info of [clearcoat.getClearcoatTextureInfo()!, clearcoat.getClearcoatRoughnessTextureInfo()!]) {
    // The UV set and sampler the dirt texture had (an undefined filter left at its default), and the
    // material's UV tiling, which applies to every texture of it.
    assertEquals([info.getTexCoord(), info.getWrapS(), info.getWrapT(), info.getMagFilter()], [
      1,
      33648,
      33071,
      null,
    ]);
    assertEquals(info.getExtension<Transform>("KHR_texture_transform")?.getScale(), [3, 1]);
  }
  for (const name of ["bare_coat", "lost_coat"]) {
    assertEquals(material(name).getExtension("KHR_materials_clearcoat"), null, `${name}: no coat`);
  }
  const said = (pattern: RegExp) =>
    assert(warnings.some((w) => pattern.test(w)), `${pattern}\n${warnings.join("\n")}`);
  said(/ASOBO_material_clear_coat of 'paint' kept as KHR_materials_clearcoat/);
  said(/ASOBO_material_clear_coat of 'bare_coat', 'lost_coat' names no dirtTexture with an image/);
  assert(!warnings.some((w) => /which partgraph does not read/.test(w)), warnings.join("\n"));
  const glb = (await runNode(exportGltf, { scene }, {})).bytes.bytes;
  assertEquals((await validateGltf(glb)).messages, []);
});
