/**
 * A morph dial past its range. Daz keeps a `clamped: true` channel's value within its `min`..`max`:
 * a scene or preset dialling FBMHeavy to 1.5 where the morph allows 0..1 shows it at 1. A morph
 * that formulas drive is clamped as a whole by its formula graph (`formula_graph.ts`); one that no
 * formula drives took its dial as written, and was drawn past what Daz shows. Here such a weight is
 * clamped, each clamp named in one warning, in the words joint limits use (`joint_limits.ts`).
 *
 * @module
 */
import { type ChannelLimit, clampToLimit, describeClamp } from "./joint_limits.ts";
import type { Morph } from "./model.ts";

/** A morph weight clamped: its id, the dial as written and the weight kept, and the range. */
export interface MorphClamp {
  readonly id: string;
  readonly from: number;
  readonly to: number;
  readonly limit: ChannelLimit;
}

/**
 * Clamps, in place, the weight of each morph of `morphs` that has a range and that no formula
 * drives (`driven`, ids); returns the clamps made.
 *
 * @example
 * ```ts
 * const clamps = clampUndriven(parts.morphs, new Set(graph?.morphs));
 * ```
 */
export function clampUndriven(morphs: Morph[], driven: ReadonlySet<string>): MorphClamp[] {
  const clamps: MorphClamp[] = [];
  morphs.forEach((morph, m) => {
    if (!morph.limit || driven.has(morph.id)) return;
    const to = clampToLimit(morph.weight, morph.limit) + 0; // + 0: no −0 weight
    if (to === morph.weight) return;
    clamps.push({ id: morph.id, from: morph.weight, to, limit: morph.limit });
    morphs[m] = { ...morph, weight: to };
  });
  return clamps;
}

/** The warning for one mesh's clamps: `'FBMHeavy' value 1.5 → 1 (limits 0..1)`, the first eight. */
export function describeClamps(clamps: readonly MorphClamp[]): string {
  const list = clamps.map((c) => `'${c.id}' ${describeClamp("value", c.from, c.to, c.limit)}`);
  return `${clamps.length} morph dial(s) past their range (clamped: true) that no formula drives are clamped ` +
    `to it, as Daz shows them: ${list.slice(0, 8).join(", ")}${list.length > 8 ? ", …" : ""}`;
}
