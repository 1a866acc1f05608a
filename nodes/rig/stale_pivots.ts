/**
 * partgraph's own earlier pivots left turning nothing: the user moved the panel out from under its
 * `HINGE_auto_<panel>` (Blender's Alt+P → Clear Parent, or Ctrl+P onto another object) or deleted it.
 * Kept, such a pivot stays a part of the rig turning nothing, the report lists it with the panel it no
 * longer holds, and the panel, rigged afresh, gets a pivot named `HINGE_auto_<panel>_1`. `rig.parts`
 * takes it out (with the `_rest` mount and `_unscale` helper above it, when they hold nothing else),
 * warned, so the panel's new pivot takes the name again.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import { getPart } from "./part_extras.ts";
import { animatedNodes } from "./panel_animation.ts";

const PREFIX = "HINGE_auto_";

/** The panel a childless node of ours was made for, by its extras or else its name; undefined when it is none. */
function emptyPivotPanel(node: Node): string | undefined {
  if (node.getMesh() || node.getCamera() || node.getSkin() || node.listChildren().length) return undefined;
  const name = node.getName().replace(/\.\d{3,}$/, "");
  if (!name.startsWith(PREFIX)) return undefined;
  const part = getPart(node);
  if (part) return part.panel;
  // Without extras only the plain pivot's name says it: not a helper of one.
  return /_(rest|unscale|rescale)$/.test(name) ? undefined : name.slice(PREFIX.length) || undefined;
}

/** Removes every pivot of ours that holds nothing (see the module), warning once; returns how many. */
export function removeEmptyPivots(doc: Document, ctx: RunContext): number {
  const animated = animatedNodes(doc);
  const removed: string[] = [];
  for (const pivot of doc.getRoot().listNodes()) {
    const panel = emptyPivotPanel(pivot);
    if (panel === undefined || animated.has(pivot)) continue;
    removed.push(`'${pivot.getName()}' (panel '${panel}')`);
    // The helpers above it go with it when it was all they held.
    let node: Node | null = pivot;
    while (node) {
      const parent: Node | null = node.getParentNode();
      node.dispose();
      const helper: boolean = !!parent &&
        /^HINGE_auto_.*_(rest|unscale)(\.\d{3,})?$/.test(parent.getName()) &&
        parent.listChildren().length === 0 && !parent.getMesh() && !animated.has(parent);
      node = helper ? parent : null;
    }
  }
  if (removed.length) {
    ctx.warn(
      `${removed.length} pivot(s) of an earlier partgraph run turn nothing any more (${
        removed.slice(0, 4).join(", ")
      }${removed.length > 4 ? ", …" : ""}): their panel was moved out from under them or deleted. They are ` +
        "removed; a panel still in the file is rigged afresh",
      { pivots: removed },
    );
  }
  return removed.length;
}
