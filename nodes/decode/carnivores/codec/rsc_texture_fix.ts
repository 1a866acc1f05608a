/**
 * An `.rsc` object whose texture size field is not the size of the texture written after it. Map
 * tools that convert an object's picture write the field from the source picture (another height) and
 * the texture at the height they converted to — the `.3df` and `.car` habit (see `parse_3df.ts`,
 * `car_repair.ts`). In an area the field is the only way to find everything after the object, so
 * neither layout fits and the games read the rest of the area from the wrong bytes.
 *
 * The sections themselves decide: with the object's texture at its written height, every section
 * after it (objects, skies, fogs, sounds, waters) ends exactly at the end of the file. Each object the
 * walk reached is tried with every whole number of rows; a height that fits is read only when it is
 * the one (its faces' texel rows inside it breaking a tie), with the object named in a warning.
 *
 * @module
 */
import { FACE_BYTES, HEADER_3DF_BYTES, TEXTURE_ROW_BYTES } from "./model.ts";
import { layout3df } from "./parse_3df.ts";
import {
  OBJ_ANIMATION_HEADER_BYTES,
  OBJ_INFO_BYTES,
  OF_ANIMATED,
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
 * Objects the search's walks may read in all. A walk resumed at object `o` reads up to every object
 * after it, so counting walks alone let a damaged area of thousands of objects (whose every object has
 * candidate heights landing on a later object's header) take minutes; past the budget the area is
 * refused as it was before the search.
 */
const SEARCH_BUDGET = 300_000;

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

/** What {@link fittingObjectTexture} found. */
export type RscTextureSearch =
  | { readonly kind: "fixed"; readonly fix: RscTextureCandidate }
  | { readonly kind: "ambiguous"; readonly candidates: readonly RscTextureCandidate[] }
  | { readonly kind: "none" };

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
  let budget = SEARCH_BUDGET;
  const objectCount = view.getInt32(4, true);
  // The object whose field is wrong is one the walk reached: the walk read everything after it wrong.
  for (const [object, body] of misfit.bodies.entries()) {
    if (body + HEADER_3DF_BYTES > bytes.byteLength) break;
    const stored = view.getInt32(body + 12, true);
    const [v, f, b] = [0, 4, 8].map((k) => view.getInt32(body + k, true));
    if (v < 0 || f < 0 || b < 0) break;
    const textureAt = layout3df(v, f, b, 0).texture + body;
    // The objects before this one walk the same whatever its height: resume at its TObjInfo.
    const resume = { objects: misfit.walked.slice(0, object), at: body - OBJ_INFO_BYTES };
    for (let rows = 0; rows <= MAX_TEXTURE_ROWS; rows++) {
      const textureBytes = rows * TEXTURE_ROW_BYTES;
      if (textureAt + textureBytes > bytes.byteLength) break;
      if (textureBytes === stored) continue;
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
      if (budget < 0) return { kind: "none" };
      const layout = walkRsc(bytes, version, false, { object, textureBytes }, resume);
      budget -= objectsRead(layout, objectCount, object);
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
      if (budget < 0) return { kind: "none" };
      const layout = walkRsc(bytes, version, false, { object, storedFrames: frames }, resume);
      budget -= objectsRead(layout, objectCount, object);
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
  if (found.length === 1) return { kind: "fixed", fix: found[0] };
  const inside = found.filter((c) =>
    c.textureBytes === undefined || c.maxRow <= c.textureBytes / TEXTURE_ROW_BYTES
  );
  if (inside.length === 1) return { kind: "fixed", fix: inside[0] };
  if (found.length === 0) return { kind: "none" };
  return { kind: "ambiguous", candidates: (inside.length ? inside : found).slice(0, 3) };
}

/**
 * A cheap look, before a whole walk, at what follows object `object` (TObjInfo at `info`) when its
 * texture ends at `end`: the billboard (C2) and animation block inside the file, and the next object's
 * 3DF header counts not negative with its body inside the file. The last object is left to the walk.
 */
function nextObjectPlausible(
  view: DataView,
  version: RscVersion,
  info: number,
  end: number,
  object: number,
  objectCount: number,
): boolean {
  const size = view.byteLength;
  let at = end + (version === "c2" ? RSC_TILE_BYTES : 0);
  if (view.getUint32(info + 28, true) & OF_ANIMATED) {
    if (at + OBJ_ANIMATION_HEADER_BYTES > size) return false;
    const vertices = view.getInt32(at + 4, true), stored = view.getInt32(at + 12, true);
    if (vertices < 0 || stored < 0) return false;
    at += OBJ_ANIMATION_HEADER_BYTES + (stored + 1) * vertices * 6;
  }
  if (object + 1 >= objectCount) return at <= size;
  const body = at + OBJ_INFO_BYTES;
  if (body + HEADER_3DF_BYTES > size) return false;
  const v = view.getInt32(body, true), f = view.getInt32(body + 4, true);
  const b = view.getInt32(body + 8, true), t = view.getInt32(body + 12, true);
  return v >= 0 && f >= 0 && b >= 0 && t >= 0 && layout3df(v, f, b, t).end + body <= size;
}

/** How many objects a walk resumed at `object` read: all after it when it fitted, else up to its misfit. */
function objectsRead(layout: RscLayout | RscMisfit, objectCount: number, object: number): number {
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
