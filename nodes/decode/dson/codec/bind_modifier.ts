/**
 * One modifier's skin binding or morph bound to one loaded mesh. A second binding or a second morph
 * of an id is left out (a Daz figure has one binding, a node one property per name), as is a morph
 * naming vertices the geometry lacks; skin weights past the geometry are left out, the rest kept.
 * Each is a warning at its JSON path.
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import { isAutoFollow } from "./auto_follow.ts";
import type { DsonEntry, DsonFile } from "./dson_file.ts";
import type { ModifierTargets } from "./load_modifiers.ts";
import { range } from "./formula_compile.ts";
import { decodeSkin } from "./skin.ts";

/**
 * Binds modifier `entry`'s skin to mesh `mesh`, unless the mesh has a skin binding already: a Daz
 * figure has one binding, and the first applied (the scene's instance, before its figure file's
 * default, as with morphs) is kept, the other named in a warning. Weights naming vertices past the
 * geometry are left out with one warning; the rest of the binding is kept.
 */
export function applySkin(
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
export function applyMorph(
  targets: ModifierTargets,
  entry: DsonEntry,
  id: string,
  mesh: number,
  dial: number,
  morphIds: Map<number, Map<string, string>>,
  autoFollow?: boolean,
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
    // The scene instance's switch wins over the definition's flag.
    ...((autoFollow ?? isAutoFollow(channel)) ? { autoFollow: true as const } : {}),
  });
}

/**
 * Records a modifier left out as unresolved (for `extras.partgraph.dson.unresolved`) and warns once
 * naming the file and JSON path of what made it so.
 */
export function leftOut(
  library: ContentLibrary,
  file: DsonFile,
  path: string,
  uri: string,
  why: string,
): void {
  library.miss(uri, why, file, path, { quiet: true });
  library.repaired(file, path, why);
}
