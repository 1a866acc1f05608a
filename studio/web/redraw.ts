/// <reference lib="dom" />
/**
 * What a redraw of the node editor keeps and what it skips: a node or wire drawn from the same text
 * as before keeps its element, so the browser neither styles nor lays it out again (an undo on a
 * 750-node graph redrew everything, 0.2–1.9 s), and a large graph draws only what overlaps the view.
 *
 * @module
 */
import type { Bounds } from "./framing.ts";

/** An element the editor drew, and the text of what it was drawn from (equal text: the same drawing). */
export interface Drawn {
  readonly element: SVGElement;
  readonly key: string;
}

/** The drawing `before` holds under `id` when it was drawn from `key`, else a new one `draw` makes. */
export function kept(
  before: ReadonlyMap<string, Drawn>,
  id: string,
  key: string,
  draw: () => SVGElement,
): Drawn {
  const old = before.get(id);
  return old && old.key === key ? old : { element: draw(), key };
}

/**
 * Makes `parent`'s children `children`, in order, moving or removing only what differs: an element
 * left where it is is not styled or laid out again.
 */
export function reconcile(parent: Element, children: readonly Element[]): void {
  const wanted = new Set(children);
  for (const child of [...parent.children]) if (!wanted.has(child)) child.remove();
  let at = parent.firstElementChild;
  for (const child of children) {
    if (child === at) at = at.nextElementSibling;
    else parent.insertBefore(child, at);
  }
}

/** True when the box with corners `a` and `b` (in any order) overlaps `box`. */
export function overlaps(box: Bounds, a: readonly number[], b: readonly number[]): boolean {
  return Math.min(a[0], b[0]) <= box.right && Math.max(a[0], b[0]) >= box.left &&
    Math.min(a[1], b[1]) <= box.bottom && Math.max(a[1], b[1]) >= box.top;
}
