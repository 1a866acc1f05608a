/**
 * `rig.insert_pivot` — inserts a node `HINGE_auto_<name>` above every fitted panel, on its hinge
 * with local X along it; the panel keeps its world pose, and turning the pivot about X turns the
 * panel about its hinge. The pivot becomes the part: it carries the extras other runtimes read
 * (`ctrl_type: "rotation"`, `axis: "X"`, `unit: "deg"`, `min`, `max`, `rest: 0`, `group`,
 * `positive`) and the part annotation moves from the panel to it.
 *
 * Transforms are composed in parent space (pivot TRS has unit scale; the panel keeps its own scale),
 * so mirrored and non-uniformly scaled parents are never decomposed. Components within 1e-4 of
 * identity are snapped to it: glTF writers drop near-identity transforms (within 1e-5), which would
 * otherwise move the panel on export. A skin bone panel is handled the same way: it keeps its world
 * pose, so its inverse bind matrix stays valid, and turning the pivot turns the vertices skinned to it.
 *
 * @module
 */
import type { Document, Node, Scene } from "@gltf-transform/core";
import { defineNode, type JsonValue } from "../../runtime/node.ts";
import { copyScene } from "../../runtime/scene/copy.ts";
import { mergeExtras } from "../../runtime/scene/extras.ts";
import { gatherPositions, positionBounds } from "./geometry.ts";
import { gatherBonePositions } from "./bone_geometry.ts";
import {
  clearPart,
  declaredCtrlType,
  getPart,
  listPartNodes,
  setPart,
  topLevelNodes,
} from "./part_extras.ts";
import {
  addScaled,
  canonicalQuat,
  canonicalVec3,
  cross,
  dot,
  length,
  linearDeterminant,
  normalize,
  type Quat,
  quatConjugate,
  quatFromBasis,
  quatMultiply,
  quatRotate,
  sub,
  transformDirection,
  transformPoint,
  type Vec3,
} from "./transform.ts";

/** Prefix of inserted pivots. */
export const PIVOT_PREFIX = "HINGE_auto_";

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** Below this every component of a local transform is snapped to identity (writers drop < 1e-5). */
const SNAP = 1e-4;

/** `rig.insert_pivot` node definition. */
export const rigInsertPivot = defineNode({
  type: "rig.insert_pivot",
  version: 1,
  doc: "Inserts a HINGE_auto_<name> pivot above each fitted panel, on its hinge with X along it, " +
    "keeping the panel's world pose; the pivot carries ctrl_type/axis/unit/min/max/rest/group/positive " +
    "extras and the part annotation.",
  inputs: { scene: { type: "scene", doc: "A scene whose panels rig.fit_hinge fitted." } },
  outputs: { scene: { type: "scene", doc: "The scene with a pivot above every fitted panel." } },
  params: {},
  run({ inputs, ctx }) {
    const scene = copyScene(inputs.scene, { shareData: true });
    const animated = animatedNodes(scene);
    const panels = listPartNodes(topLevelNodes(scene.getRoot().listNodes()))
      .filter((node) =>
        getPart(node)?.found_by === "name" && getPart(node)?.hinge && !declaredCtrlType(node)
      );
    const pivots = panels.map((panel) => {
      if (animated.has(panel)) {
        ctx.warn(`panel '${panel.getName()}' is animated; its animation stays relative to its old parent`);
      }
      return insertPivot(scene, panel);
    });
    for (const pivot of pivots) if (getPart(pivot)!.kind === "trim_tab") rideOnHost(scene, pivot, pivots);
    return { scene };
  },
});

function insertPivot(doc: Document, panel: Node): Node {
  const part = getPart(panel)!;
  const hinge = part.hinge!;
  const panelRotation = panel.getRotation() as Quat;
  const panelTranslation = panel.getTranslation() as Vec3;
  const axis = normalize(hinge.axis);

  // Pivot Y: the panel's own Y made square to the hinge, so the panel's rotation under the pivot is
  // as small as the hinge's tilt from the panel's X.
  let y = rejectFrom(quatRotate(panelRotation, [0, 1, 0]), axis);
  if (dot(y, y) < 1e-12) y = rejectFrom(quatRotate(panelRotation, [0, 0, 1]), axis);
  y = normalize(y);
  let pivotRotation = quatFromBasis(axis, y, cross(axis, y));
  let origin: Vec3 = [hinge.origin[0], hinge.origin[1], hinge.origin[2]];

  if (isNearIdentityRotation(pivotRotation)) pivotRotation = [0, 0, 0, 1];
  let childRotation = canonicalQuat(quatMultiply(quatConjugate(pivotRotation), panelRotation));
  if (isNearIdentityRotation(childRotation)) {
    // The hinge is (almost) the panel's own X: put the pivot in the panel's frame exactly.
    pivotRotation = canonicalQuat(panelRotation);
    childRotation = [0, 0, 0, 1];
  }
  const pivotAxis = quatRotate(pivotRotation, [1, 0, 0]);
  // Slides keep the pivot on its hinge: a quarter span, in parent units (the fit measured world ones).
  const parentMatrix = panel.getParentNode()?.getWorldMatrix();
  const parentScale = parentMatrix ? Math.cbrt(Math.abs(linearDeterminant(parentMatrix))) : 1;
  const slide = Math.max((part.fit?.span ?? 1) / parentScale, SNAP * 100) / 4;
  if (Math.max(Math.abs(origin[0]), Math.abs(origin[1]), Math.abs(origin[2])) < SNAP) {
    // Slide along the hinge so the pivot's translation is not dropped as near-zero.
    origin = addScaled(origin, pivotAxis, slide);
  }
  let childTranslation = quatRotate(quatConjugate(pivotRotation), sub(panelTranslation, origin));
  if (Math.max(...childTranslation.map(Math.abs)) < SNAP) {
    const offset = sub(panelTranslation, origin);
    if (length(parentMatrix ? transformDirection(parentMatrix, offset) : offset) < SNAP) {
      // The panel's origin is on the hinge: the pivot goes exactly there.
      origin = [panelTranslation[0], panelTranslation[1], panelTranslation[2]];
      childTranslation = [0, 0, 0];
    } else {
      // Close in parent units only (a scaled-up parent): the origin may be centimetres off the hinge in
      // the world, so slide along the hinge instead of onto it.
      origin = addScaled(origin, pivotAxis, slide);
      childTranslation = quatRotate(quatConjugate(pivotRotation), sub(panelTranslation, origin));
    }
  }

  const name = `${PIVOT_PREFIX}${panel.getName()}`;
  const pivot = doc.createNode(name)
    .setTranslation(canonicalVec3(origin))
    .setRotation(canonicalQuat(pivotRotation));
  replaceInParent(doc, panel, pivot);
  pivot.addChild(panel);
  panel.setTranslation(canonicalVec3(childTranslation)).setRotation(canonicalQuat(childRotation));

  const parent = pivot.getParentNode();
  const parentWorld = parent ? parent.getWorldMatrix() : undefined;
  const mirror = parentWorld && linearDeterminant(parentWorld) < 0 ? -1 : 1;
  const axisWorld = parentWorld ? normalize(transformDirection(parentWorld, pivotAxis)) : pivotAxis;
  const interop: Record<string, JsonValue> = {
    ctrl_type: "rotation",
    axis: "X",
    unit: "deg",
    min: part.min ?? null,
    max: part.max ?? null,
    rest: 0,
  };
  if (part.group) interop.group = part.group;
  if (part.positive) interop.positive = part.positive;
  mergeExtras(pivot, interop);
  setPart(pivot, {
    ...part,
    ctrl_type: "rotation",
    unit: "deg",
    rest: 0,
    panel: panel.getName(),
    hinge: {
      origin: canonicalVec3(origin),
      axis: canonicalVec3(pivotAxis),
      origin_world: canonicalVec3(parentWorld ? transformPoint(parentWorld, origin) : origin),
      axis_world: canonicalVec3(axisWorld.map((v) => v * mirror)),
    },
  });
  clearPart(panel);
  return pivot;
}

/**
 * A trim tab modelled beside its surface rather than inside it (exporters keep unparented objects
 * side by side) must still turn with it: when the tab's hinge lies within the geometry of a surface
 * pivot sharing its parent, the tab's pivot moves under that pivot. Both are rigid (unit scale) in
 * one parent space, so the move composes exactly and keeps the tab's world pose.
 */
function rideOnHost(doc: Document, tab: Node, pivots: readonly Node[]): void {
  const part = getPart(tab)!;
  const hinge = part.hinge!;
  let host: Node | undefined;
  let hostVolume = Infinity;
  for (const pivot of pivots) {
    if (getPart(pivot)!.kind === "trim_tab" || !sameOwners(pivot, tab)) continue;
    // A bone's pivot holds the bone (its first child), whose geometry is the vertices skinned to it.
    const bone = getPart(pivot)!.driven_by === "skin" ? pivot.listChildren()[0] : undefined;
    const bounds = positionBounds(
      bone ? gatherBonePositions(doc, bone, IDENTITY) : gatherPositions(pivot, IDENTITY),
    );
    if (!bounds) continue;
    const size = sub(bounds.max, bounds.min);
    const margin = 0.05 * Math.hypot(...size);
    const inside = [0, 1, 2].every((k) =>
      hinge.origin_world[k] >= bounds.min[k] - margin && hinge.origin_world[k] <= bounds.max[k] + margin
    );
    const volume = (size[0] + margin) * (size[1] + margin) * (size[2] + margin);
    if (inside && volume < hostVolume) [host, hostVolume] = [pivot, volume];
  }
  if (!host) return;
  const toHost = quatConjugate(host.getRotation() as Quat);
  const translation = canonicalVec3(
    quatRotate(toHost, sub(tab.getTranslation() as Vec3, host.getTranslation() as Vec3)),
  );
  const rotation = canonicalQuat(quatMultiply(toHost, tab.getRotation() as Quat));
  host.addChild(tab);
  tab.setTranslation(translation).setRotation(rotation);
  setPart(tab, {
    ...part,
    hinge: { ...hinge, origin: translation, axis: canonicalVec3(quatRotate(rotation, [1, 0, 0])) },
  });
}

/** True when two nodes hang under the same parent node, or sit at the top of the same scenes. */
function sameOwners(a: Node, b: Node): boolean {
  const owners = (n: Node) =>
    n.getParentNode() ? [n.getParentNode()!] : n.listParents().filter((p) => p.propertyType === "Scene");
  const [oa, ob] = [owners(a), owners(b)];
  return oa.length > 0 && oa.length === ob.length && oa.every((o) => ob.includes(o));
}

/** `v` minus its component along unit `axis`. */
function rejectFrom(v: Vec3, axis: Vec3): Vec3 {
  return addScaled(v, axis, -dot(v, axis));
}

function isNearIdentityRotation(q: Quat): boolean {
  const c = canonicalQuat(q);
  return Math.abs(c[0]) < SNAP && Math.abs(c[1]) < SNAP && Math.abs(c[2]) < SNAP;
}

/** Puts `replacement` where `node` is among its parent's (or scenes') children, keeping the order. */
function replaceInParent(doc: Document, node: Node, replacement: Node): void {
  const parent = node.getParentNode();
  const owners: (Node | Scene)[] = parent
    ? [parent]
    : doc.getRoot().listScenes().filter((scene) => scene.listChildren().includes(node));
  for (const owner of owners) {
    const children = owner.listChildren();
    for (const child of children) owner.removeChild(child);
    for (const child of children) owner.addChild(child === node ? replacement : child);
  }
}

function animatedNodes(doc: Document): Set<Node> {
  const out = new Set<Node>();
  for (const animation of doc.getRoot().listAnimations()) {
    for (const channel of animation.listChannels()) {
      const target = channel.getTargetNode();
      if (target) out.add(target);
    }
  }
  return out;
}
