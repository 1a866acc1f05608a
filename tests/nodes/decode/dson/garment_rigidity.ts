/**
 * The pieces the rigidity garment generators share (`projected_rigidity_habits.ts`,
 * `preset_rigidity_habits.ts`): a shirt drawn as a tube a few centimetres off the body with its
 * coordinates written as Daz writes them, a buckle's patch and the ring of reference vertices around
 * it, and the book of rigidity groups — each group's participants painted or not, written into the
 * garment's geometry and kept for the reference formulation (`rigidity_reference.ts`).
 *
 * @module
 */
import type { Json } from "./generate.ts";
import { R, tube } from "./swell_body.ts";
import type { ReferenceGroup, V3 } from "./rigidity_reference.ts";

/** A rigidity group's `rotation_mode`s. */
export const ROTATIONS = ["none", "full", "primary", "secondary"] as const;
/** A rigidity group's per-axis `scale_modes`. */
export const SCALES = ["none", "primary", "secondary", "tertiary"] as const;

/** A garment tube: its rows and segments, the tube, its rest vertices (cm) and a vertex's index. */
export interface GarmentTube {
  readonly segments: number;
  readonly rows: number;
  /** The angle of segment 0 (radians). */
  readonly phase: number;
  readonly t: ReturnType<typeof tube>;
  /** The tube's vertices to 7 significant digits, as Daz writes coordinates. */
  readonly rest: V3[];
  /** The vertex at `row` and segment `s` (segments wrap around). */
  readonly at: (row: number, s: number) => number;
}

/** A tube `offset` cm out of the body, 48–80 segments round and 14–21 rows up, shaped by `r`. */
export function garmentTube(r: () => number, offset: number): GarmentTube {
  const segments = 48 + Math.floor(r() * 33), rows = 14 + Math.floor(r() * 8);
  const ys = Array.from({ length: rows }, (_, j) => Math.round((3 + j * (34 / (rows - 1))) * 1e4) / 1e4);
  const phase = Math.round(r() * 1000) / 1000;
  const t = tube(R + offset, segments, ys, phase);
  const rest = t.vertices.map((p) => p.map((x) => +x.toPrecision(7)) as V3);
  const at = (row: number, s: number) => row * segments + ((s % segments) + segments) % segments;
  return { segments, rows, phase, t, rest, at };
}

/** A buckle or badge: an `h` × `w` patch from (`row + 1`, `seg`) and the ring of vertices around it. */
export function ringHeld(
  at: GarmentTube["at"],
  row: number,
  seg: number,
  h: number,
  w: number,
): { refs: number[]; mask: number[] } {
  const refs: number[] = [], mask: number[] = [];
  for (let j = -1; j <= h; j++) {
    for (let i = -1; i <= w; i++) {
      const v = at(row + 1 + j, seg + i);
      if (j < 0 || j === h || i < 0 || i === w) refs.push(v);
      else mask.push(v);
    }
  }
  return { refs, mask };
}

/** How much of the body's shape a garment `offset` cm off it follows: all within 5 cm, none past 10. */
export function projectionFollow(offset: number): number {
  return offset <= 5 ? 1 : offset >= 10 ? 0 : 1 - (offset - 5) / 5;
}

/** One rigidity group as a generator makes it (participants and references in any order, repeated). */
export interface MadeGroup {
  readonly id: string;
  readonly refs: readonly number[];
  readonly mask: readonly number[];
  readonly rotation: ReferenceGroup["rotation"];
  readonly scale: ReferenceGroup["scale"];
}

/** A group as a case keeps it: its id, its participants, and whether it has no reference vertex. */
export interface KeptGroup {
  readonly id: string;
  readonly mask: readonly number[];
  readonly unreferenced: boolean;
}

/** The groups a garment has so far: as the file writes them, as the reference reads them, as a case keeps them. */
export interface RigidityBook {
  readonly groups: Json[];
  readonly reference: ReferenceGroup[];
  readonly kept: KeptGroup[];
  /** Painted weights by vertex (with a weight map). */
  readonly weights: Map<number, number>;
  /**
   * Adds a group, its vertices sorted and made unique; with a weight map, paints its participants
   * (most 1, some partly, a whole group 0 with chance `offChance`).
   */
  add(group: MadeGroup): void;
  /** Writes the groups (and the weight map) into `file`'s first geometry. */
  writeInto(file: Json): void;
  /** Each rest vertex's painted weight with a weight map; undefined without. */
  perVertex(count: number): number[] | undefined;
}

/** An empty book; `painted`: the garment has a weight map; `habits` gathers what was made. */
export function rigidityBook(
  r: () => number,
  painted: boolean,
  offChance: number,
  habits: Set<string>,
): RigidityBook {
  const groups: Json[] = [], reference: ReferenceGroup[] = [];
  const kept: KeptGroup[] = [];
  const weights = new Map<number, number>();
  return {
    groups,
    reference,
    kept,
    weights,
    add(m) {
      const mask = [...new Set(m.mask)].sort((a, b) => a - b),
        refs = [...new Set(m.refs)].sort((a, b) => a - b);
      if (painted) {
        // Painted: most fully rigid, some partly, now and then a whole group left unpainted.
        const off = r() < offChance;
        if (off) habits.add("a group painted 0");
        for (const v of mask) weights.set(v, off ? 0 : r() < 0.3 ? Math.round(r() * 100) / 100 : 1);
      }
      groups.push({
        id: m.id,
        rotation_mode: m.rotation,
        scale_modes: [...m.scale],
        reference_vertices: { count: refs.length, values: refs },
        mask_vertices: { count: mask.length, values: mask },
      });
      reference.push({ rotation: m.rotation, scale: m.scale, refs, mask });
      kept.push({ id: m.id, mask, unreferenced: !refs.length });
    },
    writeInto(file) {
      if (painted) habits.add("weight map");
      const entries = [...weights].filter(([, w]) => w > 0).sort((a, b) => a[0] - b[0]);
      (file.geometry_library as Json[])[0].rigidity = {
        groups,
        ...(painted ? { weights: { count: entries.length, values: entries } } : {}),
      };
    },
    perVertex(count) {
      return painted ? Array.from({ length: count }, (_, v) => weights.get(v) ?? 0) : undefined;
    },
  };
}
