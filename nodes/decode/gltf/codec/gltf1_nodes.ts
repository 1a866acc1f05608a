/**
 * glTF 1.0 nodes, meshes, skins, cameras and scenes as 2.0 has them, as gltf-pipeline's
 * `updateVersion` upgrades them: a node's several `meshes` become its first mesh and a child node
 * per further one (named after the mesh, skinned as the node is); `skin.jointNames`, matched to
 * the nodes' `jointName`s (under the instance's `skeletons` where a name is given twice), become
 * `skin.joints` — one 2.0 skin per distinct set of joints; attribute semantics get their set index
 * (`TEXCOORD` → `TEXCOORD_0`, `JOINT` → `JOINTS_0`, `WEIGHT` → `WEIGHTS_0`) and an application's
 * own semantics an underscore. A skin no node uses is kept too, its joints found by name alone.
 *
 * @module
 */
import type { Json } from "./checker.ts";
import { commonFields, type Gltf1Reader, pointer } from "./gltf1_reader.ts";

/** 1.0 semantics with a set index in 2.0, by their 2.0 stem. */
const INDEXED: Readonly<Record<string, string>> = {
  TEXCOORD: "TEXCOORD",
  COLOR: "COLOR",
  JOINT: "JOINTS",
  JOINTS: "JOINTS",
  WEIGHT: "WEIGHTS",
  WEIGHTS: "WEIGHTS",
};
const PLAIN = new Set(["POSITION", "NORMAL", "TANGENT"]);

/** A skin whose 1.0 `bindShapeMatrix` is still to be folded into its inverse bind matrices. */
export interface BindShape {
  readonly skin: number;
  readonly matrix: number[];
  /** The 1.0 skin's path, for errors. */
  readonly path: string;
}

/** What the upgrade of the scene made. */
export interface UpgradedNodes {
  readonly nodes: Json[];
  readonly meshes: Json[];
  readonly skins: Json[];
  readonly cameras: Json[];
  readonly scenes: Json[];
  readonly scene?: number;
  /** The 1.0 path of each 2.0 node (a mesh's own node: `/nodes/<id>/meshes/<k>`). */
  readonly nodePaths: string[];
  /** The 1.0 path of each 2.0 skin. */
  readonly skinPaths: string[];
  readonly bindShapes: BindShape[];
  /** Accessors primitives read as vertex attributes (only their views keep a stride). */
  readonly vertexAccessors: Set<number>;
  /** Warnings at 1.0 paths. */
  readonly notes: string[];
}

/** Reads meshes, nodes, skins, cameras and scenes. */
export function upgradeNodes(r: Gltf1Reader): UpgradedNodes {
  const vertexAccessors = new Set<number>();
  const meshes = r.items("meshes").map(([id, item], m) => upgradeMesh(r, id, item, m, vertexAccessors));
  const nodeItems = r.items("nodes");
  const nodePaths = nodeItems.map(([id]) => `/nodes/${pointer(id)}`);
  const parents = new Map<number, number>();
  const nodes: Json[] = nodeItems.map(([id, item], i) => {
    const path = nodePaths[i];
    const out = commonFields(id, item);
    for (const key of ["matrix", "translation", "rotation", "scale"]) {
      if (item[key] !== undefined && item[key] !== null) out[key] = item[key];
    }
    const children = r.array(item, "children", path).map((child, k) => {
      const index = r.ref("nodes", child, `${path}/children/${k}`);
      parents.set(index, i);
      return index;
    });
    if (children.length) out.children = children;
    if (item.camera !== undefined && item.camera !== null) {
      out.camera = r.ref("cameras", item.camera, `${path}/camera`);
    }
    return out;
  });
  // Several meshes on one node: the first stays, each further one hangs below it on a node of its own.
  nodeItems.forEach(([, item], i) => {
    const path = nodePaths[i];
    r.array(item, "meshes", path).forEach((meshId, k) => {
      const mesh = r.ref("meshes", meshId, `${path}/meshes/${k}`);
      if (k === 0) {
        r.paths.moved(`/nodes/${i}/mesh`, `${path}/meshes/0`);
        return void (nodes[i].mesh = mesh);
      }
      const child = nodes.length;
      nodes.push({ name: meshes[mesh].name, mesh });
      nodePaths.push(`${path}/meshes/${k}`);
      r.paths.moved(`/nodes/${child}/mesh`, `${path}/meshes/${k}`);
      r.paths.moved(`/nodes/${child}/skin`, `${path}/skin`);
      ((nodes[i].children ??= []) as number[]).push(child);
    });
  });
  const { skins, skinPaths, bindShapes, notes } = upgradeSkins(r, nodes, nodeItems, parents);
  const cameras = r.items("cameras").map(([id, item]) => upgradeCamera(r, id, item));
  const scenes = r.items("scenes").map(([id, item]) => {
    const path = `/scenes/${pointer(id)}`;
    const out = commonFields(id, item);
    out.nodes = r.array(item, "nodes", path).map((node, k) => r.ref("nodes", node, `${path}/nodes/${k}`));
    return out;
  });
  const scene = r.json.scene === undefined || r.json.scene === null
    ? undefined
    : r.ref("scenes", r.json.scene, "/scene");
  return {
    nodes,
    meshes,
    skins,
    cameras,
    scenes,
    scene,
    nodePaths,
    skinPaths,
    bindShapes,
    vertexAccessors,
    notes,
  };
}

function upgradeMesh(r: Gltf1Reader, id: string, item: Json, m: number, vertexAccessors: Set<number>): Json {
  const path = `/meshes/${pointer(id)}`;
  const out = commonFields(id, item);
  out.primitives = r.array(item, "primitives", path).map((value, p) => {
    const ppath = `${path}/primitives/${p}`;
    const primitive = r.object(value, ppath);
    const attributes: Json = {};
    const given = r.optionalObject(primitive, "attributes", ppath) ?? {};
    for (const [semantic, accessor] of Object.entries(given)) {
      const at = `${ppath}/attributes/${pointer(semantic)}`;
      const index = r.ref("accessors", accessor, at);
      attributes[semanticOf(semantic)] = index;
      r.paths.moved(`/meshes/${m}/primitives/${p}/attributes/${semanticOf(semantic)}`, at);
      vertexAccessors.add(index);
    }
    const upgraded: Json = { attributes, mode: primitive.mode ?? 4 };
    if (primitive.indices !== undefined && primitive.indices !== null) {
      upgraded.indices = r.ref("accessors", primitive.indices, `${ppath}/indices`);
    }
    if (primitive.material !== undefined && primitive.material !== null) {
      upgraded.material = r.ref("materials", primitive.material, `${ppath}/material`);
    }
    if (primitive.extras !== undefined && primitive.extras !== null) upgraded.extras = primitive.extras;
    return upgraded;
  });
  return out;
}

/** A 1.0 attribute semantic as 2.0 spells it. */
export function semanticOf(semantic: string): string {
  if (semantic.startsWith("_") || PLAIN.has(semantic)) return semantic;
  const match = /^([A-Z]+)(_\d+)?$/.exec(semantic);
  const stem = match && INDEXED[match[1]];
  return stem ? `${stem}${match[2] ?? "_0"}` : `_${semantic}`;
}

function upgradeCamera(r: Gltf1Reader, id: string, item: Json): Json {
  const path = `/cameras/${pointer(id)}`;
  const out = commonFields(id, item);
  out.type = item.type;
  for (const key of ["perspective", "orthographic"]) {
    const projection = r.optionalObject(item, key, path);
    if (!projection) continue;
    const copy = { ...projection };
    // 1.0 writers left these 0 for "unknown", which 2.0 refuses (gltf-pipeline does the same).
    if (copy.aspectRatio === 0) delete copy.aspectRatio;
    if (key === "perspective" && copy.yfov === 0) copy.yfov = 1;
    out[key] = copy;
  }
  return out;
}

function upgradeSkins(
  r: Gltf1Reader,
  nodes: Json[],
  nodeItems: [string, Json][],
  parents: Map<number, number>,
): { skins: Json[]; skinPaths: string[]; bindShapes: BindShape[]; notes: string[] } {
  const byJointName = new Map<string, number[]>();
  nodeItems.forEach(([, item], i) => {
    if (typeof item.jointName !== "string") return;
    const list = byJointName.get(item.jointName) ?? [];
    byJointName.set(item.jointName, list);
    list.push(i);
  });
  const underAny = (node: number, roots: ReadonlySet<number>) => {
    // Parents form chains of at most the node count (a cycle is refused later, by the 2.0 check).
    for (let at: number | undefined = node, steps = 0; at !== undefined && steps <= nodes.length; steps++) {
      if (roots.has(at)) return true;
      at = parents.get(at);
    }
    return false;
  };
  const skins: Json[] = [];
  const skinPaths: string[] = [];
  const bindShapes: BindShape[] = [];
  const made = new Map<string, number>();
  const skinFor = (skinId: string, roots: ReadonlySet<number>, usePath: string): number => {
    const skinIndex = r.ref("skins", skinId, usePath);
    const [id, item] = r.items("skins")[skinIndex];
    const path = `/skins/${pointer(id)}`;
    const joints = r.array(item, "jointNames", path).map((name, k) => {
      const at = `${path}/jointNames/${k}`;
      if (typeof name !== "string") r.fail(at, "a joint name (a string)", name);
      const candidates = byJointName.get(name) ?? [];
      const joint = candidates.find((node) => roots.size === 0 || underAny(node, roots)) ?? candidates[0];
      if (joint === undefined) r.fail(at, "the jointName of a node", name);
      return joint;
    });
    const key = `${skinIndex}:${joints.join(",")}`;
    const known = made.get(key);
    if (known !== undefined) return known;
    const out: Json = { ...commonFields(id, item), joints };
    if (item.inverseBindMatrices !== undefined && item.inverseBindMatrices !== null) {
      out.inverseBindMatrices = r.ref("accessors", item.inverseBindMatrices, `${path}/inverseBindMatrices`);
    }
    const bind = item.bindShapeMatrix;
    if (bind !== undefined && bind !== null) {
      if (
        !Array.isArray(bind) || bind.length !== 16 ||
        !bind.every((v) => typeof v === "number" && Number.isFinite(v))
      ) {
        r.fail(`${path}/bindShapeMatrix`, "a 4×4 matrix (16 finite numbers)", bind);
      }
      if (!bind.every((v, k) => v === (k % 5 === 0 ? 1 : 0))) {
        bindShapes.push({ skin: skins.length, matrix: bind as number[], path: `${path}/bindShapeMatrix` });
      }
    }
    r.paths.moved(`/skins/${skins.length}/joints`, `${path}/jointNames`);
    made.set(key, skins.length);
    skins.push(out);
    skinPaths.push(path);
    return skins.length - 1;
  };
  nodeItems.forEach(([, item], i) => {
    if (item.skin === undefined || item.skin === null) return;
    const path = `/nodes/${pointer(nodeItems[i][0])}`;
    const roots = new Set(
      r.array(item, "skeletons", path).map((root, k) => r.ref("nodes", root, `${path}/skeletons/${k}`)),
    );
    const skin = skinFor(item.skin as string, roots, `${path}/skin`);
    nodes[i].skin = skin;
    // A further mesh of the node, on a node of its own, is bound to the same skeleton.
    for (const child of (nodes[i].children ?? []) as number[]) {
      if (child >= nodeItems.length) nodes[child].skin = skin;
    }
  });
  // A skin no node uses is kept, as gltf-pipeline keeps it (2.0 allows it; nothing is lost), its joints
  // found by name alone; one naming a joint no node has cannot be written as 2.0 and is left out.
  const used = new Set([...made.keys()].map((key) => key.slice(0, key.indexOf(":"))));
  const notes: string[] = [];
  r.items("skins").forEach(([id, item], s) => {
    if (used.has(String(s))) return;
    const path = `/skins/${pointer(id)}`;
    const names = r.array(item, "jointNames", path);
    const missing = names.findIndex((name) => typeof name !== "string" || !byJointName.has(name));
    if (missing < 0) return void skinFor(id, new Set(), path);
    notes.push(
      `${path}/jointNames/${missing}: no node has the joint name ${JSON.stringify(names[missing])}, ` +
        "and no node uses the skin: the skin is left out",
    );
  });
  return { skins, skinPaths, bindShapes, notes };
}
