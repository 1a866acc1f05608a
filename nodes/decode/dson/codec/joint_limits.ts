/**
 * Joint limits: a node's transform channel written `clamped: true` ("limits on" in Daz Studio) keeps
 * its value within its `min`/`max`. The DSON spec gives `channel_float` those three fields and
 * nothing more; how Daz applies them is read from Daz Studio's behaviour as DSON evaluators
 * reproduce it: the value set on a limited channel (the file's, a preset's) is clamped as it is set
 * (a pose loaded with limits on never leaves them), and the channel's value with its ERC formulas
 * applied — `(own + Σ sums) · Π mults` — is clamped again, so a hand-grasp controller cannot bend a
 * finger past its limit whatever the finger's own value. A formula reading the channel (a
 * corrective) reads the clamped value. Limits are per axis; an instance's channel overrides its
 * definition's field by field, so a scene turning a joint's limits off (`clamped: false`) is obeyed.
 *
 * @module
 */
import type { JsonRecord } from "./read_json.ts";

/** A limited channel's range (absent end: unbounded that way). */
export interface ChannelLimit {
  readonly min?: number;
  readonly max?: number;
}

/** Limits by pose channel as presets name them (`rotation/x`, `scale/general`). */
export type ChannelLimits = Readonly<Record<string, ChannelLimit>>;

/** The node fields holding the channels that can carry limits, and the keys they give. */
const VECTOR_CHANNELS = ["rotation", "translation", "scale"] as const;

/**
 * The limits of a node's channels: for each channel of `def` (the definition) and `instance` (its
 * scene instance, which overrides field by field) written `clamped: true` with a finite `min` or
 * `max`. A range whose `min` exceeds its `max` limits nothing and is named in `bad`.
 *
 * @example
 * ```ts
 * readLimits({ rotation: [{ id: "z", min: -90, max: 20, clamped: true }] }, {}); // { "rotation/z": { min: -90, max: 20 } }
 * ```
 */
export function readLimits(
  def: JsonRecord,
  instance: JsonRecord,
  bad: string[] = [],
): Record<string, ChannelLimit> {
  const limits: Record<string, ChannelLimit> = {};
  const add = (key: string, fields: JsonRecord) => {
    if (fields.clamped !== true) return;
    const min = finite(fields.min), max = finite(fields.max);
    if (min === undefined && max === undefined) return;
    if (min !== undefined && max !== undefined && min > max) {
      bad.push(`${key} (min ${min} > max ${max})`);
      return;
    }
    limits[key] = { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
  };
  for (const kind of VECTOR_CHANNELS) {
    for (const axis of ["x", "y", "z"]) {
      add(`${kind}/${axis}`, { ...axisOf(def[kind], axis), ...axisOf(instance[kind], axis) });
    }
  }
  add("scale/general", { ...record(def.general_scale), ...record(instance.general_scale) });
  return limits;
}

/** `value` within `limit` (unchanged without one). */
export function clampToLimit(value: number, limit: ChannelLimit | undefined): number {
  if (!limit) return value;
  return Math.min(limit.max ?? Infinity, Math.max(limit.min ?? -Infinity, value));
}

/**
 * The limits kept in a decoded node's `extras.partgraph.dson.limits` (anyone may have edited them:
 * a channel whose range is not numbers is left unlimited).
 */
export function storedLimits(value: unknown): ChannelLimits {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  const out: Record<string, ChannelLimit> = {};
  for (const [key, limit] of Object.entries(value as JsonRecord)) {
    if (!limit || typeof limit !== "object") continue;
    const min = finite((limit as JsonRecord).min), max = finite((limit as JsonRecord).max);
    if (min === undefined && max === undefined) continue;
    out[key] = { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
  }
  return out;
}

/** How a clamp is said: `rotation/z 120 → 90 (limits -90..90)`. */
export function describeClamp(channel: string, from: number, to: number, limit: ChannelLimit): string {
  const range = `${limit.min ?? "-∞"}..${limit.max ?? "∞"}`;
  return `${channel} ${round(from)} → ${round(to)} (limits ${range})`;
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function record(value: unknown): JsonRecord {
  return value && typeof value === "object" && !Array.isArray(value) ? value as JsonRecord : {};
}

/** The channel object of `axis` in a channel array (`[{id: "x", …}, …]`), or nothing. */
function axisOf(channels: unknown, axis: string): JsonRecord {
  if (!Array.isArray(channels)) return {};
  const found = channels.find((c) => record(c).id === axis);
  return record(found);
}
