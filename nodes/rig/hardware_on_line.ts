/**
 * Whether a piece of hinge hardware beside a panel is built about the fitted hinge line rather than
 * hanging off it. A plain hinge's brackets and fittings sit around the pin: at the panel's end they
 * are often deeper than its nose (a wing bracket reaching into the cove, the surface's fitting lug),
 * so they stand outside its sections above *and* below, about equally, with the line passing
 * through them. A dropped hinge's brackets reach out on one side only, down (or up) to a pivot
 * away from the nose, and the fitted line runs through the nose above them — the case
 * `hinge_hardware.ts` warns about. Before, every such bracket made a right fit weak (192 of 200
 * generated surfaces with brackets about the hinge near the span end), an alarm users learn to
 * ignore.
 *
 * The reach is measured square to the hinge, in two frames, as either may be the hardware's own: the
 * panel's (its normal; a fitting that turns with a surface modelled deflected) and the flow's (the
 * hinge × aft; a wing bracket that stays put while the surface is modelled turned).
 *
 * @module
 */
import { cross, dot, normalize, sub, type Vec3 } from "./transform.ts";

/**
 * The smaller reach across the chord (above or below the line) must be at least this share of the
 * larger: a dropped hinge's bracket reaches 1.5–4 times as far on its pivot's side (and usually not
 * across the line at all).
 */
const BALANCE = 0.5;

const AFT: Vec3 = [1, 0, 0];

/** Accumulates hardware vertices about a fitted hinge line, in the panel's frame and the flow's. */
export class LineReach {
  private readonly frames: { across: Vec3; along: Vec3 }[] = [];
  /** Per frame: least and most across the chord, least and most along it (relative to the line). */
  private readonly ranges: Float64Array;
  private readonly at: Vec3;
  private readonly offsetPerSpan: number;

  /**
   * @param origin a point of the fitted line, `axis` its unit direction; `normal` the panel's
   * thickness direction and `span` its span direction (positions along it from `mean`).
   */
  constructor(
    origin: Vec3,
    private readonly axis: Vec3,
    normal: Vec3,
    private readonly span: Vec3,
    private readonly mean: Vec3,
  ) {
    for (const across of [normal, cross(axis, AFT)]) {
      const n = normalize(sub(across, axis.map((a) => a * dot(across, axis)) as Vec3));
      if (Math.hypot(...n) > 0.5) this.frames.push({ across: n, along: cross(n, axis) });
    }
    this.ranges = new Float64Array(this.frames.length * 4);
    for (let f = 0; f < this.frames.length; f++) {
      this.ranges.set([Infinity, -Infinity, Infinity, -Infinity], f * 4);
    }
    // The line's point at span position u is `at` + axis · (u − u0) / (axis · span).
    this.at = origin;
    const along = dot(axis, span);
    this.offsetPerSpan = Math.abs(along) > 1e-9 ? 1 / along : 0;
  }

  /** Adds a vertex (aircraft frame) at span position `u` (from `mean` along `span`). */
  add(x: number, y: number, z: number, u: number): void {
    const [ax, ay, az] = this.axis, [o0, o1, o2] = this.at, [m0, m1, m2] = this.mean, s = this.span;
    const u0 = (o0 - m0) * s[0] + (o1 - m1) * s[1] + (o2 - m2) * s[2];
    const t = (u - u0) * this.offsetPerSpan;
    const dx = x - (o0 + ax * t), dy = y - (o1 + ay * t), dz = z - (o2 + az * t);
    for (let f = 0; f < this.frames.length; f++) {
      const { across, along } = this.frames[f];
      const w = dx * across[0] + dy * across[1] + dz * across[2];
      const v = dx * along[0] + dy * along[1] + dz * along[2];
      const r = f * 4;
      if (w < this.ranges[r]) this.ranges[r] = w;
      if (w > this.ranges[r + 1]) this.ranges[r + 1] = w;
      if (v < this.ranges[r + 2]) this.ranges[r + 2] = v;
      if (v > this.ranges[r + 3]) this.ranges[r + 3] = v;
    }
  }

  /**
   * True when, in either frame, the vertices added surround the line — it lies within their extent
   * along the chord, and they reach across it both ways, the shorter reach at least
   * {@link BALANCE} of the longer.
   */
  surrounds(): boolean {
    for (let f = 0; f < this.frames.length; f++) {
      const r = f * 4;
      const below = -this.ranges[r], above = this.ranges[r + 1];
      const behind = -this.ranges[r + 2], ahead = this.ranges[r + 3];
      if (!(below > 0 && above > 0 && behind > 0 && ahead > 0)) continue;
      if (Math.min(below, above) >= BALANCE * Math.max(below, above)) return true;
    }
    return false;
  }
}
