/**
 * A node run's memo of meshes read in their own space: many nodes drawing one mesh (instances, a
 * file's 2,000 panels over one 65,535-vertex mesh) read its accessors once per run, not once per
 * node. Made afresh by each run (a mesh's values may differ in the next run's scene) and dropped with
 * it; valid while the run changes no mesh, morph weight or accessor.
 *
 * Positions are those of `gatherPositions(node, …, { descend: false, local: true })`: placing them with
 * {@link placePositions} (`frame × world`) gives the very bits `gatherPositions` gives placed.
 *
 * @module
 */
import type { Mesh, Node } from "@gltf-transform/core";
import {
  type GatheredPositions,
  gatherPositions,
  IndexOutOfRangeError,
  placePositions,
  subtreeNodes,
} from "./geometry.ts";
import { drawnOnce } from "./drawn_vertices.ts";
import { IDENTITY, type Mat4, multiply } from "./transform.ts";

/** Mesh-space geometry per mesh and morph weights, read at most twice (with and without triangles). */
export class LocalMeshes {
  readonly #plain = new Map<Mesh, Map<string, GatheredPositions>>();
  readonly #withTriangles = new Map<Mesh, Map<string, GatheredPositions>>();
  #scratch = new Float64Array(0);

  /**
   * `node`'s own mesh in mesh space, as `gatherPositions` reads it with `triangles` (which may throw
   * its `IndexOutOfRangeError`, as it does, when asked for); undefined when the node has no mesh.
   */
  of(node: Node, triangles = false): GatheredPositions | undefined {
    const mesh = node.getMesh();
    if (!mesh) return undefined;
    // Morph weights decide the shape at rest: the node's, else the mesh's (as gatherPositions reads them).
    const weights = (node.getWeights().length ? node.getWeights() : mesh.getWeights()).join(",");
    const known = this.#withTriangles.get(mesh)?.get(weights);
    if (known) return known;
    if (!triangles) {
      const plain = this.#plain.get(mesh)?.get(weights);
      if (plain) return plain;
    }
    const read = gatherPositions(node, IDENTITY, { descend: false, local: true, triangles });
    const store = triangles ? this.#withTriangles : this.#plain;
    const byWeights = store.get(mesh) ?? new Map<string, GatheredPositions>();
    store.set(mesh, byWeights.set(weights, read));
    return read;
  }

  /**
   * What `gatherPositions(root, frame, { triangles })` gives, bit for bit, from the memo: each node's
   * mesh placed by `frame × world`, in subtree order, triangles offset as it offsets them. With
   * `transient`, the arrays may be the memo's own, valid (and not to be changed) until the next call:
   * a caller reading them at once allocates no 65,535-vertex array per panel.
   */
  gather(root: Node, frame: Mat4, triangles = false, transient = false): GatheredPositions {
    const parts: { local: GatheredPositions; matrix: Mat4 }[] = [];
    let total = 0, corners = 0;
    for (const node of subtreeNodes(root)) {
      const local = this.of(node, triangles);
      if (!local) continue;
      parts.push({ local, matrix: multiply(frame, node.getWorldMatrix()) });
      total += local.count;
      corners += local.triangles?.length ?? 0;
    }
    if (transient && this.#scratch.length < total * 3) this.#scratch = new Float64Array(total * 3);
    const positions = transient ? this.#scratch.subarray(0, total * 3) : new Float64Array(total * 3);
    // One mesh at the subtree's start: its triangles are the gathered ones as they are.
    const own = transient && triangles && parts.length === 1 ? parts[0].local.triangles : undefined;
    if (own) {
      placePositions(parts[0].local.positions, total, parts[0].matrix, positions);
      return { positions, count: total, triangles: own };
    }
    const out = triangles ? new Uint32Array(corners) : undefined;
    let base = 0, at = 0;
    for (const { local, matrix } of parts) {
      placePositions(local.positions, local.count, matrix, positions.subarray(base * 3));
      if (out && local.triangles) {
        out.set(local.triangles, at);
        if (base) { for (let i = at; i < at + local.triangles.length; i++) out[i] += base; }
        at += local.triangles.length;
      }
      base += local.count;
    }
    return out ? { positions, count: total, triangles: out } : { positions, count: total };
  }

  /**
   * `node`'s own mesh in mesh space as its triangles with an area draw it (`drawn_vertices.ts`
   * drawnOnce: judged once per mesh and weights), all its vertices where a triangle indexes past them
   * or it draws no triangle; undefined when the node has no mesh.
   */
  drawnOf(node: Node): GatheredPositions | undefined {
    let local: GatheredPositions | undefined;
    try {
      local = this.of(node, true);
    } catch (error) {
      if (!(error instanceof IndexOutOfRangeError)) throw error;
      return this.of(node);
    }
    // drawnOnly keeps the array's class: mesh-space positions are gathered as doubles.
    return local && drawnOnce(local) as GatheredPositions;
  }

  /**
   * The least and greatest coordinate `k` of what `root`'s subtree draws placed by `frame`: of
   * `gatherPositions(root, frame)` without the vertices no triangle with an area draws (as
   * {@link drawnOf} reads each mesh), as `positionBounds` finds them (the same numbers), without
   * placing a vertex per node: undefined when it draws none. Every vertex counted, a V-tail's
   * ruddervator drawn out of the whole aircraft's one buffer reached across the centre line and was
   * sided centre, and a loose vertex an exporter later dropped made an unedited panel look edited.
   *
   * Why it may: coordinate k of a vertex is `(m[k]·x + m[k+4]·y + m[k+8]·z) + m[k+12]`, and adding
   * one finite number rounds monotonically, so the least (greatest) sum is the least (greatest) inner
   * sum plus `m[k+12]`, rounded once. Nodes that differ only in their place share the inner sums' range.
   */
  axisBounds(root: Node, frame: Mat4, k: 0 | 1 | 2): { min: number; max: number } | undefined {
    let min = Infinity, max = -Infinity, count = 0;
    for (const node of subtreeNodes(root)) {
      const local = this.drawnOf(node);
      if (!local || local.count === 0) continue;
      count += local.count;
      const m = multiply(frame, node.getWorldMatrix());
      let low: number, high: number;
      if (Number.isFinite(m[k + 12])) {
        const inner = this.#innerRange(local, m[k], m[k + 4], m[k + 8]);
        low = inner[0] + m[k + 12], high = inner[1] + m[k + 12];
      } else [low, high] = placedRange(local, m, k);
      if (low < min) min = low;
      if (high > max) max = high;
    }
    return count === 0 ? undefined : { min, max };
  }

  readonly #inner = new Map<GatheredPositions, Map<string, readonly [number, number]>>();

  /** Least and greatest `a·x + b·y + c·z` over `local` (NaN skipped, as positionBounds skips it). */
  #innerRange(local: GatheredPositions, a: number, b: number, c: number): readonly [number, number] {
    // -0 apart from 0: a product's zero keeps the sign, and a sum of zeros may too.
    const key = [a, b, c].map((v) => Object.is(v, -0) ? "-0" : String(v)).join(" ");
    const known = this.#inner.get(local)?.get(key);
    if (known) return known;
    const p = local.positions;
    let low = Infinity, high = -Infinity;
    for (let i = 0; i < local.count * 3; i += 3) {
      const v = a * p[i] + b * p[i + 1] + c * p[i + 2];
      if (v < low) low = v;
      if (v > high) high = v;
    }
    const range = [low, high] as const;
    const byKey = this.#inner.get(local) ?? new Map<string, readonly [number, number]>();
    this.#inner.set(local, byKey.set(key, range));
    return range;
  }
}

/** Least and greatest coordinate `k` of `local` placed by `m`, vertex by vertex (a non-finite place). */
function placedRange(local: GatheredPositions, m: Mat4, k: number): [number, number] {
  const p = local.positions;
  let low = Infinity, high = -Infinity;
  for (let i = 0; i < local.count * 3; i += 3) {
    const v = m[k] * p[i] + m[k + 4] * p[i + 1] + m[k + 8] * p[i + 2] + m[k + 12];
    if (v < low) low = v;
    if (v > high) high = v;
  }
  return [low, high];
}
