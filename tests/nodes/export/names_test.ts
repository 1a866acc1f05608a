/**
 * `export.gltf` writes repeated names of meshes, materials, images, animations, skins and cameras
 * unique (`<name>_<n>`, each kind on its own), the original kept as `extras.name`, so Blender keeps
 * them as written instead of renaming them `.001` on import; distinct names are written as they are.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../../support/context.ts";
import { repeatedNamesScene } from "./repeated_names.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** The JSON chunk of a GLB. */
function glbJson(glb: Uint8Array): Json {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

const KINDS = ["meshes", "materials", "images", "animations", "skins", "cameras"] as const;

/** Each kind's written names, and the extras.name of each renamed one. */
function writtenNames(json: Json) {
  return Object.fromEntries(
    KINDS.map((kind) => [kind, (json[kind] ?? []).map((p: Json) => [p.name, p.extras?.name])]),
  );
}

Deno.test("repeated names of every kind are written unique, the original as extras.name; the input keeps its names", async () => {
  const doc = await repeatedNamesScene(3);
  const glb = (await runNode(exportGltf, { scene: doc })).bytes.bytes;
  const json = glbJson(glb);
  assertEquals(writtenNames(json), {
    meshes: [
      ["Cube", undefined],
      ["Canopy0", undefined],
      ["Cube_1", "Cube"],
      ["Canopy1", undefined],
      ["Cube_2", "Cube"],
      ["Canopy2", undefined],
    ],
    materials: [["Glass", undefined], ["Paint", undefined], ["Paint_1", "Paint"], ["Paint_2", "Paint"]],
    images: [["texture", undefined], ["texture_1", "texture"], ["texture_2", "texture"]],
    animations: [["Action", undefined], ["Action_1", "Action"], ["Action_2", "Action"]],
    // Each kit's skin is written under its armature node's name, as Blender's exporter names it (v32).
    skins: [["Kit0", "Armature"], ["Kit1", "Armature"], ["Kit2", "Armature"]],
    cameras: [["Camera", undefined], ["Camera_1", "Camera"], ["Camera_2", "Camera"]],
  });
  // Nodes follow their own rule (three.js's comparison) and now record their original too.
  const wings = json.nodes.filter((n: Json) => n.name.startsWith("Wing"));
  assertEquals(wings.map((n: Json) => [n.name, n.extras?.name]), [
    ["Wing", undefined],
    ["Wing_1", "Wing"],
    ["Wing_2", "Wing"],
  ]);
  assert(doc.getRoot().listMaterials().every((m) => m.getName() !== "Paint_1"), "the scene is unchanged");
  assert(doc.getRoot().listMaterials().every((m) => Object.keys(m.getExtras()).length === 0));
  // Written again from what was read, nothing changes: the rule is stable on its own output.
  const again = (await runNode(exportGltf, { scene: await readGltf(glb) })).bytes.bytes;
  assertEquals(glbJson(again), json);
});

Deno.test("distinct names are written as they are, and an extras.name of the user's own is never replaced", async () => {
  const doc = await repeatedNamesScene(1);
  const glb = (await runNode(exportGltf, { scene: doc })).bytes.bytes;
  const json = glbJson(glb);
  for (const kind of KINDS) {
    // Skins take their armature node's name (Blender's), so they record their own: not "as they are".
    if (kind === "skins") continue;
    for (const property of json[kind]) assertEquals(property.extras, undefined, `${kind} ${property.name}`);
  }
  assertEquals(json.skins.map((s: Json) => [s.name, s.extras?.name]), [["Kit0", "Armature"]]);
  const two = await repeatedNamesScene(2);
  const [, second] = two.getRoot().listMaterials().filter((m) => m.getName() === "Paint");
  second.setExtras({ name: "paint of the second kit", zone: 2 });
  const materials = glbJson((await runNode(exportGltf, { scene: two })).bytes.bytes).materials;
  assertEquals(materials[2], {
    ...materials[2],
    name: "Paint_1",
    // The user's name stays; the original goes beside it (v47), where three.js and decode.gltf find it.
    extras: { name: "paint of the second kit", original_name: "Paint", zone: 2 },
  });
});

Deno.test("meshes without UVs drawn with a textured material keep it, its name and texture, sampling UVs of (0,0)", async () => {
  const doc = await repeatedNamesScene(1);
  const root = doc.getRoot();
  const paint = root.listMaterials().find((m) => m.getName() === "Paint")!;
  const cube = root.listMeshes().find((m) => m.getName() === "Cube")!;
  // Two more meshes of the kit drawn with the textured paint, but without UVs (as game rips have).
  for (const name of ["Strut", "Brace"]) {
    const position = cube.listPrimitives()[0].getAttribute("POSITION")!;
    const mesh = doc.createMesh(name).addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", position).setMaterial(paint),
    );
    root.listScenes()[0].addChild(doc.createNode(name).setMesh(mesh));
  }
  const ctx = testContext();
  const out = await runNode(exportGltf, { scene: doc }, {}, ctx);
  const json = glbJson(out.bytes.bytes);
  // No copy of the material: nothing to rename, and every mesh draws the one texture.
  assertEquals(json.materials.map((m: Json) => m.name), ["Glass", "Paint"]);
  const primitiveOf = (name: string) => json.meshes.find((m: Json) => m.name === name).primitives[0];
  const back = await readGltf(out.bytes.bytes);
  for (const name of ["Strut", "Brace"]) {
    assertEquals(json.materials[primitiveOf(name).material].name, "Paint");
    const uv = back.getRoot().listMeshes().find((m) => m.getName() === name)!.listPrimitives()[0]
      .getAttribute("TEXCOORD_0")!;
    assertEquals(uv.getType(), "VEC2");
    assert(Array.from(uv.getArray()!).every((v) => v === 0), name);
    const warned = ctx.warnings.map((w) => w.message);
    assert(
      warned.some((w) => /no UV set/.test(w) && w.includes(`'${name}'`) && w.includes("'Paint'")),
      `${warned}`,
    );
  }
  assertEquals(
    primitiveOf("Strut").attributes.TEXCOORD_0,
    primitiveOf("Brace").attributes.TEXCOORD_0,
    "shared",
  );
  assertEquals(json.images.length, 1);
});
