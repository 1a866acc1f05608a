/**
 * The document glTF-Transform's writer may be handed: one buffer as GLB allows (none where a `.gltf`
 * has nothing to buffer), and never the caller's scene where the writer would change it.
 */
import { type Document, Format } from "@gltf-transform/core";
import { copyScene } from "./copy.ts";

/**
 * GLB allows one buffer, and a buffer with nothing in it is invalid glTF (glTF-Transform writes it
 * without a `byteLength`): merge several into the first, drop an unused one and add one where data has
 * none, on a copy, leaving `doc` as it is. A GLB stores images in its buffer; a `.gltf` file as data
 * URIs of their own, so a `.gltf` of textures and no accessors has nothing to buffer.
 */
function singleBuffer(doc: Document, format: Format): Document {
  const root = doc.getRoot();
  const buffers = root.listBuffers();
  const empty = root.listAccessors().length === 0 &&
    (format === Format.GLTF || root.listTextures().length === 0);
  // A scene built in code may hold data but no buffer, which glTF-Transform's writer refuses: give it one.
  if (buffers.length === 0 && !empty) {
    const copy = copyScene(doc);
    const buffer = copy.createBuffer();
    // Its accessors too: a .gltf's writer stores only accessors with a buffer, and wrote an empty one.
    for (const accessor of copy.getRoot().listAccessors()) accessor.setBuffer(buffer);
    return copy;
  }
  const unbuffered = root.listAccessors().some((accessor) => accessor.getBuffer() === null);
  if (buffers.length <= 1 && !unbuffered && !(empty && buffers.length === 1)) return doc;
  const copy = copyScene(doc);
  const [first, ...rest] = copy.getRoot().listBuffers();
  for (const accessor of copy.getRoot().listAccessors()) accessor.setBuffer(first);
  for (const buffer of rest) buffer.dispose();
  if (empty) first.dispose();
  return copy;
}

/**
 * The document glTF-Transform's writer may work on. The writer only reads a document, except that it
 * writes `targetNames` into the own `extras` object of a mesh with morph targets, which would change
 * the (immutable) input scene: such a scene is written from a copy (sharing the vertex arrays, which
 * the writer only reads); any other is written as it is, sparing a copy of every property.
 */
export function writable(doc: Document, format: Format = Format.GLB): Document {
  const merged = singleBuffer(doc, format);
  return merged === doc && writerChangesExtras(doc) ? copyScene(doc, { shareData: true }) : merged;
}

/** True when a mesh has both extras of its own and morph targets, whose names the writer adds to them. */
function writerChangesExtras(doc: Document): boolean {
  return doc.getRoot().listMeshes().some((mesh) =>
    Object.keys(mesh.getExtras()).length > 0 && mesh.listPrimitives().some((p) => p.listTargets().length > 0)
  );
}
