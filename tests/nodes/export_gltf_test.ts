/**
 * `export.gltf` writes what viewers load right and leaves its input as it was: morph targets always
 * named, repeated node names made unique the way `rig.report` names them.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { rigDetectPanels } from "../../nodes/rig/detect_panels.ts";
import { rigFitHinge } from "../../nodes/rig/fit_hinge.ts";
import { rigInsertPivot } from "../../nodes/rig/insert_pivot.ts";
import { rigReport } from "../../nodes/rig/report.ts";
import { exportNames } from "../../runtime/scene/unique_names.ts";
import { readGltf, writeGlb } from "../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { runNode } from "../support/context.ts";
import { validateGltf } from "../support/validator.ts";
import { addGroup, addPanel, newScene } from "./rig/fixtures.ts";
import { aileron } from "./rig/cases.ts";
import type { ReportPart } from "./rig/pipeline.ts";

/** A triangle mesh with two morph targets, named as given (empty: unnamed). */
function morphScene(targetNames: [string, string], extras: Record<string, unknown>): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (values: number[]) =>
    doc.createAccessor().setType("VEC3").setArray(new Float32Array(values)).setBuffer(buffer);
  const primitive = doc.createPrimitive().setAttribute("POSITION", accessor([0, 0, 0, 1, 0, 0, 0, 1, 0]));
  for (const [i, name] of targetNames.entries()) {
    primitive.addTarget(
      doc.createPrimitiveTarget(name).setAttribute("POSITION", accessor([0, i + 1, 0, 0, 0, 0, 0, 0, 0])),
    );
  }
  const mesh = doc.createMesh("tri").addPrimitive(primitive).setWeights([0, 0]).setExtras(extras);
  doc.createScene().addChild(doc.createNode("tri").setMesh(mesh));
  return doc;
}

async function exported(doc: Document): Promise<Document> {
  const { bytes } = await runNode(exportGltf, { scene: doc });
  const report = await validateGltf(bytes.bytes);
  assertEquals([report.errors, report.warnings], [0, 0], report.messages.join("\n"));
  return await readGltf(bytes.bytes);
}

Deno.test("export.gltf leaves a mesh's extras as they were (glTF-Transform writes targetNames into them)", async () => {
  const doc = morphScene(["open", "shut"], { note: "kept" });
  const extras = doc.getRoot().listMeshes()[0].getExtras();
  const back = await exported(doc);
  assertEquals(doc.getRoot().listMeshes()[0].getExtras(), { note: "kept" });
  assert(doc.getRoot().listMeshes()[0].getExtras() === extras, "the mesh keeps its own extras object");
  assertEquals(back.getRoot().listMeshes()[0].getExtras(), { note: "kept", targetNames: ["open", "shut"] });
});

Deno.test("a mesh with morph targets and no extras of its own is written from the scene itself, unchanged", async () => {
  const doc = morphScene(["open", "shut"], {});
  const back = await exported(doc);
  assertEquals(doc.getRoot().listMeshes()[0].getExtras(), {});
  assertEquals(back.getRoot().listMeshes()[0].getExtras(), { targetNames: ["open", "shut"] });
});

Deno.test("unnamed morph targets are written with the mesh's targetNames, else their index — never ''", async () => {
  const fromExtras = await exported(morphScene(["", ""], { targetNames: ["a[0]", "a[1]"] }));
  assertEquals(fromExtras.getRoot().listMeshes()[0].getExtras().targetNames, ["a[0]", "a[1]"]);
  const partly = await exported(morphScene(["", "second"], {}));
  assertEquals(partly.getRoot().listMeshes()[0].getExtras().targetNames, ["0", "second"]);
});

Deno.test("repeated node names are written unique and stable; the cache codec keeps them as they are", async () => {
  const doc = new Document();
  const scene = doc.createScene();
  for (const name of ["Circle", "Circle", "Circle_1", "", "Circle", "Bone"]) {
    scene.addChild(doc.createNode(name));
  }
  // The unnamed node is given one (node_<i>: it holds nothing to name it after).
  const expected = ["Circle", "Circle_2", "Circle_1", "node_3", "Circle_3", "Bone"];
  assertEquals(exportNames(doc).nodes, expected);
  const back = await exported(doc);
  assertEquals(back.getRoot().listNodes().map((n) => n.getName()), expected);
  assertEquals(exportNames(back).nodes, expected, "applying the rule again changes nothing");
  assertEquals(doc.getRoot().listNodes()[1].getName(), "Circle", "the input keeps its names");
  const cached = await readGltf(await writeGlb(doc, { generator: GENERATOR }));
  assertEquals(cached.getRoot().listNodes().map((n) => n.getName()), [
    "Circle",
    "Circle",
    "Circle_1",
    "",
    "Circle",
    "Bone",
  ]);
});

Deno.test("names that three.js would take as equal are clashes too; a scene never takes a node's name", async () => {
  const doc = new Document();
  const scene = doc.createScene("Fighter");
  for (const name of ["Fighter", "Wing L", "Wing_L", "a.b", "ab"]) scene.addChild(doc.createNode(name));
  const names = exportNames(doc);
  assertEquals(names.nodes, ["Fighter", "Wing L", "Wing_L_1", "a.b", "ab_1"]);
  assertEquals(names.scenes, ["Fighter_1"]);
  const back = await exported(doc);
  assertEquals(back.getRoot().listScenes()[0].getName(), "Fighter_1");
  assertEquals(exportNames(back), names, "applying the rule again changes nothing");
});

Deno.test("rig.report names parts as the exported file does when two parts share a name", async () => {
  const doc = newScene();
  for (const side of [1, -1]) {
    const wing = addGroup(doc, undefined, "Wing", { translation: [side * 3, 0, 0] });
    addPanel(doc, wing, aileron("Aileron"));
  }
  const frame = { forward: "-Z", up: "+Y" };
  const detected = (await runNode(rigDetectPanels, { scene: doc })).scene;
  const fitted = (await runNode(rigFitHinge, { scene: detected }, frame)).scene;
  const pivoted = (await runNode(rigInsertPivot, { scene: fitted })).scene;
  const parts = (await runNode(rigReport, { scene: pivoted }, frame)).report.parts as ReportPart[];
  const file = await exported(pivoted);
  const fileNames = new Set(file.getRoot().listNodes().map((n) => n.getName()));
  assertEquals(fileNames.size, file.getRoot().listNodes().length, "every written name is unique");
  assertEquals(parts.length, 2);
  assert(parts[0].name !== parts[1].name, `two parts, two names: ${parts.map((p) => p.name)}`);
  for (const part of parts) {
    assert(fileNames.has(part.name), `report name ${part.name} is in the file`);
    for (const step of part.path.split("/")) assert(fileNames.has(step), `path step ${step} is in the file`);
  }
});
