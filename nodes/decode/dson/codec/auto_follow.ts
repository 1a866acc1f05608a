/**
 * Daz's auto-follow by name. When a figure is fitted to another (a dress to its body, `conform_target`),
 * a property of the item marked `auto_follow: true` on its channel inherits the value of the
 * same-named property of the body (Daz's scripting reference, DzFollowingProjectionOptions: "a
 * name-matching mechanism referred to as 'Auto Follow' … causes certain matched properties on the
 * follower to inherit the values of the properties on the follow target"). No formula is written
 * for it: Daz writes the flag on morphs it projected and on many store items' shape morphs.
 *
 * Here such a channel is driven by the body's value as a formula pushing it would be
 * (`formula_body.ts`): its own dial is replaced by the body's value (inherited, not added: a saved
 * scene writes the follower's dial as Daz showed it, already the body's). A formula the item writes
 * for the channel wins, as the author's explicit link (it may scale or shape the body's value), so
 * the flag adds nothing to a driven channel. A body with no modifier of that name leaves the
 * channel its own value, reported by the caller; with no body in the scene nothing follows.
 *
 * @module
 */
import type { DsonEntry } from "./dson_file.ts";
import { bodyChannel, bodyChannelKey, type BodyLookup } from "./formula_body.ts";
import type { StoredChannel, StoredFormula } from "./formula_graph.ts";
import type { ModifierValue } from "./formula_eval.ts";
import type { JsonRecord } from "./read_json.ts";

/** An auto-follow channel of the item following its body's same-named one. */
export interface Follower {
  /** The graph key of the body's channel it reads (`<body key>:#<id>`). */
  readonly key: string;
  /** The body's channel, as stored in the item's graph. */
  readonly channel: StoredChannel;
  /** The formula driving the follower: the body's value, summed onto an own value of 0. */
  readonly formula: StoredFormula;
  /** A key naming the flag (for the caller's record of what was evaluated). */
  readonly source: string;
}

/** An auto-follow channel that could not follow: the body lacks its name, or its value is unknown there. */
export interface Unfollowed {
  readonly entry: DsonEntry;
  readonly name: string;
  readonly why: "absent" | "unknown";
}

/**
 * The auto-follow channels among `values` (a fitted item's modifiers, by id) that no formula
 * drives (`driven`: ids with formulas, the item's own or others'), matched by name to the `body`'s
 * modifiers. Nothing follows without a body.
 *
 * @example
 * ```ts
 * const { followers, unfollowed } = autoFollowers(values, driven, body);
 * ```
 */
export function autoFollowers(
  values: ReadonlyMap<string, ModifierValue>,
  driven: ReadonlyMap<string, unknown>,
  body: BodyLookup | undefined,
): { followers: Map<string, Follower>; unfollowed: Unfollowed[] } {
  const followers = new Map<string, Follower>();
  const unfollowed: Unfollowed[] = [];
  if (!body) return { followers, unfollowed };
  for (const [id, v] of values) {
    const { entry } = v;
    if (!followsBody(v) || driven.has(id)) continue;
    const name = typeof entry.value.name === "string" ? entry.value.name : id;
    const bodyId = body.named(name);
    if (bodyId === undefined) {
      unfollowed.push({ entry, name, why: "absent" });
      continue;
    }
    const value = body.value(bodyId);
    if (value === undefined) {
      unfollowed.push({ entry, name, why: "unknown" });
      continue;
    }
    const key = bodyChannelKey(body.figure, bodyId);
    followers.set(id, {
      key,
      channel: bodyChannel(body, bodyId, value),
      formula: { stage: "sum", ops: [{ value: key }] },
      source: `${entry.file.source}\u0000${entry.path}/channel/auto_follow`,
    });
  }
  return { followers, unfollowed };
}

/**
 * Whether a modifier applied to a mesh follows its body: the scene instance's `auto_follow` where it
 * writes one (Daz writes a channel attribute the user changed, Parameter Settings → "Auto Follow",
 * on the instance), else its definition's channel flag. Before decode.dson v32 only the definition's
 * was read, so a morph switched off in the scene still followed (and was projected), and one
 * switched on did not.
 */
export function followsBody(v: ModifierValue): boolean {
  return v.autoFollow ?? isAutoFollow(v.entry.value.channel);
}

/** Whether a modifier's channel is marked `auto_follow: true`. */
export function isAutoFollow(channel: unknown): boolean {
  return !!channel && typeof channel === "object" && (channel as JsonRecord).auto_follow === true;
}

/**
 * The warning for a fitted item's `auto_follow` channels its body cannot drive (no modifier of
 * that name: most often its morph file is not installed or not in the scene; or its value unknown
 * there): they keep their own value. It is placed at the first one's flag.
 */
export function describeUnfollowed(
  unfollowed: readonly Unfollowed[],
  body: string,
): { file: DsonEntry["file"]; path: string; message: string } {
  const first = unfollowed[0];
  const list = unfollowed.map((
    u,
  ) => (u.why === "absent" ? u.name : `${u.name} (its value there is not known)`));
  return {
    file: first.entry.file,
    path: `${first.entry.path}/channel/auto_follow`,
    message:
      `${unfollowed.length} auto_follow channel(s) of a fitted item find no modifier of the same name ` +
      `on the body it is fitted to ('${body}') to follow (the body's morph not in the scene or the content ` +
      `roots, where Daz, with it installed, would follow it), or one whose value is known, and keep their own ` +
      `value: ${list.slice(0, 8).join(", ")}${list.length > 8 ? ", …" : ""}`,
  };
}
