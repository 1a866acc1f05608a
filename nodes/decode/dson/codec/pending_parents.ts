/**
 * Linking the scene instances whose `parent` named no instance of the scene, once every figure has
 * brought its bones: the node the URI names among all nodes (see {@link findSceneParent}), else,
 * for a bone, an instance of its definition's parent, else the scene root — each reading other
 * than as written a warning naming the JSON path and the URI.
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import { type DsonFile, idInFile } from "./dson_file.ts";
import type { SceneNode } from "./model.ts";
import type { NodeIndex } from "./node_lookups.ts";
import { findSceneParent, NodeLookup, ParentSearchTooLong } from "./scene_parents.ts";

/** A scene instance (`/scene/nodes/<node>`) whose parent is still to find; `uri` as written. */
export interface PendingParent {
  readonly node: number;
  readonly uri?: string;
}

/** What linking reads and writes. */
export interface ParentLinking {
  /** The load's nodes; linking sets their `parent`. */
  readonly nodes: SceneNode[];
  readonly index: NodeIndex;
  readonly library: ContentLibrary;
  readonly main: DsonFile;
}

/**
 * Links each pending parent (see the module doc). A search past the walk budget of
 * {@link NodeLookup} is a `DecodeError` at the node's `parent`. The caller checks the hierarchy
 * for cycles and depth afterwards.
 *
 * @example
 * ```ts
 * linkPendingParents([{ node: 3, uri: "#hip" }], { nodes, index, library, main });
 * ```
 */
export function linkPendingParents(pending: readonly PendingParent[], linking: ParentLinking): void {
  const { nodes, main } = linking;
  const lookup = new NodeLookup(nodes);
  // The nearest figure listed before each node, for a bone placed by its definition.
  const figureBefore = new Int32Array(nodes.length);
  for (let i = 0, last = -1; i < nodes.length; i++) {
    figureBefore[i] = last;
    if (nodes[i].type === "figure") last = i;
  }
  for (const { node: i, uri } of pending) {
    const at = `/scene/nodes/${i}/parent`;
    try {
      linkPendingParent(linking, lookup, i, uri, figureBefore[i]);
    } catch (error) {
      if (!(error instanceof ParentSearchTooLong)) throw error;
      main.read.fail(at, "parents that resolve in a bounded search", `#raw:${error.message}`);
    }
  }
}

/** Links one pending parent (see {@link linkPendingParents}). */
function linkPendingParent(
  linking: ParentLinking,
  lookup: NodeLookup,
  i: number,
  uri: string | undefined,
  figure: number,
): void {
  const { nodes, index, library, main } = linking;
  if (uri === undefined) {
    parentBoneByDefinition(linking, lookup, i, figure);
    return;
  }
  const at = `/scene/nodes/${i}/parent`;
  const conform = nodes[i].conformTarget;
  const preferred = conform === undefined ? -1 : index.localNode(conform) ?? -1;
  const found = findSceneParent(lookup, i, uri, preferred);
  if ("node" in found) {
    nodes[i].parent = found.node;
    if (found.reading) library.repaired(main, at, `parent '${uri}' read as ${found.reading}`);
    return;
  }
  library.miss(uri, found.reason, main, at, { quiet: true });
  const why = `: its parent '${uri}' does not resolve (${found.reason})`;
  if (!parentBoneByDefinition(linking, lookup, i, figure, why)) {
    library.repaired(
      main,
      at,
      `parent '${uri}' does not resolve (${found.reason}); node '${nodes[i].key}' stays at the scene root`,
    );
  }
}

/**
 * A bone instance the scene lists without `parent` (or with one that resolves to nothing) takes
 * its definition's parent (an instance overrides its definition's properties; what it leaves out,
 * the definition says): an instance of the parent bone's definition — the nearest listed before
 * it, else one of `figure` (the nearest figure listed before it), else the first. A bone cannot
 * stand outside its figure, and as a root it would fall out of the skin, its vertices bound to
 * the figure root instead. Returns false when the node is no bone with a parent in its definition.
 */
function parentBoneByDefinition(
  { nodes, index, library, main }: ParentLinking,
  lookup: NodeLookup,
  i: number,
  figure: number,
  why = " has no parent",
): boolean {
  const definition = index.definitionOf(i);
  const written = definition?.value.parent;
  if (definition?.value.type !== "bone" || typeof written !== "string") return false;
  const parentId = idInFile(written, definition.file);
  const parentEntry = parentId === undefined ? undefined : definition.file.ids.get(parentId);
  if (parentEntry?.kind !== "node") return false;
  const candidates = index.instancesOf(parentEntry).filter((j) => !lookup.isAtOrBelow(j, i));
  const parent = candidates.findLast((j) => j < i) ??
    candidates.find((j) => figure >= 0 && lookup.figureOf(j) === figure) ?? candidates[0] ?? -1;
  const at = `/scene/nodes/${i}`;
  if (parent < 0) {
    library.repaired(
      main,
      at,
      `bone instance '${nodes[i].key}'${why}, and no instance of its definition's parent ` +
        `'${written}' is in the scene; it stays a root`,
    );
    return true;
  }
  nodes[i].parent = parent;
  library.repaired(
    main,
    at,
    `bone instance '${nodes[i].key}'${why}; placed under '${nodes[parent].key}', ` +
      `the instance of its definition's parent '${written}'`,
  );
  return true;
}
