/**
 * Vertices no triangle uses, as exporters leave them (assimp without its remove-unused step, FBX SDK
 * conversions keeping every control point, a deleted face's corners): a stray point at the origin, one
 * collapsed to 1e30 or NaN. Viewers draw nothing of them; `decode.gltf` moves those outside the drawn
 * geometry onto a drawn vertex with a warning, so the rig's frame and hinges read what is drawn. Before
 * v36 a far stray made the aircraft a point to frame detection (forward +Y, weak, every hinge off), and
 * one at the origin bent an aileron's hinge fit (weak, straight along 42 % of the span).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { type Document, NodeIO } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { sub, type Vec3 } from "../../../nodes/rig/transform.ts";
import { runNode, testContext } from "../../support/context.ts";
import { glbOf } from "../../support/shapes.ts";
import { validateGltf } from "../../support/validator.ts";
import { axisErrorDegrees, distanceToLine, newScene } from "../rig/fixtures.ts";
import { lightAircraft, type ShapePart } from "../rig/real_shapes.ts";
import { rig } from "../rig/pipeline.ts";

/** The light aircraft, one named mesh node per part; `stray` appends unused vertices to some parts. */
function aircraft(stray: Record<string, Vec3[]>): { doc: Document; parts: ShapePart[] } {
  const parts = lightAircraft();
  const doc = newScene();
  const buffer = doc.getRoot().listBuffers()[0];
  for (const part of parts) {
    const positions = [...part.positions, ...(stray[part.name] ?? []).flat()];
    const primitive = doc.createPrimitive()
      .setAttribute(
        "POSITION",
        doc.createAccessor("", buffer).setType("VEC3").setArray(new Float32Array(positions)),
      )
      .setIndices(doc.createAccessor("", buffer).setType("SCALAR").setArray(new Uint32Array(part.indices)));
    doc.getRoot().getDefaultScene()!.addChild(
      doc.createNode(part.name).setMesh(doc.createMesh(part.name).addPrimitive(primitive)),
    );
  }
  return { doc, parts };
}

/** The document as a GLB, written as it is (bounds and all), as an exporter would. */
async function glbOfDoc(doc: Document): Promise<Uint8Array> {
  const { json, resources } = await new NodeIO().writeJSON(doc, { format: 1 as never });
  delete json.buffers![0].uri;
  return glbOf(json, Object.values(resources)[0] as Uint8Array);
}

async function decode(glb: Uint8Array) {
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes: glb } as never }, {}, ctx);
  return { scene, warnings: ctx.warnings.map((w) => w.message) };
}

Deno.test("stray vertices far out and at the origin: the frame and every hinge are read from what is drawn", async () => {
  const { doc, parts } = aircraft({ Aileron_L: [[1e30, 1e30, 1e30]], Elevator_R: [[0, 0, 0]] });
  const { scene, warnings } = await decode(await glbOfDoc(doc));
  const strays = warnings.filter((w) => w.includes("no primitive draws"));
  assertEquals(strays.length, 2, warnings.join("\n"));
  assert(
    strays[0].includes("/meshes/6/primitives/0/attributes/POSITION") && strays[0].includes("1e+30"),
    strays[0],
  );
  const result = await rig(scene, { forward: "auto", up: "auto" });
  const frame = result.report.frame;
  assertEquals([frame.forward, frame.up, frame.confidence], ["-Z", "+Y", "good"]);
  for (const part of parts) {
    if (!part.truth) continue;
    const found = result.report.parts.find((p) => p.panel === part.name) as
      | (typeof result.report.parts[number] & { fit: { confidence: string } })
      | undefined;
    assert(found?.hinge && found.fit, `${part.name} rigged`);
    const { root, tip } = part.truth;
    const middle = [0, 1, 2].map((k) => (root[k] + tip[k]) / 2) as Vec3;
    const degrees = axisErrorDegrees(found.hinge.world.axis, sub(tip, root));
    const offset = distanceToLine(middle, found.hinge.world.origin, found.hinge.world.axis) / found.fit.chord;
    const what = `${part.name}: ${degrees.toFixed(3)}°, ${
      (offset * 100).toFixed(2)
    } % of chord, ${found.fit.confidence}`;
    assert(degrees < 1 && offset < 0.02 && found.fit.confidence === "good", what);
    assertEquals([found.kind, found.side], [part.truth.kind, part.truth.side], what);
  }
  const out = (await runNode(exportGltf, { scene: result.scene }, {})).bytes.bytes;
  assertEquals((await validateGltf(out)).messages, []);
});

Deno.test("a NaN stray vertex is moved (the output is valid); strays inside the drawn bounds and unindexed vertices stay", async () => {
  // Wing_R's far vertices fill whole triangles: drawn without indices, they are drawn, not stray.
  const wingCount = lightAircraft().find((p) => p.name === "Wing_R")!.positions.length / 3;
  const far = Array.from({ length: 3 + (3 - wingCount % 3) % 3 }, (_, i): Vec3 => [1000, i, 0]);
  // Aileron_L's stray sits at the mean of its vertices: inside its drawn bounds.
  const drawn = lightAircraft().find((p) => p.name === "Aileron_L")!.positions;
  const inside = [0, 1, 2].map((k) =>
    drawn.filter((_, i) => i % 3 === k).reduce((a, b) => a + b) / (drawn.length / 3)
  );
  const { doc } = aircraft({ Aileron_L: [inside as Vec3], Flap_R: [[0, 0, 0]], Wing_R: far });
  const { json, resources } = await new NodeIO().writeJSON(doc, { format: 1 as never });
  delete json.buffers![0].uri;
  const bin = Object.values(resources)[0] as Uint8Array;
  const flap = json.meshes!.findIndex((m) => m.name === "Flap_R");
  // Aileron_L's stray (inside its bounds) stays; Flap_R gets one more vertex, NaN, no triangle uses.
  const position = json.accessors![json.meshes![flap].primitives[0].attributes.POSITION];
  const view = json.bufferViews![position.bufferView!];
  const at = (view.byteOffset ?? 0) + (position.byteOffset ?? 0) + 12 * (position.count - 1);
  new DataView(bin.buffer, bin.byteOffset).setFloat32(at, NaN, true);
  // A wing drawn without indices: its every vertex is drawn, none is stray however far.
  const wing = json.meshes!.findIndex((m) => m.name === "Wing_R");
  const unindexed = json.meshes![wing].primitives[0];
  delete unindexed.indices;
  const input = glbOf(json, bin);
  assert((await validateGltf(input)).codes.includes("ACCESSOR_INVALID_FLOAT"));
  const { scene, warnings } = await decode(input);
  const strays = warnings.filter((w) => w.includes("no primitive draws"));
  assertEquals(strays.length, 1, warnings.join("\n"));
  assert(strays[0].includes(`/meshes/${flap}/`) && strays[0].includes("NaN"), strays[0]);
  const mesh = (name: string) =>
    (scene as Document).getRoot().listMeshes().find((m) => m.getName() === name)!;
  const flapPositions = mesh("Flap_R").listPrimitives()[0].getAttribute("POSITION")!;
  assert(Number.isFinite(flapPositions.getElement(flapPositions.getCount() - 1, [])[0]));
  const aileronPositions = mesh("Aileron_L").listPrimitives()[0].getAttribute("POSITION")!;
  assertEquals(aileronPositions.getElement(aileronPositions.getCount() - 1, []), [
    ...new Float32Array(inside),
  ]);
  const wingPositions = mesh("Wing_R").listPrimitives()[0].getAttribute("POSITION")!;
  assertEquals(wingPositions.getMax([])[0], 1000);
  const out = (await runNode(exportGltf, { scene }, {})).bytes.bytes;
  assertEquals((await validateGltf(out)).messages, []);
});
