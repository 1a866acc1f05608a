/**
 * Which of a `Cyl` record's four stored limits are its turn and which its slide. No retail file has a
 * Cyl record and Librelancer cannot load one; the sources disagree on the order: KB and MAXLancer (the
 * one modelling exporter that writes Cyl) store turn min/max then slide min/max, treewyrm/freelancer
 * (from Conquest: Frontier Wars' `PERSISTCOMPOUND.H`) slide first. A record carries no tag, so the order
 * is worked out per file, from what the values can be (see {@link cylOrders}):
 *
 * 1. A record whose pair in one order cannot be angles (beyond a full turn) is told: the other order.
 * 2. A record whose one pair is whole degrees (a turn typed in degrees in a modelling tool and stored
 *    as radians) and the other not is read with that pair as its turn.
 * 3. A file is written by one tool in one order: the records neither tells are read in the order of
 *    those that are (when they agree).
 * 4. Otherwise MAXLancer's order, turn first, and the part is named with both readings.
 *
 * Every reading but turn first told by whole degrees is named with its part: the file's own order is
 * an inference, and a silent wrong range is worse than a warning.
 *
 * @module
 */
import { FULL_TURN } from "./turn_limits.ts";

/** The order a Cyl record's four limits are read in. */
export type CylOrder = "turn_first" | "slide_first";

/** A Cyl record's limits as read: radians for the turn, scene units for the slide. */
export interface CylLimits {
  /** Turn min, max (radians), in stored order. */
  readonly turn: readonly [number, number];
  /** Slide min, max (units), in stored order. */
  readonly slide: readonly [number, number];
}

/**
 * Reads the four stored limits of a Cyl record (file order) in `order` (default: turn first, unless its
 * turn pair cannot be angles and its slide pair can, as {@link cylOrders} reads a lone record).
 *
 * @example
 * ```ts
 * readCylLimits([-0.5, 0.5, 0, 2]); // turn −0.5..0.5 rad, slide 0..2
 * readCylLimits([0, 12, -0.5, 0.5]); // turn −0.5..0.5 rad, slide 0..12 (12 rad is no turn limit)
 * readCylLimits([0, 2, -0.5, 0.5], "slide_first"); // turn −0.5..0.5 rad, slide 0..2
 * ```
 */
export function readCylLimits(limits: readonly number[], order?: CylOrder): CylLimits {
  const [a, b, c, d] = limits;
  const slideFirst = order ? order === "slide_first" : !angles(a, b) && angles(c, d);
  return slideFirst ? { turn: [c, d], slide: [a, b] } : { turn: [a, b], slide: [c, d] };
}

/** A Cyl record as {@link cylOrders} needs it. */
export interface CylRecordView {
  readonly child: string;
  readonly at: number;
  readonly limits: readonly number[];
}

/** The order each record is read in, and what to say about it (absent: nothing). */
export interface CylReading {
  readonly order: CylOrder;
  readonly warning?: string;
}

/**
 * Decides the limit order of every Cyl record of one file (see the module doc), in record order.
 *
 * @example
 * ```ts
 * cylOrders([{ child: "Strut", at: 100, limits: [0, 12, -0.5, 0.5] }])[0].order; // "slide_first"
 * ```
 */
export function cylOrders(records: readonly CylRecordView[]): CylReading[] {
  type Own = { order?: CylOrder; how: "told" | "degrees" | "none" | "same" };
  const own: Own[] = records.map(({ limits: [a, b, c, d] }) => {
    if (a === c && b === d) return { order: "turn_first", how: "same" };
    const [turnFirst, slideFirst] = [angles(a, b), angles(c, d)];
    if (turnFirst !== slideFirst) return { order: turnFirst ? "turn_first" : "slide_first", how: "told" };
    if (!turnFirst) return { how: "none" }; // neither pair can be angles: named below
    const [first, second] = [wholeDegrees(a, b), wholeDegrees(c, d)];
    if (first !== second) return { order: first ? "turn_first" : "slide_first", how: "degrees" };
    return { how: "none" };
  });
  const known = own.filter((o) => o.how === "told" || o.how === "degrees").map((o) => o.order!);
  const fileOrder = known.length && known.every((o) => o === known[0]) ? known[0] : undefined;
  const tellers = records.filter((_, i) => own[i].order && own[i].how !== "same");
  return records.map((record, i): CylReading => {
    const { order, how } = own[i];
    const [a, b, c, d] = record.limits;
    const where = `Cyl constraint of part '${record.child}' (byte ${record.at}): limits (${
      record.limits.map(round).join(", ")
    })`;
    const asRead = (o: CylOrder) => {
      const { turn, slide } = readCylLimits(record.limits, o);
      return `turn ${degreesText(turn[0])}..${degreesText(turn[1])}°, slide ${round(slide[0])}..${
        round(slide[1])
      }`;
    };
    if (how === "same") return { order: "turn_first" };
    if (how === "told" && order === "turn_first") return { order };
    if (how === "told") {
      return {
        order: "slide_first",
        warning: `${where} read in MAXLancer's order (turn min/max, slide min/max) the turn ${round(a)}..${
          round(b)
        } rad is beyond a full turn, so they are read in treewyrm's order (slide min/max, turn min/max): ${
          asRead("slide_first")
        }`,
      };
    }
    if (how === "degrees" && order === "turn_first") return { order };
    if (how === "degrees") {
      return {
        order: "slide_first",
        warning:
          `${where}: the second pair are whole degrees (a turn typed in degrees) and the first not, so ` +
          `the limit order is read as treewyrm's (slide min/max, turn min/max): ${asRead("slide_first")}`,
      };
    }
    if (!angles(a, b) && !angles(c, d)) {
      return {
        order: "turn_first",
        warning: `${where} read in MAXLancer's order (turn min/max, slide min/max) the turn ${round(a)}..${
          round(b)
        } rad is beyond a full turn, and so is it in treewyrm's order (slide first, turn ${round(c)}..${
          round(d)
        } rad); read in MAXLancer's order`,
      };
    }
    if (fileOrder) {
      const by = tellers.map((r) => `'${r.child}'`).join(", ");
      return fileOrder === "turn_first" ? { order: fileOrder } : {
        order: fileOrder,
        warning: `${where}: the limit order is read as that of the file's Cyl record(s) of ${by} ` +
          `(treewyrm's, slide min/max, turn min/max): ${asRead("slide_first")}`,
      };
    }
    return {
      order: "turn_first",
      warning:
        `${where}: the file cannot tell the limit order (the sources disagree, and both pairs can be ` +
        `turns); read in MAXLancer's order, turn first: ${asRead("turn_first")}; in treewyrm's, slide ` +
        `first, it would be ${asRead("slide_first")}`,
    };
  });
}

function angles(lo: number, hi: number): boolean {
  return Math.abs(lo) <= FULL_TURN && Math.abs(hi) <= FULL_TURN;
}

/**
 * Whether a pair is a turn typed in whole degrees and stored as f32 radians: some value not zero,
 * every one within f32 noise of a whole degree (no slide in units is, bar 0).
 */
function wholeDegrees(lo: number, hi: number): boolean {
  const whole = (v: number) => {
    const degrees = v * 180 / Math.PI;
    return Math.abs(degrees - Math.round(degrees)) < 2e-3;
  };
  return (lo !== 0 || hi !== 0) && whole(lo) && whole(hi);
}

function round(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}

function degreesText(radians: number): number {
  return Math.round(radians * 180 / Math.PI * 1e4) / 1e4;
}
