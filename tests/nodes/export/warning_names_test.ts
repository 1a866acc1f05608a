/**
 * Export warnings name a part as the written file does: a mesh a game rip left unnamed is written
 * under a derived name (`<node>_mesh`, `runtime/scene/derived_names.ts`), and a warning about it must
 * say that name, not `''`, which no viewer shows (before, the UV warning said `mesh ''`).
 *
 * @module
 */
import { ok as assert } from "node:assert/strict";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import { repeatedNamesScene } from "./repeated_names.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

function glbJson(glb: Uint8Array): Json {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

Deno.test("the UV and transform warnings name unnamed meshes and nodes by their written names", async () => {
  const doc = await repeatedNamesScene(2);
  const root = doc.getRoot();
  const paint = root.listMaterials().find((m) => m.getName() === "Paint")!;
  const position = root.listMeshes().find((m) => m.getName() === "Cube")!.listPrimitives()[0]
    .getAttribute("POSITION")!;
  // Unnamed meshes without UVs drawn with the textured paint (as rips have), one under a named node,
  // one under a node named by whitespace only; and an unnamed node with a NaN translation.
  for (const nodeName of ["Strut", "  "]) {
    const mesh = doc.createMesh("").addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", position).setMaterial(paint),
    );
    root.listScenes()[0].addChild(doc.createNode(nodeName).setMesh(mesh));
  }
  const broken = doc.createMesh("").addPrimitive(doc.createPrimitive().setAttribute("POSITION", position));
  root.listScenes()[0].addChild(doc.createNode("").setMesh(broken).setTranslation([NaN, 0, 0]));
  const ctx = testContext();
  const json = glbJson((await runNode(exportGltf, { scene: doc }, {}, ctx)).bytes.bytes);
  const warned = ctx.warnings.map((w) => w.message);
  assert(!warned.some((w) => w.includes("''")), warned.join("\n"));
  const uv = warned.find((w) => /no UV set/.test(w))!;
  // Each mesh the UV warning names is a mesh of the written file, and both unnamed ones are there.
  const named = [...uv.matchAll(/'([^']+)'/g)].map((m) => m[1]).filter((name) => name !== "Paint");
  const written = new Set(json.meshes.map((m: Json) => m.name));
  assert(named.length === 2 && named.every((name) => written.has(name)), `${uv}\n${[...written]}`);
  assert(named.includes("Strut_mesh"), uv);
  const transform = warned.find((w) => w.includes("transform of node"))!;
  const nodeName = /node '([^']+)'/.exec(transform)![1];
  assert(json.nodes.some((n: Json) => n.name === nodeName), `${transform}`);
});

Deno.test("property repair warnings name an unnamed mesh, camera and node by their written names", async () => {
  const doc = await repeatedNamesScene(1);
  const root = doc.getRoot();
  const scene = root.listScenes()[0];
  const position = root.listMeshes().find((m) => m.getName() === "Cube")!.listPrimitives()[0]
    .getAttribute("POSITION")!;
  // A rip's unnamed mesh with a misspelt UV set name and morph weights for targets it lacks, drawn by
  // a named node; an unnamed camera out of range on a named node; an unnamed node with weights of its own.
  const uv = doc.createAccessor().setType("VEC2").setBuffer(root.listBuffers()[0])
    .setArray(new Float32Array(position.getCount() * 2));
  const mesh = doc.createMesh("").setWeights([0.5]).addPrimitive(
    doc.createPrimitive().setAttribute("POSITION", position).setAttribute("texcoord0", uv),
  );
  scene.addChild(doc.createNode("Hatch").setMesh(mesh));
  const camera = doc.createCamera("").setType("perspective").setYFov(0.8).setZNear(-1).setZFar(100);
  scene.addChild(doc.createNode("Cockpit").setCamera(camera));
  const plain = doc.createMesh("Plate").addPrimitive(
    doc.createPrimitive().setAttribute("POSITION", position),
  );
  scene.addChild(doc.createNode("").setMesh(plain).setWeights([1, 0]));
  const ctx = testContext();
  const json = glbJson((await runNode(exportGltf, { scene: doc }, {}, ctx)).bytes.bytes);
  const warned = ctx.warnings.map((w) => w.message);
  assert(!warned.some((w) => w.includes("''")), warned.join("\n"));
  const quoted = (pattern: RegExp) => warned.map((w) => pattern.exec(w)?.[1]).filter((n) => n !== undefined);
  const meshNames = new Set(json.meshes.map((m: Json) => m.name));
  const meshWarned = quoted(/mesh '([^']+)'/);
  assert(meshWarned.includes("Hatch_mesh") && meshWarned.every((n) => meshNames.has(n)), warned.join("\n"));
  const cameraWarned = quoted(/camera '([^']+)'/);
  assert(
    cameraWarned.length === 1 && json.cameras.some((c: Json) => c.name === cameraWarned[0]),
    warned.join("\n"),
  );
  const nodeWarned = quoted(/node '([^']+)' has \d morph weight/);
  assert(
    nodeWarned.length === 1 && json.nodes.some((n: Json) => n.name === nodeWarned[0]),
    warned.join("\n"),
  );
});

Deno.test("vertex data and animation repair warnings name an unnamed mesh and clip by their written names", async () => {
  const doc = await repeatedNamesScene(1);
  const root = doc.getRoot();
  const scene = root.listScenes()[0];
  const buffer = root.listBuffers()[0];
  const position = root.listMeshes().find((m) => m.getName() === "Cube")!.listPrimitives()[0]
    .getAttribute("POSITION")!;
  // A rip's unnamed mesh whose float vertex colours pass 1, drawn by a named node, and an unnamed
  // clip on that node with a rotation key that is no unit quaternion.
  const colours = doc.createAccessor().setType("VEC3").setBuffer(buffer)
    .setArray(new Float32Array(position.getCount() * 3).fill(1.5));
  const mesh = doc.createMesh("").addPrimitive(
    doc.createPrimitive().setAttribute("POSITION", position).setAttribute("COLOR_0", colours),
  );
  const hatch = doc.createNode("Hatch").setMesh(mesh);
  scene.addChild(hatch);
  const times = doc.createAccessor().setType("SCALAR").setBuffer(buffer).setArray(new Float32Array([0, 1]));
  const turns = doc.createAccessor().setType("VEC4").setBuffer(buffer)
    .setArray(new Float32Array([0, 0, 0, 2, 0, 0, 0, 1]));
  const sampler = doc.createAnimationSampler().setInput(times).setOutput(turns);
  doc.createAnimation("").addSampler(sampler)
    .addChannel(
      doc.createAnimationChannel().setTargetNode(hatch).setTargetPath("rotation").setSampler(sampler),
    );
  const ctx = testContext();
  const json = glbJson((await runNode(exportGltf, { scene: doc }, {}, ctx)).bytes.bytes);
  const warned = ctx.warnings.map((w) => w.message);
  assert(!warned.some((w) => w.includes("''")), warned.join("\n"));
  const colour = warned.find((w) => w.includes("vertex colour value(s) of mesh"))!;
  assert(colour.includes("'Hatch_mesh'") && json.meshes.some((m: Json) => m.name === "Hatch_mesh"), colour);
  const rotation = warned.find((w) => w.includes("rotation key(s) of animation"))!;
  const clip = /animation '([^']+)'/.exec(rotation)![1];
  assert(
    json.animations.some((a: Json) => a.name === clip),
    `${rotation}\n${JSON.stringify(json.animations)}`,
  );
});
