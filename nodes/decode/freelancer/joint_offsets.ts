/**
 * What each reader does with a `Cons` record's `offset` (the "child point", zero in every retail record,
 * filled by some mods' tools), said per record in one warning per model. The resolver places every part
 * at `T(t)·R`, as LancerEdit's exporter does, and keeps the offset in the part's `offset` extra; the
 * readers that act on it disagree with that and with one another:
 *
 * - Librelancer (`src/LibreLancer/Utf/RevConstruct.cs`, `PrisConstruct.cs`, `SphereConstruct.cs`) rests
 *   a Rev, Pris or Sphere part at `Origin + Offset`: a shift of +offset in the parent frame, whatever the
 *   rotation (a Pris part then slides by axis·d from there, a Rev or Sphere part turns about that point);
 * - it reads no Cyl leaf (`ConstructCollection.cs` throws on it), so a Cyl record refuses the model;
 * - LancerEdit builds its constructs from the `offset` extra and draws them with Librelancer's code, so
 *   a Rev, Pris or Sphere part it imports sits at t + offset too; it reads `construct: "cyl"` as Fix
 *   (the offset dropped), unless `pivots: false` wrote the Cyl part as its turn's Rev or slide's Pris.
 * - Fix and Loose records have no offset field.
 *
 * @module
 */
import type { WarningSink } from "../../../runtime/node.ts";
import type { ConstraintRecord } from "./codec/constraints.ts";
import { describeRecord } from "./joint_checks.ts";

/** Where a record's offset lies: after the parent and child names (64 bytes each) and the translation. */
const OFFSET_AT = 140;

/** How many records the warning names one by one (a capital ship of a mod may carry dozens). */
const NAMED = 12;

/**
 * One warning naming each record whose offset is not zero, with the byte of the record and of its
 * offset, and what Librelancer and LancerEdit make of it (`pivots`: whether the resolver writes pivot
 * nodes; without them a Cyl part is written for LancerEdit as a Rev or Pris that keeps its offset).
 *
 * @example
 * ```ts
 * warnOffsets(records, (m) => console.warn(m), true);
 * // 1 constraint(s) have a non-zero offset … Rev constraint of part 'Arm' (byte 1234), offset (0, 0.5, 0)
 * // at byte 1374: Librelancer draws the part at (1, 0.5, 0), t + offset in the parent frame, …
 * ```
 */
export function warnOffsets(records: readonly ConstraintRecord[], warn: WarningSink, pivots: boolean): void {
  const odd = records.filter((r) => r.offset?.some((v) => v !== 0));
  if (!odd.length) return;
  const named = odd.slice(0, NAMED).map((r) => readersOf(r, pivots));
  const more = odd.length > NAMED
    ? `; and ${odd.length - NAMED} more, read by the same rule for their kind`
    : "";
  warn(
    `${odd.length} constraint(s) have a non-zero offset, zero in every retail record; each part is placed ` +
      `at T(t)·R, as LancerEdit's exporter places it, its offset kept in its extras; readers differ: ` +
      `${named.join("; ")}${more}`,
  );
}

/** One record's clause: where it and its offset lie, and what each reader does with it. */
function readersOf(record: ConstraintRecord, pivots: boolean): string {
  const offset = record.offset!;
  const shifted = `(${record.translation.map((t, i) => round(t + offset[i])).join(", ")})`;
  const head = `${describeRecord(record, record.child)}, offset (${offset.map(round).join(", ")}) at byte ${
    record.at + OFFSET_AT
  }: `;
  if (record.kind === "cyl") {
    return head + "Librelancer refuses the model (it reads no Cyl leaf), " +
      (pivots
        ? "LancerEdit reads the part as Fix, at T(t)·R, the offset dropped"
        : `LancerEdit reads it as the Rev or Pris it is written as and draws it at ${shifted}, t + offset`);
  }
  return head + `Librelancer draws the part at ${shifted}, t + offset in the parent frame, ` +
    "and so does LancerEdit, reading the offset extra back";
}

function round(v: number): number {
  return Math.round(v * 1e4) / 1e4 || 0;
}
