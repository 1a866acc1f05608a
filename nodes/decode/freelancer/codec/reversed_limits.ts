/**
 * Turret hardpoints whose limits are stored `Min` > `Max`. The format notes do not say what the game
 * does with them; Librelancer clamps a turret's angle with `Max(Min(angle, Max), Min)`
 * (`World/Hardpoint.cs` `Revolve`, `MathHelper.Clamp`), which holds such a turret at its `Min`, and
 * MAXLancer's hardpoint mirror negates the limits of the copy and, with its "Flip revolute min/max
 * limits" option (on by default), swaps them. A mirror without the swap stores exactly the reversed
 * pair, so the decoder reads every reversed pair as the range between its values (`fragment.ts`).
 *
 * When another revolute hardpoint of the model holds that range negated — the turret it was mirrored
 * from — the reading is certain and nothing is said. A reversed pair that no turret explains is named,
 * with both stored values and where they are, as before. The resolver reads `Rev` and `Pris` records
 * by the same rule ({@link negatesRange}).
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import type { Hardpoint } from "./fragment.ts";

/** Tolerance on radians for "the same limit negated": f32 rounding of a negated value is exact. */
const SAME = 1e-5;

/** A limit pair. */
export interface Range {
  readonly min: number;
  readonly max: number;
}

/**
 * True when `reversed` (stored `min` > `max`) is `ordered` negated — what a mirror that negated the
 * limits without swapping them leaves of the range it copied.
 *
 * @example
 * ```ts
 * negatesRange({ min: 0.5, max: -1 }, { min: -0.5, max: 1 }); // true
 * ```
 */
export function negatesRange(reversed: Range, ordered: Range): boolean {
  return ordered.min <= ordered.max && Math.abs(ordered.min + reversed.min) <= SAME &&
    Math.abs(ordered.max + reversed.max) <= SAME;
}

/**
 * Warns of each reversed turret hardpoint among `hardpoints` (every part's) that is not the mirror
 * of another, unreversed, one.
 *
 * @example
 * ```ts
 * warnReversedLimits(parts.flatMap((p) => p.fragment.hardpoints), warn);
 * ```
 */
export function warnReversedLimits(hardpoints: readonly Hardpoint[], warn: WarningSink): void {
  const ordered = hardpoints.filter((hp) => hp.kind === "rev" && !hp.reversed);
  for (const hp of hardpoints) {
    const stored = hp.reversed;
    if (!stored) continue;
    if (ordered.some((o) => negatesRange(stored, { min: o.min!, max: o.max! }))) continue;
    const deg = (v: number) => `${Math.round(v * 180 / Math.PI * 1e4) / 1e4}°`;
    warn(
      `hardpoint '${hp.name}': limits stored as Min${stored.minAt} ${deg(stored.min)} > ` +
        `Max${stored.maxAt} ${deg(stored.max)}; read as ${deg(stored.max)}..${deg(stored.min)} (no other ` +
        "turret holds that range negated, as a mirrored copy would; Librelancer's clamp holds this turret " +
        `at Min ${deg(stored.min)})`,
    );
  }
}
