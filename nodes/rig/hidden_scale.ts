/**
 * Damage copies hidden at scale 0: engines without a visibility flag switch a copy off by shrinking it
 * to a point, and their exporters write it so (`Aileron_L_dmg` at scale 0 over `Aileron_L`), or to a
 * tiny scale (1e-4…1e-6), or shrink the group holding the copies (a `Damage` group, a 3ds Max dummy). A game
 * swaps the copy in by restoring its scale, so it turns about its intact surface's hinge like any
 * damage copy (`damage_states.ts`); shrunk, its vertices lay on one point and the fit left it out as
 * having "no area". `rig.fit_hinge` reads such a copy unscaled while it fits (`showScaledCopies`) and
 * shrinks it again before its output (`hideAgain`), so the rigged file still hides it.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import { copySurfaceKey, damageLevel, surfaceKey } from "./damage_states.ts";
import { boundsOf, liesApart } from "./detect_panels_debris.ts";
import type { Vec3 } from "./transform.ts";

/**
 * A copy whose world scale is at most this share of its intact surface's is shrunk away: a true 0, or
 * the 1e-4…1e-6 exporters write to hide a part (a unit's 0.001 on the whole model shrinks both alike).
 */
const SHRUNK = 1e-3;
/** A node's own scale with every factor at most this hides what is below it (its copy or a group). */
const TINY = 1e-3;

/** The largest factor of `node`'s world scale (the longest column of its world matrix). */
function worldScale(node: Node): number {
  const m = node.getWorldMatrix();
  return Math.max(...[0, 4, 8].map((i) => Math.hypot(m[i], m[i + 1], m[i + 2])));
}

/**
 * The nodes hiding `copy` by their tiny scale: itself or groups above it (a `Damage` group, a 3ds Max
 * dummy), none of them above `intact`.
 */
function shrinkingNodes(copy: Node, intact: Node): Node[] {
  const aboveIntact = new Set<Node>();
  for (let at: Node | null = intact; at; at = at.getParentNode()) aboveIntact.add(at);
  const out: Node[] = [];
  for (let at: Node | null = copy; at && !aboveIntact.has(at); at = at.getParentNode()) {
    if (at.getScale().every((s) => Math.abs(s) <= TINY)) out.push(at);
  }
  return out;
}

/**
 * Gives each damage copy among `panels` shrunk away — by its own scale or a group's above it, to 0 or to
 * a tiny scale — a scale of 1 on each node shrinking it, when so unscaled it lies on its intact surface
 * (one of `panels` named alike, unmarked or marked intact; not apart from it: `liesApart`), and says so
 * in a warning naming them. Returns each unscaled node's own scale, for `hideAgain`. A shrunk copy lying
 * apart unscaled, or with no intact surface, is left shrunk.
 */
export function showScaledCopies(panels: readonly Node[], ctx: Pick<RunContext, "warn">): Map<Node, Vec3> {
  const intact = new Map<string, Node>();
  for (const node of panels) if (!damageLevel(node)) intact.set(surfaceKey(node.getName()), node);
  // Every shrunk copy is listed before any is unscaled: a group shown for one shows its siblings too.
  const shrunk = panels.flatMap((copy) => {
    const surface = damageLevel(copy) ? intact.get(copySurfaceKey(copy)) : undefined;
    return surface && worldScale(copy) <= SHRUNK * worldScale(surface) ? [{ copy, surface }] : [];
  });
  const shown = new Map<Node, Vec3>(), copies: Node[] = [], groups = new Set<Node>();
  for (const { copy, surface } of shrunk) {
    const b = boundsOf(surface);
    if (!b) continue;
    const shrinking = shrinkingNodes(copy, surface).filter((n) => !shown.has(n));
    const scales = shrinking.map((n) => [...n.getScale()] as Vec3);
    for (const node of shrinking) node.setScale([1, 1, 1]);
    const a = boundsOf(copy);
    if (a && worldScale(copy) > SHRUNK * worldScale(surface) && !liesApart(a, b)) {
      shrinking.forEach((node, i) => shown.set(node, scales[i]));
      copies.push(copy);
      for (let at = copy.getParentNode(); at; at = at.getParentNode()) if (shown.has(at)) groups.add(at);
    } else shrinking.forEach((node, i) => node.setScale(scales[i]));
  }
  if (copies.length) {
    const names = copies.map((n) => `'${n.getName()}'`).join(", ");
    const by = groups.size ? ` (by ${[...groups].map((g) => `'${g.getName()}'`).join(", ")})` : "";
    ctx.warn(
      `${names}: damage ${copies.length === 1 ? "copy" : "copies"} hidden at scale 0 or a tiny scale${by} ` +
        "(a game shows one by restoring its scale): fitted unscaled, where it lies on its intact surface, " +
        "and kept at that scale in the output, still hidden",
      { panels: copies.map((n) => n.getName()) },
    );
  }
  return shown;
}

/** Shrinks each node `showScaledCopies` unscaled back to its own scale; `scene`, for the node's output. */
export function hideAgain(scene: Document, shown: ReadonlyMap<Node, Vec3>): Document {
  for (const [copy, scale] of shown) copy.setScale(scale);
  return scene;
}
