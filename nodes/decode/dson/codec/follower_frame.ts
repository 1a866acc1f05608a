/**
 * The frames a rigid follower's refit works in: a joint's frame in the followed mesh's space at rest
 * ({@link meshFrame}), and the axis frame its `rigidity_group` names through `transform_nodes` or
 * `reference` ({@link namedFrame}). The DSON spec: "If there are transform_nodes they are in the
 * rotation order of those nodes. If there is a reference node and no transform_nodes it uses the
 * reference node's axis order" — the axes `scale_modes[i]` and the primary/secondary rotation modes
 * name by position, as rigidity groups read them (`rigidity.ts`, docs/dson.md "Rigidity"). A
 * follower is refitted on the figure at rest (`follow_rest.ts`), so the named node's axes are its rest
 * axes in the mesh's space: a bone's orientation, not its pose. Before decode.dson v62,
 * dson.apply_preset v45 and dson.bake_morph v7 the names were ignored and the principal axes used.
 * Geometry rigidity groups read the same rest axes ({@link restAxes}) when a morph is baked: Daz runs
 * rigidity with the morphs, before skinning poses the mesh (dson.bake_morph v8; before, the node's
 * posed world axes).
 *
 * @module
 */
import type { Document, Mesh, Node } from "@gltf-transform/core";
import type { mat4 } from "@gltf-transform/core";
import type { WarningSink } from "../../../../runtime/node.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { invert, multiply } from "./matrix64.ts";
import { restWorld } from "./rest_pose.ts";
import type { AxisFrame } from "./rigidity.ts";
import type { Vec3 } from "./rigid_fit.ts";
import { parseDsonUri } from "./uri.ts";

/** Follower names a warning lists before counting the rest. */
const NAMED = 3;

/**
 * Mesh space at rest to `joint`'s frame: the inverse bind of the joint in the mesh's skin, else
 * `joint_world⁻¹ · mesh_world` (an unskinned mesh, or a joint outside the skin, through its first
 * joint's bind). Undefined when no node draws the mesh or the joint is scaled to nothing.
 *
 * @example
 * ```ts
 * const toJoint = meshFrame(bodyMesh, handBone);
 * ```
 */
export function meshFrame(mesh: Mesh, joint: Node): mat4 | undefined {
  const drawn = mesh.listParents().filter((p): p is Node => p.propertyType === "Node");
  const skinned = drawn.find((n) => n.getSkin());
  const jointInverse = () => invert(joint.getWorldMatrix());
  if (skinned) {
    const skin = skinned.getSkin()!;
    const ibm = skin.getInverseBindMatrices()?.getArray();
    const joints = skin.listJoints();
    if (!ibm || !joints.length) return undefined;
    const at = (k: number) => Array.from(ibm.subarray(k * 16, k * 16 + 16)) as unknown as mat4;
    const k = joints.indexOf(joint);
    if (k >= 0) return at(k);
    const inverse = jointInverse();
    return inverse && multiply(inverse, multiply(joints[0].getWorldMatrix(), at(0)));
  }
  const inverse = drawn.length ? jointInverse() : undefined;
  return inverse && multiply(inverse, drawn[0].getWorldMatrix());
}

/** The scene's DSON nodes by instance key, then by definition id (the first node of each). */
export function nodesByName(doc: Document): Map<string, Node> {
  const byKey = new Map<string, Node>(), byId = new Map<string, Node>();
  for (const node of doc.getRoot().listNodes()) {
    const dson = getPartgraphExtras(node).dson as { id?: unknown; key?: unknown } | undefined;
    if (typeof dson?.key === "string" && !byKey.has(dson.key)) byKey.set(dson.key, node);
    if (typeof dson?.id === "string" && !byId.has(dson.id)) byId.set(dson.id, node);
  }
  for (const [id, node] of byId) if (!byKey.has(id)) byKey.set(id, node);
  return byKey;
}

/**
 * The axes of the node `uri` names, at rest in `mesh`'s space, listed in the node's rotation order;
 * undefined when no node of the scene has that name (or it is scaled to nothing).
 *
 * @example
 * ```ts
 * const frame = namedFrame(mesh, "#lForearmBend", nodesByName(doc));
 * ```
 */
export function namedFrame(mesh: Mesh, uri: string, nodes: ReadonlyMap<string, Node>): AxisFrame | undefined {
  const node = nodes.get(parseDsonUri(uri).id);
  if (!node) return undefined;
  const rest = restAxes(node);
  if (rest) return rest;
  // A node without its DSON rest record (edited extras): its frame in the mesh's space as drawn.
  const toNode = meshFrame(mesh, node);
  const m = toNode && invert(toNode);
  return m ? orderedAxes(m, node) : undefined;
}

/**
 * The axes of DSON node `node` at rest, in DSON (figure) space — the space a decoded mesh's vertices
 * are in — from its recorded `orientation` (XYZ Euler degrees), listed in its rotation order; the
 * pose does not turn them. Undefined when the node has no recorded orientation.
 *
 * @example
 * ```ts
 * const frame = restAxes(nodesByName(doc).get("lForearmBend")!);
 * ```
 */
export function restAxes(node: Node): AxisFrame | undefined {
  const dson = getPartgraphExtras(node).dson as { orientation?: unknown } | undefined;
  const o = dson?.orientation;
  if (!Array.isArray(o) || o.length !== 3 || !o.every((v) => typeof v === "number" && Number.isFinite(v))) {
    return undefined;
  }
  const order = (getPartgraphExtras(node).dson as { rotation_order?: unknown } | undefined)?.rotation_order;
  return orientationAxes(o as [number, number, number], order);
}

/**
 * The rest axes of a DSON node of `orientation` (XYZ Euler degrees) listed in its rotation order
 * `order` (XYZ when not one): {@link restAxes} of the node as the decode builds it, read by the decode
 * from its scene nodes before the glTF nodes exist (`fitted_checks.ts`).
 */
export function orientationAxes(orientation: readonly [number, number, number], order: unknown): AxisFrame {
  const m = restWorld({ centerPoint: [0, 0, 0], orientation: [...orientation] });
  return axesInOrder(m as unknown as mat4, order);
}

/** The unit columns of `m`'s 3×3 part, listed in `node`'s rotation order (XYZ when it has none). */
function orderedAxes(m: mat4, node: Node): AxisFrame {
  const order = (getPartgraphExtras(node).dson as { rotation_order?: unknown } | undefined)?.rotation_order;
  return axesInOrder(m, order);
}

/** The unit columns of `m`'s 3×3 part, listed in rotation order `order` (XYZ when not one). */
function axesInOrder(m: mat4, order: unknown): AxisFrame {
  const axis = (c: number): Vec3 => {
    const v: Vec3 = [m[c * 4], m[c * 4 + 1], m[c * 4 + 2]];
    const n = Math.hypot(...v) || 1;
    return [v[0] / n, v[1] / n, v[2] / n];
  };
  const letters = typeof order === "string" && /^[XYZ]{3}$/.test(order) && new Set(order).size === 3
    ? order
    : "XYZ";
  const xyz = [axis(0), axis(1), axis(2)];
  return { ordered: [...letters].map((l) => xyz["XYZ".indexOf(l)]) as [Vec3, Vec3, Vec3] };
}

/**
 * One warning for the followers whose named frame is not a node of the scene (`prefix`: who says it;
 * `paths`: where each one's frame is named — the DSON file's path for the decode, the scene extras'
 * path for a preset or bake).
 *
 * @example
 * ```ts
 * warnUnframed(["'Ring-1' ('#lHand')"], warn, "dson");
 * ```
 */
export function warnUnframed(
  unframed: readonly string[],
  warn: WarningSink,
  prefix: string,
  paths: readonly string[] = [],
): void {
  if (!unframed.length) return;
  const at = (k: number) => (paths[k] ? ` at ${paths[k]}` : "");
  const listed = unframed.slice(0, NAMED).map((u, k) => u + at(k)).join(", ") +
    (unframed.length > NAMED ? ` and ${unframed.length - NAMED} more` : "");
  warn(
    `${prefix}: ${unframed.length} rigid follower(s) name a transform or reference node that is not a node ` +
      `of the scene; their modes measure along their reference vertices' principal axes instead: ${listed}`,
  );
}
