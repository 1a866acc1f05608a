/**
 * Aircraft the rig cannot tell apart (`copies.ts`): names showing several aircraft — each panel named
 * twice or more, however each spells its side (`Aileron_L` beside `aileron.l`), or copies found whose
 * boxes neither lie apart nor coincide — where neither names nor places say which object is whose:
 * aircraft parked wing over wing (tips overlapping), two types drawn over each other. Sided about one
 * centre line, every aircraft but the one on it takes the wrong side for half its panels, silently; the
 * rig says so instead (`rig.assign_side` warns, naming the panels, and judges them weak).
 *
 * @module
 */
import type { Accessor, Document, Node } from "@gltf-transform/core";
import { subtreeNodes } from "./geometry.ts";
import { IDENTITY } from "./transform.ts";
import { apartAlong, findCopies, panelKey, signature, wholeTwoSided } from "./copies.ts";
import { sidedName } from "./copy_names.ts";
import { type Bounds, meshBounds } from "./mesh_bounds.ts";

/** How far two copies' boxes may differ, as a fraction of their extent, and still be drawn at one place. */
const ONE_PLACE = 0.1;

/** True when two boxes coincide on every axis within {@link ONE_PLACE} of the larger extent. */
function atOnePlace(a: Bounds, b: Bounds): boolean {
  return [0, 1, 2].every((k) => {
    const extent = Math.max(a.max[k] - a.min[k], b.max[k] - b.min[k]);
    return Math.abs(a.min[k] - b.min[k]) <= ONE_PLACE * extent &&
      Math.abs(a.max[k] - b.max[k]) <= ONE_PLACE * extent;
  });
}

/**
 * The panels of several aircraft in `doc` that names and places cannot tell apart (see the module doc),
 * in the scene's order; undefined when the scene holds one aircraft, or its aircraft are told apart
 * (lying apart, or copies drawn at one place, where one centre line serves them all).
 */
export function untoldAircraft(doc: Document): Node[] | undefined {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  if (!scene) return undefined;
  const nodes = scene.listChildren().flatMap(subtreeNodes);
  const panels = nodes.filter((n) => panelKey(n.getName()) !== null);
  const copies = findCopies(doc);
  if (copies) {
    const cache = new Map<Accessor, Bounds | undefined>();
    const boxes = copies.map((c) => meshBounds(c.nodes, IDENTITY, cache))
      .filter((b): b is Bounds => !!b);
    const pairs = boxes.flatMap((a, i) => boxes.slice(i + 1).map((b) => [a, b] as const));
    const told = pairs.every(([a, b]) => atOnePlace(a, b)) ||
      pairs.some(([a, b]) => [0, 1, 2].some((k) => apartAlong(a, b, k)));
    if (told) return undefined;
    const held = new Set(copies.flatMap((c) => [...c.nodes]));
    return panels.filter((n) => held.has(n));
  }
  // No copies found: a panel named twice or more, however its side is spelt, is several aircraft's when
  // the panels so named make a whole aircraft named left and right (a wing's and a tail's).
  const keyOf = (n: Node) => sidedName(n.getName()) ?? n.getName().toLowerCase();
  const count = new Map<string, number>();
  for (const n of panels) count.set(keyOf(n), (count.get(keyOf(n)) ?? 0) + 1);
  const repeated = panels.filter((n) => count.get(keyOf(n))! >= 2);
  return wholeTwoSided(signature(repeated)) ? repeated : undefined;
}
