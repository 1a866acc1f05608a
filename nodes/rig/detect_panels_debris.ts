/**
 * Damage copies lying apart from the surface they stand in for: a game's destroyed wing or elevator
 * modelled as debris beside the aircraft (moved clear of it, dropped to the ground, turned), not at the
 * place a game swaps damage states in (`damage_states.ts`). Rigged, such a piece was fitted where it lies,
 * bent and torn, and sided about the aircraft's centre line (`Aileron_R_DAMAGE` lying to the left: left,
 * judged good): it is no surface of the aircraft, so `rig.detect_panels` leaves it out and says so.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { copySurfaceKey, damageLevel, surfaceKey } from "./damage_states.ts";
import type { RunContext } from "../../runtime/node.ts";
import { type Bounds, meshBounds } from "./mesh_bounds.ts";
import { subtreeNodes } from "./geometry.ts";
import { defaultSceneNodes } from "./scene_order.ts";
import { IDENTITY } from "./transform.ts";

/**
 * A copy's box kept this share of its surface's largest extent clear of the surface's box lies apart: a
 * damage state swapped in where its surface hangs always overlaps it (at its root, if torn short), so any
 * clear gap past a float's slop is debris — a piece dropped half a chord below its aileron and turned,
 * lying within a quarter span of it, was fitted where it lay, 63° off, warned only that its fit failed.
 */
const CLEAR = 0.02;
/** A copy drawn at most this share of its surface's size is shrunk away (hidden), not debris. */
const SHRUNK = 1e-3;

/**
 * The damage copies among `panels` whose drawn box lies clear of their intact surface's (one of `panels`
 * of the same name unmarked, or marked intact: `surfaceKey`), with that surface. A copy drawing nothing,
 * or shrunk away (scale 0 or 1e-4: hidden, shrunk about wherever its node or group stands), is no debris.
 */
export function debrisApart(panels: readonly Node[]): { copy: Node; intact: Node }[] {
  const intact = new Map<string, Node>();
  for (const node of panels) {
    if (!damageLevel(node)) intact.set(surfaceKey(node.getName()), node);
  }
  const out: { copy: Node; intact: Node; offset: number[]; size: number }[] = [];
  for (const copy of panels) {
    if (!damageLevel(copy)) continue;
    const surface = intact.get(copySurfaceKey(copy));
    if (!surface) continue;
    const a = boundsOf(copy), b = boundsOf(surface);
    if (!a || !b || extent(a) < SHRUNK * extent(b)) continue;
    const clear = liesApart(a, b);
    const offset = [0, 1, 2].map((k) => (a.min[k] + a.max[k] - b.min[k] - b.max[k]) / 2);
    if (clear) out.push({ copy, intact: surface, offset, size: extent(b) });
  }
  // Copies moved alike are a copy of the aircraft laid out apart (a showcase's damaged one, `copies.ts`),
  // each piece where a game would swap it in on that copy: debris lies each piece its own way.
  const alike = (p: typeof out[number], q: typeof out[number]) =>
    Math.hypot(...p.offset.map((v, k) => v - q.offset[k])) <= 0.1 * Math.max(p.size, q.size);
  return out.filter((p) => !out.some((q) => q !== p && alike(p, q)))
    .map(({ copy, intact }) => ({ copy, intact }));
}

/**
 * Every node of the damage copies lying apart in `doc`'s scene (`debrisApart`), with all below them, for
 * readings made before panels are found (`copy_centres.ts`' centre lines, the `"auto"` frame): each copy and
 * intact surface read at the topmost node of its name (a group and its mesh named alike are one), the
 * copies by a mark in their own names. Empty when no name carries a damage mark.
 */
export function debrisNodes(doc: Document): Set<Node> {
  const nodes = defaultSceneNodes(doc);
  const keys = new Map(nodes.map((n) => [n, copySurfaceKey(n)]));
  const marked = new Set(
    nodes.filter((n) => keys.get(n) !== n.getName().trim().toLowerCase()).map((n) => keys.get(n)),
  );
  if (!marked.size) return new Set();
  const top = nodes.filter((n) => marked.has(keys.get(n)) && keys.get(n.getParentNode()!) !== keys.get(n));
  return new Set(debrisApart(top).flatMap(({ copy }) => subtreeNodes(copy)));
}

/** `panels` without the damage copies lying apart (`debrisApart`), each left out named in a warning. */
export function withoutDebris<T extends { readonly node: Node }>(
  panels: readonly T[],
  ctx: Pick<RunContext, "warn">,
): T[] {
  const debris = debrisApart(panels.map((c) => c.node));
  if (debris.length === 0) return [...panels];
  ctx.warn(
    `${debris.map(({ copy, intact }) => `'${copy.getName()}' (of '${intact.getName()}')`).join(", ")}: ` +
      `damage ${debris.length === 1 ? "copy lies" : "copies lie"} apart from the surface named alike ` +
      "(debris beside the aircraft?), not where a game swaps a damage state in: not rigged — give it " +
      "ctrl_type extras to rig it where it lies",
    { panels: debris.map(({ copy }) => copy.getName()) },
  );
  const left = new Set(debris.map(({ copy }) => copy));
  return panels.filter((c) => !left.has(c.node));
}

/** Whether box `a` lies clear of box `b` by more than `CLEAR` of `b`'s largest extent on some axis. */
export function liesApart(a: Bounds, b: Bounds): boolean {
  const margin = CLEAR * extent(b);
  return [0, 1, 2].some((k) => a.min[k] > b.max[k] + margin || a.max[k] < b.min[k] - margin);
}

/** The box of the meshes drawn by `node` and its subtree, in the scene; undefined when none. */
export function boundsOf(node: Node): Bounds | undefined {
  return meshBounds(subtreeNodes(node), IDENTITY);
}

function extent(box: Bounds): number {
  return Math.max(...[0, 1, 2].map((k) => box.max[k] - box.min[k]));
}
