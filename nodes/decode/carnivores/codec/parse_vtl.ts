/**
 * `.vtl` parser: one vertex animation of a `.3df` body (the Animator/C3Dit workflow: a modder's
 * source is a `.3df` plus one `.vtl` per animation, assembled into a `.car` by C3Dit or CMM).
 *
 * Two layouts exist, told apart by their size, which each must match exactly:
 *
 * - **Animator** (`formats/carnivores-dson.md` A.9; webcarnivores `vtl.ksy`; io_carnivores'
 *   `export_vtl`, which writes `<LLL` vertex count, KPS, frame count): a 12-byte header,
 *   `12 + F·V·6` bytes.
 * - **Engine** (the block the games' `LoadAnimation` reads inside a `.rsc`): two vertex counts (the
 *   engine keeps the second), KPS, a frame count: a 16-byte header, `16 + F·V·6` bytes — or
 *   `16 + (F+1)·V·6`, since the engine adds one to the stored count (`vtl.FramesCount++`).
 *
 * No file can fit two of them: `12 + 6a` never equals `16 + 6b` (the sides differ by 4 mod 6), and
 * F and F+1 frames differ by `6V` bytes. Frames are absolute positions ×16, as in a `.car`.
 *
 * @module
 */
import type { CarAnimation } from "./model.ts";
import { ByteWindow } from "../../../../runtime/binary.ts";
import { readableKps } from "./clip_rate.ts";
import type { WarningSink } from "../../../../runtime/node.ts";

/** Bytes of an Animator `.vtl` header: vertex count, KPS, frame count. */
export const VTL_ANIMATOR_HEADER_BYTES = 12;
/** Bytes of an engine-style `.vtl` header: two vertex counts, KPS, frame count. */
export const VTL_ENGINE_HEADER_BYTES = 16;

/** Which layout a `.vtl` was read as. */
export type VtlLayout = "animator" | "engine" | "engine+1";

/** A parsed `.vtl`: the clip (named by the caller) and the layout its size matched. */
export interface VtlClip extends CarAnimation {
  /** The layout the file's size matched. */
  readonly layout: VtlLayout;
  /** The file the clip came from, as named to the decoder. */
  readonly file: string;
}

/** A layout candidate: where its fields are and what size it implies. */
interface Candidate {
  readonly layout: VtlLayout;
  readonly header: number;
  readonly vertexCountAt: number;
  readonly kpsAt: number;
  readonly framesAt: number;
  readonly extraFrame: number;
}

const CANDIDATES: readonly Candidate[] = [
  { layout: "animator", header: 12, vertexCountAt: 0, kpsAt: 4, framesAt: 8, extraFrame: 0 },
  { layout: "engine", header: 16, vertexCountAt: 4, kpsAt: 8, framesAt: 12, extraFrame: 0 },
  { layout: "engine+1", header: 16, vertexCountAt: 4, kpsAt: 8, framesAt: 12, extraFrame: 1 },
];

/**
 * Parses a `.vtl` for a model of `vertexCount` vertices. A whole `.vtl` whose vertex count is not the
 * model's, and one of this model cut short, are skipped (undefined) with a warning; a file whose size
 * fits no layout otherwise is a `DecodeError` naming the file, the byte offset and expected vs found.
 *
 * @example
 * ```ts
 * const clip = parseVtl(await Deno.readFile("run.vtl"), "run.vtl", "run", model.points.count, console.warn);
 * if (clip) console.log(clip.layout, clip.frameCount, clip.kps);
 * ```
 */
export function parseVtl(
  bytes: Uint8Array,
  file: string,
  name: string,
  vertexCount: number,
  warn: WarningSink,
): VtlClip | undefined {
  const r = ByteWindow.of(bytes, "vtl", file);
  r.need(0, VTL_ANIMATOR_HEADER_BYTES, "vtl header (vertex count, KPS, frame count)");
  const size = bytes.byteLength;
  const i32 = (at: number) => at + 4 <= size ? r.i32(at) : NaN;
  // Plain arithmetic: doubles hold any product of two int32 and 6 exactly.
  const sized = (c: typeof CANDIDATES[number], v: number) => {
    const frames = i32(c.framesAt);
    return v > 0 && frames >= 0 && c.header + (frames + c.extraFrame) * v * 6 === size;
  };
  let fits = CANDIDATES.filter((c) => i32(c.kpsAt) > 0 && sized(c, i32(c.vertexCountAt)));
  // KPS 0 or negative (an exporter's unset KPS property, or damage): a layout with this model's vertex
  // count that fits the size is the file's; its KPS is read at 1 (clip_rate.ts), as in a .car.
  if (fits.length === 0) {
    fits = CANDIDATES.filter((c) => i32(c.vertexCountAt) === vertexCount && sized(c, vertexCount));
  }
  if (fits.length === 0) {
    // A file whose header is this model's (its vertex count, KPS > 0, frames > 0) but whose frames end
    // early was cut short (an interrupted copy or download); like a .car clip the file ends inside
    // (CarnivoresIO skips it), the clip is skipped and the model kept.
    const cut = CANDIDATES.find((c) =>
      i32(c.vertexCountAt) === vertexCount && i32(c.kpsAt) > 0 && i32(c.framesAt) > 0 &&
      size < c.header + (i32(c.framesAt) + c.extraFrame) * vertexCount * 6 &&
      (c.layout === "animator" || i32(0) === vertexCount)
    );
    if (cut) {
      const needed = cut.header + (i32(cut.framesAt) + cut.extraFrame) * vertexCount * 6;
      warn(
        `${file}: the file ends at byte ${size}, inside its ${i32(cut.framesAt)} frames × ${vertexCount} ` +
          `vertices (${cut.layout} layout), which need ${needed} bytes: the file is cut short; the clip is skipped`,
        { offset: size, file },
      );
      return undefined;
    }
    const animatorSize = 12 + i32(8) * i32(0) * 6;
    const engineSize = 16 + i32(12) * i32(4) * 6;
    r.fail(
      0,
      `a .vtl whose size fits its header for a model of ${vertexCount} vertices: Animator ` +
        `(vertex count, KPS, frames: 12 + frames × vertices × 6 bytes) or engine (two vertex counts, KPS, ` +
        `frames: 16 + frames (or frames + 1) × vertices × 6 bytes)`,
      `${size} bytes; the Animator reading (vertices ${i32(0)}, KPS ${i32(4)}, frames ${i32(8)}) needs ` +
        `${Number.isFinite(animatorSize) ? animatorSize : "a longer header"}, the engine reading ` +
        `(vertices ${i32(4)}, KPS ${i32(8)}, frames ${i32(12)}) needs ` +
        `${Number.isFinite(engineSize) ? engineSize : "a longer header"}`,
    );
  }
  const c = fits[0];
  const found = r.i32(c.vertexCountAt);
  if (found !== vertexCount) {
    // A whole .vtl of another version of the mesh (exported before or after vertices were added or
    // removed): its frames cannot be matched to this model's points. C3Dit refuses such a file and
    // keeps the model; so does the decoder, with the other clips.
    warn(
      `${file}: a .vtl of ${found} vertices (${c.layout} layout, byte ${c.vertexCountAt}) for a model of ` +
        `${vertexCount}: its frames belong to another version of the mesh; the clip is skipped`,
      { offset: c.vertexCountAt, file },
    );
    return undefined;
  }
  if (c.layout !== "animator") {
    const first = r.i32(0);
    if (first !== found) {
      warn(
        `${file}: the first vertex count (${first}) differs from the second (${found}); the second is used, ` +
          "as the games' LoadAnimation does",
        { offset: 0 },
      );
    }
  }
  const frameCount = r.i32(c.framesAt) + c.extraFrame;
  const kps = readableKps(r.i32(c.kpsAt), frameCount, `${file}: the animation`, c.kpsAt, warn);
  if (frameCount === 0) warn(`${file}: the animation has no frames; it is skipped`, { offset: c.framesAt });
  const values = frameCount * vertexCount * 3;
  const positions = new Int16Array(values);
  const view = new DataView(bytes.buffer, bytes.byteOffset + c.header, values * 2);
  for (let i = 0; i < values; i++) positions[i] = view.getInt16(i * 2, true);
  return { name, kps, frameCount, positions, layout: c.layout, file };
}
