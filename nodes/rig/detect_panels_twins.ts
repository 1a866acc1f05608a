/**
 * Trim tabs whose tab word a name field cut away: a `.3ds` file keeps 10 characters of an object's name,
 * so `Elevator_L_Tab` becomes `Elevator_L`, the name of the elevator it rides on (a converter may add
 * `.001`). Where such twins fill the file's name field and one is much smaller than the other, touching
 * it, the smaller is the tab; so is a panel whose name ends in what a field left of the tab word
 * (`Rudder_Tri`) much smaller than the panel of its kind it touches. It is said in a warning, since the
 * name alone cannot tell. A surface's pieces named apart (`Aileron_L_0`, `Aileron_L_1`) are no twins;
 * a panel so small beside one named otherwise in a field of 16 characters or fewer (`Elev_Left_`, cut
 * from `Elev_Left_Tab`, beside `Elevator_L`) is a doubt: a tab, or a piece of the surface.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import { positionBounds } from "./geometry.ts";
import { gatherDrawn } from "./drawn_vertices.ts";
import { IDENTITY } from "./transform.ts";
import type { NameMatch } from "./vocabulary.ts";
import { endsInCutTab, fieldFull } from "./vocabulary_cuts.ts";
import { TRIMMED_KINDS } from "./vocabulary_words.ts";

/** A converter's counter for names a cut made equal (`Elevator_L.001`). */
const SUFFIX = /(\.\d{3})+$/;

/** A tab is at most this share of its surface's size (bounding-box diagonal). */
const TAB_SHARE = 0.4;

/** A bounding box. */
type Box = { readonly min: readonly number[]; readonly max: readonly number[] };

function diagonal(b: Box): number {
  return Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]);
}

/**
 * The panels of `panels` that are trim tabs by the rule above (`tabs`) or may be (`doubts`), each with
 * its surface's node, given
 * every name of the file as name search reads it (`names`, for the field's width) and `searchName`.
 */
export function cutTwinTabs(
  panels: readonly { readonly node: Node; readonly match: NameMatch }[],
  names: readonly string[],
  searchName: (node: Node) => string,
): { tabs: Map<Node, Node>; doubts: Map<Node, Node> } {
  const full = fieldFull(names);
  // Boxes are gathered only for panels a twin is looked for among: a file of 2,000 panels drawing one
  // big mesh and none of them cut gathers none (each box walks its whole mesh).
  const boxes = new Map<Node, Box | undefined>();
  const box = (node: Node): Box | undefined => {
    // What its triangles draw: a loose vertex at the origin made a surface look larger than its twin.
    if (!boxes.has(node)) boxes.set(node, positionBounds(gatherDrawn(node, IDENTITY)));
    return boxes.get(node);
  };
  const bases = new Map(panels.map(({ node }) => [node, searchName(node).replace(SUFFIX, "")]));
  const ofKind = Map.groupBy(panels, (p) => p.match.kind);
  // How many panels of a kind share a name cut alike: a tab is the smaller of such twins.
  const twins = new Map<string, number>();
  for (const { node, match } of panels) {
    const key = `${match.kind} ${bases.get(node)}`;
    twins.set(key, (twins.get(key) ?? 0) + 1);
  }
  const tabs = new Map<Node, Node>();
  // Smaller and touching, named otherwise (`Elev_Left_` beside `Elevator_L`): a tab or a piece.
  const doubts = new Map<Node, Node>();
  for (const panel of panels) {
    const name = searchName(panel.node);
    const cutTab = endsInCutTab(name);
    if (!TRIMMED_KINDS.includes(panel.match.kind) || !(full(name) || cutTab)) continue;
    const base = bases.get(panel.node)!;
    // Neither a tab (no cut tab word, no twin) nor a doubt (a name too long for one): no box to gather.
    const twinned = (twins.get(`${panel.match.kind} ${base}`) ?? 0) > 1;
    if (!cutTab && !twinned && !(full(name) && base.length <= 16)) continue;
    const own = box(panel.node);
    if (!own) continue;
    // The nearest other panel of its kind, whatever its name (`LH_Elevato` beside `Elevator_L`).
    let surface: { node: Node; gap: number; alike: boolean } | undefined;
    for (const other of ofKind.get(panel.match.kind)!) {
      const theirs = other === panel ? undefined : box(other.node);
      if (!theirs) continue;
      // Its surface's own name, cut alike (a split surface's pieces are named apart: `_0`, `_1`).
      const alike = cutTab || bases.get(other.node) === base;
      const gap = Math.hypot(
        Math.max(0, theirs.min[0] - own.max[0], own.min[0] - theirs.max[0]),
        Math.max(0, theirs.min[1] - own.max[1], own.min[1] - theirs.max[1]),
        Math.max(0, theirs.min[2] - own.max[2], own.min[2] - theirs.max[2]),
      );
      if (!surface || gap < surface.gap || (alike && !surface.alike && gap <= surface.gap + 1e-9)) {
        surface = { node: other.node, gap, alike };
      }
    }
    if (!surface) continue;
    const size = diagonal(box(surface.node)!);
    // Much smaller, and touching or near the surface (a tab rides on its trailing edge).
    if (diagonal(own) > TAB_SHARE * size || surface.gap > 0.25 * size) continue;
    if (surface.alike) tabs.set(panel.node, surface.node);
    else if (full(name) && base.length <= 16) doubts.set(panel.node, surface.node);
  }
  return { tabs, doubts };
}
