/**
 * `export.gltf` writes no name longer than Blender's 63 bytes of UTF-8: a longer one is cut at a
 * character boundary, and names alike in those bytes are made unique within them, the original kept as
 * `extras.name`. `KHR_lights_punctual` lights of one name are written unique too.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { KHRLightsPunctual } from "@gltf-transform/extensions";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { fitBytes } from "../../../runtime/scene/unique_names.ts";
import { runNode } from "../../support/context.ts";
import {
  CYRILLIC,
  JAPANESE,
  keyedSkinScene,
  LONG_OBJECT,
  longNamesScene,
  MORPH_NAMES,
  morphNamesScene,
  rootSkinScene,
} from "./long_names.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

function glbJson(glb: Uint8Array): Json {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

const bytes = (name: string) => new TextEncoder().encode(name).length;

/** Every named list of a written file, lights included. */
function lists(json: Json): [string, Json[]][] {
  return [
    ...["nodes", "scenes", "meshes", "materials"].map((k): [string, Json[]] => [k, json[k] ?? []]),
    ["lights", json.extensions?.KHR_lights_punctual?.lights ?? []],
  ];
}

Deno.test("cutting to 63 bytes never splits a character", () => {
  assertEquals(fitBytes("Ж".repeat(40), 63), "Ж".repeat(31)); // 62 bytes: the 32nd would need 64
  assertEquals(fitBytes("A".repeat(62) + "Жx", 63), "A".repeat(62));
  assertEquals(fitBytes("翼".repeat(30), 63), "翼".repeat(21));
  assertEquals(fitBytes("a" + "😀".repeat(20), 63), "a" + "😀".repeat(15)); // no lone surrogate
  assertEquals(fitBytes("short", 63), "short");
});

Deno.test("long names are written within 63 bytes, unique per kind, the original as extras.name; lights too", async () => {
  const doc = longNamesScene(2);
  const glb = (await runNode(exportGltf, { scene: doc })).bytes.bytes;
  const json = glbJson(glb);
  const originals = new Map<string, string[]>();
  for (const [kind, list] of lists(json)) {
    const names = list.map((p) => p.name as string);
    assert(names.every((n) => bytes(n) <= 63), `${kind}: ${names.filter((n) => bytes(n) > 63)}`);
    assertEquals(new Set(names).size, names.length, `${kind} unique: ${names}`);
    // A name changed keeps its original; one written as it was has no extras.name.
    for (const p of list) {
      if (p.extras?.name !== undefined) {
        assert(p.extras.name !== p.name && p.extras.name.startsWith(p.name.replace(/_\d+$/, "")));
      }
    }
    originals.set(kind, list.map((p) => p.extras?.name ?? p.name));
  }
  // Nothing is lost: the originals are the scene's names.
  assertEquals(originals.get("materials"), doc.getRoot().listMaterials().map((m) => m.getName()));
  assertEquals(originals.get("nodes"), doc.getRoot().listNodes().map((n) => n.getName()));
  // The first long name is cut at a character boundary; its twin of the other kit is made unique within 63 bytes.
  const materials = json.materials.map((m: Json) => m.name);
  assertEquals(materials[0], fitBytes(`${CYRILLIC}_0`, 63));
  assertEquals(materials[2], fitBytes(`${CYRILLIC}_1`, 61) + "_1");
  assertEquals(materials[1], fitBytes(`${JAPANESE}_0`, 63));
  assert(!materials.some((n: string) => n.includes("\uFFFD")));
  assertEquals(json.meshes[0].name, LONG_OBJECT.slice(0, 63));
  const lights = json.extensions.KHR_lights_punctual.lights.map((l: Json) => [l.name, l.extras?.name]);
  assertEquals(lights, [
    ["Sun", undefined],
    [LONG_OBJECT.slice(0, 63), `${LONG_OBJECT}_Landing_Light_0`],
    ["Sun_1", "Sun"],
    [LONG_OBJECT.slice(0, 61) + "_1", `${LONG_OBJECT}_Landing_Light_1`],
  ]);
  // The rule is stable on its own output, and decode.gltf's reading keeps every written name.
  const again = glbJson((await runNode(exportGltf, { scene: await readGltf(glb) })).bytes.bytes);
  assertEquals(again, json);
});

Deno.test("morph target names are written within 63 bytes and unique per mesh", async () => {
  const glb = (await runNode(exportGltf, { scene: morphNamesScene() })).bytes.bytes;
  const names = glbJson(glb).meshes[0].extras.targetNames;
  assertEquals(names, [
    MORPH_NAMES[0].slice(0, 63),
    MORPH_NAMES[1].slice(0, 61) + "_1",
    "Blink",
    "Blink_1",
  ]);
  const again = glbJson((await runNode(exportGltf, { scene: await readGltf(glb) })).bytes.bytes);
  assertEquals(again.meshes[0].extras.targetNames, names, "stable on its own output");
  const gltf = (await runNode(exportGltf, { scene: morphNamesScene() }, { format: "gltf" })).bytes.bytes;
  assertEquals(JSON.parse(new TextDecoder().decode(gltf)).meshes[0].extras.targetNames, names);
});

Deno.test("a skin whose root bone is at the scene root is named apart from the nodes; one under its armature node is not", async () => {
  const glb = (await runNode(exportGltf, { scene: rootSkinScene() })).bytes.bytes;
  const json = glbJson(glb);
  assertEquals(json.skins.map((s: Json) => [s.name, s.extras?.name]), [["Figure_1", "Figure"], [
    "Armature",
    undefined,
  ]]);
  assert(json.nodes.some((n: Json) => n.name === "Figure" && n.skin === 0), "the mesh node keeps its name");
  const again = glbJson((await runNode(exportGltf, { scene: await readGltf(glb) })).bytes.bytes);
  assertEquals(again, json, "stable on its own output");
});

Deno.test("morph target names cut or made unique keep their originals in extras.partgraph.target_names", async () => {
  const json = glbJson((await runNode(exportGltf, { scene: morphNamesScene() })).bytes.bytes);
  assertEquals(json.meshes[0].extras.partgraph.target_names, MORPH_NAMES);
  // Names that need no change carry no such list.
  const plain = morphNamesScene();
  plain.getRoot().listMeshes()[0].listPrimitives()[0].listTargets().forEach((t, i) => t.setName(`key${i}`));
  const plainJson = glbJson((await runNode(exportGltf, { scene: plain })).bytes.bytes);
  assertEquals(plainJson.meshes[0].extras, { targetNames: ["key0", "key1", "key2", "key3"] });
});

Deno.test("a mesh Blender puts on an object of its own (skinned on a keyed node, on a joint) is named apart from the nodes", async () => {
  const json = glbJson((await runNode(exportGltf, { scene: keyedSkinScene() })).bytes.bytes);
  const byName = (list: Json[]) => list.map((p) => p.name);
  assertEquals(byName(json.nodes).sort(), ["Body", "hip", "knee", "limb", "limb_skeleton"]);
  assertEquals(byName(json.meshes), ["limb_1", "knee_1", "Body"]);
  assertEquals(json.meshes.map((m: Json) => m.extras?.name), ["limb", "knee", undefined]);
  // Its armature is the node limb_skeleton, not a new object: the skin is written under that name, as
  // Blender's exporter names it (v32; before, `limb` came back `limb_skeleton` from a round trip).
  assertEquals(byName(json.skins), ["limb_skeleton"]);
});

Deno.test("a NUL in a name is written `_`, and names alike once written so are made unique", async () => {
  const doc = morphNamesScene();
  const face = doc.getRoot().listNodes()[0];
  face.setName("Gear\0Door");
  doc.getRoot().listScenes()[0].addChild(doc.createNode("Gear_Door")).addChild(doc.createNode("Gear\0Hatch"));
  const json = glbJson((await runNode(exportGltf, { scene: doc })).bytes.bytes);
  const names = json.nodes.map((n: Json) => n.name);
  assert(names.every((name: string) => !name.includes("\0")), `${names}`);
  assertEquals(new Set(names).size, 3);
  assertEquals(names.filter((name: string) => name.startsWith("Gear_Door")).length, 2);
  const renamed = json.nodes.filter((n: Json) => n.extras?.name);
  // The first holder of `Gear_Door` once written keeps it; the later literal one is renamed.
  assertEquals(renamed.map((n: Json) => n.extras.name).sort(), ["Gear\0Door", "Gear\0Hatch", "Gear_Door"]);
});

Deno.test("a camera or light beside a mesh is named apart from the nodes, and an unnamed node after its mesh", async () => {
  const doc = morphNamesScene();
  const root = doc.getRoot();
  const face = root.listNodes()[0];
  face.setCamera(doc.createCamera("Face").setType("perspective").setYFov(1).setZNear(0.1));
  // A camera on a node of its own keeps its name, even one a node has.
  root.listScenes()[0].addChild(
    doc.createNode("Eye").setCamera(doc.createCamera("Eye").setType("perspective").setYFov(1).setZNear(0.1)),
  );
  const lights = doc.createExtension(KHRLightsPunctual);
  face.setExtension("KHR_lights_punctual", lights.createLight("Face").setType("point"));
  // An unnamed node drawing a mesh named like a node: Blender would name its object after the mesh
  // (renaming it `Eye.001`); the node is written named after its mesh, yielding to the node `Eye`.
  const eyeMesh = doc.createMesh("Eye").addPrimitive(root.listMeshes()[0].listPrimitives()[0].clone());
  root.listScenes()[0].addChild(doc.createNode("").setMesh(eyeMesh));
  const json = glbJson((await runNode(exportGltf, { scene: doc })).bytes.bytes);
  assertEquals(json.cameras.map((c: Json) => c.name), ["Face_1", "Eye"]);
  assertEquals(json.extensions.KHR_lights_punctual.lights.map((l: Json) => l.name), ["Face_1"]);
  assertEquals(json.meshes.map((m: Json) => m.name), ["Face", "Eye"]);
  assertEquals(json.nodes.at(-1).name, "Eye_1");
  assertEquals(json.nodes.at(-1).extras, undefined, "no original name to keep");
});
