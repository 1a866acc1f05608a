/**
 * glTF-Transform's JSON for a document, without its writer building the binary chunk: the writer
 * runs while every accessor array and image is swapped for an empty one, then the sizes, offsets,
 * counts and bounds it would have written are filled in from a {@link ChunkLayout}, and every
 * reference checked against it. Everything else in the JSON (materials, extensions, extras, key
 * order) is the writer's own.
 *
 * @module
 */
import {
  type Accessor,
  type Document,
  Format,
  type GLTF,
  type NodeIO,
  type TypedArray,
} from "@gltf-transform/core";
import type { ChunkLayout, Unsupported } from "./layout.ts";

const NO_IMAGE = new Uint8Array(0);

/**
 * The JSON glTF-Transform writes for `doc` as GLB, with the binary chunk of `layout` described in it,
 * or why the JSON does not match `layout` (then nothing is known, and the caller writes the old way).
 * `doc` is restored before this returns its promise: no other code sees the swapped arrays.
 *
 * @example
 * ```ts
 * import { Document, NodeIO } from "@gltf-transform/core";
 * import { chunkLayout, type ChunkLayout } from "./layout.ts";
 * import { writeJsonForLayout } from "./json.ts";
 *
 * const doc = new Document();
 * const json = await writeJsonForLayout(new NodeIO(), doc, chunkLayout(doc) as ChunkLayout);
 * ```
 */
export async function writeJsonForLayout(
  io: NodeIO,
  doc: Document,
  layout: ChunkLayout,
): Promise<GLTF.IGLTF | Unsupported> {
  const root = doc.getRoot();
  const accessors = root.listAccessors(), arrays = accessors.map((accessor) => accessor.getArray());
  const textures = root.listTextures(), images = textures.map((texture) => texture.getImage());
  let written: ReturnType<NodeIO["writeJSON"]>;
  try {
    accessors.forEach((accessor, i) => arrays[i] && accessor.setArray(emptyLike(arrays[i])));
    textures.forEach((texture, i) => images[i] && texture.setImage(NO_IMAGE));
    // glTF-Transform writes synchronously inside writeJSON; should it ever defer the work, it sees
    // the real data, and the values filled in below are the same ones it would have written.
    written = io.writeJSON(doc, { format: Format.GLB });
  } finally {
    accessors.forEach((accessor, i) => arrays[i] && accessor.setArray(arrays[i]));
    textures.forEach((texture, i) => images[i] && texture.setImage(images[i]));
  }
  const { json } = await written;
  const mismatch = fillLayout(json, layout) ?? checkReferences(doc, json, layout);
  return mismatch ? { unsupported: mismatch } : json;
}

const empties = new Map<unknown, TypedArray>();

/** A shared empty array of `array`'s type, so the accessor keeps its component type. */
function emptyLike(array: TypedArray): TypedArray {
  let empty = empties.get(array.constructor);
  if (!empty) {
    empties.set(array.constructor, empty = new (array.constructor as new (n: number) => TypedArray)(0));
  }
  return empty;
}

/**
 * Writes `layout`'s sizes, offsets, counts and bounds into the views and accessors, as the writer
 * does (bounds where it wrote them, from the same `getMax`/`getMin` and `Math.fround`). Returns what
 * does not match `layout`, if anything.
 */
function fillLayout(json: GLTF.IGLTF, layout: ChunkLayout): string | undefined {
  const views = json.bufferViews ?? [], defs = json.accessors ?? [];
  if (defs.length !== layout.accessors.length) {
    return `${defs.length} accessors, layout ${layout.accessors.length}`;
  }
  if (views.length !== layout.images.length + layout.views.length) {
    return `${views.length} buffer views, layout ${layout.images.length + layout.views.length}`;
  }
  for (const [i, slot] of layout.images.entries()) {
    if (json.images?.[i]?.bufferView !== i) return `image ${i} is not in buffer view ${i}`;
    Object.assign(views[i], { byteOffset: slot.byteOffset, byteLength: slot.byteLength });
  }
  let next = 0;
  for (const [k, view] of layout.views.entries()) {
    const index = layout.images.length + k, def = views[index];
    if (def.buffer !== 0 || def.byteStride !== (view.kind === "interleaved" ? view.byteStride : undefined)) {
      return `buffer view ${index} is not the layout's`;
    }
    def.byteOffset = view.byteOffset;
    def.byteLength = view.byteLength;
    for (const [m, accessor] of view.accessors.entries()) {
      const accessorDef = defs[next++];
      const offset = view.offsets[m];
      if (
        accessorDef.bufferView !== index || accessorDef.type !== accessor.getType() ||
        accessorDef.componentType !== accessor.getComponentType() ||
        (view.kind === "interleaved" && accessorDef.byteOffset !== offset)
      ) return `accessor ${next - 1} is not the layout's`;
      accessorDef.count = accessor.getCount();
      accessorDef.byteOffset = offset;
      if ("max" in accessorDef) {
        accessorDef.max = accessor.getMax([]).map(Math.fround);
        accessorDef.min = accessor.getMin([]).map(Math.fround);
      }
    }
  }
  if (layout.byteLength) {
    if (json.buffers?.length !== 1) return "no buffer for the binary chunk";
    json.buffers[0].byteLength = layout.byteLength;
  }
}

/**
 * Checks that the JSON's accessor references (primitives, morph targets, skins, animations) point at
 * the accessors the layout put there, so the layout's order is the writer's.
 */
function checkReferences(doc: Document, json: GLTF.IGLTF, layout: ChunkLayout): string | undefined {
  const indexOf = new Map(layout.accessors.map((accessor, i) => [accessor, i]));
  const same = (accessor: Accessor | null, index: number | undefined) =>
    accessor ? indexOf.get(accessor) === index : index === undefined;
  const root = doc.getRoot();
  for (const [m, mesh] of root.listMeshes().entries()) {
    for (const [p, primitive] of mesh.listPrimitives().entries()) {
      const def = json.meshes?.[m]?.primitives[p];
      const where = `mesh ${m} primitive ${p}`;
      if (!def || !same(primitive.getIndices(), def.indices)) return `${where}: indices`;
      for (const semantic of primitive.listSemantics()) {
        if (!same(primitive.getAttribute(semantic), def.attributes[semantic])) return `${where}: ${semantic}`;
      }
      for (const [t, target] of primitive.listTargets().entries()) {
        for (const semantic of target.listSemantics()) {
          if (!same(target.getAttribute(semantic), def.targets?.[t]?.[semantic])) {
            return `${where} target ${t}: ${semantic}`;
          }
        }
      }
    }
  }
  for (const [s, skin] of root.listSkins().entries()) {
    if (!same(skin.getInverseBindMatrices(), json.skins?.[s]?.inverseBindMatrices)) return `skin ${s}`;
  }
  for (const [a, animation] of root.listAnimations().entries()) {
    for (const [s, sampler] of animation.listSamplers().entries()) {
      const def = json.animations?.[a]?.samplers[s];
      if (!same(sampler.getInput(), def?.input) || !same(sampler.getOutput(), def?.output)) {
        return `animation ${a} sampler ${s}`;
      }
    }
  }
}
