/**
 * Which way a brake or split surface opens — from its name, its split partner, or away from the body
 * it sits on — and the sampler of that body (all other geometry near a panel).
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { gatherPositions, IndexOutOfRangeError, subtreeNodes } from "./geometry.ts";
import type { HingeFit } from "./hinge_fit.ts";
import { getPart, type PartAnnotation } from "./part_extras.ts";
import { dot, type Mat4, sub, type Vec3 } from "./transform.ts";
import { openingFromName } from "./vocabulary.ts";

/** Which way a brake or split surface opens: its name, its partner's position, or away from the body. */
export function openingOf(
  node: Node,
  part: PartAnnotation,
  fit: HingeFit,
  fits: ReadonlyMap<Node, HingeFit>,
  body: BodySampler,
): "up" | "down" | Vec3 | undefined {
  const named = openingFromName(node.getName());
  if (named) return named;
  if (part.kind === "drag_rudder") {
    // Split halves share a hinge and open apart: each away from its partner, along its normal.
    for (const [other, otherFit] of fits) {
      if (other === node || getPart(other)?.kind !== "drag_rudder") continue;
      if (!overlapsInPlan(fit, otherFit)) continue;
      const apart = [0, 1, 2].map((k) => fit.centre[k] - otherFit.centre[k]);
      const sign = dot(fit.normal, apart) < 0 ? -1 : 1;
      return [fit.normal[0] * sign, fit.normal[1] * sign, fit.normal[2] * sign];
    }
    return "up";
  }
  if (part.kind === "air_brake") {
    const bodyCentre = body.centroidNear(node, fit);
    if (!bodyCentre) return undefined;
    const away = [
      fit.centre[0] - bodyCentre[0],
      fit.centre[1] - bodyCentre[1],
      fit.centre[2] - bodyCentre[2],
    ];
    const side = dot(fit.normal, away) < 0 ? -1 : 1;
    return [fit.normal[0] * side, fit.normal[1] * side, fit.normal[2] * side];
  }
  return undefined;
}

/** True when two panels lie over each other (the halves of a split surface). */
function overlapsInPlan(a: HingeFit, b: HingeFit): boolean {
  const apart = [0, 1, 2].map((k) => a.centre[k] - b.centre[k]);
  const alongSpan = Math.abs(dot(apart, a.span));
  const alongChord = Math.abs(dot(apart, a.chordDir));
  return alongSpan < Math.max(a.spanLength, b.spanLength) / 2 && alongChord < Math.max(a.chord, b.chord) / 2;
}

/**
 * The body a panel sits on, sampled from all other geometry near it (within half a chord): an air
 * brake opens away from it, whether dorsal, ventral or on a fuselage side.
 */
export class BodySampler {
  #meshes: { node: Node; positions: Float64Array; count: number; triangles: Uint32Array }[] | undefined;
  #moving: Set<Node> | undefined;
  constructor(private readonly doc: Document, private readonly toAircraft: Mat4) {}

  /**
   * Every mesh but the panel's own, in aircraft coordinates, with its triangles; with `fixedOnly`,
   * also none under another part (what moves is no fixed surface).
   */
  othersThan(
    panel: Node,
    options: { fixedOnly?: boolean } = {},
  ): { positions: Float64Array; count: number; triangles: Uint32Array }[] {
    this.#meshes ??= this.doc.getRoot().listNodes().filter((n) => n.getMesh()).flatMap((n) => {
      try {
        const gathered = gatherPositions(n, this.toAircraft, { descend: false, triangles: true });
        return [{ node: n, ...gathered, triangles: gathered.triangles! }];
      } catch (error) {
        if (error instanceof IndexOutOfRangeError) return []; // malformed: no body to sample
        throw error;
      }
    });
    const own = new Set(subtreeNodes(panel));
    if (options.fixedOnly) {
      this.#moving ??= new Set(
        this.doc.getRoot().listNodes().filter((n) => getPart(n)).flatMap(subtreeNodes),
      );
      for (const node of this.#moving) own.add(node);
    }
    return this.#meshes.filter((mesh) => !own.has(mesh.node));
  }

  /** Centroid of the other geometry near the panel (within half a chord), if any. */
  centroidNear(panel: Node, fit: HingeFit, options: { fixedOnly?: boolean } = {}): Vec3 | undefined {
    const margin = fit.chord / 2;
    const half = [fit.chord / 2 + margin, fit.spanLength / 2 + margin, fit.spanLength / 2 + margin];
    const reach = Math.max(...half);
    let n = 0, x = 0, y = 0, z = 0;
    for (const mesh of this.othersThan(panel, options)) {
      const p = mesh.positions;
      for (let o = 0; o < mesh.count * 3; o += 3) {
        const dx = p[o] - fit.centre[0], dy = p[o + 1] - fit.centre[1], dz = p[o + 2] - fit.centre[2];
        if (Math.abs(dx) > reach || Math.abs(dy) > reach || Math.abs(dz) > reach) continue;
        n++;
        x += p[o];
        y += p[o + 1];
        z += p[o + 2];
      }
    }
    return n ? [x / n, y / n, z / n] : undefined;
  }

  /**
   * True when other geometry lies near the panel: a vertex within {@link centroidNear}'s reach, or
   * a triangle passing within it of the panel's centre — a low-poly fuselage may have no vertex
   * anywhere near a tail surface standing on one of its long faces.
   */
  isNear(panel: Node, fit: HingeFit, options: { fixedOnly?: boolean } = {}): boolean {
    if (this.centroidNear(panel, fit, options)) return true;
    const reach = Math.max(fit.chord, fit.spanLength / 2 + fit.chord / 2);
    const [cx, cy, cz] = fit.centre;
    for (const { positions: p, triangles } of this.othersThan(panel, options)) {
      for (let t = 0; t < triangles.length; t += 3) {
        const a = triangles[t] * 3, b = triangles[t + 1] * 3, c = triangles[t + 2] * 3;
        // Bounding boxes first: most triangles of a model are nowhere near.
        if (
          Math.min(p[a], p[b], p[c]) > cx + reach || Math.max(p[a], p[b], p[c]) < cx - reach ||
          Math.min(p[a + 1], p[b + 1], p[c + 1]) > cy + reach ||
          Math.max(p[a + 1], p[b + 1], p[c + 1]) < cy - reach ||
          Math.min(p[a + 2], p[b + 2], p[c + 2]) > cz + reach ||
          Math.max(p[a + 2], p[b + 2], p[c + 2]) < cz - reach
        ) continue;
        const q = closestPointOnTriangle(
          fit.centre,
          p.subarray(a, a + 3),
          p.subarray(b, b + 3),
          p.subarray(c, c + 3),
        );
        if (Math.hypot(q[0] - cx, q[1] - cy, q[2] - cz) <= reach) return true;
      }
    }
    return false;
  }
}

/** The point of triangle `abc` closest to `p` (Ericson, Real-Time Collision Detection, 5.1.5). */
function closestPointOnTriangle(
  p: Vec3,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  c: ArrayLike<number>,
): Vec3 {
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const at = (s: number, t: number): Vec3 => [0, 1, 2].map((k) => a[k] + s * ab[k] + t * ac[k]) as Vec3;
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return at(0, 0);
  const bp = sub(p, b), d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return at(1, 0);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return at(d1 / (d1 - d3), 0);
  const cp = sub(p, c), d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return at(0, 1);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return at(0, d2 / (d2 - d6));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return at(1 - w, w);
  }
  const denominator = 1 / (va + vb + vc);
  return at(vb * denominator, vc * denominator);
}
