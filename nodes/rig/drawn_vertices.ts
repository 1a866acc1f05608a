/**
 * A panel's geometry as it is drawn: the vertices no triangle with an area draws are left out before
 * the fit. Real files carry such vertices — a wing and its aileron drawn from one vertex buffer (one
 * mesh split by material, each primitive indexing its own triangles out of the whole wing's
 * vertices), a deleted face's corner an exporter kept, a triangle collapsed onto the model's origin —
 * and the fit read them as the panel's: the wing's vertices as brackets reaching out of its sections,
 * a vertex at the origin as span the edge does not run along (weak), or as the surface's far end
 * (8–16° off). What is drawn is what turns; nothing else is the panel's shape.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { PanelGeometry } from "./split_halves.ts";
import { type GatheredPositions, gatherPositions, IndexOutOfRangeError } from "./geometry.ts";
import type { Mat4 } from "./transform.ts";

/** A panel's drawn geometry; `kept[i]` the gathered vertex that drawn vertex `i` was, where any was left out. */
export interface DrawnGeometry extends PanelGeometry {
  readonly kept?: Uint32Array;
}

/**
 * A triangle has an area when twice it exceeds this share of its longest edge squared: a triangle
 * collapsed onto a point or a line (an exporter's degenerate face) has none.
 */
const FLAT_SHARE = 1e-9;

/**
 * Whether the triangle of vertices `a`, `b`, `c` (indices into `xyz` triples) has an area: twice it
 * exceeds {@link FLAT_SHARE} of its longest edge squared. A triangle collapsed onto a point or a line
 * draws nothing: what {@link drawnOnly} leaves out, and what joins no pieces (`split_pieces.ts`).
 */
export function drawsArea(p: ArrayLike<number>, a: number, b: number, c: number): boolean {
  a *= 3, b *= 3, c *= 3;
  const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2];
  const vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2];
  const wx = p[c] - p[b], wy = p[c + 1] - p[b + 1], wz = p[c + 2] - p[b + 2];
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  const longest = Math.max(
    ux * ux + uy * uy + uz * uz,
    vx * vx + vy * vy + vz * vz,
    wx * wx + wy * wy + wz * wz,
  );
  return Math.hypot(cx, cy, cz) > FLAT_SHARE * longest;
}

/** How many times {@link drawnOnly} has judged a geometry's triangles: work a test may count. */
export const drawnWork = { judged: 0 };

/**
 * `geometry` without the vertices no triangle with an area draws, and without the triangles that
 * used them (all flat); `geometry` itself where every vertex is drawn, where no triangle has an area
 * (points, lines, a flat sheet seen edge-on), or where a position is not finite: their own checks
 * judge those (a NaN is a broken file, named, not a vertex to pass over).
 *
 * @example
 * ```ts
 * const drawn = drawnOnly({ positions, count, triangles });
 * drawn.kept?.[0]; // the gathered index of drawn vertex 0, when some were left out
 * ```
 */
export function drawnOnly(geometry: PanelGeometry): DrawnGeometry {
  const { positions: p, count, triangles } = geometry;
  if (!triangles || triangles.length === 0) return geometry;
  for (let i = 0; i < 3 * count; i++) if (!Number.isFinite(p[i])) return geometry;
  drawnWork.judged++;
  const drawn = new Uint8Array(count);
  let any = false;
  for (let t = 0; t + 2 < triangles.length; t += 3) {
    if (!drawsArea(p, triangles[t], triangles[t + 1], triangles[t + 2])) continue;
    drawn[triangles[t]] = drawn[triangles[t + 1]] = drawn[triangles[t + 2]] = 1;
    any = true;
  }
  let kept = 0;
  for (let v = 0; v < count; v++) kept += drawn[v];
  if (!any || kept === count) return geometry;
  const index = new Int32Array(count).fill(-1), old = new Uint32Array(kept);
  const positions = new (p instanceof Float32Array ? Float32Array : Float64Array)(3 * kept);
  for (let v = 0, i = 0; v < count; v++) {
    if (!drawn[v]) continue;
    index[v] = i, old[i] = v;
    positions[3 * i] = p[3 * v], positions[3 * i + 1] = p[3 * v + 1], positions[3 * i + 2] = p[3 * v + 2];
    i++;
  }
  const out: number[] = [];
  for (let t = 0; t + 2 < triangles.length; t += 3) {
    const a = index[triangles[t]], b = index[triangles[t + 1]], c = index[triangles[t + 2]];
    if (a >= 0 && b >= 0 && c >= 0) out.push(a, b, c);
  }
  return { positions, count: kept, triangles: new Uint32Array(out), kept: old };
}

/** {@link drawnOnly} of each mesh-space geometry, judged once however many nodes draw it. */
const DRAWN_ONCE = new WeakMap<PanelGeometry, DrawnGeometry>();

/**
 * {@link drawnOnly} of `local`, a mesh's vertices and triangles in its own space, judged once per
 * `local` object: 2,000 panels drawing one 65,535-vertex mesh judged its triangles (and copied its
 * drawn vertices) 2,000 times. The result is shared: its arrays are not to be changed.
 */
export function drawnOnce(local: PanelGeometry): DrawnGeometry {
  let drawn = DRAWN_ONCE.get(local);
  if (!drawn) DRAWN_ONCE.set(local, drawn = drawnOnly(local));
  return drawn;
}

/**
 * {@link gatherPositions} as drawn, for the rig's other readers of a node's vertices (frame detection,
 * mirror images, recovered senses, hinge hardware): its vertices without those no triangle with an
 * area draws ({@link drawnOnly}), and `undrawn`, how many were left out. The same bits as
 * `gatherPositions(root, frame, options)` where every vertex is drawn; all of them where a triangle
 * indexes past its vertices (the fit and its own checks name that mesh).
 *
 * @example
 * ```ts
 * const { positions, count, undrawn } = gatherDrawn(node, toAircraft, { descend: false });
 * ```
 */
export function gatherDrawn(
  root: Node,
  frame: Mat4,
  options: { descend?: boolean; local?: boolean } = {},
): GatheredPositions & { readonly undrawn: number } {
  let found: GatheredPositions;
  try {
    found = gatherPositions(root, frame, { ...options, triangles: true });
  } catch (error) {
    if (!(error instanceof IndexOutOfRangeError)) throw error;
    return { ...gatherPositions(root, frame, options), undrawn: 0 };
  }
  const drawn = drawnOnly(found);
  // drawnOnly keeps the array's class: double in, double out.
  const positions = drawn.positions as Float64Array;
  return { positions, count: drawn.count, undrawn: found.count - drawn.count };
}

/**
 * {@link gatherPositions} with triangles, as drawn ({@link drawnOnly}): for the readers that measure
 * a part's surface (spinner and rotor finders, a spinner's disc and hub). A blade or hub drawn out of
 * one buffer for the whole aircraft, or keeping a stray vertex at the origin, was measured as the
 * aircraft, or as reaching to its origin. `kept` maps drawn vertices to gathered ones where some were
 * left out.
 * @throws IndexOutOfRangeError when a primitive's index points past its vertices, as gatherPositions.
 *
 * @example
 * ```ts
 * const { positions, count, triangles } = gatherDrawnSurface(blade, toAircraft, { descend: false });
 * ```
 */
export function gatherDrawnSurface(
  root: Node,
  frame: Mat4,
  options: { descend?: boolean } = {},
): DrawnGeometry & { readonly positions: Float64Array; readonly triangles: Uint32Array } {
  const drawn = drawnOnly(gatherPositions(root, frame, { ...options, triangles: true }));
  // Gathered positions are doubles, and drawnOnly keeps the array's class; triangles asked for.
  return drawn as DrawnGeometry & { positions: Float64Array; triangles: Uint32Array };
}
