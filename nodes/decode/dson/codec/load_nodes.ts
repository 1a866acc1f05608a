/**
 * Node instancing for a load: the scene's node instances (or the main file's library roots when it
 * has no scene), each figure's bones brought along per instance, parent links resolved and checked
 * for cycles, and the lookups later stages need (a URI to its node, a skin joint to its bone).
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import { type DsonEntry, type DsonFile, idInFile } from "./dson_file.ts";
import { figureRoot, type SceneNode } from "./model.ts";
import { describeJson, type JsonRecord } from "./read_json.ts";
import { findSceneParent, NodeLookup, ParentSearchTooLong } from "./scene_parents.ts";
import { parseDsonUri } from "./uri.ts";
import { chainText, MAX_HIERARCHY_DEPTH, scanHierarchy } from "../../../../runtime/depth.ts";

/** Nodes instances may bring beyond 16 × the node definitions they come from. */
export const INSTANCED_NODE_SLACK = 65_536;

/**
 * Fails when library node parents loop within a file, or chain deeper than
 * {@link MAX_HIERARCHY_DEPTH}: every later walk up a hierarchy relies on this. The main file is
 * checked before its scene is read, every other file before its nodes are brought along as a
 * figure's bones.
 *
 * @example
 * ```ts
 * checkDefinitionHierarchy(main); // throws a DecodeError naming the cycle
 * ```
 */
export function checkDefinitionHierarchy(file: DsonFile): void {
  const entries = [...file.ids.values()].filter((e) => e.kind === "node");
  const indexOf = new Map(entries.map((e, i) => [e, i]));
  const parentOf = (entry: DsonEntry) => {
    const parent: unknown = entry.value.parent;
    const id = typeof parent === "string" ? idInFile(parent, file) : undefined;
    const next = id === undefined ? undefined : file.ids.get(id);
    return next?.kind === "node" ? indexOf.get(next)! : -1;
  };
  const scan = scanHierarchy(entries.map(parentOf));
  if (scan.cycle.length) {
    file.read.fail(
      `${entries[scan.cycleFrom].path}/parent`,
      "a parent chain that ends at a root",
      `#raw:a cycle through ${chainText(scan.cycle.map((i) => `'${entries[i].value.id}'`))}`,
    );
  }
  if (scan.depth > MAX_HIERARCHY_DEPTH) {
    file.read.fail(
      `${entries[scan.deepest].path}/parent`,
      `a parent chain at most ${MAX_HIERARCHY_DEPTH} levels deep`,
      `#raw:${scan.depth} levels`,
    );
  }
}

/**
 * The nodes of one load, in scene order; a node's index in {@link SceneNodes.list} is how meshes,
 * skins and parents refer to it.
 *
 * @example
 * ```ts
 * const nodes = new SceneNodes(library, main);
 * await nodes.instantiateScene(instances);
 * nodes.instantiateDescendants();
 * ```
 */
export class SceneNodes {
  /** The instantiated nodes. */
  readonly list: SceneNode[] = [];
  readonly #library: ContentLibrary;
  readonly #main: DsonFile;
  readonly #nodeByInstance = new Map<string, number>();
  readonly #nodeByDefinition = new Map<DsonEntry, number>();
  readonly #definitions: (DsonEntry | undefined)[] = [];
  readonly #children = new Map<DsonFile, Map<string, DsonEntry[]>>();
  #joints: { size: number; byDefinition: Map<DsonEntry, number[]>; byId: Map<string, number[]> } | undefined;
  /** Scene instances whose parent named no instance (or who have none), for {@link linkPendingParents}. */
  readonly #pending: { node: number; uri?: string }[] = [];

  constructor(library: ContentLibrary, main: DsonFile) {
    this.#library = library;
    this.#main = main;
  }

  /** Adds a node per scene instance (`/scene/nodes`), then links and checks their parents. */
  async instantiateScene(instances: readonly unknown[]): Promise<void> {
    const read = this.#main.read;
    const parents: (string | undefined)[] = [];
    for (const [instance, at] of read.objects(instances, "/scene/nodes")) {
      const instanceId = read.string(instance.id, `${at}/id`);
      const url = read.string(instance.url, `${at}/url`);
      const resolved = await this.#library.resolve(url, this.#main, `${at}/url`);
      let definition = resolved?.entry;
      if (definition && definition.kind !== "node") {
        this.#library.miss(url, `names a ${definition.kind}, not a node`, this.#main, `${at}/url`);
        definition = undefined;
      }
      this.add(definition, instance, -1, instanceId, at);
      parents.push(read.optString(instance.parent, `${at}/parent`));
    }
    this.#linkSceneParents(parents);
    this.#checkSceneCycles();
  }

  /** Without a scene, every library node of the main file that has no parent there is a root. */
  instantiateLibraryRoots(): void {
    for (const entry of this.#main.ids.values()) {
      if (entry.kind === "node" && !hasLocalParent(entry)) {
        this.add(entry, entry.value, -1, entry.value.id as string);
      }
    }
  }

  /**
   * Every figure's bones come along with it, also when the scene does not list them. Checked per
   * instance: a scene may hold the same figure twice, and each copy needs its own skeleton.
   */
  instantiateDescendants(): void {
    // The parents each definition's nodes have (-1: a root), so "already present" is a lookup.
    const placed = new Map<DsonEntry, Set<number>>();
    const place = (i: number) => {
      const definition = this.#definitions[i];
      if (!definition) return;
      const parents = placed.get(definition) ?? new Set();
      placed.set(definition, parents.add(Math.max(this.list[i].parent, -1)));
    };
    this.list.forEach((_, i) => place(i));
    for (let n = 0; n < this.list.length; n++) {
      const definition = this.#definitions[n];
      if (!definition) continue;
      for (const child of this.#childrenOf(definition)) {
        // A listed instance whose parent did not resolve (a root) counts as present: no duplicate.
        const parents = placed.get(child);
        if (parents?.has(n) || parents?.has(-1)) continue;
        place(this.add(child, child.value, n, String(child.value.id)));
        this.#checkCount(child, placed.size);
      }
    }
    this.#checkDepth();
  }

  /**
   * Each instance of a figure brings its own bones: 2,000 instances of a 500-bone figure (a 97 KB
   * scene) made a million nodes, and the run was killed at 120 s and 4.6 GB. A crowd of 50 real
   * figures is about 14,000 nodes.
   */
  #checkCount(added: DsonEntry, definitions: number): void {
    const limit = 16 * definitions + INSTANCED_NODE_SLACK;
    if (this.list.length <= limit) return;
    added.file.read.fail(
      added.path,
      `instances bringing at most ${limit} nodes in all (16 × the ${definitions} node definitions + ` +
        `${INSTANCED_NODE_SLACK}), as each instance of a figure brings its own bones`,
      `#raw:${this.list.length} nodes by this one`,
    );
  }

  /**
   * Adds a node for a definition, with the overrides of a scene instance at `instanceAt` (absent
   * when the node is instantiated implicitly, from the definition alone); returns its index.
   */
  add(
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
    const fieldFile = (name: string) => (fromInstance(name) || !definition ? this.#main : definition.file);
    // An instance's channel overrides its definition's axis by axis: an axis it leaves out, or
    // writes without a value (or as null), keeps the definition's, as Diffeomorphic reads them.
    const vec = (name: string, fallback: number) => {
      if (!fromInstance(name) || !definition || def[name] === undefined) {
        return field(name).channelVec3(merged[name], fieldPath(name), fallback);
      }
      const base = read.channelVec3(def[name], `${at}/${name}`, fallback);
      return this.#main.read.channelVec3(
        instance[name],
        `${instanceAt}/${name}`,
        base,
        "the definition's value",
      );
    };
    const number = (name: string, fallback: number) => {
      if (!fromInstance(name) || !definition || def[name] === undefined) {
        return field(name).channelNumber(merged[name], fieldPath(name), fallback);
      }
      const base = read.channelNumber(def[name], `${at}/${name}`, fallback);
      return this.#main.read.channelNumber(
        instance[name],
        `${instanceAt}/${name}`,
        base,
        "the definition's value",
      );
    };
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
      generalScale: number("general_scale", 1),
      rotationOrder: this.#rotationOrder(
        merged.rotation_order,
        fieldFile("rotation_order"),
        fieldPath("rotation_order"),
      ),
      inheritsScale: this.#inheritsScale(
        merged.inherits_scale,
        fieldFile("inherits_scale"),
        fieldPath("inherits_scale"),
      ),
      conformTarget: typeof merged.conform_target === "string" ? merged.conform_target : undefined,
      preferredBase: preferredBase(merged.presentation),
    };
    const index = this.list.push(node) - 1;
    this.#definitions.push(definition);
    if (!this.#nodeByInstance.has(key)) this.#nodeByInstance.set(key, index);
    if (definition && !this.#nodeByDefinition.has(definition)) this.#nodeByDefinition.set(definition, index);
    return index;
  }

  /**
   * A node's `rotation_order`: three distinct axis letters. Written in lower case it is read in
   * upper case; anything else (or absent) is DSON's default XYZ. Both repairs are warnings, as
   * guessing an order silently would turn every pose rotation of the node wrongly.
   */
  #rotationOrder(value: unknown, file: DsonFile, path: string): string {
    if (value === undefined) return "XYZ";
    const text = typeof value === "string" ? value.trim().toUpperCase() : "";
    const valid = /^[XYZ]{3}$/.test(text) && new Set(text).size === 3;
    if (valid && text === value) return text;
    this.#library.repaired(
      file,
      path,
      valid
        ? `rotation order ${JSON.stringify(value)} read as '${text}'`
        : `${describeJson(value)} is not a rotation order (three distinct axes, e.g. 'YZX'); XYZ is used`,
    );
    return valid ? text : "XYZ";
  }

  /** A node's `inherits_scale` (default true); 0 and 1 are read as false and true, with a warning. */
  #inheritsScale(value: unknown, file: DsonFile, path: string): boolean {
    if (value === undefined) return true;
    if (typeof value === "boolean") return value;
    if (value === 0 || value === 1) {
      this.#library.repaired(file, path, `${value} read as ${value === 1}`);
      return value === 1;
    }
    return file.read.fail(path, "a boolean", value);
  }

  /** The library entry node `n` was instantiated from, if it resolved. */
  definitionOf(n: number): DsonEntry | undefined {
    return this.#definitions[n];
  }

  /** The node an instance-or-definition URI of the main file names. */
  localNode(uri: string): number | undefined {
    const id = idInFile(uri, this.#main);
    if (id === undefined) return undefined;
    const byInstance = this.#nodeByInstance.get(id);
    if (byInstance !== undefined) return byInstance;
    const entry = this.#main.ids.get(id);
    return entry ? this.#nodeByDefinition.get(entry) : undefined;
  }

  /**
   * The node a skin joint of file `from` names (bone `id` at `uri`), for a mesh owned by `owner`:
   * by definition, else by bone id within the owner's figure; undefined when it is neither.
   */
  jointNode(uri: string, id: string, owner: number, from: DsonFile): number | undefined {
    const parts = parseDsonUri(uri);
    const local = parts.filePath === "" ? from.ids.get(parts.id) : undefined;
    // The instance of that bone in the owner's own figure first: the same figure may be loaded twice.
    const index = this.#jointIndex();
    const inOwnFigure = (i: number) => isWithinFigureOf(this.list, i, owner);
    const inFigure = local ? index.byDefinition.get(local)?.find(inOwnFigure) : undefined;
    if (inFigure !== undefined) return inFigure;
    const byDefinition = local ? this.#nodeByDefinition.get(local) : undefined;
    if (byDefinition !== undefined) return byDefinition;
    return index.byId.get(parts.id || id)?.find(inOwnFigure);
  }

  /**
   * The nodes of each definition and of each id, in list order, so finding a skin's joints is not a
   * scan of every node per joint (20,000 joints took 3 s); made again after nodes are added.
   */
  #jointIndex(): { byDefinition: Map<DsonEntry, number[]>; byId: Map<string, number[]> } {
    if (this.#joints?.size === this.list.length) return this.#joints;
    const byDefinition = new Map<DsonEntry, number[]>(), byId = new Map<string, number[]>();
    const push = <K>(map: Map<K, number[]>, key: K, i: number) => {
      const list = map.get(key);
      if (list) list.push(i);
      else map.set(key, [i]);
    };
    this.list.forEach((node, i) => {
      const definition = this.#definitions[i];
      if (definition) push(byDefinition, definition, i);
      push(byId, node.id, i);
    });
    this.#joints = { size: this.list.length, byDefinition, byId };
    return this.#joints;
  }

  /**
   * Sets each scene instance's parent that names an instance of this scene (or a definition of
   * this file with an instance). The others wait, roots meanwhile, for {@link linkPendingParents}:
   * what they name may be a bone that only comes along with its figure.
   */
  #linkSceneParents(parents: readonly (string | undefined)[]): void {
    for (let i = 0; i < parents.length; i++) {
      const uri = parents[i];
      const parent = uri === undefined ? undefined : this.localNode(uri);
      if (parent === undefined) this.#pending.push({ node: i, uri });
      else this.list[i].parent = parent;
    }
  }

  /**
   * After the figures' bones are brought along: each scene instance whose `parent` named no
   * instance gets the node it names among all nodes (see {@link findSceneParent}), with a warning
   * saying how the URI was read. A bone without parent, or whose parent resolves to nothing, takes
   * its definition's parent; any other node whose parent resolves to nothing stays at the scene
   * root, with a warning naming the JSON path and the URI.
   */
  linkPendingParents(): void {
    if (!this.#pending.length) return;
    const lookup = new NodeLookup(this.list);
    // The nearest figure listed before each node, for a bone placed by its definition.
    const figureBefore = new Int32Array(this.list.length);
    for (let i = 0, last = -1; i < this.list.length; i++) {
      figureBefore[i] = last;
      if (this.list[i].type === "figure") last = i;
    }
    for (const { node: i, uri } of this.#pending) {
      const at = `/scene/nodes/${i}/parent`;
      try {
        this.#linkPendingParent(lookup, i, uri, figureBefore[i]);
      } catch (error) {
        if (!(error instanceof ParentSearchTooLong)) throw error;
        this.#main.read.fail(at, "parents that resolve in a bounded search", `#raw:${error.message}`);
      }
    }
    this.#pending.length = 0;
    this.#checkSceneCycles();
    this.#checkDepth();
  }

  /** Links one pending parent (see {@link linkPendingParents}). */
  #linkPendingParent(lookup: NodeLookup, i: number, uri: string | undefined, figure: number): void {
    if (uri === undefined) {
      this.#parentBoneByDefinition(lookup, i, figure);
      return;
    }
    const at = `/scene/nodes/${i}/parent`;
    const conform = this.list[i].conformTarget;
    const preferred = conform === undefined ? -1 : this.localNode(conform) ?? -1;
    const found = findSceneParent(lookup, i, uri, preferred);
    if ("node" in found) {
      this.list[i].parent = found.node;
      if (found.reading) this.#library.repaired(this.#main, at, `parent '${uri}' read as ${found.reading}`);
      return;
    }
    this.#library.miss(uri, found.reason, this.#main, at, { quiet: true });
    const why = `: its parent '${uri}' does not resolve (${found.reason})`;
    if (!this.#parentBoneByDefinition(lookup, i, figure, why)) {
      this.#library.repaired(
        this.#main,
        at,
        `parent '${uri}' does not resolve (${found.reason}); node '${
          this.list[i].key
        }' stays at the scene root`,
      );
    }
  }

  /**
   * A bone instance the scene lists without `parent` (or with one that resolves to nothing) takes
   * its definition's parent (an instance overrides its definition's properties; what it leaves out,
   * the definition says): an instance of the parent bone's definition — the nearest listed before
   * it, else one of `figure` (the nearest figure listed before it), else the first. A bone cannot
   * stand outside its figure, and as a root it would fall out of the skin, its vertices bound to
   * the figure root instead. Returns false when the node is no bone with a parent in its definition.
   */
  #parentBoneByDefinition(lookup: NodeLookup, i: number, figure: number, why = " has no parent"): boolean {
    const definition = this.#definitions[i];
    const written = definition?.value.parent;
    if (definition?.value.type !== "bone" || typeof written !== "string") return false;
    const parentId = idInFile(written, definition.file);
    const parentEntry = parentId === undefined ? undefined : definition.file.ids.get(parentId);
    if (parentEntry?.kind !== "node") return false;
    const instances = this.#jointIndex().byDefinition.get(parentEntry) ?? [];
    const candidates = instances.filter((j) => !lookup.isAtOrBelow(j, i));
    const parent = candidates.findLast((j) => j < i) ??
      candidates.find((j) => figure >= 0 && lookup.figureOf(j) === figure) ?? candidates[0] ?? -1;
    const at = `/scene/nodes/${i}`;
    if (parent < 0) {
      this.#library.repaired(
        this.#main,
        at,
        `bone instance '${this.list[i].key}'${why}, and no instance of its definition's parent ` +
          `'${written}' is in the scene; it stays a root`,
      );
      return true;
    }
    this.list[i].parent = parent;
    this.#library.repaired(
      this.#main,
      at,
      `bone instance '${this.list[i].key}'${why}; placed under '${this.list[parent].key}', ` +
        `the instance of its definition's parent '${written}'`,
    );
    return true;
  }

  /** Scene instances' parent chains must end at a root (only instances exist at this point). */
  #checkSceneCycles(): void {
    const scan = scanHierarchy(this.list.map((node) => node.parent));
    if (scan.cycle.length) {
      this.#main.read.fail(
        `/scene/nodes/${scan.cycleFrom}/parent`,
        "a parent chain that ends at a root",
        `#raw:a cycle through ${chainText(scan.cycle.map((k) => `'${this.list[k].key}'`))}`,
      );
    }
  }

  /** The whole hierarchy, instances and the bones brought along, within {@link MAX_HIERARCHY_DEPTH}. */
  #checkDepth(): void {
    const scan = scanHierarchy(this.list.map((node) => node.parent));
    if (scan.depth <= MAX_HIERARCHY_DEPTH) return;
    const definition = this.#definitions[scan.deepest];
    (definition?.file.read ?? this.#main.read).fail(
      definition?.path ?? "/scene/nodes",
      `a node hierarchy at most ${MAX_HIERARCHY_DEPTH} levels deep`,
      `#raw:${scan.depth} levels, instances and their figures' bones, down to node '${
        this.list[scan.deepest].key
      }'`,
    );
  }

  /** The library nodes of `entry`'s file whose parent is `entry` (indexed once per file). */
  #childrenOf(entry: DsonEntry): DsonEntry[] {
    let byParent = this.#children.get(entry.file);
    if (!byParent) {
      // Bringing a cycle's nodes along would never end (each copy's child is not yet present).
      if (entry.file !== this.#main) checkDefinitionHierarchy(entry.file);
      byParent = new Map();
      for (const candidate of entry.file.ids.values()) {
        if (candidate.kind !== "node" || typeof candidate.value.parent !== "string") continue;
        const parentId = idInFile(candidate.value.parent, entry.file);
        if (parentId === undefined) continue;
        const list = byParent.get(parentId) ?? [];
        list.push(candidate);
        byParent.set(parentId, list);
      }
      this.#children.set(entry.file, byParent);
    }
    return byParent.get(String(entry.value.id)) ?? [];
  }
}

/** Whether a library node's parent is a node of its own file (any file path is ignored here). */
function hasLocalParent(entry: DsonEntry): boolean {
  const parent = entry.value.parent;
  return typeof parent === "string" && entry.file.ids.get(parseDsonUri(parent).id)?.kind === "node";
}

/** Whether `node` is in the figure `ancestor` belongs to (the step bound guards against loops). */
function isWithinFigureOf(nodes: readonly SceneNode[], node: number, ancestor: number): boolean {
  const top = figureRoot(nodes, ancestor);
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
