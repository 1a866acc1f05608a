/**
 * Loads a DSON file into a {@link DsonScene}: node instances (with the descendants of each
 * instantiated figure), their geometries, UV sets, skin bindings, morphs, rigidity and materials,
 * following references into the content roots. Anything missing is a warning and a gap in the
 * scene; only malformed data and references that would leave the content roots are errors.
 *
 * @module
 */
import type { CodecIO } from "../../../../runtime/node.ts";
import { findConformers } from "./conform_match.ts";
import { ContentLibrary } from "./content.ts";
import { warnCountMismatches } from "./counts.ts";
import { type DsonFile, indexDsonFile } from "./dson_file.ts";
import { warnUnevaluatedFormulas } from "./formulas.ts";
import { mergeGrafts } from "./graft.ts";
import { findRigidFollowers } from "./rigid_follow.ts";
import { SceneMeshes } from "./load_meshes.ts";
import { applyModifiers } from "./load_modifiers.ts";
import { SceneNodes } from "./load_nodes.ts";
import type { Conformer, DsonScene, RigidFollower, SceneMesh, SceneNode } from "./model.ts";
import { checkDefinitionHierarchy } from "./node_hierarchy.ts";
import { JsonReader, type JsonRecord } from "./read_json.ts";
import { parseDsonBytes } from "./text.ts";
import { fileKey, percentDecode } from "./uri.ts";

/** What {@link loadDsonScene} needs besides the bytes. */
export interface LoadOptions {
  /** Ordered content roots referenced files are looked up in. */
  readonly contentRoots: readonly string[];
  readonly ctx: CodecIO;
}

/**
 * Parses and loads a DSON file and everything it references.
 *
 * @example
 * ```ts
 * const scene = await loadDsonScene(bytes, "figure.duf", { contentRoots: [], ctx });
 * scene.nodes.length; // figure + bones
 * ```
 */
export async function loadDsonScene(
  bytes: Uint8Array,
  name: string,
  options: LoadOptions,
): Promise<DsonScene> {
  return await loadDsonJson(
    await parseDsonBytes(bytes, name, (message) => options.ctx.warn(message)),
    name,
    options,
  );
}

/**
 * Loads an already parsed DSON value (see {@link loadDsonScene}); `name` is used in errors.
 *
 * @example
 * ```ts
 * const scene = await loadDsonJson(JSON.parse(text), "figure.dsf", { contentRoots: [], ctx });
 * ```
 */
export async function loadDsonJson(json: unknown, name: string, options: LoadOptions): Promise<DsonScene> {
  // Repairs are said through the library (once per message); nothing is repaired before it exists.
  const said: { by?: ContentLibrary } = {};
  const read = new JsonReader(name, (path, what) => said.by?.repairedIn(name, path, what));
  const top = read.object(json, "");
  const info = read.optObject(top.asset_info, "/asset_info") ?? {};
  const assetId = read.optString(info.id, "/asset_info/id") ?? name;
  const main = indexDsonFile(json, read, fileKey(percentDecode(assetId)), name);
  const library = said.by = new ContentLibrary(options.contentRoots, options.ctx, main);
  warnCountMismatches(json, read);
  const { nodes, meshes, followers: found, conformers } = await gatherScene(library, main);
  let followers = found;
  library.reportMissingFiles();
  if (nodes.length === 0 && meshes.length === 0) failWithNothingToDecode(read, top, info);
  // Said at the graft's own file, where the path points (before v37: the scene's); not swallowed
  // by the warning about the same conforming target (before v39).
  const merged = mergeGrafts(
    nodes,
    meshes,
    (uri, reason, path, source) => library.missIn(uri, reason, source, path, { distinct: true }),
    name,
    // A follower of a merged graft follows the same vertices in the mesh it went into (before
    // decode.dson v61 its mesh was gone, and presets and bakes left it where it was, warned).
    (graft, into, remap) => {
      followers = followers.map((f) =>
        f.target === graft.key ? { ...f, target: into.key, vertices: f.vertices.map((v) => remap[v]) } : f
      );
    },
  );
  return {
    assetId,
    assetType: read.optString(info.type, "/asset_info/type") ?? "",
    nodes,
    meshes: merged,
    unresolved: library.unresolved,
    followers,
    conformers,
  };
}

/**
 * Fails on a file with no node, figure or geometry. Pose, material and character presets only
 * change a figure: say so (and where a pose preset goes), rather than hand on an empty scene (which
 * would not even be a valid glTF).
 */
function failWithNothingToDecode(read: JsonReader, top: JsonRecord, info: JsonRecord): never {
  const type = read.optString(info.type, "/asset_info/type");
  const keys = Object.keys(top).filter((k) => k !== "file_version" && k !== "asset_info");
  const scene = top.scene && typeof top.scene === "object" ? Object.keys(top.scene) : [];
  read.fail(
    "",
    "a node, figure or geometry to decode (scene.nodes, node_library or geometry_library)",
    `#raw:a ${type ? `'${type}'` : "DSON"} file with ${
      keys.length
        ? keys.map((k) => (k === "scene" ? `scene {${scene.join(", ")}}` : k)).join(", ")
        : "nothing else"
    }; presets and support files (morphs, UV sets) only apply to a figure: decode the figure's file instead (a pose or shape preset then goes to dson.apply_preset)`,
  );
}

/**
 * The nodes and meshes of the main file's scene, or of its libraries when it has no scene, and the
 * rigid followers among the nodes (found before grafts are merged: their reference vertices index
 * the target's own geometry), and the conforming figures with the nodes that follow their targets.
 */
async function gatherScene(library: ContentLibrary, main: DsonFile): Promise<{
  nodes: SceneNode[];
  meshes: SceneMesh[];
  followers: RigidFollower[];
  conformers: Conformer[];
}> {
  checkDefinitionHierarchy(main);
  const read = main.read;
  const scene = read.optObject(main.json.scene, "/scene");
  const instances = scene ? read.optArray(scene.nodes, "/scene/nodes") : [];
  // A scene that instances no node (a library file with `scene: {}`, or only modifier or material
  // instances) places nothing itself: the file's own libraries are its content, as without one.
  const instanced = instances.length > 0;
  const nodes = new SceneNodes(library, main);
  if (instanced) await nodes.instantiateScene(instances);
  else nodes.instantiateLibraryRoots();
  nodes.instantiateDescendants();
  nodes.linkPendingParents();
  const conformers = findConformers(nodes.list, (uri) => nodes.localNode(uri), instances, library, main);
  const meshes = new SceneMeshes(library, main, nodes);
  if (instanced) {
    for (let i = 0; i < instances.length; i++) {
      await meshes.addInstanceGeometries(instances[i] as JsonRecord, i);
    }
  } else {
    await meshes.addLibraryGeometries();
  }
  // A conforming item's bones take their target's pose: its correctives read the target's bones.
  const follows = new Map(conformers.flatMap((c) => c.pairs.map(([own, target]) => [own, target] as const)));
  const fitted = new Map(conformers.map((c) => [c.figure, c.target]));
  const modifiers = await applyModifiers(scene, { library, main, nodes, meshes, follows, fitted });
  const definitions = nodes.list.map((_, i) => nodes.definitionOf(i)).filter((d) => d !== undefined);
  const morphIds = new Set(meshes.parts.flatMap((parts) => parts.morphs.map((morph) => morph.id)));
  const sources = [...definitions, ...modifiers.applied];
  warnUnevaluatedFormulas(sources, nodes.list, morphIds, library, modifiers.evaluated, modifiers.offKeys);
  await meshes.applyMaterials(scene);
  const finished = meshes.finish();
  const followers = findRigidFollowers({
    nodes: nodes.list,
    definitionOf: (n) => nodes.definitionOf(n),
    localNode: (uri) => nodes.localNode(uri),
    instances: instanced ? instances : [],
    meshes: finished,
    main,
    library,
  });
  return { nodes: nodes.list, meshes: finished, followers, conformers };
}
