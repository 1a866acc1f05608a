/**
 * The node editor's view (pan and zoom) and framing, as Blender's node editor frames: Frame All
 * (Home) and Frame Selected (Numpad .) centre the nodes' box in the editor with a margin, zoomed out
 * as far as they need (down to the wheel's limit) and never in past 1:1, so one small node is not
 * blown up.
 *
 * @example
 * ```ts
 * import { frameView } from "./framing.ts";
 *
 * // One 200 × 100 node at (0, 0) in an 800 × 600 editor: 1:1, centred.
 * frameView({ left: 0, top: 0, right: 200, bottom: 100 }, 800, 600);
 * // → { x: -300, y: -250, scale: 1 }
 * ```
 *
 * @module
 */

/** What the editor shows: the canvas point at its top-left corner, and the zoom (pixels per unit). */
export interface View {
  x: number;
  y: number;
  scale: number;
}

/** A box on the canvas. */
export interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The zoom the wheel keeps to. */
export const ZOOM = { min: 0.15, max: 3 } as const;

/** Framing never zooms in past this: nodes at their drawn size. */
export const FRAME_MAX_ZOOM = 1;

/** The space (in pixels) left around framed nodes: room for sockets, run badges and issue marks. */
export const FRAME_MARGIN = 40;

/**
 * The view that shows `bounds` centred in an editor `width` × `height` pixels, with
 * {@link FRAME_MARGIN} around it, zoomed to fit between {@link ZOOM}'s minimum and
 * {@link FRAME_MAX_ZOOM} (a box too big to fit at the minimum zoom stays centred).
 */
export function frameView(bounds: Bounds, width: number, height: number): View {
  const w = Math.max(1, bounds.right - bounds.left);
  const h = Math.max(1, bounds.bottom - bounds.top);
  const fit = Math.min((width - 2 * FRAME_MARGIN) / w, (height - 2 * FRAME_MARGIN) / h);
  const scale = Math.min(FRAME_MAX_ZOOM, Math.max(ZOOM.min, fit));
  return {
    x: (bounds.left + bounds.right) / 2 - width / 2 / scale,
    y: (bounds.top + bounds.bottom) / 2 - height / 2 / scale,
    scale,
  };
}

/** The box around boxes (none: undefined). */
export function union(boxes: readonly Bounds[]): Bounds | undefined {
  if (!boxes.length) return undefined;
  return {
    left: Math.min(...boxes.map((b) => b.left)),
    top: Math.min(...boxes.map((b) => b.top)),
    right: Math.max(...boxes.map((b) => b.right)),
    bottom: Math.max(...boxes.map((b) => b.bottom)),
  };
}
