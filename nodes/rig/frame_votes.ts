/**
 * The votes frame detection (`frame_detect.ts`) decides each axis sign by: what names say (a hint
 * vector pointing clearly one way) and what a shape cue says (its sizes toward each sign, clear past
 * a ratio), names first, each decision carrying its reasons and, when unsure, why.
 *
 * @module
 */
import type { Vec3 } from "./transform.ts";

/** Ratio above which a shape cue is clear. */
const CLEAR = 1.5;
/** Ratio below which a shape cue says nothing. */
const SILENT = 1.15;

/** A sign decided along one axis, with its strength. */
export interface SignVote {
  readonly sign: 1 | -1;
  readonly clear: boolean;
  readonly byName: boolean;
  readonly reason: string;
}

/**
 * The sign a hint vector gives along `axis`, when at least `share` of it points that way (a fin sits
 * well aft of the centre as well as above it, so up takes a smaller share).
 */
export function nameVote(
  vector: Vec3 | undefined,
  axis: number,
  what: string,
  share = 0.5,
): SignVote | undefined {
  if (!vector) return undefined;
  const length = Math.hypot(...vector);
  if (!(length > 0) || Math.abs(vector[axis]) < share * length) return undefined;
  return { sign: vector[axis] > 0 ? 1 : -1, clear: true, byName: true, reason: what };
}

/**
 * The sign a shape cue gives: `plus`/`minus` are the cue's sizes toward each sign. `trusted: false`
 * (the cue rests on a guess) makes it unclear whatever the ratio.
 */
export function shapeVote(plus: number, minus: number, what: string, trusted = true): SignVote | undefined {
  const ratio = Math.max(plus, minus) / Math.max(Math.min(plus, minus), 1e-12);
  if (!(ratio >= SILENT)) return undefined;
  const clear = trusted && ratio >= CLEAR;
  return {
    sign: plus > minus ? 1 : -1,
    clear,
    byName: false,
    reason: `${what} (${ratio > 100 ? "over 100" : ratio.toFixed(2)}:1${clear ? "" : ", unclear"})`,
  };
}

/** Decides a sign from name votes first, then the shape vote; returns it with its reasons. */
export function decide(
  label: string,
  names: (SignVote | undefined)[],
  shape: SignVote | undefined,
): SignVote & { weak?: string } {
  const named = names.filter((v): v is SignVote => v !== undefined);
  const agreed = named.length > 0 && named.every((v) => v.sign === named[0].sign);
  if (agreed) {
    const conflict = shape?.clear && shape.sign !== named[0].sign;
    const reason = `${label} from names: ${named.map((v) => v.reason).join(", ")}`;
    return conflict
      ? { ...named[0], reason, weak: `${label}: names disagree with the shape (${shape!.reason})` }
      : { ...named[0], reason };
  }
  if (shape) {
    const why = named.length ? `; names disagree with each other` : "";
    return {
      ...shape,
      reason: `${label} from the shape: ${shape.reason}${why}`,
      weak: shape.clear && !named.length
        ? undefined
        : `${label}: ${shape.clear ? "names disagree" : "unclear"}`,
    };
  }
  return {
    sign: 1,
    clear: false,
    byName: false,
    reason: `${label}: no cue`,
    weak: `${label}: nothing to tell by`,
  };
}
