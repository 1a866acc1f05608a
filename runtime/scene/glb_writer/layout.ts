/**
 * The binary-chunk layout glTF-Transform 4.5's writer (`GLTFWriter.write`, interleaved vertex layout)
 * gives a document: which accessors share a buffer view, in what order, at which offsets. Computed
 * from the document alone, without touching vertex data, so the chunk can be written straight into
 * the GLB. The grouping mirrors the writer's: vertex attributes interleaved in one view per primitive
 * (or morph target), all indices in one view, every other usage (inverse bind matrices, animation)
 * in one packed view each, then the images, each followed by padding to 8 bytes.
 *
 * @module
 */
import {
  Accessor,
  type Document,
  Format,
  type Property,
  PropertyType,
  type Texture,
  VERSION,
} from "@gltf-transform/core";
import { parentEdgesOf } from "../graph_props.ts";

/** Typed arrays the layout copies as raw bytes or 8/16/32-bit words (no float16/float64). */
export type LayoutArray = Float32Array | Uint32Array | Uint16Array | Int16Array | Uint8Array | Int8Array;

/** A buffer view of vertex attributes, interleaved (`byteStride` set, as the writer always does). */
export interface InterleavedView {
  readonly kind: "interleaved";
  readonly accessors: readonly Accessor[];
  /** Each accessor's offset inside one vertex. */
  readonly offsets: readonly number[];
  readonly byteStride: number;
  readonly count: number;
  byteOffset: number;
  readonly byteLength: number;
}

/** A buffer view of whole accessors one after another, each padded to 4 bytes (indices, animation, IBMs). */
export interface PackedView {
  readonly kind: "packed";
  /** The writer's usage of the group (`ELEMENT_ARRAY_BUFFER` views get a target, others none). */
  readonly usage: string;
  readonly accessors: readonly Accessor[];
  /** Each accessor's offset inside the view. */
  readonly offsets: readonly number[];
  byteOffset: number;
  readonly byteLength: number;
}

/**
 * The sparse accessors: glTF-Transform's writer makes their (small) index and value views itself, so
 * their bytes and length are taken from its output once it has written the JSON (`bytes`).
 */
export interface SparseViews {
  readonly kind: "sparse";
  readonly accessors: readonly Accessor[];
  byteOffset: number;
  byteLength: number;
  /** The index view's bytes followed by the value view's, as the writer made them. */
  bytes?: Uint8Array;
}

/** One embedded image and where it sits in the binary chunk. */
export interface ImageSlot {
  readonly texture: Texture;
  byteOffset: number;
  readonly byteLength: number;
}

/** Where every accessor and image of a document goes in its GLB's binary chunk. */
export interface ChunkLayout {
  /** Accessors in the order of the JSON's `accessors`. */
  readonly accessors: readonly Accessor[];
  /** Accessor views, in the order of the JSON's `bufferViews` after the image views. */
  readonly views: readonly (InterleavedView | PackedView | SparseViews)[];
  /** Images in the order of the JSON's `images` (and of their views, first in `bufferViews`). */
  readonly images: readonly ImageSlot[];
  /** The binary chunk's length before the GLB's own padding. */
  byteLength: number;
}

/** Why a document is outside what {@link chunkLayout} reproduces; the caller writes it the old way. */
export type Unsupported = { readonly unsupported: string };

/**
 * The glTF-Transform release whose writer this layout mirrors. Another one may lay views out otherwise:
 * it is written by its own writer until the byte-identity tests pass on it and this is moved on.
 */
export const MIRRORED_GLTF_TRANSFORM = "v4.5.1";

/** Usages the writer groups by their first non-root parent (a primitive or morph target). */
const GROUPED_BY_PARENT = "ARRAY_BUFFER";
const SPARSE = "SPARSE";
const SUPPORTED_ARRAYS: readonly unknown[] = [
  Float32Array,
  Uint32Array,
  Uint16Array,
  Int16Array,
  Uint8Array,
  Int8Array,
];

/**
 * The layout of `doc`'s binary chunk, or why it cannot be given exactly. `doc` must have at most one
 * buffer (as GLB requires) and is only read. For `Format.GLTF` (a `.gltf`'s one buffer) the images
 * stay out of it, as the writer gives each a URI of its own: the layout holds no image slots.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { chunkLayout } from "./layout.ts";
 *
 * const doc = new Document();
 * const layout = chunkLayout(doc);
 * if ("unsupported" in layout) throw new Error(layout.unsupported);
 * console.log(layout.byteLength); // 0
 * ```
 */
export function chunkLayout(doc: Document, format: Format = Format.GLB): ChunkLayout | Unsupported {
  if (VERSION !== MIRRORED_GLTF_TRANSFORM) {
    return {
      unsupported: `glTF-Transform ${VERSION}, not the ${MIRRORED_GLTF_TRANSFORM} whose layout this mirrors`,
    };
  }
  const root = doc.getRoot();
  // Extensions that hook the writer's accessor or buffer passes lay views out themselves (Draco,
  // meshopt, GPU instancing, structural metadata); material extensions only add JSON.
  for (const extension of root.listExtensionsUsed()) {
    if (extension.prewriteTypes.some((type) => type !== PropertyType.MESH)) {
      return { unsupported: `extension ${extension.extensionName} writes its own buffer views` };
    }
  }
  const buffers = root.listBuffers();
  if (buffers.length > 1) return { unsupported: "more than one buffer" };
  const groups = buffers.length ? groupAccessors(doc, buffers[0]) : [];
  if ("unsupported" in groups) return groups;

  const accessors: Accessor[] = [];
  const views: (InterleavedView | PackedView | SparseViews)[] = [];
  for (const { usage, members } of groups) {
    accessors.push(...members);
    const view = usage === GROUPED_BY_PARENT
      ? interleavedView(members)
      : usage === SPARSE
      ? { kind: "sparse" as const, accessors: members, byteOffset: 0, byteLength: 0 }
      : packedView(members, usage);
    if ("unsupported" in view) return view;
    views.push(view);
  }

  const images: ImageSlot[] = [];
  for (const texture of format === Format.GLB ? root.listTextures() : []) {
    // The writer pairs image views with `images` by position, which a texture without an image breaks.
    const image = texture.getImage();
    if (!image) return { unsupported: `texture ${root.listTextures().indexOf(texture)} has no image` };
    if (buffers.length === 0) return { unsupported: "images but no buffer" };
    images.push({ texture, byteOffset: 0, byteLength: image.byteLength });
  }
  const layout = { accessors, views, images, byteLength: 0 };
  placeViews(layout);
  return layout;
}

/**
 * Sets every view's and image's offset, and the chunk's length, from their lengths: views one after
 * another, then the images, each followed by padding to 8 bytes. Run again once sparse views are known.
 */
export function placeViews(layout: ChunkLayout): void {
  let byteLength = 0;
  for (const view of layout.views) {
    view.byteOffset = byteLength;
    byteLength += view.byteLength;
  }
  for (const image of layout.images) {
    image.byteOffset = byteLength;
    byteLength += image.byteLength;
    byteLength += byteLength % 8 ? 8 - (byteLength % 8) : 0; // KhronosGroup/glTF#1935
  }
  layout.byteLength = byteLength;
}

interface AccessorGroup {
  readonly usage: string;
  readonly members: Accessor[];
}

/** The writer's accessor groups of `buffer`, in its order: by usage, vertex attributes also by parent. */
function groupAccessors(doc: Document, buffer: Property): AccessorGroup[] | Unsupported {
  const graph = doc.getGraph();
  const groups = new Map<unknown, AccessorGroup>();
  for (const parent of graph.listParents(buffer)) {
    if (!(parent instanceof Accessor)) continue;
    const accessor = parent;
    const array = accessor.getArray();
    if (!array || !SUPPORTED_ARRAYS.includes(array.constructor)) {
      return {
        unsupported: `accessor '${accessor.getName()}' has ${array ? array.constructor.name : "no array"}`,
      };
    }
    // A length that is not whole elements makes the writer read past the array.
    if (!Number.isInteger(accessor.getCount())) {
      return { unsupported: `accessor '${accessor.getName()}' is not whole elements` };
    }
    const { usage, key } = groupOf(doc, accessor);
    let group = groups.get(key);
    if (!group) groups.set(key, group = { usage, members: [] });
    group.members.push(accessor);
  }
  return [...groups.values()];
}

/**
 * An accessor's usage — `SPARSE` for a sparse accessor, else that of its first parent edge that declares
 * one (or `OTHER`) — and the key of its group: the usage, or for vertex attributes (grouped by parent)
 * the first parent that is not the root. One pass over the parent edges for both: in the writer's
 * `listParents` order, which is theirs without repeats.
 */
function groupOf(doc: Document, accessor: Accessor): { usage: string; key: unknown } {
  if (accessor.getSparse()) return { usage: SPARSE, key: SPARSE };
  // The graph's own set of edges, not a copy of it per accessor (read twice, changed by neither loop).
  const edges = parentEdgesOf(doc.getGraph(), accessor);
  let usage = "OTHER";
  for (const edge of edges) {
    const declared = (edge.getAttributes() as { usage?: string }).usage;
    if (declared) {
      usage = declared;
      break;
    }
  }
  if (usage !== GROUPED_BY_PARENT) return { usage, key: usage };
  for (const edge of edges) {
    const parent = edge.getParent();
    if (parent.propertyType !== PropertyType.ROOT) return { usage, key: parent };
  }
  return { usage, key: undefined };
}

function interleavedView(members: Accessor[]): InterleavedView | Unsupported {
  const count = members[0].getCount();
  const offsets: number[] = [];
  let byteStride = 0;
  for (const accessor of members) {
    // The writer reads every member for the first one's vertex count; a shorter one would be written
    // as NaN or zero, a longer one cut: an invalid file either way, left to the writer to produce.
    if (accessor.getCount() !== count) return { unsupported: "vertex attributes of different counts" };
    offsets.push(byteStride);
    byteStride += padded(accessor.getElementSize() * accessor.getComponentSize());
  }
  return {
    kind: "interleaved",
    accessors: members,
    offsets,
    byteStride,
    count,
    byteOffset: 0,
    byteLength: count * byteStride,
  };
}

function packedView(members: Accessor[], usage: string): PackedView {
  const offsets: number[] = [];
  let byteLength = 0;
  for (const accessor of members) {
    offsets.push(byteLength);
    byteLength += padded(accessor.getArray()!.byteLength);
  }
  return { kind: "packed", usage, accessors: members, offsets, byteOffset: 0, byteLength };
}

/** `length` rounded up to 4 bytes, as the writer pads accessors and vertex elements. */
function padded(length: number): number {
  return Math.ceil(length / 4) * 4;
}
