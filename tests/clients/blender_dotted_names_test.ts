/**
 * Names with dots through partgraph → Blender 3.4 → partgraph. Blender keeps a dot in a node, mesh or
 * material name (`Flap.L`, `Cube.001`), but its exporter writes an image under its name cut at the
 * last dot (Python's `splitext`: `cube.001` → `cube`, `Paint.003_base` → `Paint`), so `export.gltf`
 * writes image names without dots (`cube_001`, an image file's `.png` dropped as Blender drops it; the
 * original in `extras.name`, which Blender does not keep for images). The rewrite is needed, and only
 * for images: measured here, every name the first export writes comes back from Blender as written and
 * is written the same by a second export of what `decode.gltf` read (name-stable from the first file).
 * Skipped with a message when Blender is absent.
 *
 * @module
 */
import { deepStrictEqual as equal } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { decodeGltf } from "../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { encodePng, loadPngEncoder } from "../../runtime/scene/png.ts";
import { runNode } from "../support/context.ts";
import { throughBlender } from "./blender.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

function glbJson(glb: Uint8Array): Json {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

/** Dotted names as Blender users and game rips leave them, on nodes, meshes, materials and images. */
const DOTTED = [
  "Flap.L",
  "Cube.001",
  "Paint.003_base",
  "hull.DDS",
  "wing.png",
  "v1.2.3",
  ".hidden",
  "décor.v2.jpg",
];

function dottedScene(): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene("Scene");
  const position = doc.createAccessor().setType("VEC3").setBuffer(buffer)
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
  const uv = doc.createAccessor().setType("VEC2").setBuffer(buffer).setArray(
    new Float32Array([0, 0, 1, 0, 0, 1]),
  );
  DOTTED.forEach((name, i) => {
    const pixel = new Uint8Array([i * 30, 100, 200, 255]);
    const texture = doc.createTexture(name).setMimeType("image/png").setImage(encodePng(1, 1, pixel));
    const material = doc.createMaterial(name).setBaseColorTexture(texture);
    const mesh = doc.createMesh(name).addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", position).setAttribute("TEXCOORD_0", uv).setMaterial(
        material,
      ),
    );
    scene.addChild(doc.createNode(name).setMesh(mesh).setTranslation([i, 0, 0]));
  });
  return doc;
}

const KINDS = ["nodes", "meshes", "materials", "images"] as const;
const namesOf = (json: Json) =>
  Object.fromEntries(KINDS.map((kind) => [kind, (json[kind] ?? []).map((p: Json) => p.name).sort()]));

Deno.test("dotted names: partgraph → Blender 3.4 → partgraph writes every name as the first export did", async () => {
  await loadPngEncoder();
  const first = (await runNode(exportGltf, { scene: dottedScene() })).bytes.bytes;
  const written = namesOf(glbJson(first));
  // Only image names lose their dots (but leading ones, which splitext keeps); the others are as given.
  equal(written.nodes, [...DOTTED].sort());
  equal(written.images.filter((name: string) => name.replace(/^\.+/, "").includes(".")), []);
  const result = await throughBlender([{ glb: first, extras: false }, { glb: first, extras: true }]);
  if ("skip" in result) return console.warn(`skipped: ${result.skip}`);
  for (const output of result.outputs) {
    if ("error" in output) throw new Error(output.error);
    equal(namesOf(glbJson(output.glb)), written, "as Blender writes them");
    const back = (await runNode(decodeGltf, { bytes: { bytes: output.glb, name: "blender.glb" } })).scene;
    const again = (await runNode(exportGltf, { scene: back })).bytes.bytes;
    equal(namesOf(glbJson(again)), written, "written again by partgraph");
  }
});
