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
 * with both stored values and where they are, as before. The resolver reads joint records by the
 * same rule ({@link mirroredRecords}): `Rev` and `Pris`, and `Cyl` and `Sphere`, whose mirrored copy
 * negates some of their limit pairs (the turns a mirror reverses) and keeps the others.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import type { ConstraintRecord } from "./constraints.ts";
import { type Hardpoint, hardpointLabel } from "./fragment.ts";

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
export function warnReversedLimits(
  hardpoints: readonly Hardpoint[],
  warn: WarningSink,
  partOf: (hp: Hardpoint) => string | undefined = () => undefined,
): void {
  const ordered = hardpoints.filter((hp) => hp.kind === "rev" && !hp.reversed);
  for (const hp of hardpoints) {
    const stored = hp.reversed;
    if (!stored) continue;
    if (ordered.some((o) => negatesRange(stored, { min: o.min!, max: o.max! }))) continue;
    const deg = (v: number) => `${Math.round(v * 180 / Math.PI * 1e4) / 1e4}°`;
    warn(
      `${hardpointLabel(hp.name, partOf(hp))}: limits stored as Min${stored.minAt} ${deg(stored.min)} > ` +
        `Max${stored.maxAt} ${deg(stored.max)}; read as ${deg(stored.max)}..${deg(stored.min)} (no other ` +
        "turret holds that range negated, as a mirrored copy would; Librelancer's clamp holds this turret " +
        `at Min ${deg(stored.min)})`,
    );
  }
}

/**
 * Names the turret hardpoints among `hardpoints` (every part's) whose limits are beyond a full turn
 * (`turn_limits.ts`: typed in degrees): each on its own when one, else one warning naming them all (a
 * hardpoint editor that took degrees does so for every turret of a capital ship).
 */
export function warnDegreeLimits(
  hardpoints: readonly Hardpoint[],
  warn: WarningSink,
  partOf: (hp: Hardpoint) => string | undefined = () => undefined,
): void {
  const typed = hardpoints.filter((hp) => hp.degrees);
  if (typed.length === 1) {
    warn(`${hardpointLabel(typed[0].name, partOf(typed[0]))}: ${typed[0].degrees!.said}`);
    return;
  }
  if (!typed.length) return;
  const shown = typed.slice(0, 8).map((hp) => {
    const part = partOf(hp);
    return `'${hp.name}'${part === undefined ? "" : ` of part '${part}'`} (${hp.degrees!.limits.join(", ")})`;
  }).join(", ") +
    (typed.length > 8 ? ` and ${typed.length - 8} more` : "");
  warn(
    `${typed.length} turret hardpoints have limits beyond a full turn (2π ≈ 6.2832), probably typed in ` +
      `degrees: ${shown}; kept in radians as the game reads them (no limit to their turn)`,
  );
}

/** A joint record's limit pairs in file order: one for Rev/Pris, two for Cyl, three for Sphere. */
function limitPairs(record: ConstraintRecord): Range[] {
  if (record.kind === "rev" || record.kind === "pris") return [{ min: record.min!, max: record.max! }];
  if (record.kind !== "cyl" && record.kind !== "sphere") return [];
  const l = record.limits!;
  return Array.from({ length: l.length >> 1 }, (_, i) => ({ min: l[2 * i], max: l[2 * i + 1] }));
}

/**
 * The joint records with a limit pair stored reversed (min > max) that are a mirrored copy of another
 * record of their kind: every pair of theirs is that record's (all ordered) pair negated, as a mirror
 * that negates without swapping leaves it, or the same (an axis the mirror does not reverse). They are
 * read as the range between their values without a warning; a Sphere mirrored across a plane reverses
 * two of its three turns, a Cyl its turn and not its slide.
 *
 * @example
 * ```ts
 * mirroredRecords(model.constraints).has(leftDoor); // true when rightDoor holds its limits negated
 * ```
 */
export function mirroredRecords(records: readonly ConstraintRecord[]): Set<ConstraintRecord> {
  const out = new Set<ConstraintRecord>();
  const pairs = new Map(records.map((r) => [r, limitPairs(r)]));
  const ordered = records.filter((r) => pairs.get(r)!.length && pairs.get(r)!.every((p) => p.min <= p.max));
  for (const record of records) {
    const own = pairs.get(record)!;
    if (!own.some((p) => p.min > p.max)) continue;
    const copies = (other: ConstraintRecord) =>
      other.kind === record.kind && pairs.get(other)!.length === own.length &&
      own.every((p, i) => {
        const o = pairs.get(other)![i];
        return negatesRange(p, o) || (Math.abs(p.min - o.min) <= SAME && Math.abs(p.max - o.max) <= SAME);
      });
    if (ordered.some(copies)) out.add(record);
  }
  return out;
}
