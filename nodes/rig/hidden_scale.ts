/**
 * Damage copies hidden at scale 0: engines without a visibility flag switch a copy off by shrinking it
 * to a point, and their exporters write it so (`Aileron_L_dmg` at scale 0 over `Aileron_L`). A game
 * swaps the copy in by restoring its scale, so it turns about its intact surface's hinge like any
 * damage copy (`damage_states.ts`); shrunk, its vertices lay on one point and the fit left it out as
 * having "no area". `rig.fit_hinge` reads such a copy unscaled while it fits (`showScaledCopies`) and
 * shrinks it again before its output (`hideAgain`), so the rigged file still hides it.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import { damageLevel, surfaceKey } from "./damage_states.ts";
import { boundsOf, liesApart } from "./detect_panels_debris.ts";
import type { Vec3 } from "./transform.ts";

/** A scale whose every factor is at most this is a copy shrunk away (a true 0, or a float's dust). */
const SHRUNK = 1e-6;

/**
 * Gives each damage copy among `panels` shrunk to a point by its own scale a scale of 1, when so
 * unscaled it lies on its intact surface (one of `panels` named alike, unmarked or marked intact; not
 * apart from it: `liesApart`), and says so in a warning naming them. Returns each copy's own scale, for
 * `hideAgain`. A shrunk copy lying apart unscaled, or with no intact surface, is left shrunk.
 */
export function showScaledCopies(panels: readonly Node[], ctx: Pick<RunContext, "warn">): Map<Node, Vec3> {
  const intact = new Map<string, Node>();
  for (const node of panels) if (!damageLevel(node)) intact.set(surfaceKey(node.getName()), node);
  const shown = new Map<Node, Vec3>();
  for (const copy of panels) {
    const scale = copy.getScale();
    if (!damageLevel(copy) || !scale.every((s) => Math.abs(s) <= SHRUNK)) continue;
    const surface = intact.get(surfaceKey(copy.getName()));
    const b = surface && boundsOf(surface);
    if (!b) continue;
    copy.setScale([1, 1, 1]);
    const a = boundsOf(copy);
    if (a && !liesApart(a, b)) shown.set(copy, [...scale] as Vec3);
    else copy.setScale(scale);
  }
  if (shown.size) {
    const names = [...shown.keys()].map((n) => `'${n.getName()}'`).join(", ");
    ctx.warn(
      `${names}: damage ${shown.size === 1 ? "copy" : "copies"} hidden at scale 0 (a game shows one by ` +
        "restoring its scale): fitted unscaled, where it lies on its intact surface, and kept at scale 0 " +
        "in the output, still hidden",
      { panels: [...shown.keys()].map((n) => n.getName()) },
    );
  }
  return shown;
}

/** Shrinks each copy `showScaledCopies` showed back to its own scale; `scene`, for the node's output. */
export function hideAgain(scene: Document, shown: ReadonlyMap<Node, Vec3>): Document {
  for (const [copy, scale] of shown) copy.setScale(scale);
  return scene;
}
