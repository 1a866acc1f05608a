/**
 * Copies of the whole aircraft in one file: a Sketchfab "showcase" lays its levels of detail out
 * side by side or stacked (`LOD0`, `LOD1`, `LOD2` groups; `Aileron_L_LOD1` name suffixes), each a
 * whole aircraft with its own centre line. Measured against the scene's one centre line, a copy
 * set beside it lies wholly on one side: its right-named panels were taken for mirrored duplicates
 * and given the left side, and its mirror partners were compared across the wrong plane (a hinge
 * "875 % of chord apart across the mirror", weak); stacked copies read as one tall shape, and
 * `"auto"` found no frame. Copies found here are read apart: each has its own centre line (sides,
 * mirror partners, frame checks) and the frame is found from the first alone.
 *
 * Copies are found by name, never by shape: sibling groups (below any wrapper nodes) that each hold a
 * whole aircraft's panels — a wing surface and a tail surface — with the same panels by kind and side
 * (`LOD0`…`LOD2`, Unity's `Plane_LOD1`, `Variant A`), or else objects carrying a copy mark in their names
 * (`copy_names.ts`: `_LOD1`, `-lod1`, `_LOD0_0`, `_High`/`_Low`, `_lowpoly`, `_damaged`, Blender's
 * `.001`; the unmarked objects are one more copy) whose marks hold the same panels, or else names merely
 * repeated (the first of each name one copy, the second another). A word or a `.001`
 * must hold an aircraft named left and right: a mirrored half keeping its side (`Aileron.L.001`) or a
 * second rudder (`Rudder.001`) is no copy; a Blender-numbered piece goes to the copy it lies in
 * (`copy_members.ts`). A copy's centre line is the middle of its objects named as
 * left and right of one thing, else of its box (a twin's propeller blade reaches past a wing tip). Copies
 * drawn at one place (the usual export, or damage states) change nothing: only copies lying apart (along
 * any axis: a grid whose rows are narrower than the span) are read apart.
 *
 * Different aircraft in one file (a hangar, a Sketchfab collection) are read the same way: sibling groups
 * or names' first words (`Spitfire_Aileron_L` beside `Bf109_Aileron_L`) each heading a whole aircraft
 * named left and right, or names repeated by two such aircraft, even where their panels differ (one drawn
 * without a separate rudder). A biplane's `Upper_`/`Lower_` wings or a twin-boom's rudders hold no tail or
 * no wing each, and one prefix on every object (`SM_`) heads one aircraft: they stay one. Where names
 * cannot tell whose an object is (the same names in no order, each aircraft spelling sides its own way),
 * clusters of touching objects each holding a whole aircraft are the aircraft (`copy_places.ts`). Copies
 * lying apart are read about their own centre lines (`copy_centres.ts`).
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { subtreeNodes } from "./geometry.ts";
import { defaultSceneNodes } from "./scene_order.ts";
import { matchPanelName, sideFromName } from "./vocabulary.ts";
import {
  type CopyMark,
  copyMark,
  fileReading,
  namePrefix,
  readingFile,
  rememberedReading,
  withoutLevel,
} from "./copy_names.ts";
import { settleNumbered, settleRepeated } from "./copy_members.ts";
import { copiesByPlace } from "./copy_places.ts";
import { rememberedCopies } from "./copy_memo.ts";
import { debrisNodes } from "./detect_panels_debris.ts";

/** One copy of the aircraft: a label (its group's name or `LOD<n>`) and every node in it. */
export interface ModelCopy {
  readonly label: string;
  readonly nodes: ReadonlySet<Node>;
  /**
   * Several aircraft touching, standing apart from the others (`copy_places.ts`): which of them an
   * object is cannot be told, so its panels are sided about one centre line and judged weak.
   * `"kinds"` when only its panels' kinds repeat (two modellers' names barely overlapping): one
   * aircraft after all unless its shape shows two centre lines (`copy_untold.ts`).
   */
  readonly untold?: boolean | "kinds";
}

/** Kinds on a wing, and kinds on a tail (an elevon is both: a flying wing's copies count). */
const WING_KINDS = new Set([
  "aileron",
  "flap",
  "slat",
  "spoiler",
  "leading_edge_flap",
  "elevon",
  "air_brake",
]);
const TAIL_KINDS = new Set([
  "elevator",
  "rudder",
  "stabilator",
  "ruddervator",
  "canard",
  "elevon",
  "drag_rudder",
]);

/** Wrappers descended through looking for sibling copies (Sketchfab nests its models four deep). */
const MAX_DEPTH = 8;

/** The panel a name gives, as `kind|side`, or null when it names none; read with the file's words. */
export const panelKey: (name: string) => string | null = rememberedReading((name) => {
  const words = fileReading();
  const match = matchPanelName(name, words);
  return match
    ? `${match.kind}|${sideFromName(name, words) ?? sideFromName(withoutLevel(name), words) ?? ""}`
    : null;
});

/**
 * The panels a subtree's names give, by kind and side, as a sorted signature; empty when none.
 */
export function signature(nodes: readonly Node[]): string[] {
  const out: string[] = [];
  for (const node of nodes) {
    const key = panelKey(node.getName());
    if (key !== null) out.push(key);
  }
  return out.sort();
}

function wholeAircraft(panels: readonly string[]): boolean {
  const kinds = panels.map((p) => p.split("|")[0]);
  return kinds.some((k) => WING_KINDS.has(k)) && kinds.some((k) => TAIL_KINDS.has(k));
}

/** A whole aircraft with panels named left and right: what one aircraft of several must hold. */
export function wholeTwoSided(panels: readonly string[]): boolean {
  return wholeAircraft(panels) && panels.some((p) => p.endsWith("|left")) &&
    panels.some((p) => p.endsWith("|right"));
}

/**
 * The copies of the aircraft in the scene's default scene (see the module doc), or undefined when it
 * holds one.
 *
 * @example
 * ```ts
 * const copies = findCopies(doc); // [{ label: "LOD0", nodes }, { label: "LOD1", nodes }, …]
 * ```
 */
export function findCopies(doc: Document): ModelCopy[] | undefined {
  // Asked three times a rig (the frame, the fit, the sides), of copies sharing their vertex arrays.
  // Names are read with the file's others: a Polish file's `Lotka_P` is its right aileron.
  return rememberedCopies(doc, (d, words) => readingFile(words, () => lookForCopies(d)));
}

/** The copies in `doc`, looked for afresh: see {@link findCopies}. */
function lookForCopies(doc: Document): ModelCopy[] | undefined {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  if (!scene) return undefined;
  // Debris beside the aircraft is no copy of it, nor in one (its pieces' middles would pull a centre line).
  const debris = debrisNodes(doc), kept = (nodes: readonly Node[]) => nodes.filter((n) => !debris.has(n));
  let level = kept(scene.listChildren());
  for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
    // Only the nodes holding panels are kept: a flat file's million bare roots held an entry each.
    const holding: { node: Node; panels: string[] }[] = [];
    for (const node of level) {
      const panels = signature(subtreeNodes(node));
      if (panels.length > 0) holding.push({ node, panels });
    }
    if (holding.length === 1) {
      level = kept(holding[0].node.listChildren());
      continue;
    }
    const alike = new Map<string, Node[]>();
    for (const { node, panels } of holding) {
      if (panels.length < 2 || !wholeAircraft(panels)) continue;
      const key = panels.join(",");
      alike.set(key, [...(alike.get(key) ?? []), node]);
    }
    const groups = [...alike.values()].filter((g) => g.length >= 2).sort((a, b) => b.length - a.length);
    // Different aircraft side by side (`Spitfire`, `Bf109` groups; a collection's named roots): two
    // siblings or more each holding a whole aircraft named left and right, their panels differing.
    if (!groups.length && holding.filter((h) => wholeTwoSided(h.panels)).length >= 2) {
      return holding.filter((h) => wholeTwoSided(h.panels))
        .map(({ node }) => ({ label: node.getName(), nodes: new Set(subtreeNodes(node)) }));
    }
    if (groups.length) {
      // Two alike make copies; then every sibling holding a whole aircraft is one (a coarse level that
      // dropped its trim tabs), in the scene's order.
      const copies = holding.filter((h) => groups[0].includes(h.node) || wholeAircraft(h.panels));
      return copies.map(({ node }) => ({ label: node.getName(), nodes: new Set(subtreeNodes(node)) }));
    }
    break;
  }
  return copiesByMark(kept(defaultSceneNodes(doc)));
}

/**
 * Copies by a mark in the names (`copy_names.ts`): the nodes carrying one mark (with everything below
 * them) are one copy, the unmarked ones another. Two marks or more holding the same panels make copies;
 * then every mark holding a whole aircraft is one. A level number is enough on its own; a word or a
 * duplicate suffix must hold a whole aircraft named left and right — `Aileron.L.001`, a mirrored half
 * keeping its side, or a second rudder `Rudder.001`, is no copy.
 */
function copiesByMark(nodes: readonly Node[]): ModelCopy[] | undefined {
  const classes = markClasses(nodes);
  // Names telling whose an object is first, then places, then names merely repeated.
  if (!classes) return copiesByPrefix(nodes) ?? placeCopies(nodes) ?? copiesByOccurrence(nodes);
  // Different aircraft each in levels of detail (`Spitfire_Aileron_L_LOD1` beside `Bf109_Aileron_L_LOD1`):
  // a level holds every aircraft's objects at it; each aircraft's levels are read apart.
  const fleet = copiesByPrefix(nodes);
  if (fleet) {
    const levels = fleet.flatMap(({ label, nodes: own }) => {
      const mine = nodes.filter((n) => own.has(n));
      return (markClasses(mine) ?? [{ nodes: new Set(mine) }]).map((c) => ({ ...c, of: label }));
    });
    const copies = alikeCopies(levels);
    if (copies) return settleNumbered(copies, nodes);
  }
  const copies = alikeCopies(classes);
  if (!copies) return placeCopies(nodes);
  // Blender numbers a duplicate by the next free suffix, so a number may not name its copy.
  return settleNumbered(copies, nodes);
}

/**
 * The nodes of `nodes` by the copy mark in their names (`copy_names.ts`; a marked group's mark holds for
 * all below it), the unmarked ones one class more; undefined when no name carries a mark.
 */
function markClasses(nodes: readonly Node[]): { mark?: CopyMark; nodes: Set<Node> }[] | undefined {
  const marks = new Map<string, { mark?: CopyMark; nodes: Set<Node> }>();
  const inMarked = new Set<Node>();
  for (const node of nodes) {
    // A marked group's mark holds for all below it (`Plane_LOD1` over Blender's `Aileron_L.001`).
    const mark = inMarked.has(node) ? undefined : copyMark(node.getName());
    if (!mark) continue;
    const entry = marks.get(mark.key) ?? marks.set(mark.key, { mark, nodes: new Set() }).get(mark.key)!;
    for (const n of subtreeNodes(node)) {
      entry.nodes.add(n);
      inMarked.add(n);
    }
  }
  if (!marks.size) return undefined;
  const unmarked = nodes.filter((n) => !inMarked.has(n));
  if (unmarked.length) marks.set("", { nodes: new Set(unmarked) });
  return [...marks.values()];
}

/** Aircraft by place (`copy_places.ts`), each holding a whole aircraft named left and right. */
function placeCopies(nodes: readonly Node[]): ModelCopy[] | undefined {
  const panelNamed = (node: Node | null): boolean =>
    !!node && (panelKey(node.getName()) !== null || panelNamed(node.getParentNode()));
  return copiesByPlace(nodes, (cluster) => wholeTwoSided(signature(cluster)), panelNamed);
}

/**
 * Copies by repeated names with no mark at all (an exporter that keeps a duplicate's names, flattened):
 * the first of each name is one copy, the second another, and so on, as marks are read.
 */
function copiesByOccurrence(nodes: readonly Node[]): ModelCopy[] | undefined {
  const seen = new Map<string, number>();
  const classes: { mark: CopyMark; nodes: Set<Node> }[] = [];
  for (const node of nodes) {
    const k = seen.get(node.getName()) ?? 0;
    seen.set(node.getName(), k + 1);
    classes[k] ??= { mark: { by: "duplicate", key: `#${k + 1}`, level: k }, nodes: new Set() };
    classes[k].nodes.add(node);
  }
  const copies = classes.length > 1 ? alikeCopies(classes) : undefined;
  // The order of names does not say whose a shared name is (one `Rudder` among another's German names).
  return copies && settleRepeated(copies, nodes);
}

/**
 * Different aircraft told apart by their names' first word (`Spitfire_Aileron_L`, `Spitfire_Fuselage`
 * beside `Bf109_Aileron_L`): the nodes under one first word (with everything below them) are one
 * aircraft; two first words or more each heading a whole aircraft named left and right make copies.
 * One word heading every panel (`CTRL_`, `SM_`) makes none.
 */
function copiesByPrefix(nodes: readonly Node[]): ModelCopy[] | undefined {
  const isPanelOrSide = (word: string) => panelKey(word) !== null || !!sideFromName(word, fileReading());
  const classes = new Map<string, { mark: CopyMark; nodes: Set<Node> }>();
  const taken = new Set<Node>();
  for (const node of nodes) {
    const prefix = taken.has(node) ? undefined : namePrefix(node.getName(), isPanelOrSide);
    if (!prefix) continue;
    const entry = classes.get(prefix) ??
      classes.set(prefix, { mark: { by: "word", key: prefix }, nodes: new Set() }).get(prefix)!;
    for (const n of subtreeNodes(node)) {
      entry.nodes.add(n);
      taken.add(n);
    }
  }
  return classes.size > 1 ? alikeCopies([...classes.values()]) : undefined;
}

/**
 * The copies among classes of nodes (one per mark): two or more holding the same panels make copies,
 * then every class holding a whole aircraft is one, the unmarked class first, then by level. A level
 * number is enough on its own; a word, a duplicate suffix or a repeated name must hold a whole aircraft
 * named left and right.
 */
function alikeCopies(
  classes: readonly { mark?: CopyMark; nodes: Set<Node>; of?: string }[],
): ModelCopy[] | undefined {
  const held = classes.map((entry) => ({ ...entry, panels: signature([...entry.nodes]) }))
    .filter(({ mark, panels }) => panels.length >= 2 && (mark?.by === "lod" || wholeTwoSided(panels)));
  const keys = held.map((h) => h.panels.join(","));
  // Two alike make copies, and so do two whole aircraft named left and right whose panels differ
  // (two types keeping the same names, one drawn without a separate rudder).
  if (!keys.some((k, i) => keys.indexOf(k) !== i) && held.filter((h) => wholeTwoSided(h.panels)).length < 2) {
    return undefined;
  }
  const level = (mark?: CopyMark) => mark ? mark.level ?? 0.5 : -1;
  return held.filter((h, i) => keys.indexOf(keys[i]) !== keys.lastIndexOf(keys[i]) || wholeAircraft(h.panels))
    .sort((a, b) => level(a.mark) - level(b.mark))
    .map(({ mark, nodes, of }) => ({
      label: (of ? `${of} ` : "") +
        (!mark ? "(unmarked)" : mark.by === "lod" ? `LOD${mark.level}` : mark.key),
      nodes,
    }));
}
