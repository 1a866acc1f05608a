/**
 * A uniform grid over axis-aligned boxes, so "which boxes reach into this cube" costs the boxes near
 * it, not all of them. The rig asks it several times per panel (the body an air brake opens from,
 * a fixed surface ahead of an elevator, anything near at all): over 20,000 panels and 20,000 meshes
 * the scan of every box was 12 of a 19 s run.
 *
 * @module
 */
import type { Vec3 } from "./transform.ts";

/** An axis-aligned box (infinite when what it bounds is not finite). */
export interface Box {
  readonly min: Vec3;
  readonly max: Vec3;
}

/** A cube: each axis within `reach` of `centre`. */
export interface Near {
  readonly centre: Vec3;
  /** Half the side of the cube, in the boxes' units. */
  readonly reach: number;
}

/** True when the box reaches into `near`'s cube. */
export function boxReaches({ min, max }: Box, { centre, reach }: Near): boolean {
  return min[0] <= centre[0] + reach && max[0] >= centre[0] - reach &&
    min[1] <= centre[1] + reach && max[1] >= centre[1] - reach &&
    min[2] <= centre[2] + reach && max[2] >= centre[2] - reach;
}

/** Boxes over more cells than this are checked by every query instead (a fuselage, a ground plane). */
const MOST_CELLS_PER_BOX = 512;
/** A query over more cells than this checks every box: the grid would cost more than it saves. */
const MOST_CELLS_PER_QUERY = 4096;

/**
 * Boxes in cells of the median box's size. Queries answer with box indices in the order the boxes
 * were given, exactly those {@link boxReaches} accepts, so callers see what a scan of all would give.
 */
export class BoxGrid {
  readonly #cell: number;
  readonly #cells = new Map<number, number[]>();
  /** Boxes spanning too many cells, or not finite: checked by every query. */
  readonly #wide: number[] = [];
  /** The query each box was last collected for, so each is collected once per query. */
  readonly #seen: Uint32Array;
  #query = 0;

  constructor(readonly boxes: readonly Box[]) {
    this.#seen = new Uint32Array(boxes.length);
    const sizes = boxes.map((b) => Math.max(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]))
      .filter((s) => Number.isFinite(s) && s > 0).sort((a, b) => a - b);
    this.#cell = sizes.length ? sizes[sizes.length >> 1] : 1;
    boxes.forEach((box, i) => {
      const range = this.#range(box.min, box.max);
      if (!range || cellsIn(range) > MOST_CELLS_PER_BOX) return this.#wide.push(i);
      forEachCell(range, (key) => {
        const list = this.#cells.get(key);
        if (list) list.push(i);
        else this.#cells.set(key, [i]);
      });
    });
  }

  /** Indices of the boxes reaching into `near`'s cube, ascending. */
  reaching(near: Near): number[] {
    const { centre, reach } = near;
    const range = this.#range(centre.map((c) => c - reach) as Vec3, centre.map((c) => c + reach) as Vec3);
    if (!range || cellsIn(range) > MOST_CELLS_PER_QUERY) {
      return this.boxes.flatMap((box, i) => boxReaches(box, near) ? [i] : []);
    }
    const query = ++this.#query;
    const found: number[] = [];
    const collect = (i: number) => {
      if (this.#seen[i] === query) return;
      this.#seen[i] = query;
      if (boxReaches(this.boxes[i], near)) found.push(i);
    };
    this.#wide.forEach(collect);
    forEachCell(range, (key) => this.#cells.get(key)?.forEach(collect));
    return found.sort((a, b) => a - b);
  }

  /** The cells `min`..`max` covers, per axis; undefined when not finite. */
  #range(min: Vec3, max: Vec3): number[] | undefined {
    const range: number[] = [];
    for (let k = 0; k < 3; k++) {
      const lo = Math.floor(min[k] / this.#cell), hi = Math.floor(max[k] / this.#cell);
      if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || hi < lo) return undefined;
      range.push(lo, hi);
    }
    return range;
  }
}

function cellsIn([x0, x1, y0, y1, z0, z1]: number[]): number {
  return (x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1);
}

/** Calls `visit` with each cell's key; keys may collide (a query checks every box it finds). */
function forEachCell([x0, x1, y0, y1, z0, z1]: number[], visit: (key: number) => void): void {
  for (let x = x0; x <= x1; x++) {
    for (let y = y0; y <= y1; y++) {
      for (let z = z0; z <= z1; z++) {
        visit(Math.imul(x | 0, 73856093) ^ Math.imul(y | 0, 19349663) ^ Math.imul(z | 0, 83492791));
      }
    }
  }
}
