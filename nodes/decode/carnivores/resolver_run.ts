/**
 * The Carnivores resolver for `constraints.resolve`: turns the `.3df` bone table the decoder kept
 * into joints and a glTF skin. Vertices are rigidly owned by one bone (`JOINTS_0 = owner`, weight 1);
 * joints carry no rotation (the file stores none), each translated by its pivot minus its parent's,
 * and bound at rest (inverse bind = translation(−pivot)). Models without bones — every `.car`, and
 * `.3df` files with an empty table — stay static meshes.
 *
 * @module
 */
import type { Accessor, Document, Node, Primitive } from "@gltf-transform/core";
import type { ResolveArgs } from "../../../runtime/node.ts";
import { MAX_HIERARCHY_DEPTH, scanHierarchy } from "../../../runtime/depth.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../../runtime/scene/extras.ts";
import { OWNER_ATTRIBUTE } from "./codec/build_scene.ts";
import { type BoneRecord, planSkeleton, type SkeletonPlan } from "./codec/skeleton.ts";

/** Most joints a `JOINTS_0` of unsigned shorts can index. */
const MAX_JOINTS = 0x10000;

/** Resolves a `.3df` scene's bone table into joints and a skin (see the module doc). */
export function resolveCarnivoresScene({ scene, ctx }: ResolveArgs): void {
  for (const node of scene.getRoot().listNodes()) {
    const bones = bonesToResolve(node);
    if (!bones) continue;
    const mesh = node.getMesh()!;
    if (bones.length > MAX_JOINTS) {
      ctx.warn(`${bones.length} bones are more than glTF joints can index (${MAX_JOINTS}); left static`);
      continue;
    }
    const records = bones as unknown as BoneRecord[];
    const plan = planSkeleton(records, modelSize(mesh.listPrimitives()));
    for (const message of plan.repairs) ctx.warn(message);
    // The joints hang under a skeleton root: one level more than the bone chain.
    const levels = scanHierarchy(plan.parents).depth + 1;
    if (levels > MAX_HIERARCHY_DEPTH) {
      ctx.warn(
        `the bone chain makes a hierarchy ${levels} levels deep, more than ${MAX_HIERARCHY_DEPTH}; left static`,
      );
      continue;
    }
    const joints = buildJoints(scene, node, records, plan);
    // Owner -1 (0xFFFF) is "no bone": the vertex moves with the whole model, i.e. with the skeleton's
    // root — not with bone 0, which an exporter that lists bones in its own order may make a limb.
    const root = Math.max(0, plan.parents.findIndex((p) => p < 0));
    let badOwners = 0, unowned = 0;
    for (const primitive of mesh.listPrimitives()) {
      const bound = bindPrimitive(scene, primitive, joints.length, root);
      badOwners += bound.bad;
      unowned += bound.unowned;
    }
    if (unowned) {
      ctx.warn(
        `${unowned} vertex owner(s) are -1 (0xFFFF, 'no bone': CarnivoresIO and fan exporters write it for ` +
          `vertices outside every bone); bound to the root bone '${records[root].name}' (bone ${root}), ` +
          "so they move with the whole model",
      );
    }
    if (badOwners) {
      ctx.warn(`${badOwners} vertex owner(s) name no bone (${records.length} bones); bound to bone 0`);
    }
  }
}

/**
 * Whether any node of `scene` holds a bone table {@link resolveCarnivoresScene} would resolve (or warn
 * about): none in a `.car`, a `.3df` with an empty table, or a scene resolved already.
 */
export function hasBonesToResolve(scene: Document): boolean {
  for (const node of scene.getRoot().listNodes()) if (bonesToResolve(node)) return true;
  return false;
}

/** The bones the decoder kept on `node`, when they are to be resolved: listed, on a mesh not yet skinned. */
function bonesToResolve(node: Node): unknown[] | undefined {
  const table = getPartgraphExtras(node).carnivores;
  if (!table || typeof table !== "object" || Array.isArray(table)) return undefined;
  const bones = (table as { bones?: unknown }).bones;
  if (!Array.isArray(bones) || bones.length === 0 || !node.getMesh() || node.getSkin()) return undefined;
  return bones;
}

/** Creates the joint nodes under a `<name>_skeleton` root and the skin; returns joints in bone order. */
function buildJoints(doc: Document, node: Node, bones: readonly BoneRecord[], plan: SkeletonPlan): Node[] {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const armature = doc.createNode(`${node.getName()}_skeleton`);
  // A skinned mesh is drawn where its joints are, not at its node: the skeleton takes the node's
  // placement (a .rsc object's place in the row; none for a .3df).
  const [x, y, z] = node.getTranslation();
  if (x || y || z) armature.setTranslation([x, y, z]);
  scene.addChild(armature);
  const joints: Node[] = new Array(bones.length);
  for (const b of plan.order) {
    const parent = plan.parents[b];
    const translation = [0, 1, 2].map((k) =>
      plan.pivots[b * 3 + k] - (parent >= 0 ? plan.pivots[parent * 3 + k] : 0)
    ) as [number, number, number];
    const joint = doc.createNode(bones[b].name).setTranslation(translation);
    setPartgraphExtras(joint, {
      bone: { index: b, parent: bones[b].parent, pivot_source: plan.pivotSources[b] },
    });
    (parent >= 0 ? joints[parent] : armature).addChild(joint);
    joints[b] = joint;
  }
  const inverseBind = new Float32Array(bones.length * 16);
  for (let b = 0; b < bones.length; b++) {
    const m = b * 16;
    inverseBind[m] =
      inverseBind[m + 5] =
      inverseBind[m + 10] =
      inverseBind[m + 15] =
        1;
    for (let k = 0; k < 3; k++) inverseBind[m + 12 + k] = -plan.pivots[b * 3 + k];
  }
  const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
  const skin = doc.createSkin(node.getName()).setSkeleton(armature)
    .setInverseBindMatrices(doc.createAccessor().setType("MAT4").setArray(inverseBind).setBuffer(buffer));
  for (const joint of joints) skin.addJoint(joint);
  node.setSkin(skin);
  return joints;
}

/**
 * Replaces the primitive's owner attribute by `JOINTS_0`/`WEIGHTS_0`; returns how many owners were
 * -1 (bound to joint `root`) and how many otherwise out of range (bound to joint 0).
 */
function bindPrimitive(
  doc: Document,
  primitive: Primitive,
  jointCount: number,
  root: number,
): { bad: number; unowned: number } {
  const owners = primitive.getAttribute(OWNER_ATTRIBUTE);
  const count = primitive.getAttribute("POSITION")?.getCount() ?? 0;
  const joints = jointCount <= 0x100 ? new Uint8Array(count * 4) : new Uint16Array(count * 4);
  const weights = new Float32Array(count * 4);
  let bad = 0, unowned = 0;
  for (let i = 0; i < count; i++) {
    const owner = owners ? owners.getScalar(i) : 0;
    const valid = owner >= 0 && owner < jointCount;
    if (owner === -1) unowned++;
    else if (!valid) bad++;
    joints[i * 4] = valid ? owner : owner === -1 ? root : 0;
    weights[i * 4] = 1;
  }
  const buffer = doc.getRoot().listBuffers()[0];
  primitive.setAttribute("JOINTS_0", doc.createAccessor().setType("VEC4").setArray(joints).setBuffer(buffer));
  primitive.setAttribute(
    "WEIGHTS_0",
    doc.createAccessor().setType("VEC4").setArray(weights).setBuffer(buffer),
  );
  if (owners) {
    primitive.setAttribute(OWNER_ATTRIBUTE, null);
    disposeIfUnused(owners);
  }
  return { bad, unowned };
}

function disposeIfUnused(accessor: Accessor): void {
  if (accessor.listParents().every((p) => p.propertyType === "Root")) accessor.dispose();
}

/** Diagonal of the bounding box of the primitives' positions. */
function modelSize(primitives: Primitive[]): number {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const primitive of primitives) {
    const position = primitive.getAttribute("POSITION");
    if (!position) continue;
    const lo = position.getMin([]);
    const hi = position.getMax([]);
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], lo[k]);
      max[k] = Math.max(max[k], hi[k]);
    }
  }
  return min[0] <= max[0] ? Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) : 0;
}
