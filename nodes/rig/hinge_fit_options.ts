/**
 * The tuning of the hinge-line fit and its defaults, apart from the fit itself (`hinge_fit.ts`) so
 * that `rig.fit_hinge`'s declaration, whose parameter defaults they are, loads no geometry code.
 *
 * @module
 */
import type { HingeEdge } from "./kinds.ts";

/** Tuning of `fitHinge` (`hinge_fit.ts`); every field has a default in {@link HINGE_FIT_DEFAULTS}. */
export interface HingeFitOptions {
  /** Number of span bins. */
  readonly bins: number;
  /** Band around each bin's chord extreme whose vertices are averaged, as a fraction of chord. */
  readonly bandFraction: number;
  /** Inlier distance of the line consensus, as a fraction of chord. */
  readonly inlierFraction: number;
  /** Where the hinge sits: forward edge, aft edge, or quarter chord. */
  readonly edge: HingeEdge;
}

/** Defaults: twelve bins, 4 % band, 2 % inlier tolerance, forward edge. */
export const HINGE_FIT_DEFAULTS: HingeFitOptions = {
  bins: 12,
  bandFraction: 0.04,
  inlierFraction: 0.02,
  edge: "forward",
};
