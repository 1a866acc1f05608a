/**
 * Unique names for written files. Viewers rename repeated names on import, each its own way
 * (Blender `Circle.001`, three.js `Circle_1`), so a report naming `Circle` would point at the wrong
 * object, and a Blender round trip would change a user's material, mesh, image and clip names.
 * `export.gltf` writes the names this module gives, and `rig.report` reports the same.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { givenNames, isBlankName } from "./derived_names.ts";
import { ancestry, commonAncestor } from "./node_ancestry.ts";
import { fallbackPartners, sharingFallbackNames } from "./fallback_names.ts";

/**
 * The kinds of property, besides nodes and scenes, whose repeated names Blender renames on import
 * (each in a namespace of its own: `Paint.001` beside a node `Paint` is no clash), keyed by the
 * glTF array they are written to. A `Texture` of glTF-Transform is written as a glTF image; `lights`
 * are `KHR_lights_punctual`'s (Blender names a light's data after it). Textures and samplers Blender
 * and three.js do not name after the file, so their names are written as they are.
 */
export const NAMED_KINDS = [
  "meshes",
  "materials",
  "images",
  "animations",
  "skins",
  "cameras",
  "lights",
] as const;

/**
 * The longest name Blender keeps, in bytes of UTF-8 (its IDs, bones, shape keys and NLA tracks hold 64
 * bytes with the terminating NUL). Blender 3.4 cuts a longer name at a character boundary, so two
 * names alike in their first 63 bytes clashed again on import (the second renamed `….001`).
 */
export const MAX_NAME_BYTES = 63;

/** One of {@link NAMED_KINDS}. */
export type NamedKind = typeof NAMED_KINDS[number];

/**
 * The names a written file gives its properties: nodes and scenes indexed like `listNodes()` /
 * `listScenes()`, the others ({@link NAMED_KINDS}) like the root's list of their kind.
 */
export interface ExportNames {
  readonly nodes: string[];
  readonly scenes: string[];
  readonly others: Readonly<Record<NamedKind, string[]>>;
}

/**
 * The name each property gets in a written file. Node and scene names clash when they are equal once
 * spelt the way three.js compares them (whitespace as `_`, without `[ ] . : /`), since three.js
 * renames a clash in one namespace shared by scenes and nodes. Nodes come first, in file order: the
 * first holder of a name keeps it, a later clash becomes `<name>_<n>` with the smallest n ≥ 1 that
 * clashes with no name in the file (before or after it); then scenes, the same way. Meshes,
 * materials, images, animations, skins and cameras follow the same rule, each kind on its own and
 * names compared exactly, as Blender's namespaces are (three.js keeps these names as they are); so do
 * `KHR_lights_punctual` lights. No written name is longer than {@link MAX_NAME_BYTES} bytes of UTF-8
 * (Blender's limit): a longer one is cut to fit at a character boundary (a Cyrillic or CJK character
 * is never split) and a renamed one's `_<n>` takes the place of its last characters, so what Blender
 * reads is what was written, unique. A skin whose joints hang from the scene itself (a DSON figure's
 * root bone, no armature node above it) names the armature object Blender makes for it, beside the
 * nodes: such a skin's name is also kept apart from every node's (`<name>_<n>`), or Blender renamed
 * the node of that name (the figure's mesh) `.001`; a skin whose armature is a node is written under
 * that node's name, as Blender's exporter names it (a skin `BodySkin` under `Rig` came back `Rig`). Likewise a mesh, camera or light Blender cannot
 * leave on its node (a skinned mesh on a node a clip keys, even its morph weights alone; a mesh on a
 * joint; a camera or light beside a mesh: {@link splitProperties}) names a new object of its own beside
 * the node's, so its name is kept apart from the nodes' too (a Carnivores `limb` came in as an empty
 * `limb` and a mesh `limb.001`). A NUL in a name is written `_` (Blender ends a name there).
 * A node or property of {@link NAMED_KINDS} without a name (empty or whitespace only) is first given
 * one from what it is (`givenNames`, `derived_names.ts`: a node its mesh's name, a mesh
 * `<node>_mesh`, a material `<mesh>_material`, an image its file's name, else `node_<i>`, `mesh_<i>`…),
 * which yields to every name the file gave (a clash makes the derived one `<name>_<n>`): clients
 * otherwise each invent their own (Blender `Mesh_3`, three.js an empty node name). Scenes without a
 * name stay unnamed. An image and its fallback share a name (`fallback_names.ts`). Idempotent.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { exportNames } from "./unique_names.ts";
 *
 * const doc = new Document();
 * for (const name of ["Circle", "Circle", "Circle_1"]) doc.createNode(name);
 * exportNames(doc).nodes; // ["Circle", "Circle_2", "Circle_1"]
 * ```
 */
export function exportNames(doc: Document): ExportNames {
  const root = doc.getRoot(), lists = namedProperties(doc);
  // A blank name is first given one derived from what the property is (derived_names.ts).
  const given = givenNames(doc, { nodes: root.listNodes(), ...lists }, fitName, MAX_NAME_BYTES);
  const nodeNames = given.names.nodes, sceneNames = root.listScenes().map((scene) => scene.getName());
  const unique = uniqueIn([...nodeNames, ...sceneNames], clashKey);
  const others = {} as Record<NamedKind, string[]>;
  for (const kind of NAMED_KINDS) {
    const partners = kind === "images" ? fallbackPartners(doc) : new Map<number, number>();
    others[kind] = sharingFallbackNames(given.names[kind], partners, (names, kept) => {
      const derived = kept.map((i) => given.derived[kind][i]), uniqueKind = uniqueIn(names, (name) => name);
      return inPass(names, derived, true, uniqueKind, inPass(names, derived, false, uniqueKind, []));
    });
  }
  // The file's node names first, then scenes, then derived node names: a derived name yields.
  const nodes = inPass(nodeNames, given.derived.nodes, false, unique, []);
  const scenes = sceneNames.map(unique);
  inPass(nodeNames, given.derived.nodes, true, unique, nodes);
  // No skin, camera or light: nothing named after an armature or split off its node (0.1 s on 30k nodes).
  if (!lists.skins.length && !lists.cameras.length && !lists.lights.length) return { nodes, scenes, others };
  others.skins = namedAfterArmatures(doc, apartFromNodes(others.skins, rootArmatures(doc), nodes), nodes);
  const split = splitProperties(doc, lists);
  for (const kind of ["meshes", "cameras", "lights"] as const) {
    others[kind] = apartFromNodes(others[kind], split[kind], nodes);
  }
  return { nodes, scenes, others };
}

/**
 * `into` with each name of `names` whose `derived` mark is `pass` mapped by `unique` at its index:
 * run once for the file's own names, then once for derived ones, so a derived name never takes a
 * name the file gave another property.
 */
function inPass(
  names: readonly string[],
  derived: readonly boolean[],
  pass: boolean,
  unique: (name: string) => string,
  into: string[],
): string[] {
  names.forEach((name, i) => {
    if (derived[i] === pass) into[i] = unique(name);
  });
  return into;
}

/** The properties of each of {@link NAMED_KINDS}, in the order the writer writes them. */
export function namedProperties(doc: Document): Record<NamedKind, { getName(): string }[]> {
  const root = doc.getRoot();
  return {
    meshes: root.listMeshes(),
    materials: root.listMaterials(),
    images: root.listTextures(),
    animations: root.listAnimations(),
    skins: root.listSkins(),
    cameras: root.listCameras(),
    lights: root.listExtensionsUsed().find((e) => e.extensionName === "KHR_lights_punctual")
      ?.listProperties() ?? [],
  };
}

/** A property's name as the written file gives it: its own, or the one {@link writtenNames} makes. */
export type WrittenName = (property: { getName(): string }) => string;

/**
 * A lookup of the name a written file gives each node or named property ({@link exportNames}), for warnings
 * to name a part as the file and every viewer will (an unnamed mesh is `Wing_mesh` there, not `''`); one
 * not in `doc` is named as it is. Worked out on the first blank name asked (all named: nothing to pay).
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { writtenNames } from "./unique_names.ts";
 *
 * const doc = new Document();
 * doc.createNode("Wing").setMesh(doc.createMesh());
 * writtenNames(doc)(doc.getRoot().listMeshes()[0]); // "Wing_mesh"
 * ```
 */
export function writtenNames(doc: Document): WrittenName {
  let named: Map<unknown, string> | undefined;
  return (property) => {
    const own = property.getName();
    if (!isBlankName(own)) return own;
    if (!named) {
      named = new Map();
      const names = exportNames(doc);
      const root = doc.getRoot();
      root.listNodes().forEach((node, i) => named!.set(node, names.nodes[i]));
      for (const [kind, list] of Object.entries(namedProperties(doc))) {
        list.forEach((item, i) => named!.set(item, names.others[kind as NamedKind][i]));
      }
    }
    return named.get(property) ?? own;
  };
}

/**
 * Which skins Blender 3.4 gives an armature object of the skin's own name: those whose joints (and
 * skeleton) have no common ancestor node but a joint at the scene root (its importer's
 * `mark_bones_and_armas`: the armature is the joints' deepest common ancestor, or the parent of that
 * ancestor when it is a joint; at the scene root there is no node to take, so the skin names it).
 */
function rootArmatures(doc: Document): boolean[] {
  const skins = doc.getRoot().listSkins();
  // No skin, no walk of every node: a file of a million nodes has none more often than not.
  if (skins.length === 0) return [];
  const { parents, chain } = ancestry(doc);
  return skins.map((skin) => {
    const joints = skin.listJoints();
    const skeleton = skin.getSkeleton();
    const members = skeleton ? [...joints, skeleton] : joints;
    if (members.length === 0) return false;
    const ancestor = commonAncestor(members.map(chain));
    if (!ancestor) return true; // no common ancestor: the scene root
    return joints.includes(ancestor) && !parents.get(ancestor);
  });
}

/**
 * Which meshes, cameras and lights Blender 3.4 puts on an object of their own, named after the
 * property, leaving the node an object (an empty) of the node's name. Its importer moves a skinned
 * mesh's node under the armature only when no animation channel targets the node (a `weights` channel
 * counts), it has no children, camera or light and it is no joint (`move_skinned_meshes`); otherwise
 * the mesh goes to a new unnamed child. Then an object holds one thing (`fixup_multitype_nodes`): a
 * joint's or armature node's mesh, a camera beside a mesh that stayed (or on a joint), a light beside
 * either, each goes to a new unnamed child, which is named after the property. (A node without a
 * name, whose object Blender names after what it holds, is written with one: `derived_names.ts`.)
 * Marks are indexed like `lists`' meshes, cameras and lights.
 */
function splitProperties(
  doc: Document,
  lists: Record<NamedKind, { getName(): string }[]>,
): Record<"meshes" | "cameras" | "lights", boolean[]> {
  const root = doc.getRoot();
  const keyed = new Set<Node>();
  for (const animation of root.listAnimations()) {
    for (const channel of animation.listChannels()) {
      const node = channel.getTargetNode();
      if (node) keyed.add(node);
    }
  }
  const joints = new Set<Node>(root.listSkins().flatMap((skin) => skin.listJoints()));
  const armatures = armatureNodes(doc);
  const split = { meshes: new Set<unknown>(), cameras: new Set<unknown>(), lights: new Set<unknown>() };
  for (const node of root.listNodes()) {
    const mesh = node.getMesh(), camera = node.getCamera();
    const light = node.getExtension("KHR_lights_punctual");
    const bone = joints.has(node) || armatures.has(node);
    const meshMoved = mesh !== null && (bone ||
      (node.getSkin() !== null &&
        (keyed.has(node) || node.listChildren().length > 0 || camera !== null || light !== null)));
    if (meshMoved) split.meshes.add(mesh);
    const meshStays = mesh !== null && !(node.getSkin() !== null && meshMoved && !bone);
    if (camera && (bone || meshStays)) split.cameras.add(camera);
    if (light && (bone || meshStays || camera !== null)) split.lights.add(light);
  }
  return {
    meshes: lists.meshes.map((mesh) => split.meshes.has(mesh)),
    cameras: lists.cameras.map((camera) => split.cameras.has(camera)),
    lights: lists.lights.map((light) => split.lights.has(light)),
  };
}

/** The nodes Blender 3.4 makes armatures of: each skin's joints' deepest common ancestor, or its parent if a joint. */
function armatureNodes(doc: Document): Set<Node> {
  return new Set(skinArmatures(doc).filter((arma): arma is Node => arma !== undefined));
}

/** Each skin's armature node as Blender 3.4 picks it (see {@link armatureNodes}), undefined at the scene root. */
function skinArmatures(doc: Document): (Node | undefined)[] {
  const skins = doc.getRoot().listSkins();
  if (skins.length === 0) return [];
  const { parents, chain } = ancestry(doc);
  return skins.map((skin) => {
    const joints = skin.listJoints();
    const skeleton = skin.getSkeleton();
    const common = commonAncestor((skeleton ? [...joints, skeleton] : joints).map(chain));
    if (!common) return undefined;
    return joints.includes(common) ? parents.get(common) : common;
  });
}

/**
 * `skins` with each skin whose armature is a node renamed after that node's written name: Blender 3.4's
 * exporter names a skin after its armature object, so a skin `BodySkin` under a node `Rig` came back
 * `Rig` from every round trip. An armature that is itself a joint (of another skin) is Blender's to
 * place elsewhere, and a name another skin holds is not taken: those keep their names.
 */
function namedAfterArmatures(doc: Document, skins: string[], nodes: string[]): string[] {
  if (skins.length === 0) return skins;
  const index = new Map(doc.getRoot().listNodes().map((node, i) => [node, i]));
  const joints = new Set(doc.getRoot().listSkins().flatMap((skin) => skin.listJoints()));
  const targets = skinArmatures(doc).map((arma) =>
    arma && !joints.has(arma) ? nodes[index.get(arma)!] : undefined
  );
  // A name a skin keeps (it has no armature node) is not taken from it; the first skin claims a target.
  const staying = new Set(skins.filter((_, i) => !targets[i]));
  const claimed = new Set<string>();
  const named = skins.map((name, i) => {
    const target = targets[i];
    if (!target || target === name || staying.has(target) || claimed.has(target)) return name;
    claimed.add(target);
    return target;
  });
  // A skin left its own name that another took as its armature's: none renamed (names stay unique).
  return new Set(named).size === new Set(skins).size ? named : skins;
}

/**
 * `skins` (unique among themselves) with each marked one that equals a written node name renamed
 * `<name>_<n>`, fitting {@link MAX_NAME_BYTES}, clashing with no node or skin name.
 */
function apartFromNodes(skins: string[], marked: boolean[], nodes: string[]): string[] {
  // Nothing marked (the common case): no set of every node's name, a million in a city or CAD file.
  if (!marked.includes(true)) return skins;
  const taken = new Set([...nodes, ...skins]);
  return skins.map((name, i) => {
    if (!marked[i] || name === "" || !nodes.includes(name)) return name;
    let n = 1;
    const candidate = (n: number) => fitName(name, MAX_NAME_BYTES - `_${n}`.length) + `_${n}`;
    while (taken.has(candidate(n))) n++;
    taken.add(candidate(n));
    return candidate(n);
  });
}

/**
 * A mesh's morph target names (`extras.targetNames`) as written: each cut to {@link MAX_NAME_BYTES}
 * and repeats made unique, as {@link exportNames} does for a kind. Blender 3.4 makes a shape key of
 * each, cutting a longer name and renaming a repeat `Blink.001` (so its export changed the names);
 * three.js's dictionary of target names reaches only the last of a repeat. The writer keeps the
 * originals in the mesh's `extras.partgraph.target_names` (`written_json.ts`). The same list
 * when nothing needs changing.
 */
export function uniqueTargetNames(names: readonly string[]): readonly string[] {
  if (!targetNamesChange(names)) return names;
  return names.map(uniqueIn(names, (name) => name));
}

/** True when {@link uniqueTargetNames} would change `names`. */
export function targetNamesChange(names: readonly string[]): boolean {
  const fitted = names.map((name) => fitName(name, MAX_NAME_BYTES));
  return fitted.some((name, i) => name !== names[i]) || new Set(fitted).size !== fitted.length;
}

/**
 * The renaming of names met in order, in one namespace of `names` compared by `key`: each name cut to
 * {@link MAX_NAME_BYTES}, a clash with one held before renamed `<name>_<n>` (cut so it fits too).
 */
function uniqueIn(names: readonly string[], key: (name: string) => string): (name: string) => string {
  const taken = new Set(names.map((name) => key(fitName(name, MAX_NAME_BYTES))));
  const held = new Set<string>();
  return (name: string): string => {
    const fitted = fitName(name, MAX_NAME_BYTES);
    if (name === "" || !held.has(key(fitted))) {
      held.add(key(fitted));
      return fitted;
    }
    const candidate = (n: number) => fitName(name, MAX_NAME_BYTES - `_${n}`.length) + `_${n}`;
    let n = 1;
    while (taken.has(key(candidate(n)))) n++;
    const renamed = candidate(n);
    [taken, held].forEach((set) => set.add(key(renamed)));
    return renamed;
  };
}

/**
 * `name` as Blender can hold it: each NUL (U+0000, which a C decoder may leave in a name) written `_`
 * — Blender ends a name at its first NUL, so `Gear\0Door` and `Gear\0Hatch` both came in as `Gear`,
 * the second renamed `Gear.001` — and cut to `bytes` ({@link fitBytes}).
 */
function fitName(name: string, bytes: number): string {
  return fitBytes(name.includes("\0") ? name.replaceAll("\0", "_") : name, bytes);
}

/**
 * `name` cut to at most `bytes` bytes of UTF-8, whole characters only (code points: a surrogate pair
 * is never split), as Blender cuts a name too long for it.
 */
export function fitBytes(name: string, bytes: number): string {
  // Most names are short: at most 3 bytes a UTF-16 unit, so a name this short fits as it is.
  if (name.length * 3 <= bytes) return name;
  let used = 0, end = 0;
  for (const char of name) {
    const cp = char.codePointAt(0)!;
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (used + size > bytes) break;
    used += size;
    end += char.length;
  }
  return name.slice(0, end);
}

/** A name as three.js compares names (`PropertyBinding.sanitizeNodeName`). */
function clashKey(name: string): string {
  return name.replace(/\s/g, "_").replace(/[[\].:/]/g, "");
}
