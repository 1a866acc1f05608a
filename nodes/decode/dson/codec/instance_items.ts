/**
 * Daz Studio 4.9+ instance groups (DzInstanceGroupNode: scatter tools such as UltraScatter make
 * them, a crowd or a forest in one scene node): a node whose `extra` of type
 * `studio/node/group_instance` holds `instance_items`, each a placement of the "Instance Target"
 * (a prop, a group or a figure) under the node: `translation`, `rotation` (in its `rotation_order`),
 * `scale`, `general_scale`, `center_point` and `orientation`, written as channel triples
 * (`[{id: "x", value}, …]`, `current_value` first) or as bare `[x, y, z]`; an item may carry a
 * `name`. Each item draws the target's content once, posed as a child node of the instance group.
 *
 * Before decode.dson v54 such a node drew nothing, silently.
 *
 * @module
 */
import type { PoseFrame } from "./rest_pose.ts";
import type { JsonRecord } from "./read_json.ts";

/** One placement of an instance group: its name and pose frame (cm, degrees). */
export interface InstanceItem extends PoseFrame {
  readonly name: string;
}

/** The instance-group extra's type. */
export const GROUP_INSTANCE = "studio/node/group_instance";

/** Most items read from one instance group: more is hostile (each draws its target again). */
export const MAX_INSTANCE_ITEMS = 100_000;

/**
 * The items of the `studio/node/group_instance` entry of a node's `extra`, or undefined when it has
 * none. Malformed values fall back to the default (no move, no turn, scale 1) and are counted in
 * `bad`; past {@link MAX_INSTANCE_ITEMS} items the rest are left out.
 *
 * @example
 * ```ts
 * readInstanceItems([{ type: "studio/node/group_instance", instance_items: [{ translation: [100, 0, 0] }] }]);
 * ```
 */
export function readInstanceItems(extra: unknown): { items: InstanceItem[]; bad: number } | undefined {
  if (!Array.isArray(extra)) return undefined;
  const entry = extra.find((e) => e && typeof e === "object" && (e as JsonRecord).type === GROUP_INSTANCE) as
    | JsonRecord
    | undefined;
  if (!entry || !Array.isArray(entry.instance_items)) return undefined;
  let bad = 0;
  const items = entry.instance_items.slice(0, MAX_INSTANCE_ITEMS).map((raw, k): InstanceItem => {
    const item = raw && typeof raw === "object" && !Array.isArray(raw) ? raw as JsonRecord : (bad++, {});
    const triple = (key: string, fallback: number): [number, number, number] => {
      const read = readTriple(item[key], fallback);
      if (!read.ok) bad++;
      return read.value;
    };
    const general = channelNumber(item.general_scale);
    if (item.general_scale !== undefined && general === undefined) bad++;
    const order = typeof item.rotation_order === "string" && /^[XYZ]{3}$/i.test(item.rotation_order) &&
        new Set(item.rotation_order.toUpperCase()).size === 3
      ? item.rotation_order.toUpperCase()
      : "XYZ";
    return {
      name: typeof item.name === "string" && item.name ? item.name : String(k),
      centerPoint: triple("center_point", 0),
      orientation: triple("orientation", 0),
      translation: triple("translation", 0),
      rotation: triple("rotation", 0),
      scale: triple("scale", 1),
      generalScale: general ?? 1,
      rotationOrder: order,
    };
  });
  return { items, bad };
}

/** A channel triple or bare `[x, y, z]`; absent is the fallback, unreadable parts too (not ok). */
function readTriple(value: unknown, fallback: number): { value: [number, number, number]; ok: boolean } {
  const out: [number, number, number] = [fallback, fallback, fallback];
  if (value === undefined) return { value: out, ok: true };
  if (!Array.isArray(value)) return { value: out, ok: false };
  let ok = true;
  if (value.length === 3 && value.every((v) => typeof v === "number")) {
    value.forEach((v, k) => Number.isFinite(v) ? out[k] = v : ok = false);
    return { value: out, ok };
  }
  for (const channel of value) {
    const c = channel && typeof channel === "object" ? channel as JsonRecord : {};
    const axis = ["x", "y", "z"].indexOf(String(c.id).toLowerCase());
    const v = channelNumber(c);
    if (axis < 0 || v === undefined) ok = false;
    else out[axis] = v;
  }
  return { value: out, ok };
}

/** A number, or a channel's `current_value ?? value`, when finite. */
function channelNumber(value: unknown): number | undefined {
  const v = value && typeof value === "object" && !Array.isArray(value)
    ? (value as JsonRecord).current_value ?? (value as JsonRecord).value
    : value;
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}
