/**
 * Which of a `Cyl` record's four stored limits are its turn and which its slide. No retail file has a
 * Cyl record and Librelancer cannot load one; the sources disagree on the order: KB and MAXLancer (the
 * one modelling exporter that writes Cyl) store turn min/max then slide min/max, treewyrm/freelancer
 * (from Conquest: Frontier Wars' `PERSISTCOMPOUND.H`) slide first. A file gives no tag, so the order
 * MAXLancer writes is read without a word while its turn pair are angles a joint can turn through; a
 * turn pair beyond a full turn cannot be radians, and then treewyrm's order is read if its turn pair
 * can be, and the part is named either way.
 *
 * @module
 */
import { FULL_TURN } from "./turn_limits.ts";

/** A Cyl record's limits as read: radians for the turn, scene units for the slide. */
export interface CylLimits {
  /** Turn min, max (radians), in stored order. */
  readonly turn: readonly [number, number];
  /** Slide min, max (units), in stored order. */
  readonly slide: readonly [number, number];
  /** Why the order is doubtful, in words; absent when the stored turn pair can be angles. */
  readonly doubt?: string;
}

/**
 * Reads the four stored limits of a Cyl record (file order).
 *
 * @example
 * ```ts
 * readCylLimits([-0.5, 0.5, 0, 2]); // turn −0.5..0.5 rad, slide 0..2, no doubt
 * readCylLimits([0, 12, -0.5, 0.5]).doubt; // "read in MAXLancer's order … beyond a full turn …"
 * ```
 */
export function readCylLimits(limits: readonly number[]): CylLimits {
  const [a, b, c, d] = limits;
  const angles = (lo: number, hi: number) => Math.abs(lo) <= FULL_TURN && Math.abs(hi) <= FULL_TURN;
  if (angles(a, b)) return { turn: [a, b], slide: [c, d] };
  const beyond = `read in MAXLancer's order (turn min/max, slide min/max) the turn ${round(a)}..${
    round(b)
  } rad is beyond a full turn`;
  if (angles(c, d)) {
    return {
      turn: [c, d],
      slide: [a, b],
      doubt: `${beyond}, so they are read in treewyrm's order (slide min/max, turn min/max): turn ${
        degreesText(c)
      }..${degreesText(d)}°, slide ${round(a)}..${round(b)}`,
    };
  }
  return {
    turn: [a, b],
    slide: [c, d],
    doubt: `${beyond}, and so is it in treewyrm's order (slide first, turn ${round(c)}..${round(d)} rad); ` +
      "read in MAXLancer's order",
  };
}

function round(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}

function degreesText(radians: number): number {
  return Math.round(radians * 180 / Math.PI * 1e4) / 1e4;
}
