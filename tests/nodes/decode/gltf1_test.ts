/**
 * glTF 1.0 (JSON, or binary: GLB version 1 with `KHR_binary_glTF`) is upgraded to 2.0 as it is read.
 * Each fixture is a 2.0 model written as 1.0 by code (`tests/support/gltf1.ts`), so the 1.0 file must
 * decode and rig to what the 2.0 one does; the decoded output passes the Khronos validator, and a bad
 * 1.0 file is a typed error at its 1.0 JSON path.
 */
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { runGraph } from "../../../mod.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../../support/context.ts";
import { gltf1Of, type Gltf1Options } from "../../support/gltf1.ts";
import { messyGlb } from "../../support/messy_gltf.ts";
import { tempDir } from "../../support/temp.ts";
import { validateGltf } from "../../support/validator.ts";

const graph = new URL("../../../graphs/aircraft_file.json", import.meta.url).pathname;
/** Control surfaces the 1.0 fixture writes as two meshes on their node. */
const SURFACES = /Aileron|flap|rud|Stabilator|Canard/i;

async function fighter(): Promise<Document> {
  return (await runNode(demoFighter, {}, {})).scene;
}

/** Decodes `bytes`; the scene, the warnings, and the scene exported as GLB. */
async function decode(bytes: Uint8Array, name: string) {
  const ctx = testContext();
  const scene: Document = (await runNode(decodeGltf, { bytes: { bytes, name } }, {}, ctx)).scene;
  const glb = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
  return { scene, warnings: ctx.warnings.map((w) => w.message), glb };
}

/** The rig report's parts (panel, kind, side, hinge origin and axis) of `aircraft_file.json` run on the file, and its output GLB. */
async function rig(bytes: Uint8Array, name: string) {
  const dir = await tempDir();
  try {
    await Deno.writeFile(`${dir}/${name}`, bytes);
    const run = await runGraph(graph, {
      outDir: dir,
      cacheDir: false,
      inputs: { model: `${dir}/${name}`, out: "rigged.glb" },
    });
    type Part = {
      panel: string | null;
      kind: string;
      side: string;
      hinge?: { world: { origin: number[]; axis: number[] } };
    };
    const parts = (run.outputs.report as { parts: Part[] }).parts;
    return { parts, glb: await Deno.readFile(`${dir}/rigged.glb`) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Asserts two rigs found the same surfaces, on the same hinges (within 1 µm and 1e-6 of the axis). Not
 * to the bit: a surface the 1.0 file writes as two meshes is fitted to what each draws, so the
 * vertices of the seam between them count twice where the 2.0 file's one mesh counts them once (the
 * hinge moved 0.25 µm when the fit began to leave out what a mesh does not draw, rig.fit_hinge v91).
 */
function assertSameRig(a: Awaited<ReturnType<typeof rig>>["parts"], b: typeof a): void {
  assertEquals(
    a.map((p) => `${p.panel}/${p.kind}/${p.side}`),
    b.map((p) => `${p.panel}/${p.kind}/${p.side}`),
  );
  a.forEach((part, i) => {
    const [x, y] = [part.hinge?.world, b[i].hinge?.world];
    assertEquals(x === undefined, y === undefined, `${part.panel}: hinge in both or neither`);
    if (!x || !y) return;
    for (const key of ["origin", "axis"] as const) {
      x[key].forEach((v, k) =>
        assert(Math.abs(v - y[key][k]) < 1e-6, `${part.panel} ${key}: ${x[key]} vs ${y[key]}`)
      );
    }
  });
}

Deno.test("glTF 1.0: the demo fighter, several meshes per surface node and one shared vertex view, rigs as its 2.0 file does", async () => {
  const doc = await fighter();
  const options: Gltf1Options = { splitMeshes: (name) => SURFACES.test(name), sharedVertexView: true };
  const v1 = await gltf1Of(doc, options);
  const v2 = (await runNode(exportGltf, { scene: doc }, {})).bytes.bytes;
  const { scene, warnings, glb } = await decode(v1, "fighter.gltf");
  // Every surface node keeps its first mesh and holds its second on a child named after that mesh.
  const aileron = scene.getRoot().listNodes().find((n) => n.getName() === "Flight_Aileron_R")!;
  assertEquals(aileron.listChildren().map((c) => [c.getName(), c.getMesh() !== null]), [[
    "Flight_Aileron_R_part2",
    true,
  ]]);
  // Nodes sharing a split mesh are split too: each split node gains exactly one child.
  const split = scene.getRoot().listNodes().filter((n) =>
    n.listChildren().some((c) => /_part2$/.test(c.getName()))
  );
  assert(split.length >= 15, `${split.length} surfaces split`);
  assertEquals(scene.getRoot().listNodes().length, doc.getRoot().listNodes().length + split.length);
  assert(
    warnings.some((w) => /at \/asset\/version: glTF 1\.0, upgraded to 2\.0/.test(w)),
    warnings.join("\n"),
  );
  assert(warnings.some((w) => /at \/techniques: 1 GLSL technique/.test(w)), warnings.join("\n"));
  assertEquals((await validateGltf(glb)).messages, []);
  const [one, two] = [await rig(v1, "fighter.gltf"), await rig(v2, "fighter.glb")];
  assertEquals(one.parts.length, 23);
  assertSameRig(one.parts, two.parts);
  assertEquals((await validateGltf(one.glb)).messages, []);
});

Deno.test("glTF 1.0: a binary glTF 1.0 (GLB version 1) decodes as its JSON form does", async () => {
  const doc = await fighter();
  const options: Gltf1Options = { splitMeshes: (name) => SURFACES.test(name) };
  const json = await decode(await gltf1Of(doc, options), "fighter.gltf");
  const binary = await decode(await gltf1Of(doc, { ...options, binary: true }), "fighter.glb");
  assertEquals(binary.scene.getRoot().listBuffers().map((b) => b.getName()), ["binary_glTF"]);
  assertEquals(json.scene.getRoot().listBuffers().map((b) => b.getName()), ["buffer_0"]);
  // But for the name of their one buffer, the same scene.
  for (const { scene } of [json, binary]) scene.getRoot().listBuffers()[0].setName("");
  const [a, b] = await Promise.all(
    [json, binary].map(async ({ scene }) => (await runNode(exportGltf, { scene }, {})).bytes.bytes),
  );
  assertEquals(b, a);
  assertEquals((await validateGltf(b)).messages, []);
});

Deno.test("glTF 1.0: a skinned, animated, textured model, its bind shape matrix folded into the inverse bind matrices", async () => {
  const doc = await readGltf(await messyGlb(() => {}));
  for (const binary of [false, true]) {
    const v1 = await gltf1Of(doc, { bindShapeTranslation: [0.5, -2, 3], binary });
    const { scene, glb } = await decode(v1, binary ? "skinned.glb" : "skinned.gltf");
    const [skin] = scene.getRoot().listSkins();
    assertEquals(skin.listJoints().map((j) => j.getName()), ["root_bone", "Aileron_L"]);
    // IBM · T⁻¹ written, T as the bind shape: folded, the original matrices again.
    const expected = [...doc.getRoot().listSkins()[0].getInverseBindMatrices()!.getArray()!];
    const found = [...skin.getInverseBindMatrices()!.getArray()!];
    assertEquals(found.length, 32);
    found.forEach((v, i) =>
      assert(Math.abs(v - expected[i]) < 1e-6, `matrix value ${i}: ${v} vs ${expected[i]}`)
    );
    const wing = scene.getRoot().listNodes().find((n) => n.getName() === "Wing")!;
    const primitive = wing.getMesh()!.listPrimitives()[0];
    assertEquals(primitive.listSemantics().sort(), [
      "JOINTS_0",
      "NORMAL",
      "POSITION",
      "TANGENT",
      "TEXCOORD_0",
      "WEIGHTS_0",
    ]);
    assert(primitive.getMaterial()!.getBaseColorTexture(), "the diffuse texture is the base colour texture");
    const [animation] = scene.getRoot().listAnimations();
    const [channel] = animation.listChannels();
    assertEquals([channel.getTargetNode()!.getName(), channel.getTargetPath()], ["Aileron_L", "rotation"]);
    assertEquals([...channel.getSampler()!.getInput()!.getArray()!], [0, 1, 2]);
    assertEquals(
      [...channel.getSampler()!.getOutput()!.getArray()!].map((v) => Math.round(v * 1e6) / 1e6),
      [0, 0, 0, 1, 0, 0, 0.382683, 0.92388, 0, 0, 0, 1],
    );
    assertEquals((await validateGltf(glb)).messages, []);
  }
  const v2 = await messyGlb(() => {});
  assertSameRig(
    (await rig(await gltf1Of(doc, { bindShapeTranslation: [0.5, -2, 3] }), "s.gltf")).parts,
    (await rig(v2, "s.glb")).parts,
  );
});

Deno.test("glTF 1.0: KHR_materials_common materials become metal-rough (unlit for CONSTANT), without an asset", async () => {
  const doc = await fighter();
  const blinn = await decode(await gltf1Of(doc, { common: "BLINN", noAsset: true }), "common.gltf");
  const original = doc.getRoot().listMaterials();
  const materials = blinn.scene.getRoot().listMaterials();
  assertEquals(materials.map((m) => m.getName()), original.map((m) => m.getName()));
  materials.forEach((material, i) => {
    const want = original[i].getBaseColorFactor();
    material.getBaseColorFactor().forEach((v, k) =>
      assert(Math.abs(v - want[k]) < 1e-6, `${material.getName()} colour`)
    );
    // Shininess 50: (2 / 52)^¼.
    assert(Math.abs(material.getRoughnessFactor() - Math.pow(2 / 52, 0.25)) < 1e-6);
    assertEquals(material.getMetallicFactor(), 0);
    assertEquals(material.getExtension("KHR_materials_unlit"), null);
  });
  assertEquals((await validateGltf(blinn.glb)).messages, []);
  const constant = await decode(
    await gltf1Of(doc, {
      common: "CONSTANT",
      edit: (json) => json.materials.material_0.extensions.KHR_materials_common.values.transparency = 0.5,
    }),
    "constant.gltf",
  );
  const unlit = constant.scene.getRoot().listMaterials();
  assert(unlit.every((m) => m.getExtension("KHR_materials_unlit") !== null));
  assertEquals(unlit[0].getAlphaMode(), "BLEND");
  assert(Math.abs(unlit[0].getBaseColorFactor()[3] - 0.5 * original[0].getBaseColorFactor()[3]) < 1e-6);
  assertEquals(unlit[1].getAlphaMode(), "OPAQUE");
  assertEquals((await validateGltf(constant.glb)).messages, []);
  const v2 = (await runNode(exportGltf, { scene: doc }, {})).bytes.bytes;
  assertSameRig(
    (await rig(await gltf1Of(doc, { common: "PHONG" }), "c.gltf")).parts,
    (await rig(v2, "c.glb")).parts,
  );
});

Deno.test("glTF 1.0: a custom GLSL effect is a warning at the material's technique, drawn plain grey", async () => {
  const doc = await readGltf(await messyGlb(() => {}));
  const bytes = await gltf1Of(doc, {
    edit: (json) => {
      json.techniques.technique_blinn.parameters = { u_time: { type: 5126 }, u_noise: { type: 35678 } };
      for (const material of Object.values(json.materials) as { values: unknown }[]) {
        material.values = { u_time: 0 };
      }
    },
  });
  const { scene, warnings, glb } = await decode(bytes, "effect.gltf");
  assert(
    warnings.some((w) =>
      /at \/materials\/material_0\/technique: technique 'technique_blinn' draws with its own GLSL/.test(w)
    ),
    warnings.join("\n"),
  );
  const material = scene.getRoot().listMaterials()[0];
  assertEquals([material.getBaseColorFactor(), material.getBaseColorTexture()], [[0.8, 0.8, 0.8, 1], null]);
  assertEquals((await validateGltf(glb)).messages, []);
});

/** Asserts decoding `bytes` fails at `at` with `found`. */
async function assertRefused(bytes: Uint8Array, at: object, found: string): Promise<void> {
  await rejects(runNode(decodeGltf, { bytes: { bytes, name: "bad.gltf" } }), (error) => {
    assert(error instanceof DecodeError, String(error));
    assertEquals([error.at, error.found], [at, found]);
    return true;
  });
}

Deno.test("glTF 1.0: bad input is a typed error at its 1.0 JSON path or byte offset", async () => {
  const doc = await readGltf(await messyGlb(() => {}));
  // An id naming nothing.
  await assertRefused(
    await gltf1Of(doc, { edit: (json) => json.nodes.node_1.children = ["node_missing"] }),
    { jsonPath: "/nodes/node_1/children/0" },
    '"node_missing"',
  );
  // A joint name no node has.
  await assertRefused(
    await gltf1Of(doc, { edit: (json) => json.skins.skin_0.jointNames[1] = "nobody" }),
    { jsonPath: "/skins/skin_0/jointNames/1" },
    '"nobody"',
  );
  // What the 2.0 check finds is named at the 1.0 item's path: an accessor counting past its view.
  await assertRefused(
    await gltf1Of(doc, { edit: (json) => json.accessors.accessor_0.count = 1e6 }),
    { jsonPath: "/accessors/accessor_0/count" },
    "1000000",
  );
  // Quantized positions, which read without their decode matrix would be wrong (Cesium's 1.0 samples).
  await assertRefused(
    await gltf1Of(doc, { edit: (json) => json.extensionsUsed.push("WEB3D_quantized_attributes") }),
    { jsonPath: "/extensionsUsed/0" },
    '"WEB3D_quantized_attributes"',
  );
  // A dictionary that is not one.
  await assertRefused(
    await gltf1Of(doc, { edit: (json) => json.meshes = [1] }),
    { jsonPath: "/meshes" },
    "an array of 1",
  );
  // The binary container's content length past the file.
  const glb = await gltf1Of(doc, { binary: true });
  new DataView(glb.buffer).setUint32(12, glb.byteLength, true);
  await assertRefused(glb, { offset: 12 }, String(glb.byteLength));
});
