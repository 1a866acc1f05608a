/**
 * Animation scripts of a compound (`Animation/Script/<name>/Joint map …`, `Object map …`): each map
 * names the object it animates and holds one channel of keyframes — a 12-byte `Header` (count,
 * interval in seconds, type bits) and packed `Frames` (an optional time marker, then an angle, a
 * position and a quaternion as the type says). Layout and corpus facts: `formats/freelancer.md`
 * and treewyrm/freelancer `docs/ANIMATION.md` (measured on the retail tree: `.cmp` scripts drive
 * prismatic and revolute joints with angles and sphere joints with full quaternions).
 *
 * A map that cannot be read as the format defines it (a header of another size, unknown or
 * conflicting type bits, frames that are not `count` whole keyframes, times that do not increase)
 * is skipped with a warning naming it: a script is an optional extra of a model, and the model
 * decodes without it.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { findChild, leafString, type UtfEntry } from "./utf.ts";

/** Channel type bits. */
const ANGLE = 0x01, POSITION = 0x02, QUATERNION = 0x04, EVENT = 0x08;
const ZERO_POSITION = 0x10, IDENTITY_QUATERNION = 0x20, VECTOR_QUATERNION = 0x40, ANGLE_QUATERNION = 0x80;
const KNOWN_BITS = 0xff & ~EVENT;
/** More keys than this in one channel is corruption (retail scripts run at most 400 s at 30 keys/s). */
export const MAX_KEYS = 1_000_000;

/** One map of a script: which object it animates and its keys, decoded. */
export interface AnimationMapRecord {
  readonly map: "joint" | "object";
  /** Joint maps: the joint's parent part; object maps: the animated (root) object. */
  readonly parent: string;
  /** Joint maps: the animated part. */
  readonly child?: string;
  /** The channel's type bits, as stored. */
  readonly type: number;
  /** Key times in seconds, strictly increasing. */
  readonly times: number[];
  /** One angle (radians) or offset per key, when the type holds one. */
  readonly values?: number[];
  /** Three floats per key, when the type holds a position. */
  readonly positions?: number[];
  /** Four floats (x, y, z, w) per key, when the type holds a rotation. */
  readonly rotations?: number[];
  /** Absolute byte offset of the map's directory entry. */
  readonly at: number;
}

/** A named script and its maps, in file order. */
export interface AnimationScriptRecord {
  readonly name: string;
  readonly maps: AnimationMapRecord[];
}

/** The compound's animation scripts (none when it has no `Animation/Script`). */
export function readAnimationScripts(root: UtfEntry, warn: WarningSink): AnimationScriptRecord[] {
  const scripts = findChild(findChild(root, "Animation"), "Script");
  const out: AnimationScriptRecord[] = [];
  for (const script of scripts?.children ?? []) {
    if (!script.children) continue;
    const maps: AnimationMapRecord[] = [];
    for (const entry of script.children) {
      // Freelancer matches the stem alone: the number after it is decorative.
      const lower = entry.name.toLowerCase();
      const kind = lower.startsWith("joint map")
        ? "joint"
        : lower.startsWith("object map")
        ? "object"
        : undefined;
      if (!kind || !entry.children) continue;
      const skip = (why: string) => void warn(`animation '${script.name}', ${entry.name}: ${why}; skipped`);
      try {
        const map = readMap(entry, kind, skip);
        if (map) maps.push(map);
      } catch (error) {
        // A value that is no finite float, or a leaf shorter than its fields.
        if (!(error instanceof DecodeError)) throw error;
        skip(error.message);
      }
    }
    if (maps.length) out.push({ maps, name: script.name });
  }
  return out;
}

function readMap(
  entry: UtfEntry,
  map: "joint" | "object",
  skip: (why: string) => undefined,
): AnimationMapRecord | undefined {
  const name = (leaf: string) => {
    const found = findChild(entry, leaf);
    return found?.data ? leafString(found) : undefined;
  };
  const parent = name("Parent name"), child = name("Child name");
  if (parent === undefined || (map === "joint" && child === undefined)) {
    return skip(map === "joint" ? "no 'Parent name' and 'Child name'" : "no 'Parent name'");
  }
  const channel = findChild(entry, "Channel");
  const header = findChild(channel, "Header")?.data, frames = findChild(channel, "Frames")?.data;
  if (!header || !frames) return skip("no Channel with a Header and Frames");
  if (header.length !== 12) return skip(`a 12-byte channel Header expected, found ${header.length} bytes`);
  const count = header.u32(0, "key count"),
    interval = header.f32(4, "interval"),
    type = header.u32(8, "type");
  const problem = typeProblem(type);
  if (problem) return skip(`channel type 0x${type.toString(16)}: ${problem}`);
  if (!Number.isFinite(interval)) return skip(`a finite key interval expected, found ${interval}`);
  const timed = interval < 0;
  const stride = (timed ? 4 : 0) + (type & ANGLE ? 4 : 0) + (type & POSITION ? 12 : 0) +
    (type & QUATERNION ? 16 : 0) + (type & (VECTOR_QUATERNION | ANGLE_QUATERNION) ? 6 : 0);
  if (count === 0 || count > MAX_KEYS) return skip(`1–${MAX_KEYS} keys expected, found ${count}`);
  if (frames.length !== count * stride) {
    return skip(`Frames of ${count} keys × ${stride} bytes expected, found ${frames.length} bytes`);
  }
  const times: number[] = [], values: number[] = [], positions: number[] = [], rotations: number[] = [];
  for (let key = 0, at = 0; key < count; key++) {
    const time = timed ? frames.f32(at, "key time") : key * interval;
    if (timed) at += 4;
    if (!Number.isFinite(time) || (key > 0 && !(time > times[key - 1]))) {
      return skip(`key ${key}: a time after ${times[key - 1] ?? "−∞"} s expected, found ${time}`);
    }
    times.push(time);
    // Position and rotation data must be finite: NaN would reach the scene's transforms.
    if (type & ANGLE) (values.push(...frames.floats(at, 1, "key value")), at += 4);
    if (type & POSITION) (positions.push(...frames.floats(at, 3, "key position")), at += 12);
    else if (type & ZERO_POSITION) positions.push(0, 0, 0);
    if (type & QUATERNION) {
      const [w, x, y, z] = frames.floats(at, 4, "key rotation");
      rotations.push(...normalized([x, y, z, w]));
      at += 16;
    } else if (type & (VECTOR_QUATERNION | ANGLE_QUATERNION)) {
      const v = [0, 2, 4].map((k) => frames.i16(at + k, "key rotation") / 0x7fff);
      rotations.push(...(type & VECTOR_QUATERNION ? fromVectorPart(v) : fromScaledAxis(v)));
      at += 6;
    } else if (type & IDENTITY_QUATERNION) rotations.push(0, 0, 0, 1);
  }
  // Keys in the written file's (sorted) order: a decoded scene exported unresolved keeps this object.
  return {
    at: entry.offset,
    ...(child !== undefined ? { child } : {}),
    map,
    parent: parent!,
    ...(positions.length ? { positions } : {}),
    ...(rotations.length ? { rotations } : {}),
    times,
    type,
    ...(type & ANGLE ? { values } : {}),
  };
}

/** Why a channel type is not one the format defines, or undefined. */
function typeProblem(type: number): string | undefined {
  if (type & EVENT) return "an event stream (0x08), whose layout no file defines";
  if (type & ~KNOWN_BITS) return "bits no channel type defines";
  const bits = (mask: number) => [...Array(8).keys()].filter((b) => type & mask & (1 << b)).length;
  if (bits(POSITION | ZERO_POSITION) > 1) return "two position forms";
  if (bits(QUATERNION | IDENTITY_QUATERNION | VECTOR_QUATERNION | ANGLE_QUATERNION) > 1) {
    return "two rotation forms";
  }
  if (type & ANGLE && type !== ANGLE) return "an angle combined with other data";
  if (!type) return "no data";
  return undefined;
}

/** `q` scaled to unit length (identity when it has none). */
function normalized(q: number[]): number[] {
  const length = Math.hypot(...q);
  return length > 1e-12 ? q.map((c) => c / length) : [0, 0, 0, 1];
}

/** `0x40`: the vector part as stored, W restored from unit length. */
function fromVectorPart([x, y, z]: number[]): number[] {
  return normalized([x, y, z, Math.sqrt(Math.max(0, 1 - (x * x + y * y + z * z)))]);
}

/** `0x80`: the unit axis scaled by angle / π (zero is identity, one a half turn). */
function fromScaledAxis(v: number[]): number[] {
  const length = Math.hypot(...v);
  if (length < 1e-12) return [0, 0, 0, 1];
  const s = Math.sin(Math.PI * Math.min(length, 1) / 2);
  return normalized([...v.map((c) => (c * s) / length), Math.sqrt(Math.max(0, 1 - s * s))]);
}
