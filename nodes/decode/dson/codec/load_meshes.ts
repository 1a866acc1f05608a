/**
 * Geometry instancing for a load: a mesh per geometry instance of the scene (or per library
 * geometry of the main file when it has no scene), each with its UV set, then the scene's material
 * instances (surface colour and image per polygon group, and UV set overrides). Geometries are
 * decoded once however many instances share them.
 *
 * @module
 */
import { authoredPieces } from "./polygons.ts";
import type { ContentLibrary } from "./content.ts";
import type { DsonEntry, DsonFile } from "./dson_file.ts";
import { decodeGeometry, decodeUvSet, type DsonGeometry, type DsonUvSet } from "./geometry.ts";
import type { SceneNodes } from "./load_nodes.ts";
import { finishMesh, type MeshParts } from "./mesh_parts.ts";
import type { SceneMesh } from "./model.ts";
import type { JsonRecord } from "./read_json.ts";
import { readSurface } from "./surface.ts";
import { parseDsonUri } from "./uri.ts";

/**
 * Vertices geometry instances may draw beyond 16 × their distinct geometries': a crowd of 50 copies
 * of a 65,000-vertex figure is 3.3 million.
 */
export const INSTANCED_VERTEX_SLACK = 4_194_304;

/**
 * The meshes of one load while they are gathered; a mesh's index in {@link SceneMeshes.parts} is
 * how modifiers and materials refer to it.
 *
 * @example
 * ```ts
 * const meshes = new SceneMeshes(library, main, nodes);
 * await meshes.addLibraryGeometries();
 * const finished = meshes.finish();
 * ```
 */
export class SceneMeshes {
  /** What each mesh is gathered from so far. */
  readonly parts: MeshParts[] = [];
  readonly #library: ContentLibrary;
  readonly #main: DsonFile;
  readonly #nodes: SceneNodes;
  readonly #decoded = new Map<DsonEntry, DsonGeometry>();
  /** Vertices of the distinct geometries decoded, and of every mesh made from them. */
  #distinctVertices = 0;
  #drawnVertices = 0;
  /** Mesh index by geometry instance id (main file). */
  readonly #meshByInstance = new Map<string, number>();
  /** The geometry definition of each mesh. */
  readonly #geometryEntries: DsonEntry[] = [];

  constructor(library: ContentLibrary, main: DsonFile, nodes: SceneNodes) {
    this.#library = library;
    this.#main = main;
    this.#nodes = nodes;
  }

  /** Adds a mesh per geometry of scene node instance `i` (`/scene/nodes/i/geometries`). */
  async addInstanceGeometries(instance: JsonRecord, i: number): Promise<void> {
    const read = this.#main.read;
    const list = read.optArray(instance.geometries, `/scene/nodes/${i}/geometries`);
    for (const [geometryInstance, at, g] of read.objects(list, `/scene/nodes/${i}/geometries`)) {
      const url = read.string(geometryInstance.url, `${at}/url`);
      const resolved = await this.#library.resolve(url, this.#main, `${at}/url`);
      if (!resolved) continue;
      if (resolved.entry.kind !== "geometry") {
        if (resolved.entry.kind !== "geometry_instance") {
          this.#library.miss(url, `names a ${resolved.entry.kind}, not a geometry`, this.#main, `${at}/url`);
        }
        continue;
      }
      const key = typeof geometryInstance.id === "string"
        ? geometryInstance.id
        : `${this.#nodes.list[i].key}/${g}`;
      await this.#add(resolved.entry, i, key, at);
    }
  }

  /**
   * Without a scene, every library geometry of the main file becomes a mesh of the first figure
   * (else the first root node); with no node at all, each gets a node of its own.
   */
  async addLibraryGeometries(): Promise<void> {
    const nodes = this.#nodes.list;
    let owner = nodes.findIndex((n) => n.type === "figure");
    if (owner < 0) owner = nodes.findIndex((n) => n.parent < 0);
    for (const entry of this.#main.ids.values()) {
      if (entry.kind !== "geometry") continue;
      let node = owner;
      if (node < 0) {
        node = this.#nodes.add(
          undefined,
          { id: entry.value.id, name: entry.value.name ?? entry.value.id },
          -1,
          String(entry.value.id),
        );
      }
      await this.#add(entry, node, String(entry.value.id), entry.path);
    }
  }

  /** The geometry definition mesh `m` was made from. */
  geometryEntryOf(m: number): DsonEntry {
    return this.#geometryEntries[m];
  }

  /** The mesh a URI of the main file names: a geometry instance, a geometry, or a node owning one. */
  meshFor(uri: string): number | undefined {
    const parts = parseDsonUri(uri);
    const byInstance = this.#meshByInstance.get(parts.id);
    if (byInstance !== undefined) return byInstance;
    const entry = this.#main.ids.get(parts.id);
    const byGeometry = this.#geometryEntries.findIndex((g) => g === entry);
    if (byGeometry >= 0) return byGeometry;
    const node = this.#nodes.localNode(uri);
    const byOwner = this.parts.findIndex((p) => p.owner === node);
    return byOwner >= 0 ? byOwner : undefined;
  }

  /**
   * Applies the scene's material instances (`/scene/materials`): a surface per named polygon
   * group, each with the instance's UV set. Daz keeps the UV set per material (its "UV Set"
   * property), so two surfaces of one figure may use different sets; one naming the geometry's
   * default uses the default, whatever another surface names.
   */
  async applyMaterials(scene: JsonRecord | undefined): Promise<void> {
    const read = this.#main.read;
    const instances = scene ? read.optArray(scene.materials, "/scene/materials") : [];
    // Each set loaded once per mesh, so a set that does not fit is warned about once.
    const loaded = new Map<string, DsonUvSet | undefined>();
    for (const [instance, at] of read.objects(instances, "/scene/materials")) {
      const geometryUri = read.optString(instance.geometry, `${at}/geometry`);
      const mesh = geometryUri === undefined ? undefined : this.meshFor(geometryUri);
      if (mesh === undefined) continue;
      const groups = read.optArray(instance.groups, `${at}/groups`).map((g, k) =>
        read.string(g, `${at}/groups/${k}`)
      );
      const url = read.optString(instance.url, `${at}/url`);
      const definition = url === undefined
        ? undefined
        : (await this.#library.resolve(url, this.#main, `${at}/url`))?.entry;
      const surface = await readSurface(instance, at, definition, this.#library, this.#main);
      const parts = this.parts[mesh];
      for (const group of groups) parts.materials.set(group, { ...surface, name: group });
      const uvUri = read.optString(instance.uv_set, `${at}/uv_set`);
      if (uvUri === undefined) continue;
      let uvSet = parts.uvSet;
      if (uvUri !== parts.geometry.defaultUvSet) {
        const key = `${mesh}\u0000${uvUri}`;
        if (!loaded.has(key)) {
          loaded.set(key, await this.#loadUvSet(uvUri, this.#main, `${at}/uv_set`, parts.geometry));
        }
        // A set that does not resolve or fit leaves the surface on the default (warned).
        uvSet = loaded.get(key) ?? parts.uvSet;
      }
      for (const group of groups) {
        if (uvSet) parts.surfaceUvSets.set(group, uvSet);
        else parts.surfaceUvSets.delete(group);
      }
    }
  }

  /** The gathered meshes, finished against the load's nodes. */
  finish(): SceneMesh[] {
    return this.parts.map((parts) => finishMesh(parts, this.#nodes.list));
  }

  /** Adds a mesh of geometry `entry` for node `owner`; `at` is the JSON path that asked for it. */
  async #add(entry: DsonEntry, owner: number, key: string, at: string): Promise<void> {
    let geometry = this.#decoded.get(entry);
    if (!geometry) {
      geometry = decodeGeometry(entry.value, entry.path, entry.file.read);
      this.#decoded.set(entry, geometry);
      this.#distinctVertices += geometry.vertexCount;
    }
    // Each instance is a mesh of its own in the output: a 1.4 MB scene of 300 instances of one
    // 14,400-vertex figure made a 156 MB GLB (and 760 MB of memory). A crowd of real figures fits.
    this.#drawnVertices += geometry.vertexCount;
    const limit = 16 * this.#distinctVertices + INSTANCED_VERTEX_SLACK;
    if (this.#drawnVertices > limit) {
      this.#main.read.fail(
        at,
        `geometry instances drawing at most ${limit} vertices in all (16 × the distinct geometries' ` +
          `${this.#distinctVertices} + ${INSTANCED_VERTEX_SLACK}), as each instance is a mesh of its own`,
        `#raw:${this.#drawnVertices} vertices up to this instance`,
      );
    }
    const parts: MeshParts = {
      key,
      owner,
      geometry,
      file: entry.file,
      morphs: [],
      materials: new Map(),
      surfaceUvSets: new Map(),
    };
    if (geometry.defaultUvSet) {
      const at = `${entry.path}/default_uv_set`;
      parts.uvSet = await this.#loadUvSet(geometry.defaultUvSet, entry.file, at, geometry);
    }
    this.#meshByInstance.set(key, this.parts.length);
    this.#geometryEntries.push(entry);
    this.parts.push(parts);
  }

  /**
   * The UV set `uri` (written in `from` at `at`) names for the geometry, or undefined when it does
   * not resolve to a UV set or was made for another vertex count (a warning).
   */
  async #loadUvSet(
    uri: string,
    from: DsonFile,
    at: string,
    geometry: DsonGeometry,
  ): Promise<DsonUvSet | undefined> {
    let resolved = await this.#library.resolve(uri, from, at);
    if (resolved?.entry.kind === "uv_set_instance") {
      // A scene UV instance (`scene.uvs`) stands for the set its `url` names.
      const instance = resolved.entry;
      const url = instance.file.read.string(instance.value.url, `${instance.path}/url`);
      resolved = await this.#library.resolve(url, instance.file, `${instance.path}/url`);
    }
    if (!resolved) return undefined;
    if (resolved.entry.kind !== "uv_set") {
      this.#library.miss(uri, `names a ${resolved.entry.kind}, not a UV set; not applied`, from, at);
      return undefined;
    }
    const { entry } = resolved;
    const count = entry.value.vertex_count;
    if (typeof count === "number" && count !== geometry.vertexCount) {
      // Daz offers only UV sets whose vertex count matches; another figure's set is not an error.
      this.#library.miss(
        uri,
        `UV set is for ${count} vertices, the geometry has ${geometry.vertexCount}; not applied`,
        entry.file,
        `${entry.path}/vertex_count`,
      );
      return undefined;
    }
    const uvSet = decodeUvSet(
      entry.value,
      entry.path,
      entry.file.read,
      geometry.authored?.count ?? geometry.polyCount,
    );
    const uvCount = uvSet.uvs.length / 2;
    if (uvCount < geometry.vertexCount) {
      // A corner without an override takes its vertex's UV: too few UVs leave vertices without one.
      this.#library.miss(
        uri,
        `UV set has ${uvCount} UVs for the geometry's ${geometry.vertexCount} vertices; not applied`,
        entry.file,
        `${entry.path}/uvs`,
      );
      return undefined;
    }
    this.#checkOverrides(uvSet, entry, geometry);
    return uvSet;
  }

  /**
   * Warns of seam overrides whose vertex is not a corner of their polygon: they override nothing
   * (the corner keeps its vertex's UV), as a UV set made for a differently ordered mesh would.
   */
  #checkOverrides(uvSet: DsonUvSet, entry: DsonEntry, geometry: DsonGeometry): void {
    const { overrides } = uvSet;
    let first = -1;
    let count = 0;
    const piecesOf = authoredPieces(geometry.authored);
    for (let o = 0; o < overrides.length; o += 3) {
      const v = overrides[o + 1];
      let found = false;
      for (const p of piecesOf(overrides[o])) {
        for (let k = 0; k < 4; k++) found ||= geometry.polyVerts[p * 4 + k] === v;
      }
      if (found) continue;
      if (first < 0) first = o / 3;
      count++;
    }
    if (!count) return;
    this.#library.repaired(
      entry.file,
      `${entry.path}/polygon_vertex_indices`,
      `${count} seam override(s) name a vertex that is not a corner of their polygon (the first, entry ${first}: ` +
        `vertex ${overrides[first * 3 + 1]} of polygon ${
          overrides[first * 3]
        }); ignored, those corners keep ` +
        "their vertex's UV",
    );
  }
}
