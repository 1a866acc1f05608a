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

type Extras = { type?: unknown; conform_target?: unknown; follows?: unknown; id?: unknown } | undefined;
const extras = (node: Node) => getPartgraphExtras(node).dson as Extras;

/**
 * The scope of a preset on `doc`: `figure` (a figure's glTF name, DSON id or instance key; "" for
 * none) or the figure `hints` name (fragments of ids the preset's scene names), else the only figure.
 * Throws when `figure` names no top-level figure; warns when several figures remain and none is
 * chosen (the preset then reaches them all).
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
  const names = (node: Node) => {
    const id = extras(node)?.id, key = dsonKey(node);
    return [
      node.getName(),
      ...(typeof id === "string" ? [id, percentDecode(id)] : []),
      ...(key ? [key] : []),
    ];
  };
  let chosen: Node[] = figures;
  if (figure !== "") {
    chosen = figures.filter((node) => names(node).includes(figure));
    if (chosen.length === 0) {
      throw new Error(
        `dson preset: figure '${figure}' names no figure of the scene (${
          figures.map((n) => n.getName()).join(", ")
        })`,
      );
    }
    // Two instances of one figure file share its DSON id: the preset reaches both, said so.
    if (chosen.length > 1) {
      warn(
        `dson preset: figure '${figure}' names ${chosen.length} figures of the scene (${
          chosen.map((n) => n.getName()).join(", ")
        }): applied to all of them; give a name or instance id to choose one`,
      );
    }
  } else if (figures.length > 1) {
    // A hint naming one figure (an instance id) picks it; one naming several (their shared
    // definition's id) does not.
    const named = new Set(
      hints.map((hint) => figures.filter((node) => names(node).includes(hint))).flatMap((m) =>
        m.length === 1 ? m : []
      ),
    );
    if (named.size === 1) chosen = [...named];
    else {
      warn(
        `dson preset: Daz applies a preset to the selected figure, and this scene has ${figures.length} figures ` +
          `(${figures.map((n) => n.getName()).join(", ")}), ${
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
