/**
 * The work of `rig.insert_pivot` (declared in `insert_pivot.ts`), loaded on the node's first run.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { JsonValue } from "../../runtime/node.ts";
import type { NodeRun } from "../../runtime/lazy_run.ts";
import { rigScene } from "./rig_scene.ts";
import { mergeExtras } from "../../runtime/scene/extras.ts";
import {
  clearPart,
  declaredCtrlType,
  foundByRig,
  getPart,
  type PartAnnotation,
  setPart,
} from "./part_extras.ts";
import { partNodesOf } from "./scene_order.ts";
import {
  addScaled,
  canonicalQuat,
  canonicalVec3,
  cross,
  dot,
  IDENTITY,
  invertAffine,
  length,
  linearDeterminant,
  type Mat4,
  multiply,
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
import { HostBounds, type InsertedPivot, ownersKey, rideOnHost } from "./tab_riding.ts";
import { ChildOrder } from "./child_order.ts";
import { animatedNodes, reparentAnimation } from "./panel_animation.ts";
import { isUniformlyScaled, planUnscale, type Unscale } from "./unscale.ts";
import { noteFit } from "./edited_panels.ts";
import { LocalMeshes } from "./local_meshes.ts";
import type { rigInsertPivot } from "./insert_pivot.ts";
import { panelName } from "./panel_names.ts";
import { type FileWords, sideFromName } from "./vocabulary.ts";
import { sceneWords } from "./file_words.ts";

/** Prefix of inserted pivots. */
export const PIVOT_PREFIX = "HINGE_auto_";

/** Below this every component of a local transform is snapped to identity (writers drop < 1e-5). */
const SNAP = 1e-4;

/** `rig.insert_pivot`: see its declaration. */
export const run: NodeRun<typeof rigInsertPivot> = ({ inputs, params, ctx }) => {
  const scene = rigScene(inputs.scene, ctx);
  const animated = animatedNodes(scene);
  const panels = partNodesOf(scene)
    .filter((node) => foundByRig(getPart(node)) && getPart(node)?.hinge && !declaredCtrlType(node));
  const order = new ChildOrder(scene);
  const taken = new Set(scene.getRoot().listNodes().map((node) => node.getName()));
  const shared = sharedNames(panels);
  // Names are read with the file's others, once, before any pivot is added (`Lotka_P` beside `Lotka_L`).
  const words = sceneWords(scene);
  const pivots = panels.map((panel) => {
    const name = pivotName(panel, taken, shared, words);
    const inserted = insertPivot(scene, panel, name, params.zero_rest === true, order);
    if (animated.has(panel)) {
      if (inserted.unscale) {
        // Under the unscale helpers an animated rotation would need a shear no node can hold.
        ctx.warn(
          `panel '${panel.getName()}' is animated under a non-uniformly scaled parent; ` +
            `its animation stays relative to its old parent`,
        );
      } else {
        reparentAnimation(scene, panel, inserted.mount.getTranslation(), inserted.mount.getRotation());
      }
    }
    if (inserted.unscale && ancestors(inserted.top).some((node) => animated.has(node))) {
      ctx.warn(
        `panel '${panel.getName()}' sits under a non-uniformly scaled, animated parent: ` +
          `its pivot '${inserted.pivot.getName()}' turns rigidly at rest only`,
      );
    }
    if (
      !inserted.unscale && !isUniformlyScaled(inserted.top.getParentNode()?.getWorldMatrix() ?? IDENTITY)
    ) {
      ctx.warn(
        `panel '${panel.getName()}' sits under a non-uniformly scaled parent whose scale could not be ` +
          `taken out: turning '${inserted.pivot.getName()}' shears it in world`,
      );
    }
    return inserted;
  });
  order.apply();
  // A tab rides on a surface beside it: candidates grouped by what they hang under once, not scanned
  // (and their owners asked for) per tab.
  const bounds = new HostBounds(scene);
  const siblings = Map.groupBy(pivots, (p) => ownersKey(scene, p.top));
  for (const inserted of pivots) {
    if (getPart(inserted.pivot)!.kind !== "trim_tab") continue;
    rideOnHost(scene, inserted, siblings.get(ownersKey(scene, inserted.top)) ?? [], bounds);
  }
  // What each hinge was fitted to, so a later run refits a panel edited since (edited_panels.ts).
  // Panels drawing one mesh read it once (2,000 panels over one 65,535-vertex mesh read it 2,000 times).
  const meshes = new LocalMeshes();
  for (const { pivot, panel } of pivots) noteFit(pivot, panel, ctx, meshes);
  return { scene };
};

/** Where the pivot goes in the space it lives in, and the panel's local transform below it. */
interface Placement {
  readonly origin: Vec3;
  readonly rotation: Quat;
  readonly childTranslation: Vec3;
  readonly childRotation: Quat;
}

/**
 * `HINGE_auto_<what the panel is called>` (`panel_names.ts`: `Aileron_L` for Assimp's
 * `Aileron_L_$AssimpFbx$_Translation`, the mesh's name for SketchUp's `Component#3`). A name several
 * panels are called by (`shared`: mirrored instances of one SketchUp definition, two nodes named
 * `Aileron`) says the side the rig gave each, `_L` or `_R`, where it states none itself
 * (`HINGE_auto_Aileron_L`, was `HINGE_auto_Aileron` and `…_1`). A name so made, or read through such
 * noise, that is already `taken` is numbered `_<n>` (smallest n free, in file order: two left flaps
 * called `Flap` are `HINGE_auto_Flap_L` and `HINGE_auto_Flap_L_1`), so no two such pivots share a name
 * before export; a panel called by its node's own name, alone, is named as before (export makes
 * repeats unique). Whether a name states a side is read with the file's `words` (`Aileron_P` beside
 * `Aileron_S` does: no `_L` is added).
 */
function pivotName(panel: Node, taken: Set<string>, shared: ReadonlySet<string>, words: FileWords): string {
  const called = panelName(panel).name;
  const side = getPart(panel)?.side;
  const sided = shared.has(called) && (side === "left" || side === "right") && !sideFromName(called, words);
  const base = `${PIVOT_PREFIX}${called}${sided ? (side === "left" ? "_L" : "_R") : ""}`;
  let name = base;
  if (base !== `${PIVOT_PREFIX}${panel.getName()}`) {
    for (let n = 1; taken.has(name); n++) name = `${base}_${n}`;
  }
  for (const suffix of ["", "_rest", "_unscale", "_rescale"]) taken.add(`${name}${suffix}`);
  return name;
}

/** What more than one of `panels` is called (`panel_names.ts`). */
function sharedNames(panels: readonly Node[]): Set<string> {
  const seen = new Set<string>(), shared = new Set<string>();
  for (const panel of panels) {
    const called = panelName(panel).name;
    if (seen.has(called)) shared.add(called);
    seen.add(called);
  }
  return shared;
}

function insertPivot(
  doc: Document,
  panel: Node,
  name: string,
  zeroRest: boolean,
  order: ChildOrder,
): InsertedPivot {
  const part = getPart(panel)!;
  const parentWorld = panel.getParentNode()?.getWorldMatrix();
  const unscale = parentWorld
    ? planUnscale(parentWorld, panel.getRotation() as Quat, panel.getTranslation() as Vec3)
    : undefined;
  const place = unscale ? placeUnscaled(panel, part, parentWorld!, unscale) : placeInParent(panel, part);

  const mount = doc.createNode(zeroRest ? `${name}_rest` : name)
    .setTranslation(canonicalVec3(place.origin))
    .setRotation(canonicalQuat(place.rotation));
  const pivot = zeroRest ? doc.createNode(name) : mount;
  if (zeroRest) mount.addChild(pivot);
  const top = unscale
    ? doc.createNode(`${name}_unscale`).setRotation(unscale.rotation).setScale(unscale.scale)
    : mount;
  if (unscale) top.addChild(mount);
  order.replace(panel, top);
  if (unscale) {
    // Puts back what the unscale node took out, so the panel's world pose is unchanged.
    const toPivot = quatConjugate(canonicalQuat(place.rotation));
    const rescale = doc.createNode(`${name}_rescale`)
      .setTranslation(canonicalVec3(quatRotate(toPivot, place.origin).map((v) => -v)))
      .setRotation(canonicalQuat(toPivot))
      .setScale(unscale.scale.map((v) => 1 / v) as Vec3);
    pivot.addChild(rescale);
    rescale.addChild(panel);
  } else {
    pivot.addChild(panel);
  }
  panel.setTranslation(canonicalVec3(place.childTranslation)).setRotation(canonicalQuat(place.childRotation));

  // The hinge in the pivot's parent space (its rest node's, with zero_rest).
  const origin: Vec3 = zeroRest ? [0, 0, 0] : place.origin;
  const pivotAxis = zeroRest ? [1, 0, 0] : quatRotate(place.rotation, [1, 0, 0]);
  const parentWorldOfPivot = pivot.getParentNode()?.getWorldMatrix();
  // A part that slides (slid_part.ts) moves along its X as drawn: a mirror flips a turn, not a slide.
  const slides = part.ctrl_type === "translation";
  const mirror = !slides && parentWorldOfPivot && linearDeterminant(parentWorldOfPivot) < 0 ? -1 : 1;
  const axisWorld = parentWorldOfPivot
    ? normalize(transformDirection(parentWorldOfPivot, pivotAxis))
    : pivotAxis;
  const interop: Record<string, JsonValue> = {
    ctrl_type: slides ? "translation" : "rotation",
    axis: "X",
    unit: slides ? "m" : "deg",
    // A spinning part has no limits: absent, as the interop default (±∞) reads them.
    ...(part.min === undefined ? {} : { min: part.min }),
    ...(part.max === undefined ? {} : { max: part.max }),
    rest: 0,
  };
  if (part.group) interop.group = part.group;
  if (part.positive) interop.positive = part.positive;
  mergeExtras(pivot, interop);
  setPart(pivot, {
    ...part,
    ctrl_type: slides ? "translation" : "rotation",
    unit: slides ? "m" : "deg",
    rest: 0,
    panel: panel.getName(),
    hinge: {
      origin: canonicalVec3(origin),
      axis: canonicalVec3(pivotAxis),
      origin_world: canonicalVec3(parentWorldOfPivot ? transformPoint(parentWorldOfPivot, origin) : origin),
      axis_world: canonicalVec3(axisWorld.map((v) => v * mirror)),
    },
  });
  clearPart(panel);
  return { top, mount, pivot, panel, unscale: unscale !== undefined };
}

/** The pivot in the panel's parent space (a similarity): rigid pivot, panel local composed under it. */
function placeInParent(panel: Node, part: PartAnnotation): Placement {
  const hinge = part.hinge!;
  const panelRotation = panel.getRotation() as Quat;
  const panelTranslation = panel.getTranslation() as Vec3;
  const axis = normalize(hinge.axis);

  // Pivot Y: the panel's own Y made square to the hinge, so the panel's rotation under the pivot is
  // as small as the hinge's tilt from the panel's X.
  let pivotRotation = pivotBasis(
    axis,
    quatRotate(panelRotation, [0, 1, 0]),
    quatRotate(panelRotation, [0, 0, 1]),
  );
  let origin: Vec3 = [hinge.origin[0], hinge.origin[1], hinge.origin[2]];

  let childRotation = canonicalQuat(quatMultiply(quatConjugate(pivotRotation), panelRotation));
  if (isNearIdentityRotation(childRotation)) {
    // The hinge is (almost) the panel's own X: put the pivot in the panel's frame exactly.
    pivotRotation = canonicalQuat(panelRotation);
    childRotation = [0, 0, 0, 1];
  }
  const pivotAxis = quatRotate(pivotRotation, [1, 0, 0]);
  const parentMatrix = panel.getParentNode()?.getWorldMatrix();
  const slide = slideLength(part, parentMatrix);
  if (isNearZero(origin)) origin = addScaled(origin, pivotAxis, slide);
  let childTranslation = quatRotate(quatConjugate(pivotRotation), sub(panelTranslation, origin));
  if (isNearZero(childTranslation)) {
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
  return { origin, rotation: pivotRotation, childTranslation, childRotation };
}

/**
 * The pivot in the unscale node's space (a similarity to the world, so the pivot turns rigidly); the
 * panel keeps its transform up to the unscale plan's rotation, the rescale node restoring the rest.
 */
function placeUnscaled(panel: Node, part: PartAnnotation, parentWorld: Mat4, unscale: Unscale): Placement {
  const hinge = part.hinge!;
  const fromParent = invertAffine(unscale.matrix);
  const axis = normalize(transformDirection(fromParent, hinge.axis));
  const panelRotation = panel.getRotation() as Quat;
  const rotation = pivotBasis(
    axis,
    normalize(transformDirection(fromParent, quatRotate(panelRotation, [0, 1, 0]))),
    normalize(transformDirection(fromParent, quatRotate(panelRotation, [0, 0, 1]))),
  );
  let origin = transformPoint(fromParent, hinge.origin);
  if (isNearZero(origin)) {
    origin = addScaled(
      origin,
      quatRotate(rotation, [1, 0, 0]),
      slideLength(part, multiply(parentWorld, unscale.matrix)),
    );
  }
  return { origin, rotation, childTranslation: unscale.partTranslation, childRotation: unscale.partRotation };
}

/**
 * The rotation taking X to `axis` with Y as close to unit `y` (else unit `z`) as square to it allows;
 * within 1e-4 of identity it is identity (writers would drop it).
 */
function pivotBasis(axis: Vec3, y: Vec3, z: Vec3): Quat {
  let square = rejectFrom(y, axis);
  if (dot(square, square) < 1e-12) square = rejectFrom(z, axis);
  square = normalize(square);
  const rotation = quatFromBasis(axis, square, cross(axis, square));
  return isNearIdentityRotation(rotation) ? [0, 0, 0, 1] : rotation;
}

/** A quarter span along the hinge, in the units of the space with world matrix `space`. */
function slideLength(part: PartAnnotation, space: Mat4 | undefined): number {
  const scale = space ? Math.cbrt(Math.abs(linearDeterminant(space))) : 1;
  return Math.max((part.fit?.span ?? 1) / scale, SNAP * 100) / 4;
}

function isNearZero(v: Vec3): boolean {
  return Math.max(Math.abs(v[0]), Math.abs(v[1]), Math.abs(v[2])) < SNAP;
}

/** `node`'s ancestors, nearest first. */
function ancestors(node: Node): Node[] {
  const out: Node[] = [];
  for (let p = node.getParentNode(); p; p = p.getParentNode()) out.push(p);
  return out;
}

/** `v` minus its component along unit `axis`. */
function rejectFrom(v: Vec3, axis: Vec3): Vec3 {
  return addScaled(v, axis, -dot(v, axis));
}

function isNearIdentityRotation(q: Quat): boolean {
  const c = canonicalQuat(q);
  return Math.abs(c[0]) < SNAP && Math.abs(c[1]) < SNAP && Math.abs(c[2]) < SNAP;
}
