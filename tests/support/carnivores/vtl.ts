/**
 * Writers for `.vtl` animations in the two layouts `parseVtl` reads: Animator's (vertex count, KPS,
 * frames — what io_carnivores' `export_vtl` writes) and the engine's (two vertex counts, KPS, frames,
 * as inside a `.rsc`; `storedFrames` lets a test write the count one less than the frames present).
 *
 * @module
 */
import { ByteWriter } from "../byte_writer.ts";
import type { CarAnimation } from "../../../nodes/decode/carnivores/codec/model.ts";

/** Options of {@link encodeVtl}. */
export interface VtlOptions {
  /** Header layout; default `"animator"`. */
  readonly layout?: "animator" | "engine";
  /** The vertex count written (default: the clip's, from `positions.length / frames / 3`). */
  readonly vertexCount?: number;
  /** The first of the engine layout's two counts (default: the same as the second). */
  readonly firstVertexCount?: number;
  /** The frame count written (default `frameCount`; the games' RSC blocks store one less). */
  readonly storedFrames?: number;
}

/**
 * Encodes a clip as a `.vtl`.
 *
 * @example
 * ```ts
 * const bytes = encodeVtl(animation("run", 12, 4, points, 0));
 * ```
 */
export function encodeVtl(clip: CarAnimation, options: VtlOptions = {}): Uint8Array {
  const layout = options.layout ?? "animator";
  const vertexCount = options.vertexCount ??
    (clip.frameCount ? clip.positions.length / clip.frameCount / 3 : 0);
  const header = layout === "animator" ? 12 : 16;
  const w = new ByteWriter(header + clip.positions.length * 2);
  if (layout === "engine") w.i32(options.firstVertexCount ?? vertexCount);
  w.i32(vertexCount);
  w.i32(clip.kps);
  w.i32(options.storedFrames ?? clip.frameCount);
  for (const value of clip.positions) w.i16(value);
  return w.finish();
}
