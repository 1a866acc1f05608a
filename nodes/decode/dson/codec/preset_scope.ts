/**
 * Which figure a preset applies to. Daz applies a pose or shape preset to the selected figure (its
 * channels address `name://@selection/…`), and the items fitted to it follow; a decoded scene has
 * no selection, so the figure is the `figure` parameter, else the one the preset's own scene names
 * (a modifier instance's `parent` or a node's `url`/`id` fragment, as a character preset writes
 * them), else the scene's only figure. With several figures and none chosen, the preset reaches
 * every figure, as before, and says so.
 *
 * @module
 */
import type { Document, Mesh, Node } from "@gltf-transform/core";
import type { WarningSink } from "../../../../runtime/node.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { dsonKey, record } from "./preset_pose.ts";
import { parseDsonUri, percentDecode } from "./uri.ts";

/** The nodes and meshes a preset may change, and the figures `@selection` names. */
export interface PresetScope {
  /** The figure roots a channel on `@selection` itself poses. */
  readonly selected: readonly Node[];
  /** Whether a node (a bone of the figure or of an item fitted to it) may be posed or matched. */
  readonly hasNode: (node: Node) => boolean;
  /** Whether a mesh's morphs may be dialled. */
  readonly hasMesh: (mesh: Mesh) => boolean;
}

type Extras =
  | { type?: unknown; conform_target?: unknown; follows?: unknown; id?: unknown; label?: unknown }
  | undefined;
const extras = (node: Node) => getPartgraphExtras(node).dson as Extras;

/**
 * The scope of a preset on `doc`: `figure` (a figure's instance key, name, label or DSON id, matched
 * in that order by {@link matchFigure}; "" for none) or the figure `hints` name (fragments of ids the
 * preset's scene names), else the only figure. Throws when `figure` names no top-level figure; warns
 * when it names several, or several figures remain and none is chosen (the preset then reaches them
 * all).
 *
 * @example
 * ```ts
 * const scope = presetScope(doc, "Genesis8Female-2", [], warn);
 * ```
 */
export function presetScope(
  doc: Document,
  figure: string,
  hints: readonly string[],
  warn: WarningSink,
): PresetScope {
  const figures = selectedFigures(doc);
  let chosen: Node[] = figures;
  if (figure !== "") {
    const match = matchFigure(figures, figure);
    if (match.length === 0) {
      throw new Error(
        `dson preset: figure '${figure}' names no figure of the scene (${figures.map(describe).join(", ")})`,
      );
    }
    chosen = match;
    // Two instances sharing a name, label and DSON id: the preset reaches both, said so with the
    // instance ids that tell them apart.
    if (chosen.length > 1) {
      warn(
        `dson preset: figure '${figure}' names ${chosen.length} figures of the scene (${
          chosen.map(describe).join(", ")
        }): applied to all of them; set the figure parameter to one's instance id (${
          chosen.map((n) => dsonKey(n) ?? n.getName()).join(", ")
        }) to choose it`,
      );
    }
  } else if (figures.length > 1) {
    // A hint naming one figure (an instance id) picks it; one naming several (their shared
    // definition's id) does not.
    const named = new Set(
      hints.map((hint) => matchFigure(figures, hint)).flatMap((m) => m.length === 1 ? m : []),
    );
    if (named.size === 1) chosen = [...named];
    else {
      warn(
        `dson preset: Daz applies a preset to the selected figure, and this scene has ${figures.length} figures ` +
          `(${figures.map(describe).join(", ")}), ${
            named.size ? `of which ${named.size} are named by the preset` : "the preset names none of them"
          }: applied to all of them; set the figure parameter to choose one`,
      );
    }
  }
  if (chosen.length === figures.length) {
    return {
      selected: figures,
      hasNode: () => true,
      hasMesh: () => true,
    };
  }
  const owners = new Set(chosen);
  const byKey = new Map<string, Node>();
  for (const node of doc.getRoot().listNodes()) {
    const key = dsonKey(node);
    if (key !== undefined && !byKey.has(key)) byKey.set(key, node);
  }
  const owner = ownerOf(byKey);
  const hasNode = (node: Node) => owners.has(owner(node)!);
  const meshes = new Set<Mesh>();
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    // A skinned mesh sits at the scene root: it belongs to the figure of its joints.
    const at = node.getSkin()?.listJoints()[0] ?? node;
    if (hasNode(at)) meshes.add(mesh);
  }
  return { selected: chosen, hasNode, hasMesh: (mesh) => meshes.has(mesh) };
}

/**
 * The figures `wanted` names, by the most specific name that names any: the instance id (unique in
 * the scene), then the DSON name, the label, and last the definition's DSON id (which instances of
 * one figure file share). A name naming one figure at a later tier wins over one naming several at
 * an earlier (two bodies named `Genesis9`, labelled `Genesis 9` and `Genesis 9 (2)`); naming several
 * at every tier it names any, the first such set is returned (the caller warns).
 */
function matchFigure(figures: readonly Node[], wanted: string): Node[] {
  const tiers: ((node: Node) => unknown[])[] = [
    (node) => [dsonKey(node)],
    (node) => [node.getName()],
    (node) => [extras(node)?.label],
    (node) => {
      const id = extras(node)?.id;
      return typeof id === "string" ? [id, percentDecode(id)] : [];
    },
  ];
  let several: Node[] = [];
  for (const names of tiers) {
    const match = figures.filter((node) => names(node).includes(wanted));
    if (match.length === 1) return match;
    if (match.length > 1 && !several.length) several = match;
  }
  return several;
}

/** A figure for a message: its name, its label when another, and its instance id. */
function describe(node: Node): string {
  const label = extras(node)?.label, key = dsonKey(node), name = node.getName();
  const labelled = typeof label === "string" && label !== name ? ` labelled '${label}'` : "";
  return `'${name}'${labelled}${key !== undefined && key !== name ? ` (instance ${key})` : ""}`;
}

/**
 * The figure a node belongs to: its top-level DSON ancestor, or, for a fitted item (its root has a
 * `conform_target`), the figure of the node its bones follow, through chains of items.
 */
function ownerOf(byKey: Map<string, Node>): (node: Node) => Node | undefined {
  const top = (node: Node) => {
    let found: Node | undefined;
    for (let n: Node | null = node; n; n = n.getParentNode()) if (extras(n)) found = n;
    return found;
  };
  const follows = (root: Node): string | undefined => {
    const stack = [root];
    while (stack.length) {
      const n = stack.pop()!;
      const key = extras(n)?.follows;
      if (typeof key === "string") return key;
      stack.push(...n.listChildren());
    }
    return undefined;
  };
  return (node) => {
    let root = top(node);
    for (let hops = 0; root && typeof extras(root)?.conform_target === "string" && hops < 64; hops++) {
      // Its bones follow the body's; an item with no bone of the body's names (a prop-like item at
      // the scene root) is the body's by its conform_target's id.
      const key = follows(root) ?? parseDsonUri(extras(root)!.conform_target as string).id;
      const target = byKey.get(key);
      if (!target) break;
      root = top(target);
    }
    return root;
  };
}

/**
 * The nodes a channel on `@selection` itself may pose: every figure's root that is not a conforming
 * item (no `conform_target`) nor below another figure; the top-level DSON nodes when the scene has
 * no figure (a prop).
 */
function selectedFigures(doc: Document): Node[] {
  const dson = (node: Node) => record(node) as { type?: unknown; conform_target?: unknown } | undefined;
  const withRecord = doc.getRoot().listNodes().filter((node) => dson(node));
  const ancestors = (node: Node) => {
    const out: Node[] = [];
    for (let n = node.getParentNode(); n; n = n.getParentNode()) out.push(n);
    return out;
  };
  const figures = withRecord.filter((node) =>
    dson(node)!.type === "figure" && dson(node)!.conform_target === undefined &&
    !ancestors(node).some((a) => dson(a)?.type === "figure")
  );
  return figures.length ? figures : withRecord.filter((node) => !ancestors(node).some((a) => dson(a)));
}
