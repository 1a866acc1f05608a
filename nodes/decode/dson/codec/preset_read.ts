/**
 * Reading DSON pose and shape presets: a `.duf` whose `scene.animations` key channels by URL, e.g.
 * `name://@selection/l_hand:?rotation/x/value` (a joint's rotation) or
 * `name://@selection#CTRLSmile:?value/value` (a morph's value). What a channel addresses is told by
 * its property path; the value is the channel's at frame 0 (a key there, else its curve there).
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import { type CurveKey, curveValueAt } from "./key_curve.ts";
import { JsonReader } from "./read_json.ts";
import { parseDsonBytes } from "./text.ts";
import { parseDsonUri } from "./uri.ts";
import { boneChannel } from "./formula_compile.ts";

/** A joint channel a preset can set: `rotation`/`translation`/`scale` x, y, z, or `scale/general`. */
export type JointChannel =
  | `${"rotation" | "translation" | "scale"}/${"x" | "y" | "z"}`
  | "scale/general";

/** One keyed channel of a preset. */
export interface PresetChannel {
  /** `joint` for a node's transform channel, `morph` for a modifier's value. */
  readonly kind: "joint" | "morph";
  /**
   * Node name (joints) or modifier id (morphs) the URL names; {@link SELECTED_FIGURE} for the
   * selected figure's own root.
   */
  readonly target: string;
  /** For joints, which channel. */
  readonly channel?: JointChannel;
  /** The value at frame 0 (degrees for rotations, cm for translations). */
  readonly value: number;
  /** The URL as written. */
  readonly url: string;
  /** JSON path of the entry. */
  readonly path: string;
  /** The entry is marked `auto_follow` (followers such as clothing would take it in Daz). */
  readonly autoFollow: boolean;
}

/** A parsed preset. */
export interface DsonPreset {
  readonly assetId: string;
  readonly assetType: string;
  readonly channels: readonly PresetChannel[];
  /** Entries whose property is not a joint transform or a morph value, with why. */
  readonly skipped: readonly { url: string; path: string; reason: string }[];
  /** Entries with more than one key (only frame 0 is applied). */
  readonly animated: number;
  /**
   * Ids the preset's own scene names (its nodes' `id` and `url` fragments, its modifier instances'
   * `parent` fragments): the figure it was saved for, which picks the figure among several.
   */
  readonly figureHints: readonly string[];
}

/**
 * The target of a joint channel on the selected figure itself (`name://@selection:?rotation/y/value`):
 * the figure's root node, which Daz's pose presets key for a sitting or lying pose (Diffeomorphic
 * applies it to the rig object: `bname == "@selection"` in `animation.py`).
 */
export const SELECTED_FIGURE = "@selection";

const JOINT_CHANNELS = new Set<string>([
  ..."xyz".split("").flatMap((axis) => [`rotation/${axis}`, `translation/${axis}`, `scale/${axis}`]),
  "scale/general",
]);

/**
 * Parses preset bytes (plain or gzip). Fails with a `DecodeError` for a material preset, for a file
 * with nothing to apply, and for malformed entries (at their JSON path).
 *
 * @example
 * ```ts
 * const preset = await readDsonPreset(await Deno.readFile("grip.duf"), "grip.duf");
 * ```
 */
export async function readDsonPreset(
  bytes: Uint8Array,
  file: string | undefined,
  warn: WarningSink,
): Promise<DsonPreset> {
  const read = new JsonReader(file);
  const top = read.object(await parseDsonBytes(bytes, file, warn), "");
  const info = read.optObject(top.asset_info, "/asset_info") ?? {};
  const assetType = read.optString(info.type, "/asset_info/type") ?? "";
  const scene = read.optObject(top.scene, "/scene") ?? {};
  if (assetType.includes("material")) {
    read.fail(
      "/asset_info/type",
      "a pose or shape preset",
      `#raw:a '${assetType}' file: material presets are not applied (only joint and morph channels)`,
    );
  }
  if (scene.animations === undefined) {
    read.fail(
      "/scene",
      "a pose or shape preset (scene.animations)",
      `#raw:a ${assetType ? `'${assetType}'` : "DSON"} file with scene {${Object.keys(scene).join(", ")}}`,
    );
  }
  const channels: PresetChannel[] = [];
  const skipped: DsonPreset["skipped"][number][] = [];
  let animated = 0;
  const nullKeys: NullKey[] = [];
  const odd: OddKey[] = [];
  const unkeyed: string[] = [];
  for (
    const [entry, at] of read.objects(read.array(scene.animations, "/scene/animations"), "/scene/animations")
  ) {
    const url = read.string(entry.url, `${at}/url`);
    const keys = read.array(entry.keys, `${at}/keys`);
    if (keys.length === 0) read.fail(`${at}/keys`, "at least one [time, value] key", keys);
    const keyed = frameZeroValue(read, keys, `${at}/keys`, nullKeys, odd);
    const autoFollow = read.optBoolean(entry.auto_follow, `${at}/auto_follow`, false);
    if (keyed.keys > 1) animated++;
    if (keyed.value === undefined) {
      unkeyed.push(url);
      continue;
    }
    const value = keyed.value;
    const channel = classify(url);
    if (typeof channel === "string") skipped.push({ url, path: at, reason: channel });
    else channels.push({ ...channel, value, url, path: at, autoFollow });
  }
  if (odd.length) {
    const kinds = [...new Set(odd.map((k) => k.kind))];
    warn(
      `dson preset: ${file ?? "preset"} at ${odd[0].path}: ${odd.length} key(s) with an interpolation the ` +
        `DSON spec does not name (${few(kinds)}; it names CONST, LINEAR, TCB and HERMITE) are read as its ` +
        "default for float channels, a Catmull-Rom spline",
    );
  }
  if (nullKeys.length) {
    // Qt's JSON writer stores NaN and infinity as null: such a key says nothing, so it is skipped.
    const times = nullKeys.some((k) => k.time), values = nullKeys.some((k) => k.value);
    const what = times && values ? "time or value" : times ? "time" : "value";
    const first = nullKeys[0].path;
    warn(
      `dson preset: ${file ?? "preset"} at ${first}: ${nullKeys.length} key(s) with a null ${what} ` +
        `(how JSON writers store NaN or infinity) skipped${
          unkeyed.length
            ? `; ${unkeyed.length} channel(s) left with no key, not applied: ${few(unkeyed)}`
            : ""
        }`,
    );
  }
  const modifiers = read.optArray(scene.modifiers, "/scene/modifiers");
  const figureHints = new Set<string>();
  const hint = (uri: unknown) => {
    if (typeof uri === "string" && uri.includes("#")) figureHints.add(parseDsonUri(uri).id);
  };
  for (const node of read.optArray(scene.nodes, "/scene/nodes")) {
    const { id, url } = (node ?? {}) as { id?: unknown; url?: unknown };
    if (typeof id === "string") figureHints.add(id);
    hint(url);
  }
  for (const modifier of modifiers) hint(((modifier ?? {}) as { parent?: unknown }).parent);
  if (modifiers.length) {
    const reason = `${modifiers.length} modifier instance(s) not added`;
    skipped.push({ url: "scene.modifiers", path: "/scene/modifiers", reason });
  }
  return {
    assetId: read.optString(info.id, "/asset_info/id") ?? file ?? "",
    assetType,
    channels,
    skipped,
    animated,
    figureHints: [...figureHints].filter((id) => id !== ""),
  };
}

/** A key skipped for a `null` time or value: the path of its (first) null, and which were null. */
/** The interpolations the DSON spec names (`key_curve.ts` evaluates them). */
const KNOWN_INTERPOLATIONS = new Set(["CONST", "LINEAR", "TCB", "HERMITE"]);

/** A key whose interpolation is none the spec names: read as the spec's default for floats. */
interface OddKey {
  readonly path: string;
  readonly kind: string;
}

interface NullKey {
  readonly path: string;
  readonly time: boolean;
  readonly value: boolean;
}

/**
 * The channel's value at frame 0 (`key_curve.ts`: a key there, else the curve between the keys
 * either side by the earlier key's interpolation, else the nearest end key's value), and how many
 * keys have a value. A key whose time or value is `null` is skipped, added to `nullKeys`; keys are
 * taken in time order, as the spec has them written.
 */
function frameZeroValue(
  read: JsonReader,
  keys: unknown[],
  path: string,
  nullKeys: NullKey[],
  odd: OddKey[],
): { value?: number; keys: number } {
  const curve: CurveKey[] = [];
  keys.forEach((key, i) => {
    const pair = read.array(key, `${path}/${i}`);
    // A null time or value (NaN or infinity, as Qt's JSON writer stores them) says nothing: skipped.
    const time = pair[0] === null ? null : read.number(pair[0], `${path}/${i}/0`);
    if (time === null || pair[1] === null) {
      const at = `${path}/${i}/${time === null ? 0 : 1}`;
      nullKeys.push({ path: at, time: time === null, value: pair[1] === null });
      return;
    }
    const value = read.number(pair[1], `${path}/${i}/1`);
    // `["TCB", tension, continuity, bias]` and the like, as Daz nests it; hand edits and community
    // writers flatten it, `[time, value, "TCB", t, c, b]` (before apply_preset v32 read as no
    // interpolation: its tension, continuity and bias dropped, silently). Anything else is none.
    const written = Array.isArray(pair[2])
      ? pair[2]
      : typeof pair[2] === "string"
      ? pair.slice(2)
      : undefined;
    const kind = written && typeof written[0] === "string" ? written : undefined;
    const interpolation = kind
      ? [kind[0] as string, ...kind.slice(1).map((x) => (typeof x === "number" ? x : NaN))] as const
      : undefined;
    if (interpolation && !KNOWN_INTERPOLATIONS.has(interpolation[0].toUpperCase())) {
      odd.push({ path: `${path}/${i}/2`, kind: interpolation[0] });
    }
    curve.push({ time, value, ...(interpolation ? { interpolation } : {}) });
  });
  curve.sort((a, b) => a.time - b.time);
  return { value: curve.length ? curveValueAt(curve, 0) : undefined, keys: curve.length };
}

/** The first few of a list, for a message. */
function few(list: readonly string[]): string {
  return list.slice(0, 8).map((x) => `'${x}'`).join(", ") +
    (list.length > 8 ? `, … (${list.length} in all)` : "");
}

/** What a channel URL addresses, or why it is not applied. */
function classify(url: string): Pick<PresetChannel, "kind" | "target" | "channel"> | string {
  const uri = parseDsonUri(url);
  const property = uri.propertyPath.replace(/\/value$/, "");
  // `name://@selection#id:?…` puts the modifier id before the node-path colon: drop that colon.
  const id = uri.id.replace(/:$/, "");
  const nodeName = uri.nodePath.split("/").filter((part) => part !== "" && part !== "@selection").pop() ?? "";
  // The spec's `rotation/x`, and the names formulas also read (`general_scale`, Daz Studio's own
  // `xrotate`, `YTranslate`, `zscale`), which scripts and hand edits write in presets (before
  // apply_preset v33: not applied, named in the skipped warning).
  const joint = boneChannel(uri.propertyPath);
  if (joint !== undefined && JOINT_CHANNELS.has(joint)) {
    const selected = uri.nodePath.replace(/^\/+|\/+$/g, "") === SELECTED_FIGURE;
    const target = id || nodeName || (selected ? SELECTED_FIGURE : "");
    return target ? { kind: "joint", target, channel: joint as JointChannel } : "names no node";
  }
  if (property === "value") {
    return id ? { kind: "morph", target: id } : "names no modifier";
  }
  return `property '${uri.propertyPath}' is not a joint transform or a morph value`;
}
