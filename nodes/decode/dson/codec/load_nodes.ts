/**
 * Node instancing for a load: the scene's node instances (or the main file's library roots when it
 * has no scene), and each figure's bones brought along per instance. How one node is read is in
 * `node_record.ts`, the lookups in `node_lookups.ts`, parents found after the bones are brought in
 * `pending_parents.ts`, and the hierarchy checks in `node_hierarchy.ts`.
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import { type DsonEntry, type DsonFile, idInFile } from "./dson_file.ts";
import type { SceneNode } from "./model.ts";
import { checkDefinitionHierarchy, checkHierarchyDepth, checkSceneCycles } from "./node_hierarchy.ts";
import { NodeIndex } from "./node_lookups.ts";
import { readSceneNode } from "./node_record.ts";
import { linkPendingParents, type PendingParent } from "./pending_parents.ts";
import type { JsonRecord } from "./read_json.ts";
import { parseDsonUri } from "./uri.ts";

/** Nodes instances may bring beyond 16 × the node definitions they come from. */
export const INSTANCED_NODE_SLACK = 65_536;

/**
 * The nodes of one load, in scene order; a node's index in {@link SceneNodes.list} is how meshes,
 * skins and parents refer to it.
 *
 * @example
 * ```ts
 * const nodes = new SceneNodes(library, main);
 * await nodes.instantiateScene(instances);
 * nodes.instantiateDescendants();
 * nodes.linkPendingParents();
 * ```
 */
export class SceneNodes {
  /** The instantiated nodes. */
  readonly list: SceneNode[] = [];
  readonly #library: ContentLibrary;
  readonly #main: DsonFile;
  readonly #index: NodeIndex;
  readonly #children = new Map<DsonFile, Map<string, DsonEntry[]>>();
  /** Scene instances whose parent named no instance (or who have none), for {@link linkPendingParents}. */
  readonly #pending: PendingParent[] = [];

  constructor(library: ContentLibrary, main: DsonFile) {
    this.#library = library;
    this.#main = main;
    this.#index = new NodeIndex(this.list, main);
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
    checkSceneCycles(this.list, this.#main);
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
      const definition = this.#index.definitionOf(i);
      if (!definition) return;
      const parents = placed.get(definition) ?? new Set();
      placed.set(definition, parents.add(Math.max(this.list[i].parent, -1)));
    };
    this.list.forEach((_, i) => place(i));
    for (let n = 0; n < this.list.length; n++) {
      const definition = this.#index.definitionOf(n);
      if (!definition) continue;
      for (const child of this.#childrenOf(definition)) {
        // A listed instance whose parent did not resolve (a root) counts as present: no duplicate.
        const parents = placed.get(child);
        if (parents?.has(n) || parents?.has(-1)) continue;
        place(this.add(child, child.value, n, String(child.value.id)));
        this.#checkCount(child, placed.size);
      }
    }
    checkHierarchyDepth(this.list, (i) => this.#index.definitionOf(i), this.#main);
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
    const node = readSceneNode({ definition, instance, instanceAt, parent, key }, this.#main, this.#library);
    const index = this.list.push(node) - 1;
    this.#index.record(index, definition);
    return index;
  }

  /** The library entry node `n` was instantiated from, if it resolved. */
  definitionOf(n: number): DsonEntry | undefined {
    return this.#index.definitionOf(n);
  }

  /** The node an instance-or-definition URI of the main file names. */
  localNode(uri: string): number | undefined {
    return this.#index.localNode(uri);
  }

  /**
   * The node a skin joint of file `from` names (bone `id` at `uri`), for a mesh owned by `owner`:
   * by definition, else by bone id within the owner's figure; undefined when it is neither.
   */
  jointNode(uri: string, id: string, owner: number, from: DsonFile): number | undefined {
    return this.#index.jointNode(uri, id, owner, from);
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
   * instance gets the node it names among all nodes, a bone without one its definition's parent,
   * any other node stays at the scene root (see `pending_parents.ts`); then the hierarchy is
   * checked again.
   */
  linkPendingParents(): void {
    if (!this.#pending.length) return;
    linkPendingParents(this.#pending, {
      nodes: this.list,
      index: this.#index,
      library: this.#library,
      main: this.#main,
    });
    this.#pending.length = 0;
    checkSceneCycles(this.list, this.#main);
    checkHierarchyDepth(this.list, (i) => this.#index.definitionOf(i), this.#main);
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
