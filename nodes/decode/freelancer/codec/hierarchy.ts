/**
 * Which constraint records make the part tree: the first record naming a part as its child wins,
 * records naming parts that do not exist are dropped (retail has one: a child `"Barrel01\t"`), so is a
 * record attaching a part to itself, and a longer cycle, or a tree deeper than {@link MAX_HIERARCHY_DEPTH}, is an error at a record's byte offset.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { chainText, MAX_HIERARCHY_DEPTH, scanHierarchy } from "../../../../runtime/depth.ts";
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
    if (child === record.parent.toLowerCase()) {
      // An exporter that writes a record for every part, the root's naming itself: it attaches nothing
      // (before, the cycle Root → Root refused the whole model).
      warn(`${describe} attaches part '${record.child}' to itself; constraint dropped`);
      continue;
    }
    if (parentOf.has(child)) {
      warn(`${describe}: part '${record.child}' already has a constraint; this one is dropped`);
      continue;
    }
    parentOf.set(child, record);
    joints.push(record);
  }
  checkTree(partNames, parentOf, joints);
  const roots = partNames.filter((n) => !parentOf.has(n.toLowerCase()));
  if (roots.length > 1) {
    warn(`${roots.length} parts have no constraint (${roots.join(", ")}); all stay at the scene root`);
  }
  return { joints, roots };
}

/**
 * Refuses a cycle (at the first kept record on it, named from its child up) or a tree deeper than
 * {@link MAX_HIERARCHY_DEPTH} (at the record attaching the deepest part), in time linear in the parts.
 */
function checkTree(
  partNames: readonly string[],
  parentOf: ReadonlyMap<string, ConstraintRecord>,
  joints: readonly ConstraintRecord[],
): void {
  const keys = partNames.map((n) => n.toLowerCase());
  const indexOf = new Map(keys.map((k, i) => [k, i]));
  const parentIndex = (key: string) => {
    const record = parentOf.get(key);
    return record ? indexOf.get(record.parent.toLowerCase())! : -1;
  };
  const scan = scanHierarchy(keys.map(parentIndex));
  const fail = (record: ConstraintRecord, expected: string, found: string): never => {
    throw new DecodeError({ format: "cmp", at: { offset: record.at }, expected, found });
  };
  if (scan.cycle.length) {
    const order = new Map(joints.map((r, i) => [r, i]));
    const records = scan.cycle.map((i) => parentOf.get(keys[i])!);
    const first = records.reduce((a, b) => (order.get(b)! < order.get(a)! ? b : a));
    const from = records.indexOf(first);
    const names = [...records.slice(from), ...records.slice(0, from), first].map((r) => r.child);
    fail(first, "an acyclic part hierarchy", `the cycle ${chainText(names)}`);
  }
  if (scan.depth > MAX_HIERARCHY_DEPTH) {
    const record = parentOf.get(keys[scan.deepest])!;
    fail(
      record,
      `a part hierarchy at most ${MAX_HIERARCHY_DEPTH} levels deep`,
      `${scan.depth} levels down to part '${record.child}'`,
    );
  }
}
