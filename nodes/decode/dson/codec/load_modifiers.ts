/**
 * Modifiers for a load: skin bindings and morphs, from the scene's modifier instances and from the
 * library of each geometry's own file, bound to the loaded meshes and their figure's bones. A
 * modifier made for another vertex count is a warning and is left out, as in Daz Studio; so is a
 * morph whose deltas name vertices the geometry does not have, and a second morph of an id a mesh
 * already has (a geometry has one morph per id, as a Daz node has one property per name).
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import type { DsonEntry, DsonFile } from "./dson_file.ts";
import type { SceneMeshes } from "./load_meshes.ts";
import type { SceneNodes } from "./load_nodes.ts";
import type { JsonRecord } from "./read_json.ts";
import { decodeSkin } from "./skin.ts";
import { parseDsonUri } from "./uri.ts";

/** The load state modifiers read and change. */
export interface ModifierTargets {
  readonly library: ContentLibrary;
  /** The file being decoded. */
  readonly main: DsonFile;
  readonly nodes: SceneNodes;
  readonly meshes: SceneMeshes;
}

/**
 * Applies the scene's modifier instances (`/scene/modifiers`, their dial values overriding the
 * authored ones), then every library modifier of a mesh's geometry file whose parent is that
 * geometry or its owner's definition (a figure file's skin binding) and that no instance applied.
 * Returns the modifier definitions applied, in order.
 *
 * @example
 * ```ts
 * await applyModifiers(scene, { library, main, nodes, meshes });
 * ```
 */
export async function applyModifiers(
  scene: JsonRecord | undefined,
  targets: ModifierTargets,
): Promise<DsonEntry[]> {
  const { library, main, meshes } = targets;
  const read = main.read;
  const applied = new Set<DsonEntry>();
  const morphIds = new Map<number, Map<string, string>>();
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
    applied.add(resolved.entry);
    const channel = read.optObject(instance.channel, `${at}/channel`);
    applyModifier(
      targets,
      resolved.entry,
      mesh,
      channel ? read.channelNumber(channel, `${at}/channel`, NaN, "the modifier's own value") : NaN,
      morphIds,
    );
  }
  const fromLibrary: DsonEntry[] = [];
  for (let m = 0; m < meshes.parts.length; m++) {
    const geometryEntry = meshes.geometryEntryOf(m);
    const ownerDefinition = targets.nodes.definitionOf(meshes.parts[m].owner);
    for (const entry of geometryEntry.file.ids.values()) {
      if (entry.kind !== "modifier" || applied.has(entry) || typeof entry.value.parent !== "string") continue;
      const target = entry.file.ids.get(parseDsonUri(entry.value.parent).id);
      if (target === geometryEntry || (target && target === ownerDefinition)) {
        applyModifier(targets, entry, m, NaN, morphIds);
        fromLibrary.push(entry);
      }
    }
  }
  return [...applied, ...fromLibrary];
}

/**
 * Applies one modifier's skin and morph to mesh `mesh`; `dial` (NaN: none) overrides the morph weight.
 * `morphIds` records, per mesh, where each morph id applied came from (`file at path`).
 */
function applyModifier(
  targets: ModifierTargets,
  entry: DsonEntry,
  mesh: number,
  dial: number,
  morphIds: Map<number, Map<string, string>>,
): void {
  const { library, nodes } = targets;
  const { read } = entry.file;
  const parts = targets.meshes.parts[mesh];
  const vertexCount = parts.geometry.vertexCount;
  const id = read.string(entry.value.id, `${entry.path}/id`);
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
  if (entry.value.skin !== undefined && fits("skin")) {
    const skin = decodeSkin(
      read.object(entry.value.skin, `${entry.path}/skin`),
      `${entry.path}/skin`,
      read,
      vertexCount,
    );
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
  }
  if (entry.value.morph !== undefined && fits("morph")) applyMorph(targets, entry, id, mesh, dial, morphIds);
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
  parts.morphs.push({
    id,
    name,
    label: read.optString(entry.value.label, `${entry.path}/label`) ?? name,
    index: deltas.index,
    delta: deltas.value,
    weight: Number.isNaN(dial) ? authored : dial,
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
