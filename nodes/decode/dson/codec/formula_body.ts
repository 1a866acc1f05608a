/**
 * Formulas of a fitted item reading the body it is fitted to. A conforming garment's or geograft's
 * follower morph (Daz's auto-follow: the dress's `FBMHeavy` takes the body's `FBMHeavy`) is driven
 * by a formula pushing the body's value, addressed through the body's node path
 * (`Genesis8Female:/data/…/Genesis8Female.dsf#FBMHeavy?value`). When the body is in the scene (the
 * item's `conform_target` names it), that push reads the body's value as Daz shows it: its morph's
 * weight, or its controller's value with the body's own formulas applied. The value is stored in the
 * item's {@link FormulaGraph} as a channel of its own key (`<body key>:#<id>`) carrying `of` (the
 * body's figure key) and `id`, so `dson.apply_preset` can refresh it from the body's new values.
 *
 * @module
 */
import type { StoredChannel } from "./formula_graph.ts";
import type { DsonUri } from "./uri.ts";

/** The body a mesh's figure is fitted to: how formulas of the mesh may read its values. */
export interface BodyLookup {
  /** The body figure's DSON key (its node instance's id). */
  readonly figure: string;
  /** Names a node path may give the body figure (its id, key, name, each also decoded). */
  readonly names: ReadonlySet<string>;
  /** Names a node path may give the mesh's own figure: a push naming them reads the mesh's own. */
  readonly own: ReadonlySet<string>;
  /** Whether the body has a modifier of this id. */
  has(id: string): boolean;
  /** The id of the body's modifier named `name` (its name, else its id; `auto_follow.ts`). */
  named(name: string): string | undefined;
  /** The body's value of a modifier id, as Daz shows it (undefined: unknown there). */
  value(id: string): number | undefined;
}

/** The graph key of the body's modifier `id`: its node path and fragment, as DSON addresses it. */
export function bodyChannelKey(figure: string, id: string): string {
  return `${figure}:#${id}`;
}

/**
 * Whether a `?value` push of `uri` reads the body rather than the mesh's own modifier: its node path
 * names the body, or (no node path naming the mesh's own figure) the mesh has no modifier of that id
 * and the body has. Undefined without a body.
 */
export function readsBody(
  uri: DsonUri,
  id: string,
  ownHas: boolean,
  body: BodyLookup | undefined,
): boolean {
  if (!body) return false;
  if (uri.nodePath && body.names.has(uri.nodePath) && !body.own.has(uri.nodePath)) return true;
  return !ownHas && !(uri.nodePath && body.own.has(uri.nodePath)) && body.has(id);
}

/** The stored channel of the body's `id` at `value` (no formulas: the body evaluates those). */
export function bodyChannel(body: BodyLookup, id: string, value: number): StoredChannel {
  return { value, of: body.figure, id };
}
