/**
 * Finding the nodes of a load by what other records name them with: a URI of the main file (an
 * instance, or a definition with an instance), a skin joint (a bone of the mesh owner's figure),
 * and every instance of a definition.
 *
 * @module
 */
import { type DsonEntry, type DsonFile, idInFile } from "./dson_file.ts";
import { figureRoot, type SceneNode } from "./model.ts";
import { parseDsonUri } from "./uri.ts";

/**
 * The lookups over a load's node list, which grows as nodes are added ({@link NodeIndex.record}
 * each one).
 *
 * @example
 * ```ts
 * const index = new NodeIndex(list, main);
 * index.record(list.push(node) - 1, definition);
 * index.localNode("#hip-1");
 * ```
 */
export class NodeIndex {
  readonly #list: readonly SceneNode[];
  readonly #main: DsonFile;
  readonly #definitions: (DsonEntry | undefined)[] = [];
  readonly #nodeByInstance = new Map<string, number>();
  readonly #nodeByDefinition = new Map<DsonEntry, number>();
  #joints: { size: number; byDefinition: Map<DsonEntry, number[]>; byId: Map<string, number[]> } | undefined;

  constructor(list: readonly SceneNode[], main: DsonFile) {
    this.#list = list;
    this.#main = main;
  }

  /** Records node `index` (just added to the list) and the definition it was made from. */
  record(index: number, definition: DsonEntry | undefined): void {
    this.#definitions[index] = definition;
    const key = this.#list[index].key;
    if (!this.#nodeByInstance.has(key)) this.#nodeByInstance.set(key, index);
    if (definition && !this.#nodeByDefinition.has(definition)) this.#nodeByDefinition.set(definition, index);
  }

  /** The library entry node `n` was instantiated from, if it resolved. */
  definitionOf(n: number): DsonEntry | undefined {
    return this.#definitions[n];
  }

  /** The nodes made from `definition`, in list order. */
  instancesOf(definition: DsonEntry): readonly number[] {
    return this.#jointIndex().byDefinition.get(definition) ?? [];
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
    const inOwnFigure = (i: number) => isWithinFigureOf(this.#list, i, owner);
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
    if (this.#joints?.size === this.#list.length) return this.#joints;
    const byDefinition = new Map<DsonEntry, number[]>(), byId = new Map<string, number[]>();
    const push = <K>(map: Map<K, number[]>, key: K, i: number) => {
      const list = map.get(key);
      if (list) list.push(i);
      else map.set(key, [i]);
    };
    this.#list.forEach((node, i) => {
      const definition = this.#definitions[i];
      if (definition) push(byDefinition, definition, i);
      push(byId, node.id, i);
    });
    this.#joints = { size: this.#list.length, byDefinition, byId };
    return this.#joints;
  }
}

/** Whether `node` is in the figure `ancestor` belongs to (the step bound guards against loops). */
function isWithinFigureOf(nodes: readonly SceneNode[], node: number, ancestor: number): boolean {
  const top = figureRoot(nodes, ancestor);
  for (let n = node, steps = 0; n >= 0 && steps <= nodes.length; n = nodes[n].parent, steps++) {
    if (n === top) return true;
  }
  return false;
}
