/**
 * Station cuts kept for a panel seen again in the same panel coordinates. The hinge fit slices a
 * panel's triangles at its span stations (`edge_stations.ts`) in the panel's own frame, so what it
 * finds depends only on the vertices' (u, v, w) there, the triangles and the stations: a panel fitted
 * again for another edge (the hinge rule's refits), and a copy of a panel drawn elsewhere (many nodes
 * drawing one mesh, each only moved), are cut alike. A file of 2,000 panel nodes drawing one hostile
 * 65,535-vertex mesh was cut 2,000 times for five distinct inputs.
 *
 * An entry is used only when every input number is the same, bit for bit (its own copies are
 * compared, not a hash), so a kept result is the very result the cut would give: outputs are the same
 * whatever the memo holds. Its results are shared, and read only by their users.
 *
 * @module
 */
import type { NoseCentres } from "./nose_centre.ts";
import { type PanelCoordinates, sliceStations, type StationEdges } from "./edge_stations.ts";

/** What a station cut is made from besides the panel's chord and thickness positions. */
interface CutKey {
  readonly u: Float64Array;
  readonly triangles: Uint32Array;
  readonly uMin: number;
  readonly uMax: number;
  readonly stations: number;
  readonly bandFraction: number;
}

/** A kept cut: copies of its input (chord and thickness positions as `vw` pairs), its result, its size. */
interface Entry {
  readonly key: CutKey;
  readonly vw: Float64Array;
  readonly edges: StationEdges;
  readonly bytes: number;
  /** What was made from the cut alone, kept with it: see {@link KeptWith}. */
  readonly with: KeptWith;
}

/**
 * Results made from a kept cut, kept with it (and dropped with it): its nose centres, and envelopes
 * (`section_envelope.ts`) of its segments in given station frames.
 */
export interface KeptWith {
  noses?: NoseCentres;
  readonly envelopes: unknown[];
}

/** A cut made and not kept, by its extent and counts: the next like it is kept. */
interface Seen {
  readonly vertices: number;
  readonly corners: number;
  readonly uMin: number;
  readonly uMax: number;
  readonly stations: number;
  readonly bandFraction: number;
}

/** Default budget: a few hostile 65,535-vertex panels (about 8 MB each with their cuts). */
const BUDGET_BYTES = 64 * 1024 * 1024;
const MAX_ENTRIES = 8;
/** Cuts remembered (by extent and counts) to keep the next one like them. */
const SEEN = 32;

/**
 * The last few station cuts, least recently used dropped first, within a byte budget. A pure memo:
 * {@link StationMemo.slice} returns what `sliceStations` returns for the same input.
 */
export class StationMemo {
  #entries: Entry[] = [];
  /** The last few cuts made and not kept, by their extent and counts alone. */
  #seen: Seen[] = [];
  #bytes = 0;
  /** Calls answered from a kept cut. */
  hits = 0;
  /** Calls that cut the triangles. */
  misses = 0;

  constructor(readonly budgetBytes = BUDGET_BYTES, readonly maxEntries = MAX_ENTRIES) {}

  /**
   * `sliceStations(coords, triangles, uMin, uMax, stations, bandFraction)`, from a kept cut when the
   * same input was cut before. Chord and thickness positions are read only when a kept cut's span
   * positions are all the same, or when the cut is kept.
   */
  slice(
    coords: PanelCoordinates,
    triangles: Uint32Array,
    uMin: number,
    uMax: number,
    stations: number,
    bandFraction: number,
  ): StationEdges {
    const key: CutKey = { u: coords.u, triangles, uMin, uMax, stations, bandFraction };
    const entries = this.#entries;
    let vw: Float64Array | undefined;
    for (let e = entries.length - 1; e >= 0; e--) {
      const entry = entries[e];
      if (!sameKey(entry.key, key)) continue;
      vw ??= chordAndThickness(coords);
      if (!sameNumbers(entry.vw, vw)) continue;
      // Most recently used last.
      entries.splice(e, 1);
      entries.push(entry);
      this.hits++;
      return entry.edges;
    }
    this.misses++;
    const sliced = sliceStations(coords, triangles, uMin, uMax, stations, bandFraction);
    const cuts = sliced.cuts, segments = (cuts?.n ?? 0) / 5, u = coords.u;
    const bytes = 8 * (3 * u.length + 5 * segments + 8 * stations) + 4 * triangles.length;
    // Kept only where cutting costs more than keeping does: fewer cut segments than vertices (a dense
    // mesh, most of whose triangles lie between stations) are cut again about as fast as compared.
    if (segments < u.length || bytes > this.budgetBytes / 2) return sliced;
    // Kept the second time its like is cut: copying costs a fifth to a third of cutting, and most
    // panels are cut once. (Its like: the same span extent, counts and stations — a copy or a refit.)
    const seen = this.#seen;
    const like = seen.findIndex((k) =>
      k.vertices === u.length && k.corners === triangles.length && k.stations === stations &&
      Object.is(k.uMin, uMin) && Object.is(k.uMax, uMax) && Object.is(k.bandFraction, bandFraction)
    );
    if (like < 0) {
      if (seen.length >= SEEN) seen.shift();
      seen.push({ vertices: u.length, corners: triangles.length, uMin, uMax, stations, bandFraction });
      return sliced;
    }
    seen.splice(like, 1);
    // The cut buffer grows by doubling: kept trimmed (its users read its first `n` numbers only).
    const edges: StationEdges = cuts && cuts.data.length > cuts.n
      ? { ...sliced, cuts: { data: cuts.data.slice(0, cuts.n), n: cuts.n } }
      : sliced;
    while (entries.length >= this.maxEntries || (entries.length && this.#bytes + bytes > this.budgetBytes)) {
      this.#bytes -= entries.shift()!.bytes;
    }
    const copy: CutKey = { ...key, u: u.slice(), triangles: triangles.slice() };
    entries.push({ key: copy, vw: vw ?? chordAndThickness(coords), edges, bytes, with: { envelopes: [] } });
    this.#bytes += bytes;
    return edges;
  }

  /** What is kept with the kept cut whose segments are `cuts` (the very array); undefined for others. */
  keptWith(cuts: Float64Array): KeptWith | undefined {
    for (const entry of this.#entries) if (entry.edges.cuts?.data === cuts) return entry.with;
    return undefined;
  }

  /** Drops every kept cut. */
  clear(): void {
    this.#entries = [];
    this.#seen = [];
    this.#bytes = 0;
  }
}

/** Every vertex's chord and thickness position, in pairs. */
function chordAndThickness(coords: PanelCoordinates): Float64Array {
  const vw = new Float64Array(coords.u.length * 2);
  for (let i = 0; i < coords.u.length; i++) {
    vw[2 * i] = coords.chordAt(i);
    vw[2 * i + 1] = coords.thicknessAt(i);
  }
  return vw;
}

/** The memo the hinge fit cuts through (`hinge_stations.ts`). */
export const STATION_MEMO: StationMemo = new StationMemo();

/** `compute()`'s nose centres of `edges`, computed once per kept cut (every time for others). */
export function nosesOf(edges: StationEdges, compute: () => NoseCentres): NoseCentres {
  const kept = edges.cuts && STATION_MEMO.keptWith(edges.cuts.data);
  if (!kept) return compute();
  return kept.noses ??= compute();
}

/** True when the two keys' numbers are the same, bit for bit (−0 apart from 0). */
function sameKey(a: CutKey, b: CutKey): boolean {
  if (
    a.u.length !== b.u.length || a.triangles.length !== b.triangles.length || a.stations !== b.stations ||
    !Object.is(a.uMin, b.uMin) || !Object.is(a.uMax, b.uMax) || !Object.is(a.bandFraction, b.bandFraction)
  ) return false;
  return sameNumbers(a.u, b.u) && sameIntegers(a.triangles, b.triangles);
}

/** Same length and integers (vertex or row indices). */
export function sameIntegers(a: Uint32Array | Int32Array, b: Uint32Array | Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Same length and numbers, −0 apart from 0 (a NaN matches nothing: the cut is simply redone). */
export function sameNumbers(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (x !== b[i] || (x === 0 && 1 / x !== 1 / b[i])) return false;
  }
  return true;
}
