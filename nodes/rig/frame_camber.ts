/**
 * Which way a wing section's camber bows: a lifting airfoil's mean line (halfway between its upper and
 * lower surfaces) arches above the straight chord line from its leading to its trailing edge, so the
 * side the mean lines of the wing's sections bow to is up. It tells up where no fin does (an aircraft
 * without one, or with its fin left out); symmetric sections (many tailplanes, aerobatic wings) bow
 * neither way and say nothing.
 *
 * @module
 */

/**
 * Share of the half span (from the plane of symmetry to the tip) inboard of which no camber is read
 * (`frame_shape.ts`): a tailplane or canard reaches 20–56 % of the wing's half span (a glider's to an
 * F-16's) and may be cambered upside down (it lifts down); read there, a symmetric wing's aircraft was
 * set upside down (real airfoil wings, seeds 1–300: 8 of 63 symmetric wings voted down). Where stations
 * are sparse a span bin holds one surface's section, not both, so "a bin cutting two sections" cannot
 * tell the tail's apart.
 */
export const CAMBER_OUTBOARD = 0.6;
/** Chord slices the mean line is read in, between the ends the slices leave out. */
const SLICES = 8;
/** Share of the chord at each end left out: the nose's curve and the trailing edge's wedge. */
const END = 0.15;
/** Share of the section's greatest thickness a slice must span to hold points of both surfaces. */
const THICK = 0.6;
/**
 * Points a section may have and still be read as a low-poly ring (`sparseCamber`): a game model's
 * 4–10 points round leave most slices empty or holding one surface.
 */
const SPARSE = 12;

/**
 * The camber of one section run (`pairs` of (along, up), `run` its indices sorted along the length):
 * the mean line's mean height above the chord line, as a share of the chord (positive: bowed toward
 * +up), or undefined when too few slices hold points of both surfaces to read it.
 *
 * Heights are read above the chord line before the slices take each surface's highest and lowest: a section turned nose down (washout) has both
 * surfaces sloping across a slice, its highest point at one side of the slice and its lowest at the
 * other, and a symmetric section bowed down 0.3 % at 5° (real airfoil wings, seeds 1–300: 2 of 61
 * symmetric wings voted down), and the chord line's ends are the middles of the points' reach at each
 * extreme, not their mean (0.24 % more on a 68-point section turned 5°).
 */
export function sectionCamber(pairs: readonly number[], run: readonly number[]): number | undefined {
  const first = pairs[2 * run[0]], last = pairs[2 * run[run.length - 1]], chord = last - first;
  if (!(chord > 0)) return undefined;
  // The chord line's ends: where a curve through the points at each extreme reaches furthest.
  const y0 = endHeight(pairs, run, first, chord, 1), y1 = endHeight(pairs, run, last, chord, -1);
  if (y0 === undefined || y1 === undefined) return undefined;
  const top = new Array(SLICES).fill(-Infinity), bottom = new Array(SLICES).fill(Infinity);
  const counts = new Array(SLICES).fill(0);
  for (const k of run) {
    const x = (pairs[2 * k] - first) / chord, y = pairs[2 * k + 1] - (y0 + (y1 - y0) * x);
    const slice = Math.floor((x - END) / (1 - 2 * END) * SLICES);
    if (!(slice >= 0 && slice < SLICES)) continue;
    top[slice] = Math.max(top[slice], y);
    bottom[slice] = Math.min(bottom[slice], y);
    counts[slice]++;
  }
  // A slice whose points all lie on one surface (a sparse or sampled section) reads that surface for
  // the mean line: only slices near the section's full thickness are read.
  const thickest = Math.max(...top.map((t, s) => counts[s] >= 2 ? t - bottom[s] : 0));
  const read = top.map((_, s) => s).filter((s) => counts[s] >= 2 && top[s] - bottom[s] >= THICK * thickest);
  if (run.length <= SPARSE) return sparseCamber(pairs, run, first, chord, y0, y1);
  if (!(thickest > 0) || read.length < SLICES / 2) return undefined;
  let sum = 0;
  for (const s of read) sum += (top[s] + bottom[s]) / 2;
  return sum / read.length / chord;
}

/**
 * The height of a section's extreme end at `along` (`inward` +1: the section lies toward +along of it):
 * the vertex of the parabola (along as a quadratic of height) through the points within 2 % of the
 * chord of it — a nose is round about a point of the chord line, however the section is turned — or,
 * where the points cannot bend one (a square-cut end, a sharp edge), the middle of their heights. The
 * mean of the points was no end: a section turned nose down keeps more of its points at the forward
 * extreme on its upper surface (a symmetric section of 44 points turned 1.5° bowed down 0.3 %).
 */
function endHeight(
  pairs: readonly number[],
  run: readonly number[],
  along: number,
  chord: number,
  inward: 1 | -1,
): number | undefined {
  const xs: number[] = [], ys: number[] = [];
  for (const k of run) {
    const x = inward * (pairs[2 * k] - along) / chord;
    if (x <= 0.02) xs.push(x), ys.push(pairs[2 * k + 1]);
  }
  if (!xs.length) return undefined;
  const middle = (Math.min(...ys) + Math.max(...ys)) / 2;
  if (xs.length < 3) return middle;
  // Least squares x = a·u² + b·u + c in u = y − middle, scaled by the chord.
  const m = [[0, 0, 0], [0, 0, 0], [0, 0, 0]], v = [0, 0, 0];
  for (let i = 0; i < xs.length; i++) {
    const u = (ys[i] - middle) / chord, row = [u * u, u, 1];
    for (let r = 0; r < 3; r++) {
      v[r] += row[r] * xs[i];
      for (let c = 0; c < 3; c++) m[r][c] += row[r] * row[c];
    }
  }
  const det = (a: number[][]) =>
    a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
    a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  const d = det(m);
  if (!(Math.abs(d) > 1e-18)) return middle;
  const solve = (col: number) => det(m.map((row, r) => row.map((x, c) => c === col ? v[r] : x))) / d;
  const a = solve(0), b = solve(1);
  // Bent toward the section (a nose), its vertex within the points' reach: else the middle.
  const vertex = -b / (2 * a);
  const reach = (Math.max(...ys) - Math.min(...ys)) / 2 / chord;
  return a > 0 && Math.abs(vertex) <= reach ? middle + vertex * chord : middle;
}

/**
 * The camber of a low-poly section (a game model's ring of 4–{@link SPARSE} points, where slices hold
 * too few to read): each surface is the straight segments through its points — those above the chord line
 * from `first` (height `y0`) to the trailing end (`y1`) the upper, the others the lower (a flat bottom's lie
 * on it) — and the mean line their middle, read at the slices' middles. A modeller's loop cuts put the upper
 * and lower points at the same stations, so a symmetric ring's mean line lies on its chord line; undefined
 * without a point off the chord line.
 */
function sparseCamber(
  pairs: readonly number[],
  run: readonly number[],
  first: number,
  chord: number,
  y0: number,
  y1: number,
): number | undefined {
  const upper: [number, number][] = [[0, 0]], lower: [number, number][] = [[0, 0]];
  let off = 0;
  for (const k of run) {
    const x = (pairs[2 * k] - first) / chord, y = (pairs[2 * k + 1] - (y0 + (y1 - y0) * x)) / chord;
    if (!(x > 0.02 && x < 0.98)) continue;
    (y > 0 ? upper : lower).push([x, y]);
    off = Math.max(off, Math.abs(y));
  }
  if (!(off > 1e-6)) return undefined;
  upper.push([1, 0]), lower.push([1, 0]);
  const at = (line: readonly [number, number][], x: number) => {
    const i = line.findIndex(([lx]) => lx >= x);
    const [a, b] = [line[Math.max(0, i - 1)], line[Math.max(0, i)]];
    return b[0] > a[0] ? a[1] + (b[1] - a[1]) * (x - a[0]) / (b[0] - a[0]) : b[1];
  };
  let sum = 0;
  for (let s = 0; s < SLICES; s++) {
    const x = END + (s + 0.5) / SLICES * (1 - 2 * END);
    sum += (at(upper, x) + at(lower, x)) / 2;
  }
  return sum / SLICES;
}
