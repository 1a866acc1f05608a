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
import { type ChunkLayout, placeViews, type Unsupported } from "./layout.ts";
import { setArrayQuietly } from "../accessors.ts";
import { sparseViews, sparseWritable } from "./sparse.ts";
import { valueFacts } from "../array_facts.ts";

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
  const sparseList = layout.views.flatMap((view) => view.kind === "sparse" ? view.accessors : []);
  // Sparse accessors are written here too (sparse.ts) unless they are of a kind only the writer's
  // own pass reproduces; then they keep their data and it derives their index and value views.
  const ownSparse = sparseWritable(sparseList);
  const sparse = new Set(ownSparse ? [] : sparseList);
  const accessors = root.listAccessors().filter((accessor) => !sparse.has(accessor));
  const arrays = accessors.map((accessor) => accessor.getArray());
  const textures = root.listTextures(), images = textures.map((texture) => texture.getImage());
  let written: ReturnType<NodeIO["writeJSON"]>;
  try {
    // Empty arrays of the same class keep each accessor's component type; no other code runs meanwhile.
    accessors.forEach((accessor, i) => arrays[i] && setArrayQuietly(accessor, emptyLike(arrays[i])));
    textures.forEach((texture, i) => images[i] && texture.setImage(NO_IMAGE));
    // glTF-Transform writes synchronously inside writeJSON; should it ever defer the work, it sees
    // the real data, and the values filled in below are the same ones it would have written.
    written = io.writeJSON(doc, { format: Format.GLB });
  } finally {
    accessors.forEach((accessor, i) => arrays[i] && setArrayQuietly(accessor, arrays[i]));
    textures.forEach((texture, i) => images[i] && texture.setImage(images[i]));
  }
  // An error here (a document glTF-Transform cannot write) is left to the caller's full write to give.
  const jsonDoc = await written.catch((error) => ({ unsupported: String(error) }));
  if ("unsupported" in jsonDoc) return jsonDoc;
  const { json, resources } = jsonDoc;
  const mismatch =
    (ownSparse
      ? writeSparseViews(json, layout)
      : takeSparseViews(json, Object.values(resources)[0], layout)) ??
      fillLayout(json, layout) ?? checkReferences(doc, json, layout);
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
 * The number of JSON buffer views each layout view stands for: one, or for the sparse accessors two
 * (indices, values) when any has an element that is not zero, else none.
 */
function jsonViewCounts(json: GLTF.IGLTF, layout: ChunkLayout): number[] {
  let next = 0;
  return layout.views.map((view) => {
    const defs = (json.accessors ?? []).slice(next, next += view.accessors.length);
    return view.kind !== "sparse" ? 1 : defs.some((def) => def.sparse) ? 2 : 0;
  });
}

/**
 * Writes the layout's sparse views (the writer saw their accessors empty, so it wrote their JSON
 * without counts, sparse entries or views): their bytes and the JSON the writer would have given them,
 * the two views inserted where it puts them and later view references moved past them. Returns what
 * does not match, if anything.
 */
function writeSparseViews(json: GLTF.IGLTF, layout: ChunkLayout): string | undefined {
  const defs = json.accessors ?? [], views = json.bufferViews ?? [];
  let next = 0, index = layout.images.length;
  for (const view of layout.views) {
    const first = next;
    next += view.accessors.length;
    if (view.kind !== "sparse") {
      index++;
      continue;
    }
    const own = defs.slice(first, next);
    if (
      own.length !== view.accessors.length || own.some((def) => def.sparse || def.bufferView !== undefined)
    ) {
      return "sparse accessors are not where the layout expects them";
    }
    if (view.accessors.some((accessor) => accessor.listExtensions().length > 0)) {
      return "sparse accessor with extensions";
    }
    const { bytes, viewLengths } = sparseViews(view.accessors, own, index);
    for (let m = 0; m < own.length; m++) {
      if ("max" in own[m]) {
        const accessor = view.accessors[m];
        const { min, max } = valueFacts(accessor.getArray()!, accessor.getElementSize());
        own[m].max = max.slice(); // copies: the JSON is the caller's to change
        own[m].min = min.slice();
      }
    }
    if (viewLengths.length === 0) continue;
    // Views and accessors after these move two places on, as in the writer's order.
    for (const def of defs) if (def.bufferView !== undefined && def.bufferView >= index) def.bufferView += 2;
    views.splice(index, 0, { buffer: 0, byteOffset: 0, byteLength: viewLengths[0] }, {
      buffer: 0,
      byteOffset: viewLengths[0],
      byteLength: viewLengths[1],
    });
    json.bufferViews = views;
    view.bytes = bytes;
    view.byteLength = bytes.byteLength;
    index += 2;
  }
  placeViews(layout);
}

/**
 * Gives the layout's sparse views the bytes and length the writer made them with (in a chunk that
 * held nothing else) and places the views again. Returns what does not match, if anything.
 */
function takeSparseViews(
  json: GLTF.IGLTF,
  bin: Uint8Array | undefined,
  layout: ChunkLayout,
): string | undefined {
  const counts = jsonViewCounts(json, layout);
  let index = layout.images.length;
  for (const [k, view] of layout.views.entries()) {
    if (view.kind === "sparse" && counts[k] === 2) {
      const [indices, values] = [json.bufferViews?.[index], json.bufferViews?.[index + 1]];
      const start = indices?.byteOffset ?? 0, end = values ? (values.byteOffset ?? 0) + values.byteLength : 0;
      if (
        !indices || !values || !bin || start + indices.byteLength !== values.byteOffset ||
        end > bin.byteLength
      ) {
        return "sparse views are not where the layout expects them";
      }
      view.bytes = bin.subarray(start, end);
      view.byteLength = end - start;
    }
    index += counts[k];
  }
  placeViews(layout);
}

/**
 * Writes `layout`'s sizes, offsets, counts and bounds into the views and accessors, as the writer
 * does (bounds where it wrote them, as its `getMax`/`getMin` and `Math.fround` give them). Returns
 * what does not match `layout`, if anything.
 *
 * Indexed loops and the bounds in a function of their own, not `entries()` destructuring and
 * glTF-Transform's `getMax`/`getMin`: with those inlined, TurboFan took 200–250 ms to compile this
 * function in every process that writes a few dozen files.
 */
function fillLayout(json: GLTF.IGLTF, layout: ChunkLayout): string | undefined {
  const views = json.bufferViews ?? [], defs = json.accessors ?? [];
  const counts = jsonViewCounts(json, layout);
  let expected = layout.images.length;
  for (let k = 0; k < counts.length; k++) expected += counts[k];
  if (defs.length !== layout.accessors.length) {
    return `${defs.length} accessors, layout ${layout.accessors.length}`;
  }
  if (views.length !== expected) return `${views.length} buffer views, layout ${expected}`;
  for (let i = 0; i < layout.images.length; i++) {
    if (json.images?.[i]?.bufferView !== i) return `image ${i} is not in buffer view ${i}`;
    views[i].byteOffset = layout.images[i].byteOffset;
    views[i].byteLength = layout.images[i].byteLength;
  }
  let next = 0, index = layout.images.length;
  for (let k = 0; k < layout.views.length; k++) {
    const view = layout.views[k];
    if (view.kind === "sparse") {
      // The writer wrote these accessors from their data: only their views move.
      for (let m = 0; m < view.accessors.length; m++) {
        if (defs[next + m].bufferView !== undefined) return "sparse accessor with a view";
      }
      next += view.accessors.length;
      if (counts[k] === 2) {
        views[index].byteOffset = view.byteOffset;
        views[index + 1].byteOffset = view.byteOffset + views[index].byteLength;
      }
      index += counts[k];
      continue;
    }
    const def = views[index];
    if (def.buffer !== 0 || def.byteStride !== (view.kind === "interleaved" ? view.byteStride : undefined)) {
      return `buffer view ${index} is not the layout's`;
    }
    def.byteOffset = view.byteOffset;
    def.byteLength = view.byteLength;
    for (let m = 0; m < view.accessors.length; m++) {
      const mismatch = fillAccessor(defs[next], view.accessors[m], index, view.offsets[m], view.kind);
      if (mismatch) return `accessor ${next} ${mismatch}`;
      next++;
    }
    index++;
  }
  if (layout.byteLength) {
    if (json.buffers?.length !== 1) return "no buffer for the binary chunk";
    json.buffers[0].byteLength = layout.byteLength;
  }
}

/** Fills one accessor's count, offset and bounds; returns what does not match the layout, if anything. */
function fillAccessor(
  def: GLTF.IAccessor,
  accessor: Accessor,
  view: number,
  offset: number,
  kind: "interleaved" | "packed",
): string | undefined {
  if (
    def.bufferView !== view || def.type !== accessor.getType() ||
    def.componentType !== accessor.getComponentType() || (kind === "interleaved" && def.byteOffset !== offset)
  ) return "is not the layout's";
  def.count = accessor.getCount();
  def.byteOffset = offset;
  if ("max" in def) {
    // From the array's one pass, which the export repair's check may have made already and the
    // output check reads again (`array_facts.ts`). Copies: the JSON is the caller's to change.
    const { min, max } = valueFacts(accessor.getArray()!, accessor.getElementSize());
    def.max = max.slice();
    def.min = min.slice();
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
