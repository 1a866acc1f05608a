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
 * A rigged figure is copied as posed: its bones are cloned under the instance and every skinned mesh
 * bound to them (body, conformed clothing, grafts) is drawn once more under a skin of the cloned
 * bones, sharing the mesh (a crowd of one posed figure).
 *
 * What cannot be drawn is said, naming the instance: a target not in the scene, an instance chain
 * that loops or an instance inside its own target. Before v50 an instance of a figure drew nothing.
 *
 * Before decode.dson v44 instances were read as empty nodes: they drew nothing, silently. Before v49 a
 * copy of a group missed the copies of instances inside it listed after the copying instance.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { JsonValue, WarningSink } from "../../../../runtime/node.ts";
import type { SceneNode } from "./model.ts";
import type { InstanceItem } from "./instance_items.ts";
import { invertRest, poseTransform, restWorld } from "./rest_pose.ts";
// The ES module build (types from the package), as rest_pose.ts loads it.
// @ts-types="gl-matrix"
import { mat4, quat, vec3 } from "gl-matrix/esm/index.js";
import { getPartgraphExtras, setPartgraphExtras } from "../../../../runtime/scene/extras.ts";

/**
 * Clones each instance's target content under the instance's glTF node (see the module doc).
 *
 * @example
 * ```ts
 * drawInstances(doc, target.nodes, dson.nodes, warn);
 * ```
 *
 * `driven`: keys of the nodes whose rest frame a shape's formulas move (`rig_centres`): a copy of
 * one always hangs under a pivot node, which `instance_copies.ts` resets when a preset or a bake
 * moves that frame.
 */
export function drawInstances(
  doc: Document,
  nodes: readonly Node[],
  dsonNodes: readonly SceneNode[],
  warn: WarningSink,
  driven: ReadonlySet<string> = new Set(),
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
      const key = dsonNodes[i].key;
      warn(
        `dson: node instance '${key}' is part of a loop of instances through its target's contents; the copies inside leave it out`,
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
    else {
      // The copy is the target's subtree as drawn, so every instance in it (the target itself, or
      // one inside a target group, listed anywhere in the scene) draws its copy first.
      dsonNodes.forEach((node, j) => {
        if (node.instanceTarget !== undefined && j !== i && isWithin(dsonNodes, j, t)) draw(j);
      });
      // An instance group places the copy once per item, each under a child node posed as the item
      // says; a plain instance places it under itself.
      const items = dsonNodes[i].instanceItems;
      const content = nodes[t].listChildren().reduce((n, child) => n + subtreeSize(child), 0);
      // A place whose pivot is not the target's holds the content under one more node (pivotNode).
      const pivoted = (own: PivotFrame) =>
        content > 0 && (!samePivot(own, dsonNodes[t]) || driven.has(dsonNodes[t].key));
      const cost = (item?: InstanceItem) =>
        content + (item ? 1 : 0) + (pivoted(item ?? dsonNodes[i]) ? 1 : 0);
      // A scatter of more items than the bound leaves draws the items that fit, and says so.
      const drawn: (InstanceItem | undefined)[] = [];
      let spent = 0, asked = 0, full = false;
      for (const item of items ?? [undefined]) {
        const c = cost(item);
        asked += c;
        // The items drawn are the first ones: past the first that does not fit, none is.
        full ||= spent + c > budget;
        if (full) continue;
        drawn.push(item);
        spent += c;
      }
      if (!drawn.length) {
        // An instance group without items draws nothing, as in Daz Studio; else the bound is passed.
        if (asked) {
          say(i, `would add ${asked} nodes, past the ${MAX_INSTANCE_NODES} instance copies a scene may hold`);
        }
      } else {
        budget -= spent;
        if (items && drawn.length < items.length) {
          const key = dsonNodes[i].key;
          warn(
            `dson: instance group '${key}': ${drawn.length} of its ${items.length} items drawn; the rest would ` +
              `pass the ${MAX_INSTANCE_NODES} instance copies a scene may hold`,
          );
        }
        if (dsonNodes[i].instanceItemsBad) {
          warn(
            `dson: instance group '${dsonNodes[i].key}': ${dsonNodes[i].instanceItemsBad} item value(s) ` +
              "unreadable, read as no move, turn or scale",
          );
        }
        const places = drawn.map((item) => {
          const place = item ? itemNode(doc, nodes[i], dsonNodes[i], item) : nodes[i];
          return pivoted(item ?? dsonNodes[i])
            ? pivotNode(doc, place, item ?? dsonNodes[i], dsonNodes[t], dsonNodes[t].key)
            : place;
        });
        let modified = 0;
        for (const place of places) {
          // The target's own node is the copy's place: what hangs off it hangs off the place.
          const copied = new Map<Node, Node>([[nodes[t], place]]);
          for (const child of nodes[t].listChildren()) {
            place.addChild(cloneNode(doc, child, dsonNodes[i].name, copied));
          }
          modified += copySkinned(doc, copied, dsonNodes[i], warn);
          for (const copy of copied.values()) {
            if (copy.getMesh()?.listPrimitives().some((p) => p.listTargets().length)) modified++;
          }
        }
        if (modified && dsonNodes[i].instanceCopyModifiersOff) {
          // Daz documents no rule for what an instance with "Copy Modifiers" off leaves out (its
          // target's morphs, its pose?): drawn as with it on, said by name (before v56, silently).
          warn(
            `dson: node instance '${dsonNodes[i].key}' has "Copy Modifiers" off; its copy of ` +
              `'${
                dsonNodes[t].key
              }' (skinned or morphed meshes) is drawn as with it on; Daz Studio may draw it without its pose or morphs`,
          );
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

/** The child node of instance group `group` (glTF node `parent`) that places one item. */
function itemNode(doc: Document, parent: Node, group: SceneNode, item: InstanceItem): Node {
  const { translation, rotation, scale } = poseTransform(item, group);
  const node = doc.createNode(`${group.name} ${item.name}`).setTranslation(translation).setRotation(rotation);
  if (scale.some((v) => v !== 1)) node.setScale(scale);
  parent.addChild(node);
  return node;
}

/**
 * Where under `place` (the glTF node of an instance or item with rest frame `own`) the target's
 * content goes: DSON geometry stands where the file writes it and a node's transform turns it about
 * the node's centre point, so the copy is the target's geometry moved by the instance's transform,
 * wherever either pivot is. The content hangs in the target's rest frame (centre point, orientation),
 * the place is the instance's own: when they differ (an instance node's pivot at the origin, a prop's
 * at its base) a child node carries `rest(own)⁻¹ · rest(target)` (before decode.dson v56 the copy was
 * off by that, silently). The node records both frames and the target's key (`instance_pivot`), so
 * a preset or a bake moving the target's frame resets it (`instance_copies.ts`).
 */
function pivotNode(doc: Document, place: Node, own: PivotFrame, target: PivotFrame, key: string): Node {
  const node = doc.createNode(`${place.getName()} pivot`);
  setPivot(node, own, target);
  setPartgraphExtras(node, {
    dson: {
      instance_pivot: {
        target: key,
        center_point: [...own.centerPoint],
        orientation: [...own.orientation],
        target_center_point: [...target.centerPoint],
        target_orientation: [...target.orientation],
      },
    },
  });
  place.addChild(node);
  return node;
}

/**
 * Sets a pivot node's transform, `rest(own)⁻¹ · rest(target)`, from the two rest frames.
 *
 * @example
 * ```ts
 * setPivot(node, { centerPoint: [0, 0, 0], orientation: [0, 0, 0] }, target);
 * ```
 */
export function setPivot(node: Node, own: PivotFrame, target: PivotFrame): void {
  const m = mat4.multiply(mat4.create(), invertRest(restWorld(own)), restWorld(target));
  const t = mat4.getTranslation(vec3.create(), m), q = mat4.getRotation(quat.create(), m);
  quat.normalize(q, q);
  node.setTranslation([t[0], t[1], t[2]]).setRotation([q[0], q[1], q[2], q[3]]);
}

/** A node's rest frame: its centre point and orientation (cm, degrees). */
export type PivotFrame = Pick<SceneNode, "centerPoint" | "orientation">;

/** Two rest frames are the same. */
function samePivot(a: PivotFrame, b: PivotFrame): boolean {
  const same = (u: readonly number[], v: readonly number[]) => u.every((x, k) => Math.abs(x - v[k]) < 1e-9);
  return same(a.centerPoint, b.centerPoint) && same(a.orientation, b.orientation);
}

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

/** A copy of `source` and its children, their transforms kept and meshes shared; each copy recorded in `copies`. */
function cloneNode(doc: Document, source: Node, instanceName: string, copies: Map<Node, Node>): Node {
  const copy = doc.createNode(`${source.getName()} (${instanceName})`)
    .setTranslation(source.getTranslation())
    .setRotation(source.getRotation())
    .setScale(source.getScale());
  const mesh = source.getMesh();
  if (mesh && !source.getSkin()) copy.setMesh(mesh);
  // A copied DSON node (a bone) names its original, so dson.apply_preset re-posing the original
  // poses the copy alike (Daz draws an instance from its target's current pose).
  const dson = getPartgraphExtras(source).dson as
    | { key?: unknown; copy_of?: unknown; instance_pivot?: JsonValue }
    | undefined;
  const original = dson?.copy_of ?? dson?.key;
  if (typeof original === "string") setPartgraphExtras(copy, { dson: { copy_of: original } });
  // A pivot node inside a copied instance (an instance of an instance) is reset with the first.
  if (dson?.instance_pivot) setPartgraphExtras(copy, { dson: { instance_pivot: dson.instance_pivot } });
  for (const child of source.listChildren()) copy.addChild(cloneNode(doc, child, instanceName, copies));
  copies.set(source, copy);
  return copy;
}

/**
 * A copy of each skinned mesh bound to copied joints (a figure's body, its conformed clothing and
 * grafts): the same mesh and morph weights under a skin of the copied joints with the same inverse
 * binds, so it is drawn as posed wherever the instance puts the joints; returns how many. A mesh bound partly to
 * joints outside the copy cannot follow it and is said, by name.
 */
function copySkinned(
  doc: Document,
  copies: ReadonlyMap<Node, Node>,
  instance: SceneNode,
  warn: WarningSink,
): number {
  let copied = 0;
  for (const scene of doc.getRoot().listScenes()) {
    for (const node of scene.listChildren()) {
      const skin = node.getSkin(), mesh = node.getMesh();
      if (!skin || !mesh) continue;
      const joints = skin.listJoints();
      const mapped = joints.filter((j) => copies.has(j)).length;
      if (mapped === 0) continue;
      if (mapped < joints.length) {
        warn(
          `dson: node instance '${instance.key}' copies only ${mapped} of the ${joints.length} bones ` +
            `skinning '${node.getName()}'; that mesh is not drawn in the copy`,
        );
        continue;
      }
      const copySkin = doc.createSkin(`${skin.getName()} (${instance.name})`)
        .setInverseBindMatrices(skin.getInverseBindMatrices());
      for (const joint of joints) copySkin.addJoint(copies.get(joint)!);
      const skeleton = skin.getSkeleton();
      if (skeleton) copySkin.setSkeleton(copies.get(skeleton) ?? skeleton);
      const copy = doc.createNode(`${node.getName()} (${instance.name})`).setMesh(mesh).setSkin(copySkin);
      if (node.getWeights().length) copy.setWeights(node.getWeights());
      scene.addChild(copy);
      copied++;
    }
  }
  return copied;
}
