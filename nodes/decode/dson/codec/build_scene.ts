/**
 * Builds the glTF document for a loaded {@link DsonScene}: a node per DSON node (figures and bones
 * become a joint hierarchy posed by `center_point` and `orientation`, see `rest_pose.ts`), a mesh
 * per geometry instance with one primitive per surface (see `build_primitive.ts`), skin with 4
 * influences, morph targets, and the DSON records (rigidity groups, graft data, node frames,
 * unresolved references) in `extras.partgraph.dson`. Centimetres become metres. Rigid followers go
 * under the joint they follow, their world transform kept (`follow_parent.ts`); the meshes of one on
 * a blend of joints are skinned with its reference vertices' averaged weights (`follow_skin.ts`).
 * Conforming figures (clothing fitted to a body) take their target's pose (`conform_follow.ts`).
 *
 * Two custom vertex attributes carry what later nodes need: `_DSON_VERTEX` (the DSON vertex index
 * of each glTF vertex, so rigidity groups and morphs stay addressable after splitting) and
 * `_RIGIDITY` (the rigidity weight map).
 *
 * @module
 */
import { Document, type Material, type Node, type Primitive, type Scene } from "@gltf-transform/core";
// The ES module build (types from the package): its CommonJS main costs start-up time to load.
// @ts-types="gl-matrix"
import { mat4, quat, vec3 } from "gl-matrix/esm/index.js";
import type { JsonValue, WarningSink } from "../../../../runtime/node.ts";
import { setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { setSourceInfo } from "../../../../runtime/scene/source.ts";
import { SceneAccessors } from "../../../../runtime/scene/accessors.ts";
import { buildPrimitive } from "./build_primitive.ts";
import { followConformTargets } from "./conform_follow.ts";
import { itemScaleWarnings } from "./item_scale.ts";
import { drawInstances } from "./instances.ts";
import { parentFollowers } from "./follow_parent.ts";
import { followerShearWarning } from "./follower_shear.ts";
import { poseScaleWarning, restCarries, type RestCarry } from "./follower_pose_scale.ts";
import { skinBlendedFollowers } from "./follow_skin.ts";
import { atRest } from "./follow_rest.ts";
import { meshExtras, nodeExtras } from "./build_extras.ts";
import { warnUnframed } from "./follower_frame.ts";
import {
  type DsonScene,
  figureRoot,
  METRES_PER_CM,
  type RigidFollower,
  type SceneMesh,
  type SceneNode,
  type Surface,
} from "./model.ts";
import { invertRest, localTransform, restWorld, scaleDivisor } from "./rest_pose.ts";
import { followerStates, refitFollowers, warnSheared } from "./follower_refit.ts";
import { subdivisionWarning } from "./subdivision.ts";
import { fitUninherited, unevenlyScaled, unevenScaleWarnings } from "./scale_composition.ts";

type Json = { [key: string]: JsonValue };

/**
 * Builds a glTF document from a loaded DSON scene; `warn` hears of each geometry that draws no polygon
 * (it gets no mesh: glTF has none without primitives).
 *
 * @example
 * ```ts
 * const doc = buildDsonDocument(await loadDsonScene(bytes, "a.duf", { contentRoots: [], ctx }));
 * ```
 */
export function buildDsonDocument(dson: DsonScene, warn: WarningSink = () => {}): Document {
  const doc = new Document();
  const accessors = new SceneAccessors(doc, doc.createBuffer());
  const scene = doc.createScene(dson.assetId.split("/").pop() ?? "dson");
  doc.getRoot().setDefaultScene(scene);
  // The nodes the check of the written hierarchy names (drawn otherwise than DSON composes them).
  const named = new Set<number>();
  const target: BuildTarget = {
    doc,
    accessors,
    scene,
    dsonNodes: dson.nodes,
    rest: dson.nodes.map((node) => restWorld(node)),
    nodes: buildNodes(doc, scene, dson.nodes, new Set(dson.followers.map((f) => f.node)), warn, named),
    materials: new Map(),
    warn,
  };
  const subdivided = subdivisionWarning(dson.meshes);
  if (subdivided) warn(subdivided);
  const meshNodes = new Set<Node>();
  for (const mesh of dson.meshes) {
    const meshNode = addMesh(target, mesh);
    if (meshNode && !mesh.skin && mesh.owner >= 0) meshNodes.add(meshNode);
  }
  // Followers are placed, skinned and refitted with the bones at rest; the pose then carries them.
  const sheared: string[] = [], uncertain: string[] = [], untwisted: string[] = [], surfaced: string[] = [];
  let parented: RigidFollower[] = [];
  let carries: RestCarry[] = [];
  atRest(target.nodes, dson.nodes, new Set(dson.followers.map((f) => f.node)), () => {
    parented = parentFollowers(target.nodes, dson.nodes, dson.followers, warn);
    skinBlendedFollowers(
      { accessors, scene, nodes: target.nodes, dsonNodes: dson.nodes, meshNodes },
      parented,
      warn,
    );
    // Daz fits a follower to its reference vertices as the file's morphs move them from the base mesh.
    const { states, unframed, unframedNodes } = followerStates(doc, true);
    refitFollowers(doc, states, sheared, uncertain, untwisted, surfaced);
    // Followers kept their size by scale_modes 'none', for the check of the pose's scale below.
    carries = restCarries(states);
    // Named where the DSON file references the missing node (decode.dson v64; before, unplaced).
    const at = new Map(dson.followers.map((f) => [target.nodes[f.node], f.modes.frameAt ?? ""]));
    warnUnframed(unframed, warn, "dson", unframedNodes.map((n) => at.get(n) ?? ""));
  });
  warnSheared(sheared, warn, "dson", uncertain, untwisted, surfaced);
  // With the pose back: a follower moved under a joint scaled unevenly across its turn (decode.dson v70).
  const shear = followerShearWarning(target.nodes, dson.nodes, parented, named);
  if (shear) warn(shear);
  // With the pose back: followers kept their size that a bone's scale stretches (decode.dson v71).
  const scaled = poseScaleWarning(carries, "dson");
  if (scaled) warn(scaled);
  // Last: rigid followers put under an item's bones above ride them as the item follows its target.
  followConformTargets(
    { nodes: target.nodes, dsonNodes: dson.nodes, rest: target.rest },
    dson.conformers,
    warn,
  );
  // An item's own root scale the follow leaves out: what Daz does with it is not known (decode.dson v68).
  for (const message of itemScaleWarnings(dson.nodes, dson.meshes, dson.conformers)) warn(message);
  // After everything an instance's target holds is in place: its copies are made of it.
  // A target whose rest frame a shape's formulas move keeps a pivot node a preset or bake can reset.
  const driven = new Set(
    dson.meshes.flatMap((m) =>
      Object.keys(m.rigCentres ?? {}).map((key) => key.slice(0, key.lastIndexOf("?")))
    ),
  );
  drawInstances(doc, target.nodes, dson.nodes, warn, driven);
  setSourceInfo(doc, {
    format: "dson",
    forward: "+Z",
    up: "+Y",
    metresPerUnit: 1,
    notes: { source_unit: "cm", scale_applied: METRES_PER_CM, handedness: "right" },
  });
  setPartgraphExtras(scene, {
    dson: {
      asset_id: dson.assetId,
      asset_type: dson.assetType,
      unresolved: dson.unresolved.map((u) => ({ uri: u.uri, reason: u.reason, file: u.file, path: u.path })),
    },
  });
  return doc;
}

/** The document being built and what meshes attach to. */
interface BuildTarget {
  readonly doc: Document;
  readonly accessors: SceneAccessors;
  readonly scene: Scene;
  readonly dsonNodes: readonly SceneNode[];
  /** Rest world matrix of each DSON node. */
  readonly rest: readonly mat4[];
  /** The glTF node of each DSON node. */
  readonly nodes: readonly Node[];
  /** Materials already made, by surface and whether the mesh has UVs. */
  readonly materials: Map<string, Material>;
  readonly warn: WarningSink;
}

/**
 * The glTF node hierarchy of the DSON nodes, each posed in its parent's rest frame; `followers` are
 * the rigid followers' nodes; `named` gathers the nodes named as drawn otherwise than DSON composes them.
 */
function buildNodes(
  doc: Document,
  scene: Scene,
  dsonNodes: readonly SceneNode[],
  followers: ReadonlySet<number>,
  warn: WarningSink,
  named: Set<number>,
): Node[] {
  const locals = dsonNodes.map((_, i) => localTransform(dsonNodes, i));
  const built = locals.map((local, i) => scaleNotInherited(dsonNodes, i, local.scale));
  // A node that does not inherit an uneven scale takes the scale nearest Daz's (decode.dson v68), and
  // one that inherits it the exact fit of a right-angle turn (v69) — but a rigid follower: it goes
  // under its joint, carried from its rest place as the decode carries one (follow_rest.ts), which
  // the fit of its written place under the stretch does not follow (inherit_scale_habits.ts with
  // followers written under the figure and right angles: 10 of 137 followers off by up to 5.6 cm).
  const refit = (i: number) => !(dsonNodes[i].inheritsScale && followers.has(i));
  const { scales, factors } = fitUninherited(dsonNodes, built, refit);
  const nodes = dsonNodes.map((node, i) => {
    const gltfNode = doc.createNode(node.name);
    const { translation, rotation } = locals[i];
    const scale = scales[i];
    gltfNode.setTranslation(translation).setRotation(rotation);
    if (scale.some((s) => s !== 1)) gltfNode.setScale(scale);
    const fitted = factors.get(i);
    // dson.apply_preset reads the node's own scale back: its glTF scale over this factor.
    setPartgraphExtras(gltfNode, { dson: { ...nodeExtras(node), ...(fitted ? { scale_fit: fitted } : {}) } });
    return gltfNode;
  });
  dsonNodes.forEach((node, i) => {
    if (node.parent >= 0) nodes[node.parent].addChild(nodes[i]);
    else scene.addChild(nodes[i]);
  });
  const uneven = unevenlyScaled(dsonNodes, scales);
  for (const u of uneven) named.add(u.node);
  for (const message of unevenScaleWarnings(dsonNodes, uneven)) warn(message);
  return nodes;
}

/**
 * A node's scale with its parent's own scale undone when it does not inherit scale
 * (`inherits_scale: false`, as Daz writes for almost every bone): Daz composes such a node's scale
 * under its parent's world scale without the parent's local scale, so scaling a bone leaves its
 * children their size (their positions still follow). glTF always inherits, so a uniform parent
 * scale `s` is undone by scaling the child by `1/s`. A non-uniform one is left to
 * {@link fitUninherited}, which fits the nearest scale (exact unless the child is turned across it).
 */
function scaleNotInherited(
  dsonNodes: readonly SceneNode[],
  i: number,
  scale: [number, number, number],
): [number, number, number] {
  const node = dsonNodes[i];
  const parent = node.parent >= 0 ? dsonNodes[node.parent] : undefined;
  if (node.inheritsScale || !parent) return scale;
  const [x, y, z] = parent.scale.map((s) => s * parent.generalScale);
  if (x === 1 && y === 1 && z === 1) return scale;
  const divisor = scaleDivisor([x, y, z]);
  return divisor !== 1 ? [scale[0] / divisor, scale[1] / divisor, scale[2] / divisor] : scale;
}

/** Adds a mesh, its node and (when skinned) its skin; returns the node (none without polygons). */
function addMesh(target: BuildTarget, mesh: SceneMesh): Node | undefined {
  const { doc, accessors, scene, rest, nodes } = target;
  const joints = mesh.skin ? skinJoints(target.dsonNodes, mesh) : undefined;
  const surfaces = mesh.surfaces.map((name) =>
    mesh.materials.get(name) ?? { name, color: [1, 1, 1] as Surface["color"] }
  );
  const primitives: Primitive[] = [];
  for (let s = 0; s < mesh.surfaces.length; s++) {
    const primitive = buildPrimitive(accessors, mesh, s, joints?.slot);
    if (!primitive) continue;
    primitives.push(
      primitive.setMaterial(material(doc, target.materials, surfaces[s], mesh.uv !== undefined)),
    );
  }
  // glTF has no mesh without primitives: a geometry that draws no polygon (none, or all hidden by a
  // graft) gets no mesh, node or skin.
  if (!primitives.length) {
    target.warn(`geometry '${mesh.name}' draws no polygon; no mesh is made for it`);
    return undefined;
  }
  const gltfMesh = doc.createMesh(mesh.name);
  for (const primitive of primitives) gltfMesh.addPrimitive(primitive);
  gltfMesh.setWeights(mesh.morphs.map((m) => m.weight));
  gltfMesh.setExtras({ ...gltfMesh.getExtras(), targetNames: mesh.morphs.map((m) => m.name) });
  setPartgraphExtras(gltfMesh, { dson: meshExtras(mesh) });
  const meshNode = doc.createNode(mesh.name).setMesh(gltfMesh);
  if (joints) {
    const skin = doc.createSkin(mesh.name);
    const ibm = new Float32Array(joints.nodes.length * 16);
    joints.nodes.forEach((n, j) => {
      skin.addJoint(nodes[n]);
      ibm.set(invertRest(rest[n]), j * 16);
    });
    skin.setSkeleton(nodes[joints.nodes[0]]);
    skin.setInverseBindMatrices(accessors.create("MAT4", ibm));
    meshNode.setSkin(skin);
    // glTF ignores a skinned mesh node's transform, so it sits at the root.
    scene.addChild(meshNode);
  } else if (mesh.owner >= 0) {
    // Geometry is authored in figure space at rest: undo the owner's rest placement.
    const local = invertRest(rest[mesh.owner]);
    const t = mat4.getTranslation(vec3.create(), local);
    const r = mat4.getRotation(quat.create(), local);
    meshNode.setTranslation([t[0], t[1], t[2]]).setRotation([r[0], r[1], r[2], r[3]]);
    nodes[mesh.owner].addChild(meshNode);
  } else {
    scene.addChild(meshNode);
  }
  return meshNode;
}

/** The skin's joints (the owning figure and its bones, scene order) and the joint index of each node. */
function skinJoints(nodes: readonly SceneNode[], mesh: SceneMesh): { nodes: number[]; slot: Int32Array } {
  const root = figureRoot(nodes, mesh.owner);
  const inFigure = new Uint8Array(nodes.length);
  if (root >= 0) inFigure[root] = 1;
  // Parents may follow their children in the scene list: repeat until membership settles.
  for (let changed = true; changed;) {
    changed = false;
    nodes.forEach((node, i) => {
      if (!inFigure[i] && node.parent >= 0 && inFigure[node.parent] && node.type === "bone") {
        inFigure[i] = 1;
        changed = true;
      }
    });
  }
  const list: number[] = [];
  nodes.forEach((_, i) => {
    if (inFigure[i]) list.push(i);
  });
  const slot = new Int32Array(nodes.length).fill(0);
  list.forEach((n, j) => (slot[n] = j));
  return { nodes: list, slot };
}

/** The material of a surface, made once per (surface, colour, image, has UVs). */
function material(doc: Document, cache: Map<string, Material>, surface: Surface, hasUv: boolean): Material {
  const key = JSON.stringify([surface.name, surface.color, surface.imageUri ?? "", hasUv]);
  let found = cache.get(key);
  if (found) return found;
  found = doc.createMaterial(surface.name).setBaseColorFactor([...surface.color, 1]).setMetallicFactor(0)
    .setRoughnessFactor(0.7);
  if (surface.image && hasUv) {
    const texture = doc.createTexture(surface.image.uri.split("/").pop())
      .setImage(surface.image.bytes as Uint8Array<ArrayBuffer>).setMimeType(surface.image.mimeType);
    found.setBaseColorTexture(texture);
  }
  const extras: Json = { surface: surface.name };
  if (surface.imageUri) extras.image_file = surface.imageUri;
  setPartgraphExtras(found, { dson: extras });
  cache.set(key, found);
  return found;
}
