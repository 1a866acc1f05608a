/**
 * Which way a wing section's camber bows: a lifting airfoil's mean line (halfway between its upper and
 * lower surfaces) arches above the straight chord line from its leading to its trailing edge, so the
 * side the mean lines of the wing's sections bow to is up. It tells up where no fin does (an aircraft
 * without one, or with its fin left out); symmetric sections (many tailplanes, aerobatic wings) bow
 * neither way and say nothing.
 *
 * @module
 */

/** Chord slices the mean line is read in, between the ends the slices leave out. */
const SLICES = 8;
/** Share of the chord at each end left out: the nose's curve and the trailing edge's wedge. */
const END = 0.15;
/** Share of the section's greatest thickness a slice must span to hold points of both surfaces. */
const THICK = 0.6;

/**
 * The camber of one section run (`pairs` of (along, up), `run` its indices sorted along the length):
 * the mean line's mean height above the chord line, as a share of the chord (positive: bowed toward
 * +up), or undefined when too few slices hold points of both surfaces to read it.
 */
export function sectionCamber(pairs: readonly number[], run: readonly number[]): number | undefined {
  const first = pairs[2 * run[0]], last = pairs[2 * run[run.length - 1]], chord = last - first;
  if (!(chord > 0)) return undefined;
  const top = new Array(SLICES).fill(-Infinity), bottom = new Array(SLICES).fill(Infinity);
  const counts = new Array(SLICES).fill(0);
  // The chord line's ends: the mean height of the points at each extreme of the section.
  let lead = 0, leads = 0, trail = 0, trails = 0;
  for (const k of run) {
    const x = (pairs[2 * k] - first) / chord, y = pairs[2 * k + 1];
    if (x <= 0.02) lead += y, leads++;
    if (x >= 0.98) trail += y, trails++;
    const slice = Math.floor((x - END) / (1 - 2 * END) * SLICES);
    if (!(slice >= 0 && slice < SLICES)) continue;
    top[slice] = Math.max(top[slice], y);
    bottom[slice] = Math.min(bottom[slice], y);
    counts[slice]++;
  }
  if (!leads || !trails) return undefined;
  // A slice whose points all lie on one surface (a sparse or sampled section) reads that surface for
  // the mean line: only slices near the section's full thickness are read.
  const thickest = Math.max(...top.map((t, s) => counts[s] >= 2 ? t - bottom[s] : 0));
  const read = top.map((_, s) => s).filter((s) => counts[s] >= 2 && top[s] - bottom[s] >= THICK * thickest);
  if (!(thickest > 0) || read.length < SLICES / 2) return undefined;
  const [y0, y1] = [lead / leads, trail / trails];
  let sum = 0;
  for (const s of read) {
    const x = END + (s + 0.5) / SLICES * (1 - 2 * END);
    sum += (top[s] + bottom[s]) / 2 - (y0 + (y1 - y0) * x);
  }
  return sum / read.length / chord;
}
