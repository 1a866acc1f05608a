/**
 * Modifiers for a load: skin bindings and morphs, from the scene's modifier instances and from the
 * library of each geometry's own file, bound to the loaded meshes and their figure's bones. A
 * modifier made for another vertex count is a warning and is left out, as in Daz Studio; so is a
 * morph whose deltas name vertices the geometry does not have, a second morph of an id a mesh
 * already has (a geometry has one morph per id, as a Daz node has one property per name), and a
 * second skin binding of a mesh (a Daz figure has one). Skin weights naming vertices past the
 * geometry are left out, the rest of the binding kept, with one warning.
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import type { DsonEntry, DsonFile } from "./dson_file.ts";
import type { SceneMeshes } from "./load_meshes.ts";
import type { SceneNodes } from "./load_nodes.ts";
import type { SceneNode } from "./model.ts";
import type { JsonRecord } from "./read_json.ts";
import type { Vec3 } from "./rigid_fit.ts";
import {
  type BoneLookup,
  drivenValues,
  evaluateMorphFormulas,
  figureBones,
  type LimitedPose,
  type ModifierValue,
  posedChannels,
} from "./formula_eval.ts";
import { describeClamp } from "./joint_limits.ts";
import { BodyValues } from "./body_values.ts";
import { fittedChecks } from "./fitted_checks.ts";
import { range } from "./formula_compile.ts";
import { decodeSkin } from "./skin.ts";
import { parseDsonUri } from "./uri.ts";

/** The load state modifiers read and change. */
export interface ModifierTargets {
  readonly library: ContentLibrary;
  /** The file being decoded. */
  readonly main: DsonFile;
  readonly nodes: SceneNodes;
  readonly meshes: SceneMeshes;
  /** Nodes of conforming items that take a target node's pose (node index → target's). */
  readonly follows?: ReadonlyMap<number, number>;
  /** Conforming figures whose target is in the scene (figure node → the target's figure node). */
  readonly fitted?: ReadonlyMap<number, number>;
}

/**
 * Applies the scene's modifier instances (`/scene/modifiers`, their dial values overriding the
 * authored ones), then every library modifier of a mesh's geometry file whose parent is that
 * geometry or its owner's definition (a figure file's skin binding) and that no instance applied
 * to that mesh: a figure instanced twice whose scene instances a modifier for one of them still
 * brings its file's modifiers to the other. Returns the modifier definitions applied, in order.
 *
 * @example
 * ```ts
 * await applyModifiers(scene, { library, main, nodes, meshes });
 * ```
 */
export async function applyModifiers(
  scene: JsonRecord | undefined,
  targets: ModifierTargets,
): Promise<{ applied: DsonEntry[]; evaluated: Set<string> }> {
  const { library, main, meshes } = targets;
  const read = main.read;
  // The meshes each definition went to: a library default is skipped only where the scene put it.
  const applied = new Map<DsonEntry, Set<number>>();
  const state: ModifierState = { morphIds: new Map(), skins: new Map(), values: new Map() };
  const instances = scene ? read.optArray(scene.modifiers, "/scene/modifiers") : [];
  for (const [instance, at] of read.objects(instances, "/scene/modifiers")) {
    const url = read.string(instance.url, `${at}/url`);
    const parentUri = read.optString(instance.parent, `${at}/parent`);
    const resolved = await library.resolve(url, main, `${at}/url`);
    if (!resolved || resolved.entry.kind !== "modifier") continue;
    const mesh = parentUri === undefined ? undefined : meshes.meshFor(parentUri);
    if (mesh === undefined) {
      library.miss(parentUri ?? url, "modifier parent is not a loaded geometry", main, `${at}/parent`);
      continue;
    }
    const targeted = applied.get(resolved.entry) ?? new Set<number>();
    applied.set(resolved.entry, targeted.add(mesh));
    const channel = read.optObject(instance.channel, `${at}/channel`);
    applyModifier(
      targets,
      resolved.entry,
      mesh,
      channel ? read.channelNumber(channel, `${at}/channel`, NaN, "the modifier's own value") : NaN,
      state,
    );
  }
  const fromLibrary = new Set<DsonEntry>();
  for (let m = 0; m < meshes.parts.length; m++) {
    const geometryEntry = meshes.geometryEntryOf(m);
    const ownerDefinition = targets.nodes.definitionOf(meshes.parts[m].owner);
    for (const entry of geometryEntry.file.ids.values()) {
      if (entry.kind !== "modifier" || applied.get(entry)?.has(m) || typeof entry.value.parent !== "string") {
        continue;
      }
      const target = entry.file.ids.get(parseDsonUri(entry.value.parent).id);
      if (target === geometryEntry || (target && target === ownerDefinition)) {
        applyModifier(targets, entry, m, NaN, state);
        if (!applied.has(entry)) fromLibrary.add(entry);
      }
    }
  }
  // A mesh no modifier reached (an item without a skin binding) still takes its body's projected morphs.
  for (let m = 0; m < meshes.parts.length; m++) if (!state.values.has(m)) state.values.set(m, new Map());
  const evaluated = evaluateFormulas(targets, state.values);
  return { applied: [...applied.keys(), ...fromLibrary], evaluated };
}

/**
 * Controllers and bones driving morphs of the same mesh, and controllers posing bones of its figure
 * (a hand grasp bending the fingers), at the dials and pose just read (see formula_eval.ts). The
 * bones posed are set on the scene's nodes, as if the file had written those values. A bone channel
 * the formulas of two meshes pose is left to neither (warned). Returns the formulas evaluated.
 */
function evaluateFormulas(
  targets: ModifierTargets,
  valuesByMesh: ReadonlyMap<number, ReadonlyMap<string, ModifierValue>>,
): Set<string> {
  const { meshes, nodes } = targets;
  const evaluated = new Set<string>();
  const definitions = new Set(nodes.list.map((_, n) => nodes.definitionOf(n)).filter((d) => d !== undefined));
  const lookups = new Map<number, BoneLookup>();
  const posedBy = new Map<string, Set<number>>(); // `nodeKey?channel` → the meshes whose formulas pose it
  for (const [mesh, values] of valuesByMesh) {
    const bones = figureBones(nodes.list, meshes.parts[mesh].owner, targets.follows);
    lookups.set(mesh, bones);
    for (const key of posedChannels(values, bones)) {
      posedBy.set(key, (posedBy.get(key) ?? new Set()).add(mesh));
    }
  }
  // Values the scene's node definitions' formulas drive (no morph dial of those is clamped here).
  const byDefinitions = drivenValues(
    new Map([...definitions].map((entry, k) => [`${k}`, { entry, value: 0 }])),
  );
  // A fitted item's formulas may read its body's values (a follower morph): bodies first.
  const bodies = new BodyValues(targets);
  for (const mesh of bodies.order([...valuesByMesh.keys()])) {
    const values = valuesByMesh.get(mesh)!;
    const parts = meshes.parts[mesh];
    const foreign = new Set(
      [...posedBy].filter(([, by]) => by.size > 1 || !by.has(mesh)).map(([key]) => key),
    );
    const done = evaluateMorphFormulas(parts.morphs, values, {
      others: definitions,
      bones: lookups.get(mesh),
      foreign,
      body: bodies.lookup(mesh),
      figure: bodies.figureKey(mesh),
    });
    bodies.evaluated(mesh, values, done.channelValue);
    for (const key of done.evaluated) evaluated.add(key);
    // Kept for dson.apply_preset, which evaluates them again at a preset's dials and pose.
    if (done.graph) parts.formulas = done.graph;
    for (const [n, posed] of done.poses) nodes.list[n] = poseNode(nodes.list[n], posed);
    if (done.limited.length) warnLimited(targets, done.limited);
    const driven = new Set([...drivenValues(values), ...byDefinitions, ...parts.formulas?.morphs ?? []]);
    fittedChecks(targets.library, {
      parts,
      values,
      driven,
      bodies,
      mesh,
      figure: bodies.figureKey(mesh),
      unfollowed: done.unfollowed,
    });
  }
  return evaluated;
}

/**
 * One warning for the bone channels of one mesh's formulas that their joint limits clamped, at the
 * first bone's definition: Daz stops a limited joint there, and the user may expect the formula's
 * whole value (a grasp dialled past what the fingers allow).
 */
function warnLimited(targets: ModifierTargets, limited: readonly LimitedPose[]): void {
  const { nodes, library, main } = targets;
  const first = limited[0];
  const definition = nodes.definitionOf(first.node);
  const list = limited.map((l) =>
    `'${nodes.list[l.node].id}' ${describeClamp(l.channel, l.from, l.to, l.limit)}`
  );
  library.repaired(
    definition?.file ?? main,
    definition ? `${definition.path}/${first.channel.split("/")[0]}` : "/scene/nodes",
    `${limited.length} bone channel(s) ERC formulas drive past the joint's limits (clamped: true) are clamped ` +
      `to them, as Daz stops the joint there: ${list.slice(0, 8).join(", ")}${list.length > 8 ? ", …" : ""}`,
  );
}

/** `node` with the pose channels (`rotation/z`, `scale/general`) set to `values`. */
function poseNode(node: SceneNode, values: ReadonlyMap<string, number>): SceneNode {
  const pose = {
    rotation: [...node.rotation] as Vec3,
    translation: [...node.translation] as Vec3,
    scale: [...node.scale] as Vec3,
    generalScale: node.generalScale,
  };
  for (const [channel, value] of values) {
    const [kind, axis] = channel.split("/") as ["rotation" | "translation" | "scale", string];
    if (axis === "general") pose.generalScale = value;
    else pose[kind]["xyz".indexOf(axis)] = value;
  }
  // A new record: the node's pose values are read-only once loaded.
  return { ...node, ...pose };
}

/** What the modifiers applied so far gave each mesh (by mesh index), as `file at path`. */
interface ModifierState {
  /** Per mesh, where each morph id applied came from. */
  readonly morphIds: Map<number, Map<string, string>>;
  /** Per mesh, where its skin binding came from. */
  readonly skins: Map<number, string>;
  /** Per mesh, each modifier id applied (the first of an id) and its value there, for formulas. */
  readonly values: Map<number, Map<string, ModifierValue>>;
}

/**
 * Applies one modifier's skin and morph to mesh `mesh`; `dial` (NaN: none) overrides the morph weight.
 * `state` records, per mesh, where its skin and each morph id applied came from (`file at path`).
 */
function applyModifier(
  targets: ModifierTargets,
  entry: DsonEntry,
  mesh: number,
  dial: number,
  state: ModifierState,
): void {
  const { library } = targets;
  const { read } = entry.file;
  const vertexCount = targets.meshes.parts[mesh].geometry.vertexCount;
  const id = read.string(entry.value.id, `${entry.path}/id`);
  const values = state.values.get(mesh) ?? new Map<string, ModifierValue>();
  state.values.set(mesh, values);
  if (!values.has(id)) {
    const channel = read.optObject(entry.value.channel, `${entry.path}/channel`);
    const authored = channel ? read.channelNumber(channel, `${entry.path}/channel`, 0) : 0;
    values.set(id, { entry, value: Number.isNaN(dial) ? authored : dial });
  }
  // Daz refuses a skin or morph made for another vertex count (another figure generation, say)
  // and carries on; so do we, rather than failing the scene on its first out-of-range index.
  const fits = (key: "skin" | "morph") => {
    const record = entry.value[key];
    const raw = record && typeof record === "object" ? (record as JsonRecord).vertex_count : undefined;
    if (raw === undefined || raw === null) return true; // null: Qt's NaN, read as absent like a channel's
    // A count written as a string ("16") is refused like any number so written: taken as absent,
    // another figure's morph would be applied whenever its indices happened to fit.
    const count = read.integer(raw, `${entry.path}/${key}/vertex_count`);
    if (count === vertexCount) return true;
    library.miss(
      `${entry.file.key}#${id}`,
      `${key} is for ${count} vertices, the geometry has ${vertexCount}; not applied`,
      entry.file,
      `${entry.path}/${key}/vertex_count`,
    );
    return false;
  };
  if (entry.value.skin === undefined && entry.value.legacy_skin !== undefined) {
    // An older generation's binding (Poser-style figures in DSON). Diffeomorphic reads it as a skin
    // but finds its vertex groups missing and tells the user to convert the figure to a prop in
    // Daz; its layout is not specified. Before, it was passed over silently: the mesh stood still
    // while its bones moved, and nothing said why.
    const why = `skin binding '${id}' is a legacy_skin (an older figure generation's), which is not ` +
      "decoded: the mesh is not skinned and does not follow its bones";
    leftOut(library, entry.file, `${entry.path}/legacy_skin`, `${entry.file.key}#${id}`, why);
  }
  if (entry.value.skin !== undefined && fits("skin")) applySkin(targets, entry, id, mesh, state.skins);
  if (entry.value.morph !== undefined && fits("morph")) {
    applyMorph(targets, entry, id, mesh, dial, state.morphIds);
  }
}

/**
 * Binds modifier `entry`'s skin to mesh `mesh`, unless the mesh has a skin binding already: a Daz
 * figure has one binding, and the first applied (the scene's instance, before its figure file's
 * default, as with morphs) is kept, the other named in a warning. Weights naming vertices past the
 * geometry are left out with one warning; the rest of the binding is kept.
 */
function applySkin(
  targets: ModifierTargets,
  entry: DsonEntry,
  id: string,
  mesh: number,
  skins: Map<number, string>,
): void {
  const { library, nodes } = targets;
  const { read } = entry.file;
  const parts = targets.meshes.parts[mesh];
  const vertexCount = parts.geometry.vertexCount;
  const here = `${entry.file.source} at ${entry.path}`;
  const earlier = skins.get(mesh);
  if (earlier !== undefined) {
    // Before, the second replaced the first: a scene's own binding (re-rigged in Daz) gave way to
    // the unchanged one of its figure file, silently.
    const why = `the mesh has a skin binding already (${earlier}); this one (${here}) is not applied`;
    leftOut(library, entry.file, entry.path, `${entry.file.key}#${id}`, why);
    return;
  }
  const skin = decodeSkin(
    read.object(entry.value.skin, `${entry.path}/skin`),
    `${entry.path}/skin`,
    read,
    vertexCount,
  );
  if (skin.outside) {
    library.repaired(
      entry.file,
      `${entry.path}/skin`,
      `skin binding '${id}' has ${skin.outside.count} weight${skin.outside.count === 1 ? "" : "s"} naming ` +
        `vertices past the geometry's ${vertexCount} (the first, vertex ${skin.outside.vertex}, at ` +
        `${skin.outside.first}); left out, the other weights kept`,
    );
  }
  const jointNodes = skin.joints.map((joint) => {
    const node = nodes.jointNode(joint.node, joint.id, parts.owner, entry.file);
    if (node !== undefined) return node;
    library.miss(joint.node, "skin joint is not a bone of the figure", entry.file, joint.path);
    return -1;
  });
  const slotNode = new Int32Array(skin.slotJoint.length).fill(-1);
  for (let s = 0; s < slotNode.length; s++) {
    const joint = skin.slotJoint[s];
    slotNode[s] = joint < 0 ? -1 : jointNodes[joint];
  }
  parts.skin = { slotNode, slotWeight: skin.slotWeight };
  skins.set(mesh, here);
}

/** Int32Array's largest index: a delta index is read up to it, then checked against the geometry. */
const MAX_INDEX = 2 ** 31 - 1;

/**
 * Adds modifier `entry`'s morph to mesh `mesh`, unless its deltas name vertices the geometry lacks
 * or the mesh has a morph of its id already: each is an unresolved entry with a warning naming the
 * JSON path, and the morph is left out (the decode carries on, as with a morph for another vertex
 * count).
 */
function applyMorph(
  targets: ModifierTargets,
  entry: DsonEntry,
  id: string,
  mesh: number,
  dial: number,
  morphIds: Map<number, Map<string, string>>,
): void {
  const { library } = targets;
  const { read } = entry.file;
  const parts = targets.meshes.parts[mesh];
  const vertexCount = parts.geometry.vertexCount;
  const at = `${entry.path}/morph`;
  const uri = `${entry.file.key}#${id}`;
  const ids = morphIds.get(mesh) ?? new Map<string, string>();
  morphIds.set(mesh, ids);
  const earlier = ids.get(id);
  if (earlier !== undefined) {
    // Daz keeps one modifier per name on a node; Diffeomorphic's shape key of that name is replaced.
    // The first applied (a scene instance, with its dial, before any library default) stays.
    const why = `the mesh has a morph '${id}' already (${earlier}); this one is not applied`;
    leftOut(library, entry.file, `${entry.path}/id`, uri, why);
    return;
  }
  const morph = read.object(entry.value.morph, at);
  const deltas = read.indexedVec3(morph.deltas ?? [], `${at}/deltas`, MAX_INDEX);
  const outside = deltas.index.findIndex((v) => v >= vertexCount);
  if (outside >= 0) {
    // A morph naming a vertex past the geometry's end was made for another mesh (or is damaged):
    // moving the vertices that happen to exist would deform the figure wrongly.
    const beyond = deltas.index.filter((v) => v >= vertexCount).length;
    const why =
      `morph '${id}' names vertex ${deltas.index[outside]}, but the geometry has ${vertexCount} vertices ` +
      `(${beyond} of its ${deltas.index.length} deltas lie past it); the morph is not applied`;
    leftOut(
      library,
      entry.file,
      `${read.values(morph.deltas ?? [], `${at}/deltas`).path}/${outside}/0`,
      uri,
      why,
    );
    return;
  }
  ids.set(id, `${entry.file.source} at ${entry.path}`);
  const channel = read.optObject(entry.value.channel, `${entry.path}/channel`);
  const authored = channel ? read.channelNumber(channel, `${entry.path}/channel`, 0) : 0;
  const name = read.optString(entry.value.name, `${entry.path}/name`) ?? id;
  const limit = range(channel);
  parts.morphs.push({
    id,
    name,
    label: read.optString(entry.value.label, `${entry.path}/label`) ?? name,
    index: deltas.index,
    delta: deltas.value,
    weight: Number.isNaN(dial) ? authored : dial,
    ...(limit.min !== undefined || limit.max !== undefined ? { limit } : {}),
  });
}

/**
 * Records a modifier left out as unresolved (for `extras.partgraph.dson.unresolved`) and warns once
 * naming the file and JSON path of what made it so.
 */
function leftOut(library: ContentLibrary, file: DsonFile, path: string, uri: string, why: string): void {
  library.miss(uri, why, file, path, { quiet: true });
  library.repaired(file, path, why);
}
