/**
 * Which constraint records make the part tree: the first record naming a part as its child wins,
 * records naming parts that do not exist are dropped (retail has one: a child `"Barrel01\t"`), and a
 * cycle is an error at the record's byte offset.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import type { ConstraintRecord } from "./constraints.ts";

/** The tree the records describe. */
export interface HierarchyPlan {
  /** Records kept, in file order; each attaches `child` under `parent`. */
  readonly joints: readonly ConstraintRecord[];
  /** Parts with no kept record (in the order given): they stay at the scene root. */
  readonly roots: readonly string[];
}

/**
 * Plans the part tree. Names match case-insensitively and verbatim otherwise (spaces and tabs
 * count), as Librelancer and the game do.
 *
 * @example
 * ```ts
 * const { joints, roots } = planHierarchy(["Root", "Turret"], records, console.warn);
 * ```
 */
export function planHierarchy(
  partNames: readonly string[],
  records: readonly ConstraintRecord[],
  warn: WarningSink,
): HierarchyPlan {
  const parts = new Set(partNames.map((n) => n.toLowerCase()));
  const parentOf = new Map<string, ConstraintRecord>();
  const joints: ConstraintRecord[] = [];
  for (const record of records) {
    const describe = `${record.kind} constraint '${record.parent}' → '${record.child}' (byte ${record.at})`;
    const child = record.child.toLowerCase();
    if (!parts.has(child) || !parts.has(record.parent.toLowerCase())) {
      const missing = parts.has(child) ? record.parent : record.child;
      warn(`${describe} names part ${JSON.stringify(missing)}, which does not exist; constraint dropped`);
      continue;
    }
    if (parentOf.has(child)) {
      warn(`${describe}: part '${record.child}' already has a constraint; this one is dropped`);
      continue;
    }
    parentOf.set(child, record);
    joints.push(record);
  }
  for (const record of joints) {
    const chain = [record.child];
    let at = record.parent.toLowerCase();
    for (let steps = 0; steps <= parts.size; steps++) {
      chain.push(at);
      if (at === record.child.toLowerCase()) {
        throw new DecodeError({
          format: "cmp",
          at: { offset: record.at },
          expected: "an acyclic part hierarchy",
          found: `the cycle ${chain.join(" → ")}`,
        });
      }
      const up = parentOf.get(at);
      if (!up) break;
      at = up.parent.toLowerCase();
    }
  }
  const roots = partNames.filter((n) => !parentOf.has(n.toLowerCase()));
  if (roots.length > 1) {
    warn(`${roots.length} parts have no constraint (${roots.join(", ")}); all stay at the scene root`);
  }
  return { joints, roots };
}
