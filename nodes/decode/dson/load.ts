/**
 * Loads a DSON file into a {@link DsonScene}: node instances (with the descendants of each
 * instantiated figure), their geometries, UV sets, skin bindings, morphs, rigidity and materials,
 * following references into the content roots. Anything missing is a warning and a gap in the
 * scene; only malformed data and references that would leave the content roots are errors.
 *
 * @module
 */
import type { RunContext } from "../../../runtime/node.ts";
import { ContentLibrary } from "./content.ts";
import { type DsonEntry, type DsonFile, indexDsonFile } from "./dson_file.ts";
import { decodeGeometry, decodeUvSet, type DsonGeometry, type DsonUvSet } from "./geometry.ts";
import { mergeGrafts } from "./graft.ts";
import type { DsonScene, SceneMesh, SceneNode } from "./model.ts";
import { JsonReader, type JsonRecord } from "./read_json.ts";
import { decodeSkin } from "./skin.ts";
import { finishMesh, type MeshParts } from "./mesh_parts.ts";
import { readSurface } from "./surface.ts";
import { parseDsonBytes } from "./text.ts";
import { fileKey, parseDsonUri, percentDecode } from "./uri.ts";

/** What {@link loadDsonScene} needs besides the bytes. */
export interface LoadOptions {
  /** Ordered content roots referenced files are looked up in. */
  readonly contentRoots: readonly string[];
  readonly ctx: RunContext;
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
  const read = new JsonReader(name);
  const top = read.object(json, "");
  const info = read.optObject(top.asset_info, "/asset_info") ?? {};
  const assetId = read.optString(info.id, "/asset_info/id") ?? name;
  const main = indexDsonFile(json, read, fileKey(percentDecode(assetId)), name);
  const library = new ContentLibrary(options.contentRoots, options.ctx, main);
  const loader = new SceneLoader(library, main);
  await loader.load();
  if (loader.nodes.length === 0 && loader.meshes.length === 0) {
    // Pose, material and character presets only change a scene loaded in Daz Studio: say so, rather
    // than hand on an empty scene (which would not even be a valid glTF).
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
      }; presets and support files (morphs, UV sets) only apply to a figure: decode the figure's file instead`,
    );
  }
  return {
    assetId,
    assetType: read.optString(info.type, "/asset_info/type") ?? "",
    nodes: loader.nodes,
    meshes: mergeGrafts(
      loader.nodes,
      loader.meshes,
      (uri, reason, path) => library.miss(uri, reason, main, path),
    ),
    unresolved: library.unresolved,
  };
}

/** Working state of one load. */
class SceneLoader {
  readonly nodes: SceneNode[] = [];
  readonly meshes: SceneMesh[] = [];
  readonly #library: ContentLibrary;
  readonly #main: DsonFile;
  readonly #nodeByInstance = new Map<string, number>();
  readonly #nodeByDefinition = new Map<DsonEntry, number>();
  readonly #definitions: (DsonEntry | undefined)[] = [];
  readonly #children = new Map<DsonFile, Map<string, DsonEntry[]>>();
  readonly #geometries = new Map<DsonEntry, DsonGeometry>();
  /** Mesh index by geometry instance id (main file) and by geometry definition. */
  readonly #meshByInstance = new Map<string, number>();
  readonly #meshGeometry: DsonEntry[] = [];
  readonly #meshParts: MeshParts[] = [];

  constructor(library: ContentLibrary, main: DsonFile) {
    this.#library = library;
    this.#main = main;
  }

  async load(): Promise<void> {
    checkDefinitionCycles(this.#main);
    const read = this.#main.read;
    const scene = read.optObject(this.#main.json.scene, "/scene");
    const instances = scene ? read.optArray(scene.nodes, "/scene/nodes") : [];
    if (scene) {
      await this.#instantiateScene(instances);
    } else {
      for (const entry of this.#main.ids.values()) {
        if (entry.kind === "node" && !this.#hasLocalParent(entry)) {
          this.#addNode(entry, entry.value, -1, entry.value.id as string);
        }
      }
    }
    this.#instantiateDescendants();
    if (scene) {
      for (let i = 0; i < instances.length; i++) {
        await this.#instanceGeometries(instances[i] as JsonRecord, i);
      }
    } else {
      await this.#libraryGeometries();
    }
    await this.#modifiers(scene);
    await this.#materials(scene);
    for (let m = 0; m < this.#meshParts.length; m++) {
      this.meshes.push(finishMesh(this.#meshParts[m], this.nodes));
    }
  }

  async #instantiateScene(instances: unknown[]): Promise<void> {
    const read = this.#main.read;
    const parents: (string | undefined)[] = [];
    for (let i = 0; i < instances.length; i++) {
      const at = `/scene/nodes/${i}`;
      const instance = read.object(instances[i], at);
      const instanceId = read.string(instance.id, `${at}/id`);
      const url = read.string(instance.url, `${at}/url`);
      const resolved = await this.#library.resolve(url, this.#main, `${at}/url`);
      let definition = resolved?.entry;
      if (definition && definition.kind !== "node") {
        this.#library.miss(url, `names a ${definition.kind}, not a node`, this.#main, `${at}/url`);
        definition = undefined;
      }
      this.#addNode(definition, instance, -1, instanceId, at);
      parents.push(read.optString(instance.parent, `${at}/parent`));
    }
    for (let i = 0; i < parents.length; i++) {
      const uri = parents[i];
      if (uri === undefined) continue;
      const parent = this.#localNode(uri);
      if (parent === undefined) {
        this.#library.miss(
          uri,
          "no such node instance in this scene",
          this.#main,
          `/scene/nodes/${i}/parent`,
        );
      } else {
        this.nodes[i].parent = parent;
      }
    }
    const start = this.nodes.length;
    for (let i = 0; i < start; i++) {
      const seen = new Set<number>();
      for (let n = i; n >= 0; n = this.nodes[n].parent) {
        if (seen.has(n)) {
          read.fail(
            `/scene/nodes/${i}/parent`,
            "a parent chain that ends at a root",
            `#raw:a cycle through ${[...seen].map((k) => `'${this.nodes[k].key}'`).join(" → ")}`,
          );
        }
        seen.add(n);
      }
    }
  }

  /** The node an instance-or-definition URI of the main file names. */
  #localNode(uri: string): number | undefined {
    const parts = parseDsonUri(uri);
    if (parts.filePath !== "" && fileKey(parts.filePath) !== this.#main.key) return undefined;
    const byInstance = this.#nodeByInstance.get(parts.id);
    if (byInstance !== undefined) return byInstance;
    const entry = this.#main.ids.get(parts.id);
    return entry ? this.#nodeByDefinition.get(entry) : undefined;
  }

  #hasLocalParent(entry: DsonEntry): boolean {
    const parent = entry.value.parent;
    return typeof parent === "string" && entry.file.ids.get(parseDsonUri(parent).id)?.kind === "node";
  }

  /**
   * Every figure's bones come along with it, also when the scene does not list them. Checked per
   * instance: a scene may hold the same figure twice, and each copy needs its own skeleton.
   */
  #instantiateDescendants(): void {
    for (let n = 0; n < this.nodes.length; n++) {
      const definition = this.#definitionOf(n);
      if (!definition) continue;
      for (const child of this.#childrenOf(definition)) {
        // A listed instance whose parent did not resolve (a root) counts as present: no duplicate.
        const present = this.nodes.some((node, i) =>
          this.#definitions[i] === child && (node.parent === n || node.parent < 0)
        );
        if (!present) this.#addNode(child, child.value, n, String(child.value.id));
      }
    }
  }

  #definitionOf(n: number): DsonEntry | undefined {
    return this.#definitions[n];
  }

  #childrenOf(entry: DsonEntry): DsonEntry[] {
    let byParent = this.#children.get(entry.file);
    if (!byParent) {
      byParent = new Map();
      for (const candidate of entry.file.ids.values()) {
        if (candidate.kind !== "node" || typeof candidate.value.parent !== "string") continue;
        const parts = parseDsonUri(candidate.value.parent);
        if (parts.filePath !== "" && fileKey(parts.filePath) !== entry.file.key) continue;
        const list = byParent.get(parts.id) ?? [];
        list.push(candidate);
        byParent.set(parts.id, list);
      }
      this.#children.set(entry.file, byParent);
    }
    return byParent.get(String(entry.value.id)) ?? [];
  }

  /**
   * Adds a node for a definition, with the overrides of a scene instance at `instanceAt` (absent
   * when the node is instantiated implicitly, from the definition alone).
   */
  #addNode(
    definition: DsonEntry | undefined,
    instance: JsonRecord,
    parent: number,
    key: string,
    instanceAt?: string,
  ): number {
    const def = definition?.value ?? {};
    const read = definition?.file.read ?? this.#main.read;
    const at = definition?.path ?? "";
    // An instance may override any property of its definition except id, type and presentation.
    const merged: JsonRecord = { ...def, ...instance, id: def.id ?? instance.id, type: def.type ?? "node" };
    const fromInstance = (name: string) => instanceAt !== undefined && instance[name] !== undefined;
    const field = (name: string) => (fromInstance(name) ? this.#main.read : read);
    const fieldPath = (name: string) => (fromInstance(name) ? `${instanceAt}/${name}` : `${at}/${name}`);
    const vec = (name: string, fallback: number) =>
      field(name).channelVec3(merged[name], fieldPath(name), fallback);
    const id = String(merged.id ?? key);
    const node: SceneNode = {
      key,
      id,
      name: typeof merged.name === "string" ? merged.name : id,
      label: typeof merged.label === "string" ? merged.label : id,
      type: typeof merged.type === "string" ? merged.type : "node",
      parent,
      definition: definition ? `${definition.file.key}#${id}` : undefined,
      centerPoint: vec("center_point", 0),
      endPoint: vec("end_point", 0),
      orientation: vec("orientation", 0),
      rotation: vec("rotation", 0),
      translation: vec("translation", 0),
      scale: vec("scale", 1),
      generalScale: field("general_scale").channelNumber(merged.general_scale, fieldPath("general_scale"), 1),
      rotationOrder: rotationOrder(merged.rotation_order),
      inheritsScale: merged.inherits_scale !== false,
      conformTarget: typeof merged.conform_target === "string" ? merged.conform_target : undefined,
      preferredBase: preferredBase(merged.presentation),
    };
    const index = this.nodes.push(node) - 1;
    this.#definitions.push(definition);
    if (!this.#nodeByInstance.has(key)) this.#nodeByInstance.set(key, index);
    if (definition && !this.#nodeByDefinition.has(definition)) this.#nodeByDefinition.set(definition, index);
    return index;
  }

  async #instanceGeometries(instance: JsonRecord, i: number): Promise<void> {
    const read = this.#main.read;
    const list = read.optArray(instance.geometries, `/scene/nodes/${i}/geometries`);
    for (let g = 0; g < list.length; g++) {
      const at = `/scene/nodes/${i}/geometries/${g}`;
      const geometryInstance = read.object(list[g], at);
      const url = read.string(geometryInstance.url, `${at}/url`);
      const resolved = await this.#library.resolve(url, this.#main, `${at}/url`);
      if (!resolved) continue;
      if (resolved.entry.kind !== "geometry") {
        if (resolved.entry.kind !== "geometry_instance") {
          this.#library.miss(url, `names a ${resolved.entry.kind}, not a geometry`, this.#main, `${at}/url`);
        }
        continue;
      }
      const key = typeof geometryInstance.id === "string" ? geometryInstance.id : `${this.nodes[i].key}/${g}`;
      await this.#addMesh(resolved.entry, i, key);
    }
  }

  async #libraryGeometries(): Promise<void> {
    let owner = this.nodes.findIndex((n) => n.type === "figure");
    if (owner < 0) owner = this.nodes.findIndex((n) => n.parent < 0);
    for (const entry of this.#main.ids.values()) {
      if (entry.kind !== "geometry") continue;
      let node = owner;
      if (node < 0) {
        node = this.#addNode(
          undefined,
          { id: entry.value.id, name: entry.value.name ?? entry.value.id },
          -1,
          String(entry.value.id),
        );
      }
      await this.#addMesh(entry, node, String(entry.value.id));
    }
  }

  async #addMesh(entry: DsonEntry, owner: number, key: string): Promise<void> {
    let geometry = this.#geometries.get(entry);
    if (!geometry) {
      geometry = decodeGeometry(entry.value, entry.path, entry.file.read);
      this.#geometries.set(entry, geometry);
    }
    const parts: MeshParts = { key, owner, geometry, file: entry.file, morphs: [], materials: new Map() };
    if (geometry.defaultUvSet) {
      const at = `${entry.path}/default_uv_set`;
      const uv = await this.#library.resolve(geometry.defaultUvSet, entry.file, at);
      if (uv && uv.entry.kind === "uv_set") {
        parts.uvSet = this.#uvSet(uv.entry, geometry, geometry.defaultUvSet);
      }
    }
    this.#meshByInstance.set(key, this.#meshParts.length);
    this.#meshGeometry.push(entry);
    this.#meshParts.push(parts);
  }

  /** A UV set for the geometry, or undefined with a warning when it was made for another vertex count. */
  #uvSet(entry: DsonEntry, geometry: DsonGeometry, uri: string): DsonUvSet | undefined {
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
    return decodeUvSet(entry.value, entry.path, entry.file.read, geometry.polyCount);
  }

  async #modifiers(scene: JsonRecord | undefined): Promise<void> {
    const read = this.#main.read;
    const applied = new Set<DsonEntry>();
    const instances = scene ? read.optArray(scene.modifiers, "/scene/modifiers") : [];
    for (let i = 0; i < instances.length; i++) {
      const at = `/scene/modifiers/${i}`;
      const instance = read.object(instances[i], at);
      const url = read.string(instance.url, `${at}/url`);
      const parentUri = read.optString(instance.parent, `${at}/parent`);
      const resolved = await this.#library.resolve(url, this.#main, `${at}/url`);
      if (!resolved || resolved.entry.kind !== "modifier") continue;
      const mesh = parentUri === undefined ? undefined : this.#meshFor(parentUri);
      if (mesh === undefined) {
        this.#library.miss(
          parentUri ?? url,
          "modifier parent is not a loaded geometry",
          this.#main,
          `${at}/parent`,
        );
        continue;
      }
      applied.add(resolved.entry);
      const channel = read.optObject(instance.channel, `${at}/channel`);
      this.#applyModifier(
        resolved.entry,
        mesh,
        channel ? read.channelNumber(channel, `${at}/channel`, NaN) : NaN,
      );
    }
    // Library modifiers of a geometry's own file apply to it too (a figure file's skin binding).
    for (let m = 0; m < this.#meshParts.length; m++) {
      const geometryEntry = this.#meshGeometry[m];
      const ownerDefinition = this.#definitionOf(this.#meshParts[m].owner);
      for (const entry of geometryEntry.file.ids.values()) {
        if (entry.kind !== "modifier" || applied.has(entry) || typeof entry.value.parent !== "string") {
          continue;
        }
        const target = entry.file.ids.get(parseDsonUri(entry.value.parent).id);
        if (target === geometryEntry || (target && target === ownerDefinition)) {
          this.#applyModifier(entry, m, NaN);
        }
      }
    }
  }

  /** The mesh a modifier's parent URI names: a geometry instance, a geometry, or a node owning one. */
  #meshFor(uri: string): number | undefined {
    const parts = parseDsonUri(uri);
    const byInstance = this.#meshByInstance.get(parts.id);
    if (byInstance !== undefined) return byInstance;
    const entry = this.#main.ids.get(parts.id);
    const byGeometry = this.#meshGeometry.findIndex((g) => g === entry);
    if (byGeometry >= 0) return byGeometry;
    const node = this.#localNode(uri);
    const byOwner = this.#meshParts.findIndex((p) => p.owner === node);
    return byOwner >= 0 ? byOwner : undefined;
  }

  #applyModifier(entry: DsonEntry, mesh: number, dial: number): void {
    const { read } = entry.file;
    const parts = this.#meshParts[mesh];
    const vertexCount = parts.geometry.vertexCount;
    const id = read.string(entry.value.id, `${entry.path}/id`);
    // Daz refuses a skin or morph made for another vertex count (another figure generation, say)
    // and carries on; so do we, rather than failing the scene on its first out-of-range index.
    const fits = (key: "skin" | "morph") => {
      const record = entry.value[key];
      const count = record && typeof record === "object" ? (record as JsonRecord).vertex_count : undefined;
      if (typeof count !== "number" || count === vertexCount) return true;
      this.#library.miss(
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
      const slotNode = new Int32Array(skin.slotJoint.length).fill(-1);
      const jointNodes = skin.joints.map((joint) =>
        this.#jointNode(joint.node, joint.id, parts.owner, entry.file, joint.path)
      );
      for (let s = 0; s < slotNode.length; s++) {
        const joint = skin.slotJoint[s];
        slotNode[s] = joint < 0 ? -1 : jointNodes[joint];
      }
      parts.skin = { slotNode, slotWeight: skin.slotWeight };
    }
    if (entry.value.morph !== undefined && fits("morph")) {
      const at = `${entry.path}/morph`;
      const morph = read.object(entry.value.morph, at);
      const deltas = read.indexedVec3(morph.deltas ?? [], `${at}/deltas`, vertexCount);
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
  }

  /** The scene node a skin joint names: by definition, else by bone id within the owner's figure. */
  #jointNode(uri: string, id: string, owner: number, from: DsonFile, at: string): number {
    const parts = parseDsonUri(uri);
    const local = parts.filePath === "" ? from.ids.get(parts.id) : undefined;
    // The instance of that bone in the owner's own figure first: the same figure may be loaded twice.
    const inFigure = local
      ? this.nodes.findIndex((_, i) => this.#definitions[i] === local && isWithin(this.nodes, i, owner))
      : -1;
    if (inFigure >= 0) return inFigure;
    const byDefinition = local ? this.#nodeByDefinition.get(local) : undefined;
    if (byDefinition !== undefined) return byDefinition;
    const wanted = parts.id || id;
    const found = this.nodes.findIndex((n, i) => n.id === wanted && isWithin(this.nodes, i, owner));
    if (found >= 0) return found;
    this.#library.miss(uri, "skin joint is not a bone of the figure", from, at);
    return -1;
  }

  async #materials(scene: JsonRecord | undefined): Promise<void> {
    const read = this.#main.read;
    const instances = scene ? read.optArray(scene.materials, "/scene/materials") : [];
    for (let i = 0; i < instances.length; i++) {
      const at = `/scene/materials/${i}`;
      const instance = read.object(instances[i], at);
      const geometryUri = read.optString(instance.geometry, `${at}/geometry`);
      const mesh = geometryUri === undefined ? undefined : this.#meshFor(geometryUri);
      if (mesh === undefined) continue;
      const groups = read.optArray(instance.groups, `${at}/groups`).map((g, k) =>
        read.string(g, `${at}/groups/${k}`)
      );
      const url = read.optString(instance.url, `${at}/url`);
      const definition = url === undefined
        ? undefined
        : (await this.#library.resolve(url, this.#main, `${at}/url`))?.entry;
      const surface = await readSurface(instance, at, definition, this.#library, this.#main);
      for (const group of groups) {
        this.#meshParts[mesh].materials.set(group, { ...surface, name: group });
      }
      const uvUri = read.optString(instance.uv_set, `${at}/uv_set`);
      const parts = this.#meshParts[mesh];
      if (uvUri && uvUri !== parts.geometry.defaultUvSet) {
        const uv = await this.#library.resolve(uvUri, this.#main, `${at}/uv_set`);
        if (uv && uv.entry.kind === "uv_set") {
          parts.uvSet = this.#uvSet(uv.entry, parts.geometry, uvUri) ?? parts.uvSet;
        }
      }
    }
  }
}

/** Library node parents must not loop (the scene's instances are checked separately). */
function checkDefinitionCycles(file: DsonFile): void {
  for (const entry of file.ids.values()) {
    if (entry.kind !== "node") continue;
    const seen = new Set<DsonEntry>();
    let current: DsonEntry | undefined = entry;
    while (current) {
      if (seen.has(current)) {
        file.read.fail(
          `${entry.path}/parent`,
          "a parent chain that ends at a root",
          `#raw:a cycle through ${[...seen].map((e) => `'${e.value.id}'`).join(" → ")}`,
        );
      }
      seen.add(current);
      const parent: unknown = current.value.parent;
      if (typeof parent !== "string") break;
      const parts = parseDsonUri(parent);
      if (parts.filePath !== "" && fileKey(parts.filePath) !== file.key) break;
      const next = file.ids.get(parts.id);
      current = next?.kind === "node" ? next : undefined;
    }
  }
}

function isWithin(nodes: readonly SceneNode[], node: number, ancestor: number): boolean {
  let top = ancestor;
  while (top >= 0 && nodes[top].parent >= 0 && nodes[top].type !== "figure") top = nodes[top].parent;
  for (let n = node, steps = 0; n >= 0 && steps <= nodes.length; n = nodes[n].parent, steps++) {
    if (n === top) return true;
  }
  return false;
}

function preferredBase(presentation: unknown): string | undefined {
  const base = presentation && typeof presentation === "object"
    ? (presentation as JsonRecord).preferred_base
    : undefined;
  return typeof base === "string" && base !== "" ? base : undefined;
}

function rotationOrder(value: unknown): string {
  return typeof value === "string" && /^[XYZ]{3}$/.test(value) && new Set(value).size === 3 ? value : "XYZ";
}
