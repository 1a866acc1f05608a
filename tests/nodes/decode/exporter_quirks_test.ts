/**
 * A light aircraft as real exporters write it, through decode.gltf → rig → export.gltf: FBX2glTF's
 * centimetre geometry under a 0.01 `RootNode` with Maya namespaces (`pCube1:Aileron_L`, meshes
 * `…Shape`), Babylon.js's left-handed `__root__` (a 180° turn and scale (1, 1, −1)), Unreal's 0.01,
 * Z-up→Y-up root with `SM_<name>_LOD0`, Unity's `Aileron (L)` names and right-hand surfaces that are
 * the left ones' meshes mirrored by scale (−1, 1, 1), and SketchUp's `Component#3` instances whose
 * meshes carry the definitions' names, each face written twice (the back as a reversed copy). Every
 * surface must get its true hinge (axis within 1°, line within 2 % of chord), kind and side, judged
 * good, and the output must be valid glTF.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { type Document, type Node, NodeIO } from "@gltf-transform/core";
import { mat4 } from "gl-matrix";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { sub, type Vec3 } from "../../../nodes/rig/transform.ts";
import { runNode, testContext } from "../../support/context.ts";
import { glbOf } from "../../support/shapes.ts";
import { validateGltf } from "../../support/validator.ts";
import { axisAngle, axisErrorDegrees, distanceToLine, newScene } from "../rig/fixtures.ts";
import { lightAircraft, placed, type ShapePart } from "../rig/real_shapes.ts";
import { rig } from "../rig/pipeline.ts";

/** Adds each part as a mesh node under `parent` (the scene when null), named by `name` and `mesh`. */
function addParts(
  doc: Document,
  parent: Node | null,
  parts: ShapePart[],
  name: (part: ShapePart) => string,
  mesh: (part: ShapePart) => string = name,
): Map<string, Node> {
  const buffer = doc.getRoot().listBuffers()[0];
  const nodes = new Map<string, Node>();
  for (const part of parts) {
    const primitive = doc.createPrimitive()
      .setAttribute(
        "POSITION",
        doc.createAccessor("", buffer).setType("VEC3").setArray(new Float32Array(part.positions)),
      )
      .setIndices(doc.createAccessor("", buffer).setType("SCALAR").setArray(new Uint32Array(part.indices)));
    const node = doc.createNode(name(part)).setMesh(doc.createMesh(mesh(part)).addPrimitive(primitive));
    if (parent) parent.addChild(node);
    else doc.getRoot().getDefaultScene()!.addChild(node);
    nodes.set(part.name, node);
  }
  return nodes;
}

/** A root node of `doc`'s scene. */
function root(doc: Document, name: string): Node {
  const node = doc.createNode(name);
  doc.getRoot().getDefaultScene()!.addChild(node);
  return node;
}

/** Writes `doc` as an exporter would (as it is), decodes, rigs with "auto" frame, exports, and checks. */
async function assertRigged(doc: Document, parts: ShapePart[], panel: (part: ShapePart) => string) {
  const { json, resources } = await new NodeIO().writeJSON(doc, { format: 1 as never });
  delete json.buffers![0].uri;
  const ctx = testContext();
  const glb = glbOf(json, Object.values(resources)[0] as Uint8Array);
  const { scene } = await runNode(decodeGltf, { bytes: { bytes: glb } as never }, {}, ctx);
  const result = await rig(scene as Document, { forward: "auto", up: "auto" });
  const frame = result.report.frame;
  assertEquals([frame.forward, frame.up, frame.confidence], ["-Z", "+Y", "good"], JSON.stringify(frame));
  for (const part of parts) {
    if (!part.truth) continue;
    const name = panel(part);
    const found = result.report.parts.find((p) => p.panel === name) as
      | (typeof result.report.parts[number] & { fit: { confidence: string } })
      | undefined;
    assert(found?.hinge && found.fit, `${name} rigged`);
    const { root, tip } = part.truth;
    const middle = [0, 1, 2].map((k) => (root[k] + tip[k]) / 2) as Vec3;
    const degrees = axisErrorDegrees(found.hinge.world.axis, sub(tip, root));
    const offset = distanceToLine(middle, found.hinge.world.origin, found.hinge.world.axis) / found.fit.chord;
    const what = `${name}: ${degrees.toFixed(3)}°, ${(offset * 100).toFixed(2)} % of chord`;
    assert(degrees < 1 && offset < 0.02, what);
    assertEquals(
      [found.kind, found.side, found.fit.confidence],
      [part.truth.kind, part.truth.side, "good"],
      what,
    );
  }
  const rigged = result.report.parts.filter((p) => p.hinge).length;
  assertEquals(rigged, parts.filter((p) => p.truth).length, "nothing else rigged");
  const out = (await runNode(exportGltf, { scene: result.scene }, {})).bytes.bytes;
  assertEquals((await validateGltf(out)).messages, []);
}

Deno.test("FBX2glTF: centimetres under a 0.01 RootNode, Maya namespaces on nodes, `Shape` meshes", async () => {
  const parts = lightAircraft();
  const doc = newScene();
  const top = root(doc, "RootNode").setScale([0.01, 0.01, 0.01]);
  addParts(
    doc,
    top,
    placed(parts, mat4.fromScaling(mat4.create(), [100, 100, 100])),
    (p) => `pCube1:${p.name}`,
    (p) => `${p.name}Shape`,
  );
  await assertRigged(doc, parts, (p) => `pCube1:${p.name}`);
});

Deno.test("Babylon.js: a left-handed __root__ (180° about Y, scale (1, 1, -1)) wrapping the scene", async () => {
  const parts = lightAircraft();
  const doc = newScene();
  const top = root(doc, "__root__").setRotation(axisAngle([0, 1, 0], 180)).setScale([1, 1, -1]);
  // The root's net turn is a mirror in X: the stored geometry is mirrored back.
  addParts(doc, top, placed(parts, mat4.fromScaling(mat4.create(), [-1, 1, 1])), (p) => p.name);
  await assertRigged(doc, parts, (p) => p.name);
});

Deno.test("Unreal: centimetres, Z up, under a 0.01 root turned to Y up; SM_<name>_LOD0 names", async () => {
  const parts = lightAircraft();
  const doc = newScene();
  const top = root(doc, "Root").setRotation(axisAngle([1, 0, 0], -90)).setScale([0.01, 0.01, 0.01]);
  const toFile = mat4.rotateX(mat4.create(), mat4.fromScaling(mat4.create(), [100, 100, 100]), Math.PI / 2);
  addParts(doc, top, placed(parts, toFile), (p) => `SM_${p.name}_LOD0`);
  await assertRigged(doc, parts, (p) => `SM_${p.name}_LOD0`);
});

Deno.test("Unity: `Aileron (L)` names; the right surfaces are the left meshes mirrored by scale (-1, 1, 1)", async () => {
  const parts = lightAircraft();
  const doc = newScene();
  const unity = (p: ShapePart) => p.name.replace(/_([LR])$/, " ($1)");
  const nodes = addParts(doc, null, parts, unity);
  for (const surface of ["Aileron", "Flap", "Elevator"]) {
    nodes.get(`${surface}_R`)!.setMesh(nodes.get(`${surface}_L`)!.getMesh()).setScale([-1, 1, 1]);
  }
  await assertRigged(doc, parts, unity);
});

Deno.test("SketchUp: Component#n instances read by their meshes' definition names; each face also written reversed", async () => {
  // Before rig.detect_panels v15: no node name suggested a surface, and nothing was rigged.
  const parts = lightAircraft();
  const doc = newScene();
  const group = root(doc, "Group#12");
  const names = new Map(parts.map((p, i) => [p.name, `Component#${i + 3}`]));
  const instance = (p: ShapePart) => names.get(p.name)!;
  const instances = addParts(doc, group, parts, instance, (p) => p.name);
  // The back faces: the same triangles wound the other way, a second primitive of the definition's mesh.
  for (const part of parts) {
    const mesh = instances.get(part.name)!.getMesh()!;
    const front = mesh.listPrimitives()[0];
    const reversed = Uint32Array.from(part.indices, (_, i) => part.indices[i - (i % 3) + 2 - (i % 3)]);
    const buffer = doc.getRoot().listBuffers()[0];
    mesh.addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", front.getAttribute("POSITION")!)
        .setIndices(doc.createAccessor("", buffer).setType("SCALAR").setArray(reversed)),
    );
  }
  // Reported by what each panel is called, its definition's (mesh's) name (rig.report v9).
  await assertRigged(doc, parts, (p) => p.name);
});

Deno.test("a node with a name of its own is searched by it, not by its mesh's", async () => {
  // The fuselage's mesh reused a surface's name: the node's own name decides (no rudder rigged twice).
  const parts = lightAircraft();
  const doc = newScene();
  const nodes = addParts(doc, null, parts, (p) => p.name);
  nodes.get("Fuselage")!.getMesh()!.setName("Rudder");
  nodes.get("Wing_L")!.getMesh()!.setName("Aileron_L");
  await assertRigged(doc, parts, (p) => p.name);
});
