/**
 * Which way a brake or split surface opens — from its name, its split partner, or away from the body
 * it sits on — and the sampler of that body (all other geometry near a panel).
 *
 * @module
 */
import type { Document, Mesh, Node } from "@gltf-transform/core";
import { gatherPositions, IndexOutOfRangeError, placePositions, subtreeNodes } from "./geometry.ts";
import type { HingeFit } from "./hinge_fit.ts";
import { getPart, type PartAnnotation } from "./part_extras.ts";
import { dot, type Mat4, multiply, sub, transformPoint, type Vec3 } from "./transform.ts";
import { openingFromName } from "./vocabulary.ts";
import { BoxGrid, type Near } from "./box_grid.ts";
import { gatherSkinnedRest } from "./bone_geometry.ts";
import { drawnOnly } from "./drawn_vertices.ts";

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
export function overlapsInPlan(a: HingeFit, b: HingeFit): boolean {
  const apart = [0, 1, 2].map((k) => a.centre[k] - b.centre[k]);
  const alongSpan = Math.abs(dot(apart, a.span));
  const alongChord = Math.abs(dot(apart, a.chordDir));
  return alongSpan < Math.max(a.spanLength, b.spanLength) / 2 && alongChord < Math.max(a.chord, b.chord) / 2;
}

/** A mesh drawn by one node: the mesh's positions (shared by its instances) and where the node puts them. */
interface Instance {
  readonly node: Node;
  /** For a piece of a skinned mesh, the joint that draws it (none: vertices no joint dominates). */
  readonly joint?: Node;
  readonly local: {
    readonly positions: Float64Array;
    readonly count: number;
    readonly triangles: Uint32Array;
    /** The box of `positions` in the mesh's own space (undefined when a position is not finite). */
    readonly box?: { readonly lo: Vec3; readonly hi: Vec3 };
  };
  readonly matrix: Mat4;
  /** Aircraft-space box around every placed vertex (infinite when a position is not finite). */
  readonly min: Vec3;
  readonly max: Vec3;
}

/**
 * The body a panel sits on, sampled from all other geometry near it (within half a chord): an air
 * brake opens away from it, whether dorsal, ventral or on a fuselage side. Each mesh is gathered
 * once, in its own space, however many nodes draw it, and placed per node only when its box comes
 * near the panel: memory in proportion to the file, not to its instances (2,000 nodes drawing one
 * 65,535-vertex mesh held 3.6 GB).
 */
export class BodySampler {
  #instances: Instance[] | undefined;
  #grid: BoxGrid | undefined;
  #moving: Set<Node> | undefined;
  #largestFixed: number | undefined;
  #placed = new Float64Array(0);
  constructor(private readonly doc: Document, private readonly toAircraft: Mat4) {}

  /**
   * Every mesh but the panel's own, in aircraft coordinates, with its triangles; with `fixedOnly`,
   * also none under another part (what moves is no fixed surface); with `near`, only meshes whose
   * box reaches into that box. Each mesh's positions are valid until the next one is taken.
   */
  *othersThan(
    panel: Node,
    options: { fixedOnly?: boolean; near?: Near } = {},
  ): Generator<{ positions: Float64Array; count: number; triangles: Uint32Array }> {
    const instances = this.#instances ??= this.#listInstances();
    const own = new Set(subtreeNodes(panel));
    // Looked up, not copied into `own`: a copy per panel was quadratic in the number of parts.
    const moving = options.fixedOnly ? this.#movingNodes() : undefined;
    // Only meshes whose box reaches `near` (in their order in the file, as a scan of all would give them).
    const near = options.near && (this.#grid ??= new BoxGrid(instances)).reaching(options.near);
    for (const index of near ?? instances.keys()) {
      const instance = instances[index];
      if (own.has(instance.node) || moving?.has(instance.node)) continue;
      if (instance.joint && (own.has(instance.joint) || moving?.has(instance.joint))) continue;
      const { positions, count, triangles } = instance.local;
      if (this.#placed.length < count * 3) this.#placed = new Float64Array(count * 3);
      placePositions(positions, count, instance.matrix, this.#placed);
      yield { positions: this.#placed, count, triangles };
    }
  }

  /**
   * The largest extent, on any aircraft axis, of a fixed mesh with triangles (none under a part):
   * measured once, as it is the same for every panel (each is a part itself). A panel looking for a body
   * to float off scanned every mesh in turn: quadratic in the parts, 2.4 s of 20,000 floating panels.
   */
  largestFixedExtent(): number {
    if (this.#largestFixed !== undefined) return this.#largestFixed;
    const moving = this.#movingNodes();
    let largest = 0;
    for (const instance of this.#instances ??= this.#listInstances()) {
      if (moving.has(instance.node) || (instance.joint && moving.has(instance.joint))) continue;
      const { positions, count, triangles } = instance.local;
      if (triangles.length === 0) continue;
      if (this.#placed.length < count * 3) this.#placed = new Float64Array(count * 3);
      placePositions(positions, count, instance.matrix, this.#placed);
      for (let k = 0; k < 3; k++) {
        let lo = Infinity, hi = -Infinity;
        for (let i = 0; i < count; i++) {
          lo = Math.min(lo, this.#placed[i * 3 + k]), hi = Math.max(hi, this.#placed[i * 3 + k]);
        }
        if (hi - lo > largest) largest = hi - lo;
      }
    }
    return this.#largestFixed = largest;
  }

  /** The nodes under a part (what moves is no fixed surface), gathered once. */
  #movingNodes(): Set<Node> {
    return this.#moving ??= new Set(
      this.doc.getRoot().listNodes().filter((n) => getPart(n)).flatMap(subtreeNodes),
    );
  }

  #listInstances(): Instance[] {
    const gathered = new Map<Mesh, Map<string, Instance["local"] | undefined>>();
    const local = (node: Node, mesh: Mesh) => {
      const byWeights = gathered.get(mesh) ?? new Map();
      gathered.set(mesh, byWeights);
      // Morph weights are the node's own when it has them: they shape the positions.
      const key = node.getWeights().join(",");
      if (!byWeights.has(key)) {
        try {
          // What its triangles draw: a mesh drawn out of a game rip's one vertex buffer held every other
          // part's vertices (the panel's own among them, as body), and a stray vertex reached to its origin.
          const g = drawnOnly(
            gatherPositions(node, this.toAircraft, { descend: false, triangles: true, local: true }),
          ) as { positions: Float64Array; count: number; triangles?: Uint32Array };
          const box = localBox(g.positions, g.count);
          byWeights.set(key, { positions: g.positions, count: g.count, triangles: g.triangles!, box });
        } catch (error) {
          if (!(error instanceof IndexOutOfRangeError)) throw error;
          byWeights.set(key, undefined); // malformed: no body to sample
        }
      }
      return byWeights.get(key);
    };
    return this.doc.getRoot().listNodes().flatMap((node) => {
      if (node.getMesh() && node.getSkin()) return this.#skinnedPieces(node);
      const mesh = node.getMesh();
      const geometry = mesh && local(node, mesh);
      if (!geometry) return [];
      const matrix = multiply(this.toAircraft, node.getWorldMatrix());
      return [{ node, local: geometry, matrix, ...placedBox(geometry.box, geometry.count, matrix) }];
    });
  }

  /**
   * A skinned mesh where its joints draw it at rest, one piece per joint that dominates vertices
   * (a surface bone's piece moves with it: no fixed surface, and no body to open from), and one of
   * the vertices no joint dominates. Triangles across pieces stretch as the bones move: in none.
   */
  #skinnedPieces(node: Node): Instance[] {
    let rest;
    try {
      rest = gatherSkinnedRest(node, this.toAircraft, { triangles: true });
    } catch (error) {
      if (!(error instanceof IndexOutOfRangeError)) throw error;
      return []; // malformed: no body to sample
    }
    if (!rest) return [];
    const { positions, dominant, joints } = rest;
    const triangles = rest.triangles!;
    // Each vertex's index within its piece.
    const within = new Int32Array(rest.count);
    const pieces = new Map<number, { vertices: number[]; triangles: number[] }>();
    for (let v = 0; v < rest.count; v++) {
      let piece = pieces.get(dominant[v]);
      if (!piece) pieces.set(dominant[v], piece = { vertices: [], triangles: [] });
      within[v] = piece.vertices.length;
      piece.vertices.push(v);
    }
    for (let t = 0; t < triangles.length; t += 3) {
      const a = triangles[t], b = triangles[t + 1], c = triangles[t + 2];
      if (dominant[b] !== dominant[a] || dominant[c] !== dominant[a]) continue;
      pieces.get(dominant[a])!.triangles.push(within[a], within[b], within[c]);
    }
    const identity: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    return [...pieces].map(([joint, piece]) => {
      const local = new Float64Array(piece.vertices.length * 3);
      piece.vertices.forEach((v, i) => local.set(positions.subarray(v * 3, v * 3 + 3), i * 3));
      const count = piece.vertices.length;
      const box = localBox(local, count);
      const geometry = { positions: local, count, triangles: Uint32Array.from(piece.triangles), box };
      return {
        node,
        ...(joint >= 0 ? { joint: joints[joint] } : {}),
        local: geometry,
        matrix: identity,
        ...placedBox(box, count, identity),
      };
    });
  }

  /** Centroid of the other geometry near the panel (within half a chord), if any. */
  centroidNear(panel: Node, fit: HingeFit, options: { fixedOnly?: boolean } = {}): Vec3 | undefined {
    const margin = fit.chord / 2;
    const half = [fit.chord / 2 + margin, fit.spanLength / 2 + margin, fit.spanLength / 2 + margin];
    const reach = Math.max(...half);
    let n = 0, x = 0, y = 0, z = 0;
    for (const mesh of this.othersThan(panel, { ...options, near: { centre: fit.centre, reach } })) {
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
    const near = { centre: fit.centre, reach };
    for (const { positions: p, triangles } of this.othersThan(panel, { ...options, near })) {
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

/** The box of a mesh's positions in its own space, once per mesh; undefined when one is not finite. */
function localBox(positions: Float64Array, count: number): { lo: Vec3; hi: Vec3 } | undefined {
  const lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count * 3; i++) {
    const v = positions[i], k = i % 3;
    if (!Number.isFinite(v)) return undefined;
    if (v < lo[k]) lo[k] = v;
    if (v > hi[k]) hi[k] = v;
  }
  return { lo, hi };
}

/**
 * The aircraft-space box of a mesh placed by `matrix`, from the corners of its own box (infinite
 * when that is not finite), widened by a part in 10⁹ of the terms summed, far more than any rounding
 * of a placed vertex.
 */
function placedBox(
  box: { lo: Vec3; hi: Vec3 } | undefined,
  count: number,
  matrix: Mat4,
): { min: Vec3; max: Vec3 } {
  if (!box) return { min: [-Infinity, -Infinity, -Infinity], max: [Infinity, Infinity, Infinity] };
  const { lo, hi } = box;
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let corner = 0; corner < 8 && count > 0; corner++) {
    const p = transformPoint(matrix, [
      corner & 1 ? hi[0] : lo[0],
      corner & 2 ? hi[1] : lo[1],
      corner & 4 ? hi[2] : lo[2],
    ]);
    for (let k = 0; k < 3; k++) [min[k], max[k]] = [Math.min(min[k], p[k]), Math.max(max[k], p[k])];
  }
  const size = [0, 1, 2].map((j) => Math.max(Math.abs(lo[j]), Math.abs(hi[j])));
  for (let k = 0; k < 3; k++) {
    const terms = Math.abs(matrix[k]) * size[0] + Math.abs(matrix[4 + k]) * size[1] +
      Math.abs(matrix[8 + k]) * size[2] + Math.abs(matrix[12 + k]);
    [min[k], max[k]] = [min[k] - 1e-9 * terms, max[k] + 1e-9 * terms];
  }
  return { min, max };
}
