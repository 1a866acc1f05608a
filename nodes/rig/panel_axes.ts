/**
 * A panel's span, chord and thickness directions from the covariance of its vertices (the hinge
 * fit's first pass, `hinge_fit.ts`).
 *
 * @module
 */
import { cross, dot, normalize, type Vec3 } from "./transform.ts";

const AFT: Vec3 = [1, 0, 0];

/** A panel's frame, and whether its span came from a clear panel normal. */
export interface PanelAxes {
  readonly span: Vec3;
  readonly chordDir: Vec3;
  readonly normal: Vec3;
  /** True when the span came from a clear panel normal; false when from the largest extent. */
  readonly fromNormal: boolean;
}

/**
 * Span, chord and normal directions of a panel from its covariance. The normal (least axis) is
 * trusted when it is clearly thinner than the other two and not along the flow; otherwise the
 * largest axis, made square to aft, is the span.
 */
export function panelAxes(
  values: readonly number[],
  vectors: readonly Vec3[],
): PanelAxes {
  const least = vectors[0];
  const flat = values[0] <= 0.25 * values[1];
  let span: Vec3;
  const fromNormal = flat && Math.abs(dot(least, AFT)) < 0.9;
  if (fromNormal) {
    span = normalize(cross(least, AFT));
  } else {
    const largest = vectors[2];
    span = normalize([0, largest[1], largest[2]]);
    if (span[0] === 0 && span[1] === 0 && span[2] === 0) span = normalize([0, vectors[1][1], vectors[1][2]]);
    if (span[0] === 0 && span[1] === 0 && span[2] === 0) span = [0, 0, 1];
  }
  // Chord: aft made square to span (not the in-plane aft: a slanted nose face would then put its
  // upper and lower vertices at different chord positions and the band would miss one of them).
  const d = dot(span, AFT);
  const chordDir = normalize([1 - span[0] * d, -span[1] * d, -span[2] * d]);
  // A canonical span sign (toward +left, else +up) keeps results independent of eigen-solver signs.
  if (span[2] < -1e-12 || (Math.abs(span[2]) <= 1e-12 && span[1] < 0)) span = [-span[0], -span[1], -span[2]];
  const normal = normalize(cross(span, chordDir));
  return { span, chordDir, normal, fromNormal };
}
