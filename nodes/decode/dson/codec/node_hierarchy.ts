/**
 * The checks every walk up a DSON node hierarchy relies on: library parents that end at a root
 * within {@link MAX_HIERARCHY_DEPTH} (per file), scene parent chains without a cycle, and the
 * instantiated hierarchy within the depth limit. Each failure is a `DecodeError` at the JSON path
 * of the node that shows it.
 *
 * @module
 */
import { type DsonEntry, type DsonFile, idInFile } from "./dson_file.ts";
import type { SceneNode } from "./model.ts";
import { chainText, MAX_HIERARCHY_DEPTH, scanHierarchy } from "../../../../runtime/depth.ts";

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
 * Fails when the parent chains of `nodes` loop, naming the scene instance (`/scene/nodes/i`) the
 * cycle is found from: called while only the scene's instances exist, and again after linking.
 *
 * @example
 * ```ts
 * checkSceneCycles(nodes.list, main); // throws at /scene/nodes/2/parent for a cycle through it
 * ```
 */
export function checkSceneCycles(nodes: readonly SceneNode[], main: DsonFile): void {
  const scan = scanHierarchy(nodes.map((node) => node.parent));
  if (scan.cycle.length) {
    main.read.fail(
      `/scene/nodes/${scan.cycleFrom}/parent`,
      "a parent chain that ends at a root",
      `#raw:a cycle through ${chainText(scan.cycle.map((k) => `'${nodes[k].key}'`))}`,
    );
  }
}

/**
 * Fails when the whole hierarchy — instances and the bones brought along — is deeper than
 * {@link MAX_HIERARCHY_DEPTH}, at the definition of the deepest node (`definitionOf` gives it;
 * undefined: the main file's scene).
 *
 * @example
 * ```ts
 * checkHierarchyDepth(nodes.list, (n) => nodes.definitionOf(n), main);
 * ```
 */
export function checkHierarchyDepth(
  nodes: readonly SceneNode[],
  definitionOf: (node: number) => DsonEntry | undefined,
  main: DsonFile,
): void {
  const scan = scanHierarchy(nodes.map((node) => node.parent));
  if (scan.depth <= MAX_HIERARCHY_DEPTH) return;
  const definition = definitionOf(scan.deepest);
  (definition?.file.read ?? main.read).fail(
    definition?.path ?? "/scene/nodes",
    `a node hierarchy at most ${MAX_HIERARCHY_DEPTH} levels deep`,
    `#raw:${scan.depth} levels, instances and their figures' bones, down to node '${
      nodes[scan.deepest].key
    }'`,
  );
}
