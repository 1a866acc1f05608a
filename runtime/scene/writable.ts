/**
 * The document glTF-Transform's writer may be handed: one buffer as GLB allows (none where a `.gltf`
 * has nothing to buffer), and never the caller's scene where the writer would change it.
 */
import { type Accessor, type Document, Format, type Mesh } from "@gltf-transform/core";
import { copyScene } from "./copy.ts";
import { ATTRIBUTES } from "./graph_internals.ts";
import { hasOwnKey } from "./graph_props.ts";

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
  const unbuffered = root.listAccessors().some(unbufferedAccessor);
  if (buffers.length <= 1 && !unbuffered && !(empty && buffers.length === 1)) return doc;
  const copy = copyScene(doc);
  const [first, ...rest] = copy.getRoot().listBuffers();
  for (const accessor of copy.getRoot().listAccessors()) accessor.setBuffer(first);
  for (const buffer of rest) buffer.dispose();
  if (empty) first.dispose();
  return copy;
}

/**
 * `accessor.getBuffer() === null`, read from property-graph's attribute store where it is found: the
 * getter is glTF-Transform's one `get` for every property and attribute, a megamorphic load, and this
 * asks it of every accessor of every file written (3 ms of an export of the 16 bench compounds).
 */
function unbufferedAccessor(accessor: Accessor): boolean {
  const store = ATTRIBUTES &&
    (accessor as unknown as Record<symbol, { buffer?: { getChild(): unknown } | null }>)[
      ATTRIBUTES
    ];
  if (!store || !("buffer" in store)) return accessor.getBuffer() === null;
  // An edge (Ref) while the accessor has a buffer, null or undefined while it has none (getRef's test).
  return !store.buffer || store.buffer.getChild() === null;
}

/**
 * `doc` with one buffer as GLB allows (`doc` itself when it has one), to be written inside
 * {@link keepingExtras} (which spares copying a scene only for its meshes' `targetNames`).
 */
export function buffered(doc: Document, format: Format = Format.GLB): Document {
  return singleBuffer(doc, format);
}

/**
 * Calls `write`, which hands `doc` to glTF-Transform's writer, so that the writer does not change
 * `doc`: while `write` runs, each mesh whose extras the writer would change (it adds `targetNames`,
 * one top-level key) holds a shallow copy of them, and gets its own back when `write` returns.
 * `write` must call the writer before it returns, as glTF-Transform 4.5's `writeJSON` does its work
 * synchronously; a promise it returns may resolve later.
 *
 * Why: a `.car` of 4,000 frames is a mesh with 8,000 morph targets and accessors; copying every
 * property of it to protect one extras object was 0.8 s of a 1.8 s export.
 *
 * @example
 * ```ts
 * import { Document, NodeIO } from "@gltf-transform/core";
 * import { keepingExtras } from "./writable.ts";
 *
 * const doc = new Document();
 * const written = keepingExtras(doc, () => new NodeIO().writeJSON(doc));
 * ```
 */
export function keepingExtras<T>(doc: Document, write: () => T): T {
  const meshes = doc.getRoot().listMeshes().filter(writerChangesMeshExtras);
  const own = meshes.map((mesh) => mesh.getExtras());
  meshes.forEach((mesh, i) => mesh.setExtras({ ...own[i] }));
  try {
    return write();
  } finally {
    meshes.forEach((mesh, i) => mesh.setExtras(own[i]));
  }
}

/** True when a mesh has both extras of its own and morph targets, whose names the writer adds to them. */
function writerChangesMeshExtras(mesh: Mesh): boolean {
  return hasOwnKey(mesh.getExtras()) &&
    mesh.listPrimitives().some((p) => p.listTargets().length > 0);
}
