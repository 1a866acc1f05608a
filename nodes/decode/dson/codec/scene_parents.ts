/**
 * Finding the node a scene instance's `parent` names when it names no instance of the scene: a
 * bone a figure brought along (`#hip`, when the scene lists the figure but not its bones), a
 * definition URL (`/data/…/Genesis9.dsf#hip`), a node path (`Genesis9-1:#hip`, or written after
 * the `#`: `#Genesis9-1:hip`), or Daz's selection-relative name (`name://@selection/hip:`, as
 * pose and wearable presets parent a prop to a bone of the figure they are loaded on).
 *
 * @module
 */
import type { SceneNode } from "./model.ts";
import { fileKey, parseDsonUri } from "./uri.ts";
import { MAX_HIERARCHY_DEPTH } from "../../../../runtime/depth.ts";

/**
 * Steps one walk up the hierarchy takes at most: a chain longer than the depth limit is refused
 * once the parents are linked (parents are only ever added), so what a longer walk would find
 * cannot change whether the decode succeeds.
 */
const WALK_STEPS = MAX_HIERARCHY_DEPTH + 1;

/**
 * Steps all walks of one linking may take: a base plus a share per node, far above what a real
 * scene needs (every pending parent of a scene of many figures trying each figure's bone of that
 * name, each try a walk of a few bones), so that a hostile file — thousands of nodes named alike
 * whose parents name each other, each try walking a chain that grows — is refused in about a second
 * rather than taking minutes.
 */
const WALK_BUDGET = { base: 10_000_000, perNode: 1_000 };

/** Thrown when the linking's parent walks exceed {@link WALK_BUDGET}; the caller names the node. */
export class ParentSearchTooLong extends Error {
  constructor(steps: number) {
    super(`resolving parents took more than ${steps} steps up the hierarchy`);
  }
}

/** How a parent URI was matched. */
export interface ParentMatch {
  /** The parent node's index. */
  readonly node: number;
  /**
   * How the URI was read, for the warning when it was not read as written (a bone brought along
   * for an instance reference, a definition for its instance, a `#`-written node path, the
   * selection as the scene); undefined for a node path naming the node's figure and bone.
   */
  readonly reading?: string;
}

/** Why no node was found, for the warning. */
export interface ParentMiss {
  readonly reason: string;
}

/** What a node can be looked up by. */
type NodeField = "key" | "id" | "name" | "definition";

/**
 * The nodes of a scene by key, definition id, name and definition (`file#id`), in scene order:
 * built once for all the parents to find, so a scene of many nodes is not scanned per parent.
 *
 * @example
 * ```ts
 * const lookup = new NodeLookup(nodes);
 * lookup.get("id", "hip"); // every node made from a definition with id "hip"
 * ```
 */
export class NodeLookup {
  readonly nodes: readonly SceneNode[];
  readonly #maps = new Map<NodeField, Map<string, number[]>>();
  readonly #budget: number;
  #stepsLeft: number;
  constructor(nodes: readonly SceneNode[]) {
    this.nodes = nodes;
    this.#budget = this.#stepsLeft = WALK_BUDGET.base + WALK_BUDGET.perNode * nodes.length;
    for (const field of ["key", "id", "name", "definition"] as const) {
      const map = new Map<string, number[]>();
      nodes.forEach((node, i) => {
        const value = node[field];
        if (value === undefined) return;
        const list = map.get(value);
        if (list) list.push(i);
        else map.set(value, [i]);
      });
      this.#maps.set(field, map);
    }
  }

  /** The nodes whose `field` is `value`, in scene order. */
  get(field: NodeField, value: string): readonly number[] {
    return this.#maps.get(field)!.get(value) ?? [];
  }

  /**
   * Whether `node` is `ancestor` or below it, walking at most {@link WALK_STEPS} parents (a longer
   * chain is refused later, see there); throws {@link ParentSearchTooLong} past the budget.
   *
   * @example
   * ```ts
   * lookup.isAtOrBelow(hand, figure); // true for a bone of that figure
   * ```
   */
  isAtOrBelow(node: number, ancestor: number): boolean {
    let n = node, steps = 0;
    for (; n >= 0 && steps < WALK_STEPS && n !== ancestor; n = this.nodes[n].parent) steps++;
    this.#stepsLeft -= steps + 1;
    if (this.#stepsLeft < 0) throw new ParentSearchTooLong(this.#budget);
    return n === ancestor;
  }

  /**
   * The figure root of `node` (as `figureRoot` finds it) on a walk as bounded as
   * {@link isAtOrBelow}'s (a chain being linked may already loop or run too deep; both are refused
   * after linking): -1 when it ends unfound.
   */
  figureOf(node: number): number {
    let n = node, steps = 0;
    for (; steps < WALK_STEPS && this.nodes[n].parent >= 0 && this.nodes[n].type !== "figure"; steps++) {
      n = this.nodes[n].parent;
    }
    this.#stepsLeft -= steps + 1;
    if (this.#stepsLeft < 0) throw new ParentSearchTooLong(this.#budget);
    return steps < WALK_STEPS ? n : -1;
  }
}

/**
 * The node `uri` (the parent of node `child`) names among the scene's nodes, or why none. Nodes of the
 * figure `preferred` (the child's conform target, -1: none) come first when several match; else
 * the first in scene order, said in the reading. A node that would make a cycle (the child
 * itself, or one of its descendants) is never chosen.
 *
 * @example
 * ```ts
 * const found = findSceneParent(nodes, 3, "#hip", -1); // the figure's hip, brought along
 * ```
 */
export function findSceneParent(
  lookup: NodeLookup,
  child: number,
  uri: string,
  preferred: number,
): ParentMatch | ParentMiss {
  const nodes = lookup.nodes;
  const parts = parseDsonUri(uri);
  let nodePath = parts.nodePath;
  let id = parts.id;
  const notes: string[] = [];
  if (parts.scheme === "name") {
    // `name://@selection/a/b:` searches from what was selected when Daz loaded the file; a decode
    // has no selection, so the scene is searched.
    const segments = nodePath.split("/").filter((s) => s !== "" && s !== "@selection");
    if (id === "") id = segments.pop() ?? "";
    id = id.replace(/:$/, "");
    nodePath = segments.join("/");
    if (parts.nodePath.startsWith("@selection")) notes.push("the selection read as the whole scene");
  } else if (
    nodePath === "" && parts.filePath === "" && id.includes(":") && !lookup.get("key", id).length &&
    !lookup.get("id", id).length
  ) {
    const colon = id.lastIndexOf(":");
    nodePath = id.slice(0, colon);
    id = id.slice(colon + 1);
    notes.push(`the node path written after the '#' ('${nodePath}:${id}')`);
  }
  if (id === "") return { reason: "it names no node" };
  let scope = -1;
  if (nodePath !== "") {
    const last = nodePath.split("/").filter(Boolean).pop() ?? "";
    scope = lookup.get("key", last)[0] ?? lookup.get("id", last)[0] ?? lookup.get("name", last)[0] ?? -1;
    if (scope < 0) return { reason: `no node '${last}' for its node path` };
  }
  const inScope = (i: number) => scope < 0 || lookup.isAtOrBelow(i, scope);
  const allowed = (i: number) => i !== child && inScope(i) && !lookup.isAtOrBelow(i, child);
  const definition = parts.filePath === "" ? undefined : `${fileKey(parts.filePath)}#${id}`;
  const matches: (readonly number[])[] = definition !== undefined
    ? [lookup.get("definition", definition)]
    : parts.scheme === "name"
    ? [lookup.get("name", id), lookup.get("id", id), lookup.get("key", id)]
    : [lookup.get("key", id), lookup.get("id", id)];
  // The first allowed candidate of the first field that has one, the first of the preferred figure,
  // and whether more than one matches: found lazily, as each try walks the hierarchy.
  let first = -1, inPreferred = -1, count = 0;
  for (const match of matches) {
    for (const i of match) {
      if (!allowed(i)) continue;
      count++;
      if (first < 0) first = i;
      if (preferred >= 0 && inPreferred < 0 && lookup.isAtOrBelow(i, preferred)) inPreferred = i;
      if (count > 1 && (preferred < 0 || inPreferred >= 0)) break;
    }
    if (first >= 0) break;
  }
  if (first < 0) {
    const cyclic = matches.some((match) => match.some(inScope));
    return {
      reason: cyclic
        ? "the only node it names is this node or one of its descendants (a cycle)"
        : scope >= 0
        ? `no node '${id}' in '${nodes[scope].key}'`
        : `no node '${id}' in the scene (no instance, and no node a figure brought along)`,
    };
  }
  const node = inPreferred >= 0 ? inPreferred : first;
  const figure = lookup.figureOf(node);
  const where = figure >= 0 && figure !== node ? ` of '${nodes[figure].key}'` : "";
  // A bare `#id` or a definition URL names no instance (those resolved before the figures' bones
  // were brought along): say that the node made from the definition was taken.
  if (nodePath === "" && parts.scheme !== "name") {
    notes.unshift(
      definition !== undefined
        ? "it names a definition, not an instance: the node made from it"
        : `no node instance has this id: the node made from definition '${id}'`,
    );
  }
  if (count > 1) {
    const which = inPreferred >= 0 ? "the one in its conform target" : "the first in scene order";
    notes.push(`several nodes match, ${which} is used`);
  }
  return {
    node,
    reading: notes.length ? `'${nodes[node].key}'${where} (${notes.join("; ")})` : undefined,
  };
}
