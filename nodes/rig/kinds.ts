/**
 * What each panel kind means for the rig: which edge carries the hinge, which way a positive angle
 * moves the far edge, and default limits and group (the interop extras `min`, `max`, `group`,
 * `positive` that runtimes such as `@aeronautic/controls` read).
 *
 * @module
 */
import type { PanelKind } from "./vocabulary.ts";
import type { PartAnnotation } from "./part_extras.ts";

/** Where a kind's hinge sits along the chord. */
export type HingeEdge =
  /** The forward edge (trailing-edge surfaces, brakes). */
  | "forward"
  /** The aft edge (leading-edge devices). */
  | "aft"
  /** Near quarter chord from the leading edge (all-moving surfaces). */
  | "quarter";

/** Which way a positive angle moves a kind's far edge. */
export type Sense =
  /** Trailing edge down (toward the aircraft's right instead when the panel stands upright). */
  | "trailing_edge_down"
  /** Trailing edge toward the aircraft's right. */
  | "trailing_edge_right"
  /** Leading edge down. */
  | "leading_edge_down"
  /** Trailing edge up (spoilers; down for panels named lower/under). */
  | "trailing_edge_up"
  /** Away from the body the panel sits on (brakes; split halves apart). */
  | "open";

/** Per-kind rig defaults. */
export interface KindSpec {
  /** Where the hinge is fitted. */
  readonly edge: HingeEdge;
  /** Which way a positive angle moves the far edge (also the interop `positive` word). */
  readonly positive: Sense;
  /** Default lower limit, degrees. */
  readonly min: number;
  /** Default upper limit, degrees. */
  readonly max: number;
  /** Default interop `group` (names a runtime's `set_group` understands). */
  readonly group: string;
}

/** The defaults for every kind (limits follow `@aeronautic/controls` where it has the kind). */
export const KIND_SPECS: Readonly<Record<PanelKind, KindSpec>> = {
  aileron: { edge: "forward", positive: "trailing_edge_down", min: -25, max: 25, group: "ailerons" },
  elevator: { edge: "forward", positive: "trailing_edge_down", min: -25, max: 25, group: "elevators" },
  elevon: { edge: "forward", positive: "trailing_edge_down", min: -30, max: 30, group: "elevons" },
  stabilator: { edge: "quarter", positive: "trailing_edge_down", min: -25, max: 25, group: "stabilators" },
  canard: { edge: "quarter", positive: "trailing_edge_down", min: -25, max: 25, group: "canards" },
  rudder: { edge: "forward", positive: "trailing_edge_right", min: -30, max: 30, group: "rudders" },
  flap: { edge: "forward", positive: "trailing_edge_down", min: 0, max: 40, group: "flaps" },
  leading_edge_flap: { edge: "aft", positive: "leading_edge_down", min: -3, max: 25, group: "le_flaps" },
  slat: { edge: "aft", positive: "leading_edge_down", min: 0, max: 25, group: "slats" },
  air_brake: { edge: "forward", positive: "open", min: 0, max: 60, group: "airbrakes" },
  spoiler: { edge: "forward", positive: "trailing_edge_up", min: 0, max: 60, group: "spoilers" },
  drag_rudder: { edge: "forward", positive: "open", min: 0, max: 50, group: "drag_rudders" },
  ruddervator: { edge: "forward", positive: "trailing_edge_down", min: -30, max: 30, group: "ruddervators" },
  trim_tab: { edge: "forward", positive: "trailing_edge_down", min: -20, max: 20, group: "trim_tabs" },
};

/**
 * The part annotation of a panel found by its name: its kind's limits, group and positive sense, turning
 * in degrees from rest 0 (the rig fills in side, hinge and fit later).
 *
 * @example
 * ```ts
 * namedPanelPart("aileron"); // { kind: "aileron", found_by: "name", unit: "deg", min: -25, max: 25, … }
 * ```
 */
export function namedPanelPart(kind: PanelKind): PartAnnotation {
  const spec = KIND_SPECS[kind];
  return {
    kind,
    found_by: "name",
    unit: "deg",
    min: spec.min,
    max: spec.max,
    rest: 0,
    group: spec.group,
    positive: spec.positive,
  };
}
