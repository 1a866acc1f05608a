/**
 * A panel fitted whole across the centre line — one object reaching well out on both sides that was
 * not split (two surfaces joined by a torque tube through the fuselage, pieces the split left whole,
 * a V whose halves were no mirror images) — is one surface only if both its sides turn about the
 * line fitted to the whole. A one-piece elevator on a straight hinge does; swept halves joined by a
 * tube do not, and the whole's line (an average, or one half's) was judged `good` while 15–23° and
 * 66–140 % of chord off the halves' hinges. Each side is fitted on its own and compared
 * (`surface_pieces.ts`' agreement: 2° and 5 % of chord).
 *
 * @module
 */
import { fitHinge, type HingeFit, type HingeFitOptions } from "./hinge_fit.ts";
import type { HingeEdge } from "./kinds.ts";
import type { PanelGeometry } from "./split_halves.ts";
import { agreesWithWhole } from "./surface_pieces.ts";

/** Each side reaching out at least this share of the whole's span counts as a side of its own. */
export const SIDE_REACH = 0.25;

/**
 * Why a panel fitted whole across the centre line (at lateral `centre`: 0 but in a copy of the aircraft
 * laid out beside others, `copies.ts`) is no one surface (a side's own hinge lies off the whole's
 * line), or undefined when it does not reach well out on both sides or both sides agree.
 */
export function sidesOffWhole(
  geometry: PanelGeometry,
  whole: HingeFit,
  options: Omit<HingeFitOptions, "edge">,
  edge: HingeEdge,
  centre = 0,
): string | undefined {
  const [left, right] = whole.lateral.map((x) => x - centre);
  if (!(Math.min(-left, right) >= SIDE_REACH * whole.spanLength) || !geometry.triangles) return undefined;
  for (const sign of [1, -1]) {
    const side = sideGeometry(geometry, sign, centre);
    if (side.count < 3) continue;
    const fit = fitHinge(side.positions, side.count, { ...options, edge }, side.triangles);
    if (fit.collinear || agreesWithWhole(fit, whole)) continue;
    return `it reaches across the centre line, and its ${sign > 0 ? "left" : "right"} side's own hinge ` +
      "lies off the line fitted to the whole (two surfaces in one object?): split it into a left and a " +
      "right object";
  }
  return undefined;
}

/**
 * The triangles whose centroid lies on one side (`sign` of the aircraft's left) of the centre line at
 * lateral `centre`, their vertices only.
 */
function sideGeometry(geometry: PanelGeometry, sign: number, centre: number): Required<PanelGeometry> {
  const { positions, triangles } = geometry;
  return trianglesWhere(geometry, (t) => {
    const z = positions[triangles![t] * 3 + 2] + positions[triangles![t + 1] * 3 + 2] +
      positions[triangles![t + 2] * 3 + 2];
    return sign * (z - 3 * centre) > 0;
  });
}

/** The triangles (by first index `t`) that `keep` accepts, with only the vertices they use. */
export function trianglesWhere(
  geometry: PanelGeometry,
  keep: (t: number) => boolean,
): Required<PanelGeometry> {
  const { positions, triangles } = geometry;
  const index = new Int32Array(geometry.count).fill(-1);
  const kept: number[] = [], out: number[] = [];
  for (let t = 0; t + 2 < triangles!.length; t += 3) {
    if (!keep(t)) continue;
    for (let c = 0; c < 3; c++) {
      const v = triangles![t + c];
      if (index[v] < 0) {
        index[v] = kept.length / 3;
        kept.push(positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2]);
      }
      out.push(index[v]);
    }
  }
  return { positions: new Float64Array(kept), count: kept.length / 3, triangles: new Uint32Array(out) };
}
