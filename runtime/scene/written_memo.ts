/**
 * The slot in which `writeGlb` (`gltf_io.ts`) remembers the last document it wrote, apart from the
 * writer, so the executor can forget an entry without loading the writer at start-up.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";

/** The remembered write: its document, and whatever the writer keeps of it. */
export const writtenMemo: { slot?: { readonly doc: Document } } = {};

/**
 * Forgets what `writeGlb` remembers of `doc`: a node that owns a scene (`ctx.owns`) is about to
 * change it in place, after which the memo would hand out the bytes of the scene as it was.
 */
export function forgetWritten(doc: Document): void {
  if (writtenMemo.slot?.doc === doc) writtenMemo.slot = undefined;
}
