/**
 * One {@link SceneNode} from a library node definition and the overrides of its scene instance:
 * the channels (centre and end points, orientation, rotation, translation, scale, general scale)
 * merged axis by axis, `rotation_order` and `inherits_scale` read with their repairs, and the
 * names and links later stages use.
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import type { DsonEntry, DsonFile } from "./dson_file.ts";
import type { SceneNode } from "./model.ts";
import { describeJson, type JsonRecord } from "./read_json.ts";
import { type ChannelLimits, clampToLimit, describeClamp, readLimits } from "./joint_limits.ts";
import { GROUP_INSTANCE, type InstanceItem, readInstanceItems } from "./instance_items.ts";

/** What {@link readSceneNode} reads a node from. */
export interface NodeSource {
  /** The library definition, or undefined when it did not resolve (the instance alone is read). */
  readonly definition: DsonEntry | undefined;
  /** The scene instance's record (the definition's own record for an implicit instance). */
  readonly instance: JsonRecord;
  /** JSON pointer of the scene instance in the main file; undefined for an implicit instance. */
  readonly instanceAt?: string;
  /** The parent node's index, or -1. */
  readonly parent: number;
  /** The node's unique key (instance id, or definition id for an implicit instance). */
  readonly key: string;
}

/**
 * Reads a node: the instance's properties override its definition's (except id, type and
 * presentation), channels axis by axis. Repairs (a `null` channel value, a lower-case rotation
 * order, `inherits_scale` as 0 or 1) are warnings through `library`; malformed values are
 * `DecodeError`s at the JSON path of the file that wrote them.
 *
 * @example
 * ```ts
 * const node = readSceneNode({ definition, instance, instanceAt: "/scene/nodes/0", parent: -1, key: "hip-1" }, main, library);
 * ```
 */
export function readSceneNode(source: NodeSource, main: DsonFile, library: ContentLibrary): SceneNode {
  const { definition, instance, instanceAt, parent, key } = source;
  const def = definition?.value ?? {};
  const read = definition?.file.read ?? main.read;
  const at = definition?.path ?? "";
  const merged: JsonRecord = { ...def, ...instance, id: def.id ?? instance.id, type: def.type ?? "node" };
  const fromInstance = (name: string) => instanceAt !== undefined && instance[name] !== undefined;
  const field = (name: string) => (fromInstance(name) ? main.read : read);
  const fieldPath = (name: string) => (fromInstance(name) ? `${instanceAt}/${name}` : `${at}/${name}`);
  const fieldFile = (name: string) => (fromInstance(name) || !definition ? main : definition.file);
  // An instance's channel overrides its definition's axis by axis: an axis it leaves out, or
  // writes without a value (or as null), keeps the definition's, as Diffeomorphic reads them.
  const vec = (name: string, fallback: number) => {
    if (!fromInstance(name) || !definition || def[name] === undefined) {
      return field(name).channelVec3(merged[name], fieldPath(name), fallback);
    }
    const base = read.channelVec3(def[name], `${at}/${name}`, fallback);
    return main.read.channelVec3(instance[name], `${instanceAt}/${name}`, base, "the definition's value");
  };
  const number = (name: string, fallback: number) => {
    if (!fromInstance(name) || !definition || def[name] === undefined) {
      return field(name).channelNumber(merged[name], fieldPath(name), fallback);
    }
    const base = read.channelNumber(def[name], `${at}/${name}`, fallback);
    return main.read.channelNumber(instance[name], `${instanceAt}/${name}`, base, "the definition's value");
  };
  const id = String(merged.id ?? key);
  const pose = limitedPose(
    { rotation: vec("rotation", 0), translation: vec("translation", 0), scale: vec("scale", 1) },
    number("general_scale", 1),
    { def, instance: instanceAt === undefined ? {} : instance, id, library, fieldFile, fieldPath },
  );
  return {
    key,
    id,
    name: typeof merged.name === "string" ? merged.name : id,
    label: typeof merged.label === "string" ? merged.label : id,
    type: typeof merged.type === "string" ? merged.type : "node",
    parent,
    definition: definition ? `${definition.file.key}#${id}` : undefined,
    centerPoint: vec("center_point", 0),
    endPoint: vec("end_point", 0),
    orientation: vec("orientation", 0),
    ...pose,
    rotationOrder: rotationOrder(
      merged.rotation_order,
      fieldFile("rotation_order"),
      fieldPath("rotation_order"),
      library,
    ),
    inheritsScale: inheritsScale(
      merged.inherits_scale,
      fieldFile("inherits_scale"),
      fieldPath("inherits_scale"),
      library,
    ),
    conformTarget: typeof merged.conform_target === "string" ? merged.conform_target : undefined,
    preferredBase: preferredBase(merged.presentation),
    ...instanceTarget(merged.extra),
    ...instanceItemsOf(merged.extra),
  };
}

/** Where {@link limitedPose} reads limits and says what it clamped. */
interface LimitSource {
  readonly def: JsonRecord;
  readonly instance: JsonRecord;
  readonly id: string;
  readonly library: ContentLibrary;
  readonly fieldFile: (name: string) => DsonFile;
  readonly fieldPath: (name: string) => string;
}

/**
 * The node's pose channels with its joint limits (`joint_limits.ts`) applied: a value written past
 * a limited channel's range is clamped, as Daz sets it, in one warning per node naming each channel.
 */
function limitedPose(
  vectors: {
    rotation: SceneNode["rotation"];
    translation: SceneNode["translation"];
    scale: SceneNode["scale"];
  },
  generalScale: number,
  { def, instance, id, library, fieldFile, fieldPath }: LimitSource,
): Pick<SceneNode, "rotation" | "translation" | "scale" | "generalScale" | "limits"> {
  const bad: string[] = [];
  const limits: ChannelLimits = readLimits(def, instance, bad);
  if (bad.length) {
    const name = bad[0].split(" ")[0].split("/")[0];
    library.repaired(
      fieldFile(name),
      fieldPath(name),
      `node '${id}': ${bad.length} limited channel(s) with min above max, left unlimited: ${bad.join(", ")}`,
    );
  }
  if (!Object.keys(limits).length) return { ...vectors, generalScale };
  const clamped: string[] = [];
  let first = "";
  const clamp = (channel: string, value: number) => {
    const limit = limits[channel];
    const to = clampToLimit(value, limit);
    if (to !== value) {
      clamped.push(describeClamp(channel, value, to, limit));
      first ||= channel === "scale/general" ? "general_scale" : channel.split("/")[0];
    }
    return to;
  };
  const out = {
    rotation: vectors.rotation.map((v, k) => clamp(`rotation/${"xyz"[k]}`, v)) as SceneNode["rotation"],
    translation: vectors.translation.map((v, k) =>
      clamp(`translation/${"xyz"[k]}`, v)
    ) as SceneNode["translation"],
    scale: vectors.scale.map((v, k) => clamp(`scale/${"xyz"[k]}`, v)) as SceneNode["scale"],
    generalScale: clamp("scale/general", generalScale),
    limits,
  };
  if (clamped.length) {
    library.repaired(
      fieldFile(first),
      fieldPath(first),
      `node '${id}': ${clamped.length} channel value(s) past the joint's limits (clamped: true) clamped, as Daz ` +
        `keeps a limited channel in its range: ${clamped.join(", ")}`,
    );
  }
  return out;
}

/**
 * A node's `rotation_order`: three distinct axis letters. Written in lower case it is read in
 * upper case; anything else (or absent) is DSON's default XYZ. Both repairs are warnings, as
 * guessing an order silently would turn every pose rotation of the node wrongly.
 */
function rotationOrder(value: unknown, file: DsonFile, path: string, library: ContentLibrary): string {
  if (value === undefined) return "XYZ";
  const text = typeof value === "string" ? value.trim().toUpperCase() : "";
  const valid = /^[XYZ]{3}$/.test(text) && new Set(text).size === 3;
  if (valid && text === value) return text;
  library.repaired(
    file,
    path,
    valid
      ? `rotation order ${JSON.stringify(value)} read as '${text}'`
      : `${describeJson(value)} is not a rotation order (three distinct axes, e.g. 'YZX'); XYZ is used`,
  );
  return valid ? text : "XYZ";
}

/** A node's `inherits_scale` (default true); 0 and 1 are read as false and true, with a warning. */
function inheritsScale(value: unknown, file: DsonFile, path: string, library: ContentLibrary): boolean {
  if (value === undefined) return true;
  if (typeof value === "boolean") return value;
  if (value === 0 || value === 1) {
    library.repaired(file, path, `${value} read as ${value === 1}`);
    return value === 1;
  }
  return file.read.fail(path, "a boolean", value);
}

/** `presentation.preferred_base`, when it names something. */
/**
 * A node instance's target: Daz Studio writes `extra: [{type: "studio/node/instance"}, {type:
 * "studio_node_channels", channels: [{channel: {id: "Instance Target", node: "#Tree%20Prop"}}]}]`;
 * the two entries come in either order from other writers, and the URI under `node`, `value` or
 * `current_value`. Not an instance: nothing.
 */
function instanceTarget(extra: unknown): { instanceTarget?: string; instanceCopyModifiersOff?: true } {
  if (!Array.isArray(extra)) return {};
  const records = extra.filter((e): e is JsonRecord => !!e && typeof e === "object" && !Array.isArray(e));
  if (!records.some((e) => e.type === "studio/node/instance" || e.type === GROUP_INSTANCE)) return {};
  let target: string | undefined;
  let off = false;
  for (const record of records) {
    if (!Array.isArray(record.channels)) continue;
    for (const entry of record.channels) {
      const channel = entry && typeof entry === "object" ? (entry as JsonRecord).channel : undefined;
      if (!channel || typeof channel !== "object") continue;
      const c = channel as JsonRecord;
      const id = typeof c.id === "string" ? c.id.toLowerCase().replaceAll(" ", "") : "";
      if (id === "copymodifiers") {
        const value = c.current_value ?? c.value;
        off = value === false || value === 0;
      }
      if (id !== "instancetarget" || target !== undefined) continue;
      const uri = [c.node, c.current_value, c.value].find((v) => typeof v === "string" && v !== "");
      target = (uri as string | undefined) ?? "";
    }
  }
  return { instanceTarget: target ?? "", ...(off ? { instanceCopyModifiersOff: true as const } : {}) };
}

/** An instance group's placements (`instance_items.ts`), as optional fields. */
function instanceItemsOf(extra: unknown): { instanceItems?: InstanceItem[]; instanceItemsBad?: number } {
  const read = readInstanceItems(extra);
  if (!read) return {};
  return { instanceItems: read.items, ...(read.bad ? { instanceItemsBad: read.bad } : {}) };
}

function preferredBase(presentation: unknown): string | undefined {
  const base = presentation && typeof presentation === "object"
    ? (presentation as JsonRecord).preferred_base
    : undefined;
  return typeof base === "string" && base !== "" ? base : undefined;
}
