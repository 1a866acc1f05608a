/**
 * Geometry a panel carries outside its own sections: hinge brackets of a dropped hinge (a flap hung
 * below the wing, its brackets in the flap's mesh), track fairings, control horns, a horn balance too
 * narrow for any span station to cut. The fit never sees it — the stations cut the surface between
 * such parts — so a forward-edge hinge is drawn through the surface's nose while the model may turn
 * about the brackets' pivot well below it. Such a fit is an approximation the report must not call
 * good: the vertices lying clearly outside the envelope of every station's section are counted and
 * grouped along the span, and the judgement names them.
 *
 * @module
 */
import type { PanelCoordinates } from "./edge_stations.ts";
import type { SectionEnvelope } from "./section_envelope.ts";

/** What hangs outside the sections: how far (share of the chord) and at how many span places. */
export interface Hanging {
  /** The furthest such vertex from the section envelope, as a share of the chord. */
  readonly depth: number;
  /** Separate places along the span (clusters of such vertices). */
  readonly places: number;
}

/** Outside the envelope by more than this share of the (local) chord counts. */
export const MARGIN = 0.05;
/** Vertices of a panel checked one by one; a denser panel is sampled evenly down to about this. */
const SAMPLED = 20_000;

/**
 * The panel's vertices outside its section `envelope` (see `section_envelope.ts`) by more than
 * {@link MARGIN} of the chord, in the frame that fits each best. Only the thickness direction counts,
 * and only the span between the outermost stations is judged: beyond them a skewed or raked end rib
 * leaves the stations truncated sections. Undefined when fewer than three hang out.
 */
export function hangingGeometry(
  coords: PanelCoordinates,
  envelope: SectionEnvelope,
  spanLength: number,
): Hanging | undefined {
  const first = envelope.first, last = envelope.last;
  const out: number[] = [];
  let depth = 0;
  const count = coords.u.length;
  // A dense mesh is sampled (every vertex up to SAMPLED, then evenly), so the pass stays a small
  // share of the fit; brackets drawn as densely as their surface are still met many times over.
  const stride = Math.max(1, Math.floor(count / SAMPLED));
  for (let i = 0; i < count; i += stride) {
    const u = coords.u[i];
    if (u < first || u > last) continue;
    const beyond = envelope.beyond(u, coords.chordAt(i), coords.thicknessAt(i), MARGIN);
    if (beyond > MARGIN) {
      out.push(u);
      depth = Math.max(depth, beyond);
    }
  }
  if (out.length < 3) return undefined;
  // Places along the span: runs of such vertices with gaps of over a twentieth of the span between.
  out.sort((a, b) => a - b);
  let places = 1;
  for (let i = 1; i < out.length; i++) if (out[i] - out[i - 1] > 0.05 * spanLength) places++;
  return { depth, places };
}
