/**
 * Krueger flaps: leading-edge devices that are no droop. A Krueger is a plate in the wing's lower
 * skin just behind its nose, hinged at its own forward edge: it swings down and forward about that
 * edge to stand ahead of the wing (a 737's and a 747's inboard leading edge). Its kind stays
 * `leading_edge_flap` (runtimes group it with the other leading-edge devices), but its hinge is its
 * forward edge, not the aft edge a droop flap or slat turns about, and a positive angle moves its far
 * (aft) edge down. Before, every Krueger was fitted on its aft edge — a whole chord off, judged good.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import { KIND_SPECS, type KindSpec } from "./kinds.ts";
import { getPart } from "./part_extras.ts";
import type { PanelKind } from "./vocabulary.ts";

/**
 * A Krueger's rig defaults: hinged at its forward edge, trailing (aft) edge down positive, deployed
 * up to 130° (a 747's travel is about 120°; the leading-edge flap group).
 */
export const KRUEGER_SPEC: KindSpec = {
  edge: "forward",
  positive: "trailing_edge_down",
  min: 0,
  max: 130,
  group: KIND_SPECS.leading_edge_flap.group,
};

// Krueger, Krüger, and the common misspelling Kruger, in any case and glued to other words
// (`KruegerFlap`, `LE_Krueger_Inbd`): no other word of a model's holds these letters.
const KRUEGER_WORD = /kr(?:ue|ü|u)ger/i;

/**
 * Leading-edge flaps `rig.fit_hinge` found lying where a Krueger lies (`krueger_place.ts`), with why;
 * marked for the run that fitted them (its nodes are its own copy of the scene).
 */
const BY_PLACE = new WeakMap<Node, string>();

/** Marks a leading-edge flap as a Krueger by its place, saying why. */
export function markKruegerByPlace(node: Node, why: string): void {
  BY_PLACE.set(node, why);
}

/** Why a panel is a Krueger by its place (`markKruegerByPlace`), or undefined. */
export function kruegerPlace(node: Node): string | undefined {
  return BY_PLACE.get(node);
}

/** Whether a leading-edge flap's node, or the mesh it draws, is named a Krueger. */
export function isKruegerName(node: Node): boolean {
  const part = getPart(node);
  if (part?.kind !== "leading_edge_flap") return false;
  return KRUEGER_WORD.test(node.getName()) || KRUEGER_WORD.test(node.getMesh()?.getName() ?? "");
}

/** Whether a panel is a Krueger flap: by its name, or by its place in this run. */
export function isKruegerFlap(node: Node): boolean {
  return isKruegerName(node) || BY_PLACE.has(node);
}

/**
 * Marks the pieces of a surface drawn in pieces (`surface_pieces.ts`: Blender's split by material,
 * `LE_Flap_Inbd_L` and `LE_Flap_Inbd_L.001`) as Krueger flaps when one of them is one, by its name
 * or its place. A piece alone may not show it: a sliver (the plate's forward face, a chord as thin
 * as the plate) has no wing nose within its chords, nor a Krueger word in a generic name, and was
 * signed as a droop flap (leading edge down, −3..25°: a positive angle lifted its aft edge). Returns
 * each piece marked here, with why.
 */
export function kruegerPieces(group: readonly Node[]): { piece: Node; why: string }[] {
  const krueger = group.find(isKruegerFlap);
  if (!krueger) return [];
  const how = isKruegerName(krueger) ? "named a Krueger flap" : "a Krueger flap by its place";
  const marked: { piece: Node; why: string }[] = [];
  for (const piece of group) {
    if (isKruegerFlap(piece) || getPart(piece)?.kind !== "leading_edge_flap") continue;
    const why = `it is a piece of '${krueger.getName()}' (${how}), drawn as a mesh of its own ` +
      "(split by material?): the whole flap hinges at its forward edge";
    markKruegerByPlace(piece, why);
    marked.push({ piece, why });
  }
  return marked;
}

/** The rig defaults of a panel node: its kind's, or a Krueger's for a Krueger flap. */
export function panelSpec(node: Node): KindSpec {
  return isKruegerFlap(node) ? KRUEGER_SPEC : KIND_SPECS[getPart(node)!.kind as PanelKind];
}
