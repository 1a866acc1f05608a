/**
 * `.car` clips whose frames hold another number of vertices than the model: the mesh was edited
 * (points deleted or added in C3Dit or a 3DF editor) after the clips were made, and the tool kept the
 * clips as they were. Every frame is then `S × 6` bytes for the clips' own vertex count `S`, not the
 * header's `V`. The game reads `V` per frame, so from the second frame on it plays each frame shifted
 * into the next one, and the next clip's header is taken from frame data.
 *
 * The sections say so: read with `S`, every declared clip and sound ends exactly at the end of the
 * file (or at the anim→sound table), and the frames look like the model's points. When exactly one
 * such `S` exists it is read, each frame's first `min(S, V)` vertices taken as the model's (points
 * the model has beyond `S` keep their rest place), with a warning: that is right only if the points
 * removed or added were the last ones, which the file cannot tell.
 *
 * @module
 */
import { NAME_BYTES } from "./model.ts";
import { ANIMATION_HEADER_BYTES, type SectionSearch, tailEnd } from "./car_sections.ts";
import { endsFile } from "./car_section_ends.ts";
import { correlation, holdsName } from "./frame_likeness.ts";

/** Smallest mean per-axis correlation of a clip's first and last frames with the model's points. */
const POINT_LIKE = 0.3;

/**
 * The vertex count every clip's frames hold when it is not the search's `vertexCount` and exactly one
 * count (from half to twice `vertexCount`) makes the declared clips and sounds end at the end of the
 * file (or `tableBytes` before it) with frames that track `base` (the model's points); undefined
 * otherwise (and without `base`). With `named`, every clip header after the first, found with that
 * count, must also hold a name (printable text ended by a NUL): evidence a header taken from frame data
 * does not give.
 *
 * @example
 * ```ts
 * const search = { view, at: textureEnd, vertexCount: 47, animations: 2, sounds: 0, tableBytes: 256, base };
 * const stride = clipVertexCount(search); // 48
 * ```
 */
export function clipVertexCount(search: SectionSearch, named = false): number | undefined {
  const { view, at, vertexCount, animations, sounds, base } = search;
  if (!base) return undefined;
  if (animations <= 0 || vertexCount <= 0) return undefined;
  const size = view.byteLength;
  const found: number[] = [];
  // An edit removes or adds part of a mesh, not most of it: half to twice the model's points are tried.
  const most = Math.min(0xffff, 2 * vertexCount, Math.floor((size - at) / 6));
  for (let stride = Math.ceil(vertexCount / 2); stride <= most && found.length < 2; stride++) {
    if (stride === vertexCount) continue;
    const clipsEnd = tailEnd(view, at, stride, animations, 0);
    if (clipsEnd < 0) continue;
    const end = tailEnd(view, clipsEnd, 0, 0, sounds);
    if (endsFile({ ...search, appended: undefined }, end)) found.push(stride);
  }
  if (found.length !== 1) return undefined;
  // Clips without frames fit any count: only frames can say which it is.
  return framesTrack(view, at, found[0], Math.min(found[0], vertexCount), animations, base, named)
    ? found[0]
    : undefined;
}

/**
 * Whether every clip's first and last frames, `stride` vertices each, track the first `n` points (and,
 * with `named`, every clip header after the first holds a name).
 */
function framesTrack(
  view: DataView,
  at: number,
  stride: number,
  n: number,
  animations: number,
  base: Float32Array,
  named: boolean,
): boolean {
  let seen = 0;
  for (let clip = 0; clip < animations; clip++) {
    if (named && clip > 0 && !holdsName(view, at)) return false;
    const frames = view.getInt32(at + NAME_BYTES + 4, true);
    const dataAt = at + ANIMATION_HEADER_BYTES;
    for (const frame of frames > 0 ? [0, frames - 1] : []) {
      const frameAt = dataAt + frame * stride * 6;
      const rs = [0, 1, 2].map((axis) =>
        correlation(n, (v) => view.getInt16(frameAt + (v * 3 + axis) * 2, true), (v) => base[v * 3 + axis])
      ).filter((r) => !Number.isNaN(r));
      if (rs.length && rs.reduce((x, y) => x + y, 0) / rs.length < POINT_LIKE) return false;
    }
    seen += frames;
    at = dataAt + frames * stride * 6;
  }
  return seen > 0;
}
