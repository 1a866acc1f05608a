/**
 * Closed triangle meshes for the procedural demo, built from lofts: a chain of rings of equal vertex
 * count, closed at each end by a fan to an apex (or to the ring's centroid for a flat cap).
 *
 * @module
 */

/** A point or direction as `[x, y, z]`. */
export type Vec3 = readonly [number, number, number];

/** Mesh geometry as flat typed arrays: `positions` xyz per vertex, `indices` three per triangle. */
export interface MeshData {
  /** xyz per vertex. */
  readonly positions: Float64Array<ArrayBuffer>;
  /** Three vertex indices per triangle, counter-clockwise seen from outside. */
  readonly indices: Uint32Array<ArrayBuffer>;
}

/** Options for {@link MeshBuilder.addLoft}. */
export interface LoftOptions {
  /** Tip the first ring closes to (a nose); default: the first ring's centroid (a flat cap). */
  readonly startApex?: Vec3;
  /** Tip the last ring closes to; default: the last ring's centroid (a flat cap). */
  readonly endApex?: Vec3;
}

/**
 * Accumulates closed shells into one vertex/index list. Each shell is oriented outward on its own
 * (by the sign of its enclosed volume), so callers need not care which way their rings turn.
 *
 * @example
 * ```ts
 * const builder = new MeshBuilder();
 * builder.addLoft([squareAt(0), squareAt(1)]);
 * const { positions, indices } = builder.finish();
 * ```
 */
export class MeshBuilder {
  #positions: number[] = [];
  #indices: number[] = [];

  /**
   * Adds a closed loft through `rings` (each a flat xyz list, all of the same length, at least two
   * rings of at least three points).
   */
  addLoft(rings: readonly (readonly number[])[], options: LoftOptions = {}): void {
    const ringSize = rings[0].length / 3;
    if (rings.length < 2 || ringSize < 3 || rings.some((r) => r.length !== ringSize * 3)) {
      throw new RangeError("a loft needs at least two rings of one size, three points or more each");
    }
    const base = this.#positions.length / 3;
    const firstIndex = this.#indices.length;
    for (const ring of rings) this.#positions.push(...ring);
    const at = (ring: number, point: number) => base + ring * ringSize + (point % ringSize);
    for (let r = 0; r + 1 < rings.length; r++) {
      for (let p = 0; p < ringSize; p++) {
        this.#indices.push(
          at(r, p),
          at(r, p + 1),
          at(r + 1, p + 1),
          at(r, p),
          at(r + 1, p + 1),
          at(r + 1, p),
        );
      }
    }
    const start = this.#pushPoint(options.startApex ?? centroid(rings[0]));
    const end = this.#pushPoint(options.endApex ?? centroid(rings[rings.length - 1]));
    const last = rings.length - 1;
    for (let p = 0; p < ringSize; p++) {
      this.#indices.push(start, at(0, p + 1), at(0, p));
      this.#indices.push(end, at(last, p), at(last, p + 1));
    }
    if (this.#signedVolume(firstIndex) < 0) this.#flip(firstIndex);
  }

  /** Returns the accumulated geometry. */
  finish(): MeshData {
    return { positions: Float64Array.from(this.#positions), indices: Uint32Array.from(this.#indices) };
  }

  #pushPoint(point: Vec3): number {
    this.#positions.push(point[0], point[1], point[2]);
    return this.#positions.length / 3 - 1;
  }

  /** Six times the volume enclosed by the triangles from `firstIndex` on (divergence theorem). */
  #signedVolume(firstIndex: number): number {
    const p = this.#positions;
    let sum = 0;
    for (let i = firstIndex; i < this.#indices.length; i += 3) {
      const a = this.#indices[i] * 3, b = this.#indices[i + 1] * 3, c = this.#indices[i + 2] * 3;
      sum += p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) -
        p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) +
        p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c]);
    }
    return sum;
  }

  #flip(firstIndex: number): void {
    for (let i = firstIndex; i < this.#indices.length; i += 3) {
      const b = this.#indices[i + 1];
      this.#indices[i + 1] = this.#indices[i + 2];
      this.#indices[i + 2] = b;
    }
  }
}

function centroid(ring: readonly number[]): Vec3 {
  const n = ring.length / 3;
  let x = 0, y = 0, z = 0;
  for (let i = 0; i < ring.length; i += 3) {
    x += ring[i];
    y += ring[i + 1];
    z += ring[i + 2];
  }
  return [x / n, y / n, z / n];
}
