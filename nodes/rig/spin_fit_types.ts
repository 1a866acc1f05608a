/**
 * What `fitSpinAxis` (`spin_fit.ts`) returns and takes: the fitted shaft and the fit's options.
 *
 * @module
 */
import type { Vec3 } from "./transform.ts";
import type { SpinGeometry } from "./spin_symmetry.ts";

/** The fitted shaft. */
export interface SpinFit {
  /** Unit shaft direction (aircraft frame), unsigned (signed by the caller). */
  readonly axis: Vec3;
  /** A point on the shaft: the hub's centre along it (else the blades' centroid). */
  readonly centre: Vec3;
  /** Largest distance of a vertex from the shaft. */
  readonly radius: number;
  /** Blades counted (0: an even disc, no blades told apart; 1: one-sided). */
  readonly blades: number;
  /** 90th-percentile distance of turned surface points from the surface, / radius. */
  readonly symmetry: number;
  /** How the axis was found (`hub`: one blade, its hub's axis of roundness). */
  readonly axisFrom: "disc_normal" | "half_turn" | "plane_search" | "frame" | "hub";
  /** Where the centre came from. */
  readonly centreFrom: "blades" | "hub";
  /** Good, weak or failed. */
  readonly confidence: "good" | "weak" | "failed";
  /** Why short of good (empty when good). */
  readonly reasons: string[];
  /** How the fit went, for the report (said whatever the confidence). */
  readonly notes: string[];
  /**
   * Two rotors drawn as one object (blades in two discs apart along the shaft): a point on the plane
   * between the discs, on the shaft (whose direction is {@link axis}). Undefined for one rotor.
   */
  readonly layers?: Vec3;
}

/** Fit options. */
export interface SpinFitOptions {
  /** Unit aircraft axes a shaft may run along, by name; the nearest one breaks ties. */
  readonly frameAxes: readonly { readonly name: string; readonly direction: Vec3 }[];
  /** The direction the part's name gives its shaft (a named main rotor's up), to break ties. */
  readonly preferred?: Vec3;
  /** A hub or spinner inside the part: its centre places the origin along the shaft. */
  readonly hub?: SpinGeometry;
  /** The hub's node name, for the report. */
  readonly hubName?: string;
  /**
   * Unit axes of the part's own node and the nodes above it (a nacelle, pylon, gearbox), named for the
   * report (`'Nacelle_L' Z`): one running along a shaft that leans off the aircraft's axes corroborates it.
   */
  readonly structureAxes?: readonly { readonly name: string; readonly direction: Vec3 }[];
  /** Why the part's structure says it has one blade (named as one, one blade object, a counterweight). */
  readonly oneBlade?: string;
}
