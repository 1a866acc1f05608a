/**
 * Conforming figures (clothing, hair, armour fitted to a body: a figure instance with
 * `conform_target`). In Daz Studio a fitted item's bones follow the target's bones of the same name,
 * so a posed body carries its clothes; a bone the target lacks rides its parent. Diffeomorphic does
 * the same: its importer gives each clothing bone the body bone's pose (`figure.py` `poseChildren`),
 * and its "Merge Rigs" binds the clothing mesh to the body's bones of the same name. This module
 * finds, at load, which node follows which; `conform_follow.ts` moves them when the glTF is built.
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import type { DsonFile } from "./dson_file.ts";
import { type Conformer, figureRoot, type SceneNode } from "./model.ts";

/**
 * The conforming figures of the scene whose target is in it, each with the nodes that follow (its
 * figure root the target's, then its bones matched by name, else by id, each after its ancestors),
 * ordered so that an item fitted to another item comes after it. A target that names no node of the
 * scene, or lies inside the item itself, is a warning: that item keeps its own pose.
 *
 * @example
 * ```ts
 * const conformers = findConformers(nodes.list, (uri) => nodes.localNode(uri), instances, library, main);
 * ```
 */
export function findConformers(
  nodes: readonly SceneNode[],
  localNode: (uri: string) => number | undefined,
  instances: readonly unknown[],
  library: ContentLibrary,
  main: DsonFile,
): Conformer[] {
  const bonesOf = figureBones(nodes);
  const found: Conformer[] = [];
  for (const [f, figure] of nodes.entries()) {
    if (figure.type !== "figure" || figure.conformTarget === undefined) continue;
    const at = conformPath(instances, figure.key);
    const uri = figure.conformTarget;
    const named = localNode(uri);
    if (named === undefined) {
      library.miss(
        uri,
        `names no node of this scene: conforming figure '${figure.key}' keeps its own pose, not its target's`,
        main,
        at,
      );
      continue;
    }
    const target = figureRoot(nodes, named);
    if (isWithin(nodes, target, f)) {
      library.repaired(
        main,
        at,
        `conforming figure '${figure.key}' targets '${
          nodes[named].key
        }', which is part of the item itself; ` +
          "it keeps its own pose",
      );
      continue;
    }
    found.push({ figure: f, target, pairs: matchBones(nodes, f, target, bonesOf), path: at });
  }
  return orderByTarget(found, nodes, library, main);
}

/** Each figure's bones (nodes of type bone whose figure root it is), in scene order. */
function figureBones(nodes: readonly SceneNode[]): (figure: number) => readonly number[] {
  const byFigure = new Map<number, number[]>();
  for (const [i, node] of nodes.entries()) {
    if (node.type !== "bone") continue;
    const figure = figureRoot(nodes, i);
    const bones = byFigure.get(figure);
    if (bones) bones.push(i);
    else byFigure.set(figure, [i]);
  }
  return (figure) => byFigure.get(figure) ?? [];
}

/**
 * The follower's nodes paired with the target's: the two figure roots, then each bone of the item
 * with a target bone of its name (else its id), shallowest first so a parent is placed before its
 * children. A bone without a match is not listed: it rides its parent, as in Daz.
 */
function matchBones(
  nodes: readonly SceneNode[],
  follower: number,
  target: number,
  bonesOf: (figure: number) => readonly number[],
): [number, number][] {
  const byName = new Map<string, number>(), byId = new Map<string, number>();
  for (const bone of bonesOf(target)) {
    if (!byName.has(nodes[bone].name)) byName.set(nodes[bone].name, bone);
    if (!byId.has(nodes[bone].id)) byId.set(nodes[bone].id, bone);
  }
  const pairs: [number, number, number][] = [];
  for (const bone of bonesOf(follower)) {
    const match = byName.get(nodes[bone].name) ?? byId.get(nodes[bone].id);
    if (match !== undefined) pairs.push([bone, match, depth(nodes, bone)]);
  }
  pairs.sort((a, b) => a[2] - b[2] || a[0] - b[0]);
  return [[follower, target], ...pairs.map(([f, t]): [number, number] => [f, t])];
}

/** How many ancestors a node has (bounded: the hierarchy was checked for cycles at load). */
function depth(nodes: readonly SceneNode[], node: number): number {
  let count = 0;
  for (let p = nodes[node].parent; p >= 0 && count <= nodes.length; p = nodes[p].parent) count++;
  return count;
}

/** Whether `node` is `ancestor` or lies below it. */
function isWithin(nodes: readonly SceneNode[], node: number, ancestor: number): boolean {
  for (let p = node, steps = 0; p >= 0 && steps <= nodes.length; p = nodes[p].parent, steps++) {
    if (p === ancestor) return true;
  }
  return false;
}

/**
 * The conformers with each after the one whose figure its target is (a cap's hair fitted to the
 * cap), so a target is posed before what follows it. A loop of items fitted to each other cannot be
 * followed: those keep their own pose, with a warning.
 */
function orderByTarget(
  conformers: readonly Conformer[],
  nodes: readonly SceneNode[],
  library: ContentLibrary,
  main: DsonFile,
): Conformer[] {
  const byFigure = new Map(conformers.map((c) => [c.figure, c]));
  const state = new Map<Conformer, "visiting" | "done" | "loop">();
  const ordered: Conformer[] = [];
  const visit = (c: Conformer): boolean => {
    const seen = state.get(c);
    if (seen === "done") return true;
    if (seen) return false;
    state.set(c, "visiting");
    const before = byFigure.get(c.target);
    if (before && !visit(before)) {
      state.set(c, "loop");
      library.repaired(
        main,
        c.path,
        `conforming figure '${nodes[c.figure].key}' follows '${
          nodes[c.target].key
        }', which is in a loop of ` +
          "items fitted to each other; it keeps its own pose",
      );
      return false;
    }
    state.set(c, "done");
    ordered.push(c);
    return true;
  };
  for (const c of conformers) visit(c);
  return ordered;
}

/** The JSON path of a conforming figure's `conform_target` in the main file's scene. */
function conformPath(instances: readonly unknown[], key: string): string {
  const at = instances.findIndex((n) => (n as { id?: unknown } | null)?.id === key);
  return at >= 0 ? `/scene/nodes/${at}/conform_target` : "/scene/nodes";
}
