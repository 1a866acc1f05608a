/**
 * Mirror images left unrigged: a panel with no mirror partner among the panels whose mirror image is
 * drawn by a node the names left fixed. Kit-bashed files name each side their own way — `Elevator_S`
 * beside `HStab_Port`, `Elev_Left` beside `HorizStab_Right` — and the side named a stabiliser is taken
 * for the fixed surface: one elevator turns, its twin does not, and nothing said so (held-out kit-bashed
 * pairs, 80 of 80 such scenes silent). The rig cannot tell which name is meant (a stabiliser may be the
 * fixed half), so it rigs nothing more and names both in a warning.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { type Bounds, type BoundsCache, meshBounds } from "./mesh_bounds.ts";
import { subtreeNodes } from "./geometry.ts";
import type { Mat4 } from "./transform.ts";
import type { HingeFit } from "./hinge_fit.ts";
import { pairPartners } from "./mirror_partners.ts";

/** Boxes whose every face lies within this share of the panel's largest extent are one mirrored. */
const MATCH = 0.03;

/**
 * For each panel of `fits` with no mirror partner (`mirror_partners.ts`; panels of aircraft the rig
 * cannot tell apart, `untold`, take none), the node outside every panel whose own mesh's box is the
 * panel's box mirrored across the plane at lateral `centreOf(panel)` (aircraft frame: `toAircraft`,
 * left the third axis): one warning text per such pair.
 *
 * @example
 * ```ts
 * mirrorStrays(scene, toAircraft, fits, kindOf); // ["panel 'Elevator_S' (elevator) has no mirror ..."]
 * ```
 */
export function mirrorStrays(
  scene: Document,
  toAircraft: Mat4,
  fits: ReadonlyMap<Node, HingeFit>,
  kindOf: (node: Node) => string,
  centreOf: (node: Node) => number = () => 0,
  untold: ReadonlySet<Node> = new Set(),
): string[] {
  const panels = [...fits.keys()], told = panels.filter((n) => !untold.has(n));
  const paired = new Set(pairPartners(told, (n) => fits.get(n)!, kindOf, centreOf).flat());
  const unpaired = told.filter((n) => !paired.has(n));
  if (unpaired.length === 0) return [];
  const inPanels = new Set(panels.flatMap((p) => subtreeNodes(p)));
  // A group holding a panel draws it too: only nodes drawing a mesh of their own, outside panels.
  const others = scene.getRoot().listNodes().filter((n) => n.getMesh() && !inPanels.has(n));
  // Each accessor's bounds read once: a hostile file's 2,000 panels may draw one 65,535-vertex mesh.
  const read: BoundsCache = new Map();
  const boxes = new Map<Node, Bounds | undefined>(others.map((n) => [n, meshBounds([n], toAircraft, read)]));
  const messages: string[] = [];
  for (const panel of unpaired) {
    const box = meshBounds(subtreeNodes(panel), toAircraft, read);
    if (!box) continue;
    const c = centreOf(panel);
    const size = Math.max(...[0, 1, 2].map((k) => box.max[k] - box.min[k]));
    const mirrored = {
      min: [box.min[0], box.min[1], 2 * c - box.max[2]],
      max: [box.max[0], box.max[1], 2 * c - box.min[2]],
    };
    // Lying across the plane, a panel is its own mirror image.
    if (!(size > 0) || (box.min[2] < c && box.max[2] > c)) continue;
    const twin = others.find((n) => {
      const b = boxes.get(n);
      return b &&
        [0, 1, 2].every((k) =>
          Math.abs(b.min[k] - mirrored.min[k]) <= MATCH * size &&
          Math.abs(b.max[k] - mirrored.max[k]) <= MATCH * size
        );
    });
    if (!twin) continue;
    messages.push(
      `panel '${panel.getName()}' (${
        kindOf(panel)
      }) has no mirror partner rigged: '${twin.getName()}' is its ` +
        `mirror image, but its name says no control surface, so it is left fixed (a kit-bashed file naming ` +
        `each side its own way?). Name both sides alike to rig both`,
    );
  }
  return messages;
}
