/**
 * An `.rsc` object whose texture size field is not the size of the texture written after it. Map
 * tools that convert an object's picture write the field from the source picture (another height) and
 * the texture at the height they converted to — the `.3df` and `.car` habit (see `parse_3df.ts`,
 * `car_repair.ts`). In an area the field is the only way to find everything after the object, so
 * neither layout fits and the games read the rest of the area from the wrong bytes.
 *
 * The sections themselves decide: with the object's texture at its written height, every section
 * after it (objects, skies, fogs, sounds, waters) ends exactly at the end of the file. The object whose
 * field is wrong is where the walk's chain of objects breaks: its stored size leads to no real object
 * (points and faces, its body inside the file), or it is the last object the walk reached. Those
 * objects alone are tried with every whole number of rows, an object whose stored size leads to a real
 * object being read right; a height that fits is read only when it is the one (its faces' texel rows
 * inside it breaking a tie), with the object named in a warning. So a file cut short, where every
 * object leads to the next, costs one object's rows, not every object's (before, 20 to 50 times a
 * whole parse of a 200-object area).
 *
 * @module
 */
import { FACE_BYTES, HEADER_3DF_BYTES, TEXTURE_ROW_BYTES } from "./model.ts";
import { layout3df } from "./parse_3df.ts";
import {
  FOG_BYTES,
  OBJ_ANIMATION_HEADER_BYTES,
  OBJ_INFO_BYTES,
  OF_ANIMATED,
  RSC_CLOUD_MAP_BYTES,
  RSC_SKY_BYTES,
  RSC_TILE_BYTES,
  type RscLayout,
  type RscMisfit,
  type RscTextureFix,
  type RscVersion,
  walkRsc,
} from "./rsc_layout.ts";

/** The most rows tried (a 1024×512 picture written unscaled, as for `.car` textures). */
const MAX_TEXTURE_ROWS = 2048;
/**
 * Objects the search's walks may read in all, per object of the area and at least: a walk resumed at
 * object `o` reads up to every object after it, so a damaged area whose every candidate height lands on
 * a later real object's header could read the area many times over; past the budget the area is
 * refused as it was before the search. The repair itself reads the objects after its object once.
 */
const SEARCH_BUDGET_PER_OBJECT = 4;
const SEARCH_BUDGET_MIN = 4096;
/**
 * How many objects before a break in the chain (or before the last object reached) are searched: bytes
 * read from a wrong place pass for an object now and then (an animation's frame count off by one moves
 * the next object 6·V bytes, into its own header and faces), seldom for two in a row.
 */
const CHAIN_SLACK = 2;

/** One height that makes the area fit. */
export interface RscTextureCandidate extends RscTextureFix {
  /** The size stored in the object's header. */
  readonly stored: number;
  /** Byte of the stored size. */
  readonly at: number;
  /** The largest texel row the object's faces sample (-1 for a frame count fix). */
  readonly maxRow: number;
  /** The layout read with it. */
  readonly layout: RscLayout;
}

/** The search's work: file positions looked at (a height or count tried) and objects its walks read. */
export interface RscSearchWork {
  readonly positions: number;
  readonly objectsRead: number;
}

/** What {@link fittingObjectTexture} found. */
export type RscTextureFound =
  | { readonly kind: "fixed"; readonly fix: RscTextureCandidate }
  | { readonly kind: "ambiguous"; readonly candidates: readonly RscTextureCandidate[] }
  | { readonly kind: "none" };

/** What {@link fittingObjectTexture} found, and the work it took. */
export type RscTextureSearch = RscTextureFound & { readonly work: RscSearchWork };

/**
 * The one object texture height (whole rows, other than the stored size) with which the `version`
 * layout fits `bytes` exactly, searched over the objects the failed walk `misfit` reached. When
 * several fit, those whose faces sample no row past the height are kept; more than one left is
 * `ambiguous`.
 *
 * @example
 * ```ts
 * const found = fittingObjectTexture(bytes, "c2", walkRsc(bytes, "c2") as RscMisfit);
 * if (found.kind === "fixed") console.log(found.fix.object, found.fix.textureBytes);
 * ```
 */
export function fittingObjectTexture(
  bytes: Uint8Array,
  version: RscVersion,
  misfit: RscMisfit,
): RscTextureSearch {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found: RscTextureCandidate[] = [];
  const objectCount = view.getInt32(4, true);
  let budget = Math.max(SEARCH_BUDGET_MIN, SEARCH_BUDGET_PER_OBJECT * objectCount);
  let positions = 0, objectsRead = 0;
  const done = (result: RscTextureFound): RscTextureSearch => ({
    ...result,
    work: { positions, objectsRead },
  });
  // The object whose field is wrong is one the walk reached: the walk read everything after it wrong.
  // It is where the chain of objects breaks, or a few objects before (bytes read from a wrong place
  // can pass for an object or two), or among the last objects reached; and no object before it leads
  // to bytes that are no object at all (those are read as the file has them whatever its height).
  const breaks = misfit.bodies.map((body, object) => {
    positions++;
    return leadsTo(view, version, body, object, objectCount);
  });
  const last = misfit.bodies.length - 1;
  const firstLost = breaks.findIndex((b) => b === "nothing");
  const candidate = (object: number) =>
    (firstLost < 0 || object <= firstLost) &&
    (object >= last - CHAIN_SLACK ||
      breaks.slice(object, object + CHAIN_SLACK + 1).some((b) => b !== "object"));
  for (const [object, body] of misfit.bodies.entries()) {
    if (body + HEADER_3DF_BYTES > bytes.byteLength) break;
    const stored = view.getInt32(body + 12, true);
    const [v, f, b] = [0, 4, 8].map((k) => view.getInt32(body + k, true));
    if (v < 0 || f < 0 || b < 0) break;
    const textureAt = layout3df(v, f, b, 0).texture + body;
    const info = body - OBJ_INFO_BYTES;
    if (!candidate(object)) continue;
    // The objects before this one walk the same whatever its height: resume at its TObjInfo.
    const resume = { objects: misfit.walked.slice(0, object), at: info };
    for (let rows = 0; rows <= MAX_TEXTURE_ROWS; rows++) {
      const textureBytes = rows * TEXTURE_ROW_BYTES;
      if (textureAt + textureBytes > bytes.byteLength) break;
      if (textureBytes === stored) continue;
      positions++;
      if (
        !nextObjectPlausible(
          view,
          version,
          body - OBJ_INFO_BYTES,
          textureAt + textureBytes,
          object,
          objectCount,
        )
      ) {
        continue;
      }
      if (budget < 0) return done({ kind: "none" });
      const layout = walkRsc(bytes, version, false, { object, textureBytes }, resume);
      const read = objectsReadBy(layout, objectCount, object);
      budget -= read, objectsRead += read;
      if (!("objects" in layout)) continue;
      found.push({ object, textureBytes, stored, at: body + 12, maxRow: maxTexelRow(view, body, f), layout });
    }
    // An animated object's stored frame count off by one or two (a converter that stores it as a .car
    // does — the frames, not one less — or a hand edit), its texture as stored.
    const animationAt = textureAt + stored + (version === "c2" ? RSC_TILE_BYTES : 0);
    const animated = (view.getUint32(body - OBJ_INFO_BYTES + 28, true) & OF_ANIMATED) !== 0;
    if (!animated || stored < 0 || animationAt + OBJ_ANIMATION_HEADER_BYTES > bytes.byteLength) continue;
    const storedFrames = view.getInt32(animationAt + 12, true);
    for (const change of [-1, 1, -2, 2]) {
      const frames = storedFrames + change;
      if (frames < 0) continue;
      positions++;
      if (budget < 0) return done({ kind: "none" });
      const layout = walkRsc(bytes, version, false, { object, storedFrames: frames }, resume);
      const read = objectsReadBy(layout, objectCount, object);
      budget -= read, objectsRead += read;
      if (!("objects" in layout)) continue;
      found.push({
        object,
        storedFrames: frames,
        stored: storedFrames,
        at: animationAt + 12,
        maxRow: -1,
        layout,
      });
    }
  }
  if (found.length === 1) return done({ kind: "fixed", fix: found[0] });
  const inside = found.filter((c) =>
    c.textureBytes === undefined || c.maxRow <= c.textureBytes / TEXTURE_ROW_BYTES
  );
  if (inside.length === 1) return done({ kind: "fixed", fix: inside[0] });
  if (found.length === 0) return done({ kind: "none" });
  return done({ kind: "ambiguous", candidates: (inside.length ? inside : found).slice(0, 3) });
}

/**
 * What the object whose 3DF body is at `body` leads to with its sizes as stored: a real `object`
 * (`nextObjectPlausible`, strict; for the last object, the area's later sections inside the file),
 * `counts` that could be an object's but not a real one's, or `nothing` an object could be.
 */
function leadsTo(
  view: DataView,
  version: RscVersion,
  body: number,
  object: number,
  objectCount: number,
): "object" | "counts" | "nothing" {
  if (body + HEADER_3DF_BYTES > view.byteLength) return "nothing";
  const [v, f, b, t] = [0, 4, 8, 12].map((k) => view.getInt32(body + k, true));
  if (v < 0 || f < 0 || b < 0 || t < 0) return "nothing";
  const end = layout3df(v, f, b, 0).texture + body + t, info = body - OBJ_INFO_BYTES;
  if (nextObjectPlausible(view, version, info, end, object, objectCount, true)) return "object";
  return nextObjectPlausible(view, version, info, end, object, objectCount) ? "counts" : "nothing";
}

/**
 * A cheap look, before a whole walk, at what follows object `object` (TObjInfo at `info`) when its
 * texture ends at `end`: the billboard (C2) and animation block inside the file, and the next object's
 * 3DF header a real object's (points and faces, bones and texture not negative) with its body inside the
 * file; `strict`, its texture whole rows and its first face's corners among its points too. The last
 * object is left to the walk.
 */
function nextObjectPlausible(
  view: DataView,
  version: RscVersion,
  info: number,
  end: number,
  object: number,
  objectCount: number,
  strict = false,
): boolean {
  const size = view.byteLength;
  let at = end + (version === "c2" ? RSC_TILE_BYTES : 0);
  if (view.getUint32(info + 28, true) & OF_ANIMATED) {
    if (at + OBJ_ANIMATION_HEADER_BYTES > size) return false;
    const vertices = view.getInt32(at + 4, true), stored = view.getInt32(at + 12, true);
    if (vertices < 0 || stored < 0) return false;
    at += OBJ_ANIMATION_HEADER_BYTES + (stored + 1) * vertices * 6;
  }
  if (object + 1 >= objectCount) return tailPlausible(view, version, at);
  const body = at + OBJ_INFO_BYTES;
  if (body + HEADER_3DF_BYTES > size) return false;
  const v = view.getInt32(body, true), f = view.getInt32(body + 4, true);
  const b = view.getInt32(body + 8, true), t = view.getInt32(body + 12, true);
  // A real object has points and faces: a header of zeros is a transparent picture's bytes.
  if (!(v >= 1 && f >= 1 && b >= 0 && t >= 0 && layout3df(v, f, b, t).end + body <= size)) return false;
  if (!strict) return true;
  // Its texture whole rows, its first face's corners among its points: bytes of a face table or a
  // TObjInfo read a few bytes off pass the counts above, seldom these.
  const corners = [0, 4, 8].map((k) => view.getInt32(body + HEADER_3DF_BYTES + k, true));
  return t % TEXTURE_ROW_BYTES === 0 && corners.every((c) => c >= 0 && c < v);
}

/**
 * Whether the sections after the last object could start at `at`: the sky texture(s) and cloud map
 * inside the file, then a fog count and a random sound count the bytes left can hold.
 */
function tailPlausible(view: DataView, version: RscVersion, at: number): boolean {
  const size = view.byteLength;
  at += (version === "c1" ? 1 : 3) * RSC_SKY_BYTES + RSC_CLOUD_MAP_BYTES;
  if (at + 4 > size) return false;
  const fogs = view.getInt32(at, true);
  if (fogs < 0 || at + 8 + fogs * FOG_BYTES > size) return false;
  at += 4 + fogs * FOG_BYTES;
  const sounds = view.getInt32(at, true);
  return sounds >= 0 && at + 4 + sounds * 4 <= size;
}

/** How many objects a walk resumed at `object` read: all after it when it fitted, else up to its misfit. */
function objectsReadBy(layout: RscLayout | RscMisfit, objectCount: number, object: number): number {
  return Math.max(1, ("objects" in layout ? objectCount : object + layout.bodies.length) - object);
}

/** The largest texel row (V) any face of the body at `body` with `faces` faces samples. */
function maxTexelRow(view: DataView, body: number, faces: number): number {
  let max = -1;
  for (let f = 0; f < faces; f++) {
    const at = body + HEADER_3DF_BYTES + f * FACE_BYTES + 24;
    if (at + 12 > view.byteLength) break;
    for (let k = 0; k < 3; k++) max = Math.max(max, view.getInt32(at + k * 4, true));
  }
  return max;
}
