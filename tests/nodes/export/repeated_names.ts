/**
 * A scene shaped like a kit-bashed aircraft a user merges from several Blender files: two copies of a
 * panel set, each bringing its own `Paint` material, `Cube` mesh, `Action` clip, `Armature` skin,
 * `Camera` and a texture image named `texture` (different pixels), beside a distinct `Glass` material.
 * glTF allows every repeat; viewers rename them on import, each its own way.
 *
 * @module
 */
import { Document } from "@gltf-transform/core";
import { encodeRgbaPng, loadPngEncoder } from "../../../runtime/scene/png.ts";

/** A small opaque PNG of one colour. */
function swatch(r: number, g: number, b: number): Uint8Array {
  const data = new Uint8Array(4 * 4 * 4);
  for (let i = 0; i < data.length; i += 4) data.set([r, g, b, 255], i);
  return encodeRgbaPng(4, 4, data);
}

/**
 * Two kits of `Paint`/`Cube`/`Action`/`Armature`/`Camera`/`texture`, each under a node `Wing`, and one
 * `Glass` material; `kits` copies of the kit (2 by default). Deterministic.
 */
export async function repeatedNamesScene(kits = 2): Promise<Document> {
  await loadPngEncoder();
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene("Scene");
  const glass = doc.createMaterial("Glass").setAlphaMode("BLEND").setBaseColorFactor([0.6, 0.8, 1, 0.3]);
  for (let k = 0; k < kits; k++) {
    const image = doc.createTexture("texture").setImage(swatch(40 * k, 90, 200 - 40 * k)).setMimeType(
      "image/png",
    );
    const paint = doc.createMaterial("Paint").setBaseColorTexture(image);
    const position = doc.createAccessor().setBuffer(buffer).setType("VEC3").setArray(
      new Float32Array([0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1]),
    );
    const uv = doc.createAccessor().setBuffer(buffer).setType("VEC2").setArray(
      new Float32Array([0, 0, 1, 0, 0, 1, 1, 1]),
    );
    const joints = doc.createAccessor().setBuffer(buffer).setType("VEC4").setArray(new Uint8Array(16));
    const weights = doc.createAccessor().setBuffer(buffer).setType("VEC4").setArray(
      new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]),
    );
    const indices = doc.createAccessor().setBuffer(buffer).setType("SCALAR").setArray(
      new Uint16Array([0, 2, 1, 1, 2, 3]),
    );
    const mesh = doc.createMesh("Cube").addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", position).setAttribute("TEXCOORD_0", uv)
        .setAttribute("JOINTS_0", joints).setAttribute("WEIGHTS_0", weights).setIndices(indices)
        .setMaterial(paint),
    );
    const glassMesh = doc.createMesh(`Canopy${k}`).addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", position).setIndices(indices).setMaterial(glass),
    );
    const bone = doc.createNode("Bone").setTranslation([0, 0, 0]);
    const ibm = doc.createAccessor().setBuffer(buffer).setType("MAT4").setArray(
      new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
    );
    const skin = doc.createSkin("Armature").addJoint(bone).setInverseBindMatrices(ibm);
    const wing = doc.createNode("Wing").setTranslation([3 * k, 0, 0]).setMesh(mesh).setSkin(skin);
    const canopy = doc.createNode(`Canopy${k}`).setMesh(glassMesh).setTranslation([0, 1, 0]);
    const camera = doc.createCamera("Camera").setType("perspective").setYFov(0.8).setZNear(0.1)
      .setZFar(100).setAspectRatio(1.5);
    const eye = doc.createNode(`Eye${k}`).setCamera(camera).setTranslation([0, 2, 5]);
    const rig = doc.createNode(`Kit${k}`).addChild(bone).addChild(wing).addChild(canopy).addChild(eye);
    scene.addChild(rig);
    const times = doc.createAccessor().setBuffer(buffer).setType("SCALAR").setArray(new Float32Array([0, 1]));
    const turns = doc.createAccessor().setBuffer(buffer).setType("VEC4").setArray(
      new Float32Array([0, 0, 0, 1, 0.3826834, 0, 0, 0.9238795]),
    );
    const sampler = doc.createAnimationSampler().setInput(times).setOutput(turns).setInterpolation("LINEAR");
    doc.createAnimation("Action").addSampler(sampler).addChannel(
      doc.createAnimationChannel().setTargetNode(bone).setTargetPath("rotation").setSampler(sampler),
    );
  }
  doc.getRoot().setDefaultScene(scene);
  return doc;
}
