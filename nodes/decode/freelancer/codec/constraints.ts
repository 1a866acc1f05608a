/**
 * `Cons` constraint records of a compound: packed arrays of fixed-size records, one leaf per joint
 * kind, no count and no per-record size. An unknown leaf or a size that is not a multiple of the
 * record size is an error: guessing would silently desynchronise every later record.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import type { ByteWindow } from "../../../../runtime/binary.ts";
import type { UtfEntry } from "./utf.ts";
import { requireLeaf } from "./utf.ts";
import { type CylOrder, cylOrders, readCylLimits } from "./cyl_limits.ts";
import { degreesTyped } from "./turn_limits.ts";

/** Joint kinds, as lower-case `construct` names (LancerEdit's spelling). */
export type JointKind = "fix" | "rev" | "pris" | "cyl" | "sphere" | "loose";

/** Record size in bytes of each `Cons` leaf. Sphere carries an offset: 212, not 200. */
export const CONSTRAINT_RECORD_SIZE: Readonly<Record<JointKind, number>> = {
  fix: 176,
  rev: 208,
  pris: 208,
  cyl: 216,
  sphere: 212,
  loose: 176,
};

/**
 * One decoded constraint record. Angles are radians as stored; the JSON shape is what
 * `decode.cmp` keeps in `extras.partgraph.constraints`.
 */
export interface ConstraintRecord {
  kind: JointKind;
  parent: string;
  child: string;
  /** Rest translation (parent frame). */
  translation: number[];
  /** Nine floats: the rows of R, `p_parent = R·p_child + t`. */
  rotation: number[];
  /** Rev, Pris, Cyl, Sphere: the "child point" (zero in every retail record). */
  offset?: number[];
  /** Rev, Pris, Cyl: the joint axis in the parent frame. */
  axis?: number[];
  /** Rev (radians), Pris (units): limits. */
  min?: number;
  max?: number;
  /** Cyl: the four stored limits in file order; Sphere: min1, max1, min2, max2, min3, max3 (radians). */
  limits?: number[];
  /** Cyl: the order its limits are read in, decided over the file's Cyl records (`cyl_limits.ts`). */
  limit_order?: CylOrder;
  /** Absolute byte offset of the record in the file. */
  at: number;
}

/** Decodes every record of every leaf of a `Cons` directory, in file order. */
export function readConstraints(cons: UtfEntry, warn: WarningSink): ConstraintRecord[] {
  const records: ConstraintRecord[] = [];
  for (const leaf of cons.children ?? []) {
    const kind = leaf.name.toLowerCase() as JointKind;
    const data = requireLeaf(leaf, "a constraint leaf");
    const size = CONSTRAINT_RECORD_SIZE[kind];
    if (!Object.hasOwn(CONSTRAINT_RECORD_SIZE, kind)) {
      data.fail(0, "a Cons leaf named Fix, Rev, Pris, Cyl, Sphere or Loose", JSON.stringify(leaf.name));
    }
    if (data.length % size !== 0) {
      data.fail(
        data.length - (data.length % size),
        `a ${leaf.name} leaf of whole ${size}-byte records`,
        `${data.length} bytes (${data.length % size} left over)`,
      );
    }
    for (let at = 0; at < data.length; at += size) {
      const record = readRecord(data, at, kind);
      // A Rev or Sphere limit beyond a full turn (the Cyl's turn is read above): typed in degrees.
      const typed = kind === "rev"
        ? degreesTyped([record.min!, record.max!])
        : kind === "sphere"
        ? degreesTyped(record.limits!)
        : undefined;
      if (typed) {
        const name = kind[0].toUpperCase() + kind.slice(1);
        warn(`${name} constraint of part '${record.child}' (byte ${record.at}): ${typed}`);
      }
      records.push(record);
    }
  }
  // The sources disagree on a Cyl's limit order and a file is written in one: decided over all of them.
  const cyls = records.filter((r) => r.kind === "cyl") as (ConstraintRecord & { limits: number[] })[];
  cylOrders(cyls).forEach(({ order, warning }, i) => {
    const { turn } = readCylLimits(cyls[i].limits, order);
    Object.assign(cyls[i], { limit_order: order, min: turn[0], max: turn[1] });
    if (warning) warn(warning);
  });
  return records;
}

function readRecord(data: ByteWindow, at: number, kind: JointKind): ConstraintRecord {
  const record: ConstraintRecord = {
    kind,
    parent: data.cString(at, 64),
    child: data.cString(at + 64, 64),
    translation: data.floats(at + 128, 3, "translation"),
    rotation: [],
    at: data.start + at,
  };
  if (kind === "fix" || kind === "loose") {
    record.rotation = data.floats(at + 140, 9, "rotation");
    return record;
  }
  record.offset = data.floats(at + 140, 3, "offset");
  record.rotation = data.floats(at + 152, 9, "rotation");
  if (kind === "sphere") {
    record.limits = data.floats(at + 188, 6, "sphere limits");
    return record;
  }
  record.axis = data.floats(at + 188, 3, "axis");
  if (kind === "cyl") {
    record.limits = data.floats(at + 200, 4, "cylinder limits"); // min/max: see readConstraints
    return record;
  }
  record.min = data.f32(at + 200, "min");
  record.max = data.f32(at + 204, "max");
  return record;
}
