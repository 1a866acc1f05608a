/**
 * Left and right parts whose rotations stop mirroring each other only in glTF's component order: a pair of
 * sibling nodes named alike but for a side (`gear_L` and `gear_R`, `Door.Left` and `Door.Right`), placed
 * mirror-wise, whose turn axes mirror each other when one of them is read [w, x, y, z] and do not as
 * written. That one part of a file was written w-first (another tool's subtree, a hand-typed node) is the
 * likely reading; it is named, and read as written.
 *
 * @module
 */

type Quat = readonly [number, number, number, number];

/** A side word between separators, or at the name's start or end: `_L`, `.R`, ` Left`, `right_`. */
const SIDE = /(^|[_. -])(l|r|left|right)(?=$|[_. -])/i;

/** Axes of turns smaller than this (degrees) are noise, not compared. */
const MIN_TURN = 5;
/** Axes agree when the angle between them is under about 8°. */
const AXES_AGREE = 0.99;

interface Side {
  readonly index: number;
  readonly q: Quat;
  readonly t: readonly number[];
}

const unit = (q: readonly number[]): Quat | undefined => {
  const length = Math.hypot(...q);
  return length > 0 ? q.map((v) => v / length) as unknown as Quat : undefined;
};

/** A turn's axis, or undefined when the turn is too small to have one. */
function axisOf(q: Quat): number[] | undefined {
  const s = Math.hypot(q[0], q[1], q[2]);
  const degrees = (2 * Math.atan2(s, Math.abs(q[3])) * 180) / Math.PI;
  return degrees < MIN_TURN ? undefined : [q[0] / s, q[1] / s, q[2] / s];
}

/** Whether `a` mirrored across the plane square to axis `k` turns about `b`'s axis (either way). */
function mirrors(a: Quat, b: Quat, k: number): boolean {
  const p = axisOf(a), q = axisOf(b);
  if (!p || !q) return false;
  const m = p.map((v, j) => (j === k ? v : -v));
  return Math.abs(m[0] * q[0] + m[1] * q[1] + m[2] * q[2]) >= AXES_AGREE;
}

/** Does a w-first reading of `a` mirror `b`, where `a` as written does not? */
const wFirstMirrors = (a: Quat, b: Quat, k: number) =>
  // Both turn as written: a part meant (nearly) unturned has no axis to disagree with, and read w-first
  // it becomes a half turn about whatever axis its small numbers give.
  !!axisOf(a) && !!axisOf(b) && !mirrors(a, b, k) && mirrors([a[1], a[2], a[3], a[0]], b, k) &&
  // Both orders of `b` must not explain it too (a turn about one axis written both ways).
  !mirrors(a, [b[1], b[2], b[3], b[0]], k);

/** The axis two mirror-placed translations differ along, or undefined when they are not mirror-placed. */
function lateralAxis(a: readonly number[], b: readonly number[]): number | undefined {
  const d = a.map((v, j) => Math.abs(v - b[j]));
  const k = d.indexOf(Math.max(...d));
  if (!(d[k] > 1e-6) || Math.abs(a[k] + b[k]) > 0.05 * d[k]) return undefined;
  return d.every((v, j) => j === k || v <= 0.05 * d[k]) ? k : undefined;
}

/**
 * Notes (`<JSON path>: text`) on left/right sibling nodes whose rotations mirror each other only when
 * one is read [w, x, y, z]. Pairs whose translations do not place them mirror-wise take their parents'
 * plane when the parents are such a pair.
 */
export function mirrorRotationNotes(json: { nodes?: unknown }): string[] {
  const nodes = (Array.isArray(json.nodes) ? json.nodes : []) as ({ [key: string]: unknown } | null)[];
  const parent = new Array<number>(nodes.length).fill(-1);
  nodes.forEach((node, i) => {
    const children = node?.children;
    if (Array.isArray(children)) {
      for (const c of children) if (Number.isInteger(c) && c < nodes.length) parent[c] = i;
    }
  });
  const nameOf = (i: number) => (typeof nodes[i]?.name === "string" ? nodes[i]!.name as string : "");
  const masked = (name: string, match: RegExpExecArray) =>
    `${name.slice(0, match.index)}${match[1]}\u0001${name.slice(match.index + match[0].length)}`;
  // Pairs by name with the side word masked, under one parent or under a left/right pair of parents.
  const sides = new Map<string, { l?: Side; r?: Side }>();
  nodes.forEach((node, i) => {
    const name = nameOf(i);
    const match = SIDE.exec(name);
    if (!match) return;
    const r = node!.rotation, t = node!.translation;
    const q = Array.isArray(r) && r.length === 4 && r.every(Number.isFinite)
      ? unit(r)
      : [0, 0, 0, 1] as const;
    const at = Array.isArray(t) && t.length === 3 && t.every(Number.isFinite) ? t as number[] : [0, 0, 0];
    if (!q) return;
    const up = parent[i] < 0 ? null : SIDE.exec(nameOf(parent[i]));
    const under = up ? masked(nameOf(parent[i]), up) : String(parent[i]);
    const key = `${under}\u0000${masked(name, match)}`;
    const pair = sides.get(key) ?? {};
    pair[match[2][0].toLowerCase() as "l" | "r"] = { index: i, q, t: at };
    sides.set(key, pair);
  });
  const planeOf = new Map<number, number>();
  const pairs = [...sides.values()].filter((p): p is { l: Side; r: Side } => !!p.l && !!p.r);
  // Parents before children: nodes are listed in any order, so settle planes until none is added.
  for (let added = true; added;) {
    added = false;
    for (const { l, r } of pairs) {
      if (planeOf.has(l.index)) continue;
      const sameParent = parent[l.index] === parent[r.index];
      const fromParents = planeOf.get(parent[l.index]) === planeOf.get(parent[r.index])
        ? planeOf.get(parent[l.index])
        : undefined;
      const k = lateralAxis(l.t, r.t) ?? fromParents;
      if (k !== undefined && (sameParent || fromParents === k)) {
        planeOf.set(l.index, k).set(r.index, k);
        added = true;
      }
    }
  }
  const notes: string[] = [];
  for (const { l, r } of pairs) {
    const k = planeOf.get(l.index);
    if (k === undefined) continue;
    for (const [a, b] of [[l, r], [r, l]]) {
      if (!wFirstMirrors(a.q, b.q, k)) continue;
      const twin = (nodes[b.index]?.name as string) ?? "";
      notes.push(
        `/nodes/${a.index}/rotation: its turn mirrors that of its twin '${twin}' (node ${b.index}) only when read ` +
          `[w, x, y, z]: probably written in that order (another tool's part?). Read as written; if so, move its ` +
          `first number to the end.`,
      );
    }
  }
  return notes;
}
