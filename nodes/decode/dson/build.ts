/**
 * Builds the glTF document for a loaded {@link DsonScene}: a node per DSON node (figures and bones
 * become a joint hierarchy posed by `center_point` and `orientation`), a mesh per geometry instance
 * with one primitive per surface, vertices split per unique (vertex, UV), UV v flipped for glTF,
 * skin with 4 influences, morph targets, and the DSON records (rigidity groups, graft data, node
 * frames, unresolved references) in `extras.partgraph.dson`. Centimetres become metres.
 *
 * Two custom vertex attributes carry what later nodes need: `_DSON_VERTEX` (the DSON vertex index
 * of each glTF vertex, so rigidity groups and morphs stay addressable after splitting) and
 * `_RIGIDITY` (the rigidity weight map).
 *
 * @module
 */
import {
  type Buffer,
  Document,
  type GLTF,
  type Material,
  type Primitive,
  type TypedArray,
} from "@gltf-transform/core";
import { mat4, quat, vec3 } from "gl-matrix";
import type { JsonValue } from "../../../runtime/node.ts";
import { setPartgraphExtras } from "../../scene/extras.ts";
import { setSourceInfo } from "../../scene/source.ts";
import type { DsonScene, SceneMesh, SceneNode, Surface } from "./model.ts";
import { rigidityGroupToJson } from "./rigidity.ts";
import { INFLUENCES } from "./skin.ts";

/** DSON lengths are centimetres; glTF's are metres. */
export const METRES_PER_CM = 0.01;

/** Vertex attribute holding each glTF vertex's DSON vertex index. */
export const DSON_VERTEX_ATTRIBUTE = "_DSON_VERTEX";
/** Vertex attribute holding the rigidity weight map. */
export const RIGIDITY_ATTRIBUTE = "_RIGIDITY";

type Json = { [key: string]: JsonValue };

/**
 * Builds a glTF document from a loaded DSON scene.
 *
 * @example
 * ```ts
 * const doc = buildDsonDocument(await loadDsonScene(bytes, "a.duf", { contentRoots: [], ctx }));
 * ```
 */
export function buildDsonDocument(dson: DsonScene): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene(dson.assetId.split("/").pop() ?? "dson");
  doc.getRoot().setDefaultScene(scene);
  const rest = dson.nodes.map((node) => restWorld(node));
  const gltfNodes = dson.nodes.map((node, i) => {
    const gltfNode = doc.createNode(node.name);
    const { translation, rotation, scale } = localTransform(dson.nodes, i);
    gltfNode.setTranslation(translation).setRotation(rotation);
    if (scale.some((s) => s !== 1)) gltfNode.setScale(scale);
    setPartgraphExtras(gltfNode, { dson: nodeExtras(node) });
    return gltfNode;
  });
  dson.nodes.forEach((node, i) => {
    if (node.parent >= 0) gltfNodes[node.parent].addChild(gltfNodes[i]);
    else scene.addChild(gltfNodes[i]);
  });
  const materials = new Map<string, Material>();
  for (const mesh of dson.meshes) {
    const gltfMesh = doc.createMesh(mesh.name);
    const joints = mesh.skin ? skinJoints(dson.nodes, mesh) : undefined;
    const surfaces = mesh.surfaces.map((name) =>
      mesh.materials.get(name) ?? { name, color: [1, 1, 1] as Surface["color"] }
    );
    for (let s = 0; s < mesh.surfaces.length; s++) {
      const primitive = buildPrimitive(doc, mesh, s, joints?.slot, buffer);
      if (!primitive) continue;
      primitive.setMaterial(material(doc, materials, surfaces[s], mesh.uv !== undefined));
      gltfMesh.addPrimitive(primitive);
    }
    gltfMesh.setWeights(mesh.morphs.map((m) => m.weight));
    gltfMesh.setExtras({ ...gltfMesh.getExtras(), targetNames: mesh.morphs.map((m) => m.name) });
    setPartgraphExtras(gltfMesh, { dson: meshExtras(mesh) });
    const meshNode = doc.createNode(mesh.name).setMesh(gltfMesh);
    if (joints) {
      const skin = doc.createSkin(mesh.name);
      const ibm = new Float32Array(joints.nodes.length * 16);
      joints.nodes.forEach((n, j) => {
        skin.addJoint(gltfNodes[n]);
        ibm.set(invertRest(rest[n]), j * 16);
      });
      skin.setSkeleton(gltfNodes[joints.nodes[0]]);
      skin.setInverseBindMatrices(doc.createAccessor().setType("MAT4").setArray(ibm).setBuffer(buffer));
      meshNode.setSkin(skin);
      // glTF ignores a skinned mesh node's transform, so it sits at the root.
      scene.addChild(meshNode);
    } else if (mesh.owner >= 0) {
      // Geometry is authored in figure space at rest: undo the owner's rest placement.
      const local = invertRest(rest[mesh.owner]);
      const t = mat4.getTranslation(vec3.create(), local);
      const r = mat4.getRotation(quat.create(), local);
      meshNode.setTranslation([t[0], t[1], t[2]]).setRotation([r[0], r[1], r[2], r[3]]);
      gltfNodes[mesh.owner].addChild(meshNode);
    } else {
      scene.addChild(meshNode);
    }
  }
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

/** Inverse of a rest matrix (rotation and translation only, so always invertible). */
function invertRest(m: mat4): mat4 {
  return mat4.invert(mat4.create(), m) ?? mat4.create();
}

/** Rest world matrix of a node (metres): at its centre point, axes turned by its orientation. */
function restWorld(node: SceneNode): mat4 {
  const rotation = eulerQuat(node.orientation, "XYZ");
  const position = vec3.scale(vec3.create(), node.centerPoint, METRES_PER_CM);
  return mat4.fromRotationTranslation(mat4.create(), rotation, position);
}

/**
 * Local TRS of node `i` in its parent's rest frame: the rest offset between centre points, plus the
 * scene's pose values (translation, rotation in the node's rotation order, scale).
 */
function localTransform(nodes: readonly SceneNode[], i: number) {
  const node = nodes[i];
  const parent = node.parent >= 0 ? nodes[node.parent] : undefined;
  const parentRotation = parent ? eulerQuat(parent.orientation, "XYZ") : quat.create();
  const inverseParent = quat.invert(quat.create(), parentRotation);
  const offset = vec3.fromValues(
    node.centerPoint[0] - (parent?.centerPoint[0] ?? 0) + node.translation[0],
    node.centerPoint[1] - (parent?.centerPoint[1] ?? 0) + node.translation[1],
    node.centerPoint[2] - (parent?.centerPoint[2] ?? 0) + node.translation[2],
  );
  vec3.scale(offset, offset, METRES_PER_CM);
  vec3.transformQuat(offset, offset, inverseParent);
  const rotation = quat.multiply(quat.create(), inverseParent, eulerQuat(node.orientation, "XYZ"));
  quat.multiply(rotation, rotation, eulerQuat(node.rotation, node.rotationOrder));
  quat.normalize(rotation, rotation);
  const s = node.generalScale;
  return {
    translation: [offset[0], offset[1], offset[2]] as [number, number, number],
    rotation: [rotation[0], rotation[1], rotation[2], rotation[3]] as [number, number, number, number],
    scale: [node.scale[0] * s, node.scale[1] * s, node.scale[2] * s] as [number, number, number],
  };
}

/**
 * Quaternion of Euler angles in degrees applied in `order` (the first letter turns first, about
 * the parent's axes).
 */
export function eulerQuat(degrees: readonly number[], order: string): quat {
  const out = quat.create();
  for (const letter of order) {
    const axis = "XYZ".indexOf(letter);
    const angle = degrees[axis];
    if (!angle) continue;
    const step = quat.create();
    if (axis === 0) quat.rotateX(step, step, angle * Math.PI / 180);
    else if (axis === 1) quat.rotateY(step, step, angle * Math.PI / 180);
    else quat.rotateZ(step, step, angle * Math.PI / 180);
    quat.multiply(out, step, out);
  }
  return out;
}

/** The skin's joints (the owning figure and its bones, scene order) and the joint index of each node. */
function skinJoints(nodes: readonly SceneNode[], mesh: SceneMesh): { nodes: number[]; slot: Int32Array } {
  let root = mesh.owner;
  while (root >= 0 && nodes[root].parent >= 0 && nodes[root].type !== "figure") root = nodes[root].parent;
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

/** One primitive of the polygons on surface `surface`, or undefined when it has none. */
function buildPrimitive(
  doc: Document,
  mesh: SceneMesh,
  surface: number,
  jointSlot: Int32Array | undefined,
  buffer: Buffer,
): Primitive | undefined {
  const { polyVerts, polyMaterial, uv } = mesh;
  const uvCount = uv ? uv.coords.length / 2 : 0;
  // Most corners use their vertex's own UV (uv index = vertex index): those go through a flat
  // table; only seam corners need the (vertex, uv) map.
  const plainVertexOf = new Int32Array(mesh.vertexCount).fill(-1);
  const seamVertexOf = new Map<number, number>();
  const dsonVertex: number[] = [];
  const uvIndex: number[] = [];
  const indices: number[] = [];
  const corner = (p: number, k: number): number => {
    const v = polyVerts[p * 4 + k];
    const t = uv ? uv.cornerUv[p * 4 + k] : v;
    if (t === v) {
      if (plainVertexOf[v] < 0) {
        plainVertexOf[v] = dsonVertex.push(v) - 1;
        uvIndex.push(t);
      }
      return plainVertexOf[v];
    }
    const key = v * uvCount + t;
    let index = seamVertexOf.get(key);
    if (index === undefined) {
      index = dsonVertex.push(v) - 1;
      uvIndex.push(t);
      seamVertexOf.set(key, index);
    }
    return index;
  };
  for (let p = 0; p < mesh.polyCount; p++) {
    if (polyMaterial[p] !== surface) continue;
    const a = corner(p, 0), b = corner(p, 1), c = corner(p, 2);
    indices.push(a, b, c);
    if (polyVerts[p * 4 + 3] >= 0) indices.push(a, c, corner(p, 3));
  }
  if (indices.length === 0) return undefined;
  const n = dsonVertex.length;
  const accessor = (type: GLTF.AccessorType, array: TypedArray) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const positions = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) positions[i * 3 + k] = mesh.positions[dsonVertex[i] * 3 + k] * METRES_PER_CM;
  }
  const primitive = doc.createPrimitive()
    .setIndices(accessor("SCALAR", n < 65536 ? Uint16Array.from(indices) : Uint32Array.from(indices)))
    .setAttribute("POSITION", accessor("VEC3", positions))
    .setAttribute(DSON_VERTEX_ATTRIBUTE, accessor("SCALAR", Float32Array.from(dsonVertex)));
  if (uv) {
    const texcoords = new Float32Array(n * 2);
    for (let i = 0; i < n; i++) {
      texcoords[i * 2] = uv.coords[uvIndex[i] * 2];
      texcoords[i * 2 + 1] = 1 - uv.coords[uvIndex[i] * 2 + 1];
    }
    primitive.setAttribute("TEXCOORD_0", accessor("VEC2", texcoords));
  }
  if (mesh.skin && jointSlot) {
    const jointCount = jointSlot.length;
    const joints = jointCount < 256 ? new Uint8Array(n * INFLUENCES) : new Uint16Array(n * INFLUENCES);
    const weights = new Float32Array(n * INFLUENCES);
    for (let i = 0; i < n; i++) {
      const o = i * INFLUENCES;
      for (let s = 0; s < INFLUENCES; s++) {
        const node = mesh.skin.slotNode[dsonVertex[i] * INFLUENCES + s];
        const w = mesh.skin.slotWeight[dsonVertex[i] * INFLUENCES + s];
        const joint = node >= 0 && w > 0 ? jointSlot[node] : 0;
        const weight = node >= 0 ? w : 0;
        // Two influences on one joint (two DSON joints naming one bone, or graft bones the target
        // lacks, all sent to its root) are invalid glTF: add the weight to the slot already there.
        let merged = false;
        for (let t = 0; t < s && weight > 0 && !merged; t++) {
          if (weights[o + t] > 0 && joints[o + t] === joint) {
            weights[o + t] += weight;
            merged = true;
          }
        }
        joints[o + s] = merged ? 0 : joint;
        weights[o + s] = merged ? 0 : weight;
      }
    }
    primitive.setAttribute("JOINTS_0", accessor("VEC4", joints));
    primitive.setAttribute("WEIGHTS_0", accessor("VEC4", weights));
  }
  if (mesh.rigidity?.weights) {
    const weights = mesh.rigidity.weights;
    primitive.setAttribute(
      RIGIDITY_ATTRIBUTE,
      accessor("SCALAR", Float32Array.from(dsonVertex, (v) => weights[v])),
    );
  }
  for (const morph of mesh.morphs) {
    const deltaOf = new Int32Array(mesh.vertexCount).fill(-1);
    for (let k = 0; k < morph.index.length; k++) deltaOf[morph.index[k]] = k;
    const deltas = new Float32Array(n * 3);
    let moved = 0;
    for (let i = 0; i < n; i++) {
      const k = deltaOf[dsonVertex[i]];
      if (k < 0) continue;
      moved++;
      for (let c = 0; c < 3; c++) deltas[i * 3 + c] = morph.delta[k * 3 + c] * METRES_PER_CM;
    }
    const target = doc.createPrimitiveTarget(morph.name)
      .setAttribute("POSITION", accessor("VEC3", deltas).setSparse(moved * 3 < n));
    primitive.addTarget(target);
  }
  return primitive;
}

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

function nodeExtras(node: SceneNode): Json {
  const out: Json = {
    id: node.id,
    key: node.key,
    type: node.type,
    label: node.label,
    center_point: [...node.centerPoint],
    end_point: [...node.endPoint],
    orientation: [...node.orientation],
    rotation_order: node.rotationOrder,
    inherits_scale: node.inheritsScale,
  };
  if (node.definition) out.definition = node.definition;
  if (node.conformTarget) out.conform_target = node.conformTarget;
  return out;
}

function meshExtras(mesh: SceneMesh): Json {
  const out: Json = {
    geometry: mesh.geometryId,
    geometry_type: mesh.geometryType,
    vertex_count: mesh.vertexCount,
    poly_count: mesh.polyCount,
    surfaces: [...mesh.surfaces],
    morphs: mesh.morphs.map((m) => ({ id: m.id, name: m.name, label: m.label, vertices: m.index.length })),
  };
  if (mesh.uv) out.uv_set = mesh.uv.name;
  if (mesh.rigidity) {
    out.rigidity = {
      has_weights: mesh.rigidity.weights !== undefined,
      groups: mesh.rigidity.groups.map(rigidityGroupToJson),
    };
  }
  if (mesh.graft) {
    const pairs: JsonValue[] = [];
    for (let k = 0; k < mesh.graft.vertexPairs.length; k += 2) {
      pairs.push([mesh.graft.vertexPairs[k], mesh.graft.vertexPairs[k + 1]]);
    }
    out.graft = {
      merged: mesh.graft.merged,
      target_vertex_count: mesh.graft.vertexCount,
      target_poly_count: mesh.graft.polyCount,
      vertex_pairs: pairs,
      hidden_polys: Array.from(mesh.graft.hiddenPolys),
    };
  }
  if (mesh.mergedGrafts.length) out.merged_grafts = [...mesh.mergedGrafts];
  return out;
}
