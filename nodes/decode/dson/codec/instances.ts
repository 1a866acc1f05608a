/**
 * Daz Studio node instances (Create → New Node Instance(s)): a scene node whose `extra` holds
 * `studio/node/instance` draws its target's content — the target's meshes and child items, as they
 * sit in the target's own frame — under its own transform, so an instance made where its target
 * stands coincides with it and moving the instance moves the copy. An instance may target another
 * instance (it then draws what that one draws), and a group node: the copy is the group's whole
 * subtree, nested groups and instances inside it included, whatever order the scene lists them in.
 * In glTF each copy is a clone of the target's child
 * nodes under the instance's node, sharing the target's meshes.
 *
 * What cannot be drawn is said, naming the instance: a target not in the scene, an instance chain
 * that loops or an instance inside its own target, and a target that is a rigged figure (its skinned
 * meshes hang off the scene root in glTF and cannot be re-posed per copy).
 *
 * Before decode.dson v44 instances were read as empty nodes: they drew nothing, silently. Before v49 a
 * copy of a group missed the copies of instances inside it listed after the copying instance.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { WarningSink } from "../../../../runtime/node.ts";
import type { SceneNode } from "./model.ts";

/**
 * Clones each instance's target content under the instance's glTF node (see the module doc).
 *
 * @example
 * ```ts
 * drawInstances(doc, target.nodes, dson.nodes, warn);
 * ```
 */
export function drawInstances(
  doc: Document,
  nodes: readonly Node[],
  dsonNodes: readonly SceneNode[],
  warn: WarningSink,
): void {
  const state = new Map<number, "drawing" | "done">();
  const say = (i: number, why: string) =>
    warn(`dson: node instance '${dsonNodes[i].key}' ${why}; it draws nothing`);
  let budget = MAX_INSTANCE_NODES;
  const draw = (i: number): void => {
    const was = state.get(i);
    if (was === "done") return;
    if (was === "drawing") {
      // Reached again through the instances inside its own target's subtree: a loop Daz Studio
      // refuses to make. The copy being drawn leaves this one out.
      warn(
        `dson: node instance '${
          dsonNodes[i].key
        }' is part of a loop of instances through its target's contents; the copies inside leave it out`,
      );
      return;
    }
    state.set(i, "drawing");
    const written = dsonNodes[i].instanceTarget ?? "";
    const t = findTarget(dsonNodes, written);
    if (t === undefined) say(i, `names no node of the scene as its target ('${written}')`);
    else if (state.get(t) === "drawing") {
      say(i, `is part of a loop of instances (through '${dsonNodes[t].key}')`);
    } else if (isWithin(dsonNodes, i, t)) say(i, `lies inside its own target '${dsonNodes[t].key}'`);
    else if (hasRig(dsonNodes, t)) {
      say(i, `targets '${dsonNodes[t].key}', a rigged figure, whose skinned meshes a copy cannot share`);
    } else {
      // The copy is the target's subtree as drawn, so every instance in it (the target itself, or
      // one inside a target group, listed anywhere in the scene) draws its copy first.
      dsonNodes.forEach((node, j) => {
        if (node.instanceTarget !== undefined && j !== i && isWithin(dsonNodes, j, t)) draw(j);
      });
      const size = nodes[t].listChildren().reduce((n, child) => n + subtreeSize(child), 0);
      if (size > budget) {
        say(i, `would add ${size} nodes, past the ${MAX_INSTANCE_NODES} instance copies a scene may hold`);
      } else {
        budget -= size;
        for (const child of nodes[t].listChildren()) {
          nodes[i].addChild(cloneNode(doc, child, dsonNodes[i].name));
        }
      }
    }
    state.set(i, "done");
  };
  dsonNodes.forEach((node, i) => {
    if (node.instanceTarget !== undefined) draw(i);
  });
}

/**
 * Most nodes all instance copies of a scene may add: instances of groups holding instances of groups
 * double at each level, so 30 levels of a few bytes would otherwise ask for a billion nodes. A
 * scattered forest of 10,000 trees of a few nodes each stays below it; each copied node costs about
 * 0.1 ms to build.
 */
export const MAX_INSTANCE_NODES = 50_000;

/** Nodes in the subtree of `node`, itself included. */
function subtreeSize(node: Node): number {
  return 1 + node.listChildren().reduce((n, child) => n + subtreeSize(child), 0);
}

/** The node a target URI names: by instance key, else by a unique id, name or label. */
function findTarget(dsonNodes: readonly SceneNode[], uri: string): number | undefined {
  if (!uri) return undefined;
  let fragment = uri.slice(uri.lastIndexOf("#") + 1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    // A stray '%' is literal.
  }
  const byKey = dsonNodes.findIndex((n) => n.key === fragment);
  if (byKey >= 0) return byKey;
  for (const field of ["id", "name", "label"] as const) {
    const found = dsonNodes.flatMap((n, i) => (n[field] === fragment ? [i] : []));
    if (found.length === 1) return found[0];
  }
  return undefined;
}

/** Node `i` is `t` or lies under it. */
function isWithin(dsonNodes: readonly SceneNode[], i: number, t: number): boolean {
  for (let n = i, steps = 0; n >= 0 && steps <= dsonNodes.length; n = dsonNodes[n].parent, steps++) {
    if (n === t) return true;
  }
  return false;
}

/** Node `t` or a node under it is a figure or a bone (its meshes are skinned). */
function hasRig(dsonNodes: readonly SceneNode[], t: number): boolean {
  return dsonNodes.some((n, i) => (n.type === "figure" || n.type === "bone") && isWithin(dsonNodes, i, t));
}

/** A copy of `source` and its children, their transforms kept and meshes shared. */
function cloneNode(doc: Document, source: Node, instanceName: string): Node {
  const copy = doc.createNode(`${source.getName()} (${instanceName})`)
    .setTranslation(source.getTranslation())
    .setRotation(source.getRotation())
    .setScale(source.getScale());
  const mesh = source.getMesh();
  if (mesh && !source.getSkin()) copy.setMesh(mesh);
  for (const child of source.listChildren()) copy.addChild(cloneNode(doc, child, instanceName));
  return copy;
}
