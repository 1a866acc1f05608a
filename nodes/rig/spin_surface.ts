/**
 * How rotationally symmetric a spinning part's surface is, measured surface to surface: points
 * spread evenly over its area (so how finely each blade is tessellated does not weigh in) are turned
 * by one blade spacing about a candidate shaft, and each one's distance to the nearest point of the
 * surface — any triangle, not the nearest vertex — is taken. A blade retopologised apart from the
 * others, or given an extra edge loop, is the same surface and so as symmetric; a blade pitched,
 * bent or shaped apart, or something drawn into one side, is not.
 *
 * @module
 */
import { cross, length, normalize, sub, type Vec3 } from "./transform.ts";
import { type SpinGeometry, SYMMETRY_GOOD } from "./spin_symmetry.ts";

/** How many points are spread over the surface (of which those beyond 30 % of the radius count). */
const SAMPLES = 3000;

/** Points of a surface spread evenly by area, and a grid of its triangles for nearest-surface distances. */
export class SurfaceGrid {
  readonly #p: Float64Array;
  readonly #t: Uint32Array;
  /** Triangles by cell, compressed: cell c holds #items[#starts[c] … #starts[c + 1]). */
  readonly #starts: Int32Array;
  readonly #items: Int32Array;
  readonly #dims: [number, number, number];
  readonly #cell: number;
  readonly #min: Vec3;
  /** The last query that measured each triangle (so a triangle in many cells is measured once). */
  readonly #stamp: Uint32Array;
  /**
   * Per triangle, its box (min xyz, max xyz): a triangle whose box lies further from a query than
   * the nearest distance found so far (past a rounding margin) cannot be nearer, and is not measured.
   */
  readonly #boxes: Float64Array;
  /** Squared distances within this of a box's are not taken as beyond it (float rounding). */
  readonly #slack: number;
  /** Per (x, y) column of cells, the first and last z cell holding a triangle (first > last: none). */
  readonly #columnLow: Int32Array;
  readonly #columnHigh: Int32Array;
  #query = 0;
  /** Sample points, xyz flat. */
  readonly samples: Float64Array;

  /** Undefined when the geometry has no triangle with area (points only). */
  static of(g: SpinGeometry): SurfaceGrid | undefined {
    const t = g.triangles;
    if (!t || t.length < 3) return undefined;
    const grid = new SurfaceGrid(g.positions, t);
    return grid.samples.length ? grid : undefined;
  }

  private constructor(p: Float64Array, t: Uint32Array) {
    this.#p = p;
    this.#t = t;
    this.#stamp = new Uint32Array(Math.floor(t.length / 3));
    const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
    const areas = new Float64Array(Math.floor(t.length / 3));
    let total = 0;
    for (let n = 0; n < areas.length; n++) {
      const a = this.#at(t[n * 3]), b = this.#at(t[n * 3 + 1]), c = this.#at(t[n * 3 + 2]);
      const area = length(cross(sub(b, a), sub(c, a))) / 2;
      areas[n] = area > 0 && Number.isFinite(area) ? area : 0;
      total += areas[n];
      if (!(areas[n] > 0)) continue;
      for (const q of [a, b, c]) {
        for (let k = 0; k < 3; k++) min[k] = Math.min(min[k], q[k]), max[k] = Math.max(max[k], q[k]);
      }
    }
    this.#min = min;
    this.#cell = Math.max(Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 48, 1e-12);
    this.#boxes = new Float64Array(areas.length * 6);
    for (let n = 0; n < areas.length; n++) {
      const a = t[n * 3] * 3, b = t[n * 3 + 1] * 3, c = t[n * 3 + 2] * 3;
      for (let k = 0; k < 3; k++) {
        this.#boxes[n * 6 + k] = Math.min(p[a + k], p[b + k], p[c + k]);
        this.#boxes[n * 6 + 3 + k] = Math.max(p[a + k], p[b + k], p[c + k]);
      }
    }
    // Every point measured is a blend of its triangle's corners (inside its box), off by rounding
    // of about 1e-14 of the coordinates' size times the distance: a box is passed over only when
    // clearly beyond the best, so the least distance comes out the same as measuring every triangle.
    const size = Math.max(...min.map(Math.abs), ...max.map(Math.abs));
    this.#slack = Number.isFinite(size) ? 1e-12 * (size + 48 * this.#cell) ** 2 : Infinity;
    this.#dims = [0, 1, 2].map((k) =>
      Number.isFinite(max[k]) ? Math.floor((max[k] - min[k]) / this.#cell) + 1 : 0
    ) as [number, number, number];
    const [nx, ny] = this.#dims;
    this.#starts = new Int32Array(nx * ny * this.#dims[2] + 1);
    // Two passes over each triangle's box of cells: count, then place.
    const lo = [0, 0, 0], hi = [0, 0, 0];
    const boxes = (n: number, visit: (cell: number) => void) => {
      const a = t[n * 3] * 3, b = t[n * 3 + 1] * 3, c = t[n * 3 + 2] * 3;
      for (let k = 0; k < 3; k++) {
        lo[k] = Math.floor((Math.min(p[a + k], p[b + k], p[c + k]) - min[k]) / this.#cell);
        hi[k] = Math.floor((Math.max(p[a + k], p[b + k], p[c + k]) - min[k]) / this.#cell);
      }
      for (let x = lo[0]; x <= hi[0]; x++) {
        for (let y = lo[1]; y <= hi[1]; y++) {
          for (let z = lo[2]; z <= hi[2]; z++) visit(x + nx * (y + ny * z));
        }
      }
    };
    for (let n = 0; n < areas.length; n++) if (areas[n] > 0) boxes(n, (c) => this.#starts[c + 1]++);
    for (let c = 1; c < this.#starts.length; c++) this.#starts[c] += this.#starts[c - 1];
    this.#items = new Int32Array(this.#starts[this.#starts.length - 1]);
    this.#columnLow = new Int32Array(nx * ny).fill(this.#dims[2]);
    this.#columnHigh = new Int32Array(nx * ny).fill(-1);
    for (let c = 0; c < this.#starts.length - 1; c++) {
      if (this.#starts[c + 1] === this.#starts[c]) continue;
      const column = c % (nx * ny), z = (c - column) / (nx * ny);
      if (z < this.#columnLow[column]) this.#columnLow[column] = z;
      if (z > this.#columnHigh[column]) this.#columnHigh[column] = z;
    }
    const fill = this.#starts.slice(0, -1);
    for (let n = 0; n < areas.length; n++) if (areas[n] > 0) boxes(n, (c) => this.#items[fill[c]++] = n);
    if (!(total > 0)) {
      this.samples = new Float64Array(0);
      return;
    }
    // Stratified by area along the triangles' order, each point at a low-discrepancy place inside its
    // triangle: the same surface gets points of the same density however it is cut into triangles.
    this.samples = new Float64Array(SAMPLES * 3);
    let n = 0, before = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const target = ((i + 0.5) / SAMPLES) * total;
      while (n < areas.length - 1 && before + areas[n] < target) before += areas[n++];
      let s = (i * 0.7548776662466927) % 1, r = (i * 0.5698402909980532 + 0.5) % 1;
      if (s + r > 1) s = 1 - s, r = 1 - r;
      const a = this.#at(t[n * 3]), b = this.#at(t[n * 3 + 1]), c = this.#at(t[n * 3 + 2]);
      for (let k = 0; k < 3; k++) this.samples[i * 3 + k] = a[k] + s * (b[k] - a[k]) + r * (c[k] - a[k]);
    }
  }

  #at(i: number): Vec3 {
    return [this.#p[i * 3], this.#p[i * 3 + 1], this.#p[i * 3 + 2]];
  }

  /** Distance from `q` to the surface, searched `reach` rings of cells out (else that far at least). */
  nearest(q: Vec3, reach: number): number {
    const m = this.#min, size = this.#cell, [nx, ny] = this.#dims;
    const cx = Math.floor((q[0] - m[0]) / size), cy = Math.floor((q[1] - m[1]) / size);
    const cz = Math.floor((q[2] - m[2]) / size);
    // How far inside its cell q lies: a cell r + 1 rings out is at least (r + margin) cells away.
    const fx = (q[0] - m[0]) / size - cx, fy = (q[1] - m[1]) / size - cy, fz = (q[2] - m[2]) / size - cz;
    const margin = Math.min(fx, 1 - fx, fy, 1 - fy, fz, 1 - fz);
    const stamp = ++this.#query;
    let best = Infinity;
    for (let r = 0; r <= reach; r++) {
      for (let x = Math.max(cx - r, 0); x <= Math.min(cx + r, nx - 1); x++) {
        for (let y = Math.max(cy - r, 0); y <= Math.min(cy + r, ny - 1); y++) {
          // Only the column's cells holding triangles (the same cells in the same order: the rest
          // are empty); a ring's inner columns are met only at its two z faces.
          const column = x + nx * y, zLow = this.#columnLow[column], zHigh = this.#columnHigh[column];
          if (zLow > zHigh) continue;
          const edge = Math.abs(x - cx) === r || Math.abs(y - cy) === r, step = edge ? 1 : 2 * r;
          let z = cz - r;
          if (edge && z < zLow) z = zLow;
          for (const end = Math.min(cz + r, zHigh); z <= end; z += step) {
            if (z < zLow) continue;
            const c = column + nx * ny * z;
            for (let i = this.#starts[c]; i < this.#starts[c + 1]; i++) {
              const n = this.#items[i];
              if (this.#stamp[n] === stamp) continue;
              this.#stamp[n] = stamp;
              if (best !== Infinity && this.#boxDistanceSquared(q, n) > best + this.#slack) continue;
              best = Math.min(best, this.#triangleDistanceSquared(q, n));
            }
          }
        }
      }
      // Nothing nearer can lie beyond the ring searched.
      if (best <= ((r + margin) * size) ** 2) return Math.sqrt(best);
    }
    return Math.min(Math.sqrt(best), (reach + 1) * size);
  }

  /**
   * 90th-percentile distance (/ radius) of the sample points beyond 30 % of the radius, turned by
   * `angle` about the line, from the surface (at most `budget` of them, evenly strided); distances
   * past 1.5 × `cap` of the radius count as that far (the axis is no symmetry axis anyway). Also the
   * median, which tells a part mostly symmetric but for something drawn into it.
   */
  symmetryError(
    centre: Vec3,
    axis: Vec3,
    angle: number,
    radius: number,
    cap: number,
    budget = 1000,
  ): { p90: number; median: number; matched: number; mean: number } {
    if (!(radius > 0)) return { p90: Infinity, median: Infinity, matched: 0, mean: Infinity };
    const s = this.samples, count = s.length / 3;
    const [cx, cy, cz] = centre, [ax, ay, az] = axis, inner = (0.3 * radius) ** 2;
    const outer: number[] = [];
    for (let i = 0; i < count; i++) {
      const dx = s[i * 3] - cx, dy = s[i * 3 + 1] - cy, dz = s[i * 3 + 2] - cz;
      const along = dx * ax + dy * ay + dz * az;
      if (dx * dx + dy * dy + dz * dz - along * along >= inner) outer.push(i);
    }
    const picked = outer.length ? outer : [...Array(count).keys()];
    const stride = Math.max(1, Math.ceil(picked.length / budget));
    const cos = Math.cos(angle), sin = Math.sin(angle);
    const errors: number[] = [];
    // Searched out to the cap (past it the axis is no symmetry axis, however far).
    const reach = Math.min(Math.ceil((cap * radius) / this.#cell) + 1, 16);
    const q: Vec3 = [0, 0, 0];
    for (let n = 0; n < picked.length; n += stride) {
      const i = picked[n];
      const dx = s[i * 3] - cx, dy = s[i * 3 + 1] - cy, dz = s[i * 3 + 2] - cz;
      // Rodrigues: d cos + (a × d) sin + a (a·d)(1 − cos).
      const along = (dx * ax + dy * ay + dz * az) * (1 - cos);
      q[0] = cx + dx * cos + (ay * dz - az * dy) * sin + ax * along;
      q[1] = cy + dy * cos + (az * dx - ax * dz) * sin + ay * along;
      q[2] = cz + dz * cos + (ax * dy - ay * dx) * sin + az * along;
      errors.push(Math.min(this.nearest(q, reach) / radius, cap * 1.5));
    }
    errors.sort((a, b) => a - b);
    const at = (share: number) => errors[Math.min(errors.length - 1, Math.floor(share * errors.length))];
    if (!errors.length) return { p90: Infinity, median: Infinity, matched: 0, mean: Infinity };
    return {
      p90: at(0.9),
      median: at(0.5),
      matched: errors.filter((e) => e <= SYMMETRY_GOOD).length / errors.length,
      mean: errors.reduce((sum, e) => sum + e, 0) / errors.length,
    };
  }

  /**
   * The shaft refined by tilting it to where the blades' surface, turned one spacing, lies closest to
   * itself on average (mean, not a percentile: smooth about its least), a pattern search from 1°
   * down to 0.005°; for blades tessellated apart, whose vertices have no orbits to refine from. Two blades
   * tell a tilt in their chords' plane only through their chord, so their moments alone can leave
   * the shaft a degree or two out.
   */
  refineByTilt(centre: Vec3, axis: Vec3, blades: number, radius: number): Vec3 {
    const angle = (2 * Math.PI) / blades;
    const u = normalize(cross(axis, Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0])), w = cross(axis, u);
    const at = (x: number, y: number) => normalize([0, 1, 2].map((k) => axis[k] + u[k] * x + w[k] * y));
    const cost = (x: number, y: number) => this.meanError(centre, at(x, y), angle, radius);
    let x = 0, y = 0, best = cost(0, 0);
    for (let step = Math.PI / 180; step > (0.005 * Math.PI) / 180;) {
      let moved = false;
      for (const [dx, dy] of [[step, 0], [-step, 0], [0, step], [0, -step]]) {
        const c = cost(x + dx, y + dy);
        if (c < best) best = c, x += dx, y += dy, moved = true;
      }
      if (!moved) step /= 2;
    }
    return at(x, y);
  }

  /** Mean distance (/ radius) of the turned samples beyond 30 % of the radius from the surface (500 of them). */
  meanError(centre: Vec3, axis: Vec3, angle: number, radius: number): number {
    return this.symmetryError(centre, axis, angle, radius, 0.1, 500).mean;
  }

  /** Squared distance from `q` to triangle `n`'s box: no point of the triangle is nearer. */
  #boxDistanceSquared(q: Vec3, n: number): number {
    const box = this.#boxes, o = n * 6;
    let sum = 0;
    for (let k = 0; k < 3; k++) {
      const below = box[o + k] - q[k], above = q[k] - box[o + 3 + k];
      const d = below > 0 ? below : above > 0 ? above : 0;
      sum += d * d;
    }
    return sum;
  }

  /**
   * Squared distance from `q` to triangle `n` (Ericson, Real-Time Collision Detection, 5.1.5), on the
   * flat arrays: it runs millions of times in a plane search, where `opening.ts`'s allocating
   * closest-point helper would spend most of it making vectors.
   */
  #triangleDistanceSquared(q: Vec3, n: number): number {
    const p = this.#p, a = this.#t[n * 3] * 3, b = this.#t[n * 3 + 1] * 3, c = this.#t[n * 3 + 2] * 3;
    const abx = p[b] - p[a], aby = p[b + 1] - p[a + 1], abz = p[b + 2] - p[a + 2];
    const acx = p[c] - p[a], acy = p[c + 1] - p[a + 1], acz = p[c + 2] - p[a + 2];
    const apx = q[0] - p[a], apy = q[1] - p[a + 1], apz = q[2] - p[a + 2];
    const d1 = abx * apx + aby * apy + abz * apz, d2 = acx * apx + acy * apy + acz * apz;
    const to = (s: number, t: number) => {
      const x = apx - s * abx - t * acx, y = apy - s * aby - t * acy, z = apz - s * abz - t * acz;
      return x * x + y * y + z * z;
    };
    if (d1 <= 0 && d2 <= 0) return to(0, 0);
    const bpx = q[0] - p[b], bpy = q[1] - p[b + 1], bpz = q[2] - p[b + 2];
    const d3 = abx * bpx + aby * bpy + abz * bpz, d4 = acx * bpx + acy * bpy + acz * bpz;
    if (d3 >= 0 && d4 <= d3) return to(1, 0);
    const vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return to(d1 / (d1 - d3), 0);
    const cpx = q[0] - p[c], cpy = q[1] - p[c + 1], cpz = q[2] - p[c + 2];
    const d5 = abx * cpx + aby * cpy + abz * cpz, d6 = acx * cpx + acy * cpy + acz * cpz;
    if (d6 >= 0 && d5 <= d6) return to(0, 1);
    const vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return to(0, d2 / (d2 - d6));
    const va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
      const w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
      return to(1 - w, w);
    }
    const denominator = 1 / (va + vb + vc);
    return to(vb * denominator, vc * denominator);
  }
}
