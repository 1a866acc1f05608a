/**
 * Writing a GLB's binary chunk straight into the GLB: every buffer view is copied once, from the
 * accessor arrays and images into the output, at the offsets of a {@link ChunkLayout}.
 *
 * @module
 */
import type { ChunkLayout, InterleavedView, LayoutArray } from "./layout.ts";
import { scatter, words } from "../strided.ts";

/**
 * Writes the binary chunk `layout` describes into `out` from byte `at` (a multiple of 4; the bytes
 * there must be zero, as a new array's are: padding is not written).
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { chunkLayout, type ChunkLayout } from "./layout.ts";
 * import { writeChunk } from "./chunk.ts";
 *
 * const doc = new Document();
 * const layout = chunkLayout(doc) as ChunkLayout;
 * const out = new Uint8Array(layout.byteLength);
 * writeChunk(layout, out, 0);
 * ```
 */
export function writeChunk(layout: ChunkLayout, out: Uint8Array, at: number): void {
  if ((out.byteOffset + at) % 4) throw new RangeError(`binary chunk at byte ${at}: not 4-byte aligned`);
  if (at + layout.byteLength > out.byteLength) {
    throw new RangeError(`binary chunk of ${layout.byteLength} bytes at ${at}: output has ${out.byteLength}`);
  }
  for (const view of layout.views) {
    const start = at + view.byteOffset;
    if (view.kind === "sparse") {
      if (view.bytes) out.set(view.bytes, start);
    } else if (view.kind === "packed") {
      view.accessors.forEach((accessor, i) =>
        out.set(bytesOf(accessor.getArray()!), start + view.offsets[i])
      );
    } else {
      writeInterleaved(view, out, start);
    }
  }
  for (const image of layout.images) out.set(image.texture.getImage()!, at + image.byteOffset);
}

/**
 * Copies each attribute into its place in every vertex. Components move as 8-, 16- or 32-bit words,
 * so float bits (NaN payloads, −0) are kept exactly, as a byte copy would.
 */
function writeInterleaved(view: InterleavedView, out: Uint8Array, start: number): void {
  const { byteStride, count } = view;
  if (count === 0) return;
  view.accessors.forEach((accessor, i) => {
    const array = accessor.getArray() as LayoutArray;
    const elementBytes = accessor.getElementSize() * array.BYTES_PER_ELEMENT;
    const at = start + view.offsets[i];
    if (elementBytes === byteStride) return out.set(bytesOf(array), at); // the view holds this attribute alone
    const width = array.BYTES_PER_ELEMENT;
    const span = (count - 1) * byteStride + elementBytes;
    const target = words(width, out.buffer, out.byteOffset + at, span / width);
    const source = words(width, array.buffer, array.byteOffset, array.length);
    scatter(source, target, accessor.getElementSize(), byteStride / width, count);
  });
}

function bytesOf(array: ArrayBufferView): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}
