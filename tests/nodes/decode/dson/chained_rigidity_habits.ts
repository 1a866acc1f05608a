/**
 * A belt fitted to a coat fitted to the body, as Daz users layer clothing: the coat is a
 * `preset_rigidity_habits.ts` garment (buttons, buckles, zips, weight maps) and the belt a band of its
 * rows around its first rigid part, 0.2–0.6 cm out from it (over the coat's buckle or buttons, as a
 * belt is worn), its vertices over the coat's, written to 7 significant digits, conforming to the
 * coat (`conform_target`), with no morph of its own. The saved scene dials the body's shapes (one or
 * both of `FBMHeavy` and `PBMStomachDepth`, 0.3–1.0): Daz projects them onto the coat and applies the
 * coat's rigidity, and the belt follows the coat as it is then drawn, buttons and buckles rigid under
 * it. Where Daz draws each belt vertex is the coat's place under it (`expectedAt` of the coat's case,
 * the ideal shapes with `rigidity_reference.ts`) moved out as the belt sits.
 *
 * @module
 */
import { prng } from "../../../support/prng.ts";
import type { Json } from "./generate.ts";
import { figureFile } from "./swell_body.ts";
import { type PresetRigidityCase, presetRigidityCase } from "./preset_rigidity_habits.ts";
import type { V3 } from "./rigidity_reference.ts";

/** One coat with a belt over it. */
export interface ChainedRigidityCase {
  readonly coat: PresetRigidityCase;
  /** The belt's figure file (`Belt`). */
  readonly file: Json;
  /** Each belt vertex's coat vertex (the one under it). */
  readonly under: readonly number[];
  /** The coat's groups with reference vertices whose participants the belt lies over, and those belt vertices. */
  readonly covered: readonly { readonly id: string; readonly belt: readonly number[] }[];
  /** How far out of the coat the belt sits (cm). */
  readonly gap: number;
  readonly habits: readonly string[];
}

/** The case of `seed`, or undefined when the coat has no referenced group to lie over. */
export function chainedRigidityCase(seed: number): ChainedRigidityCase | undefined {
  const coat = presetRigidityCase(seed);
  const r = prng(seed * 31 + 7);
  const groups = coat.groups.filter((g) => !g.unreferenced && g.mask.length);
  if (!groups.length || coat.offset > 5) return undefined;
  const gap = Math.round((0.2 + r() * 0.4) * 100) / 100;
  // The coat's rows and segments, read back from its rest vertices (one ring per height).
  const heights = [...new Set(coat.rest.map((p) => p[1]))];
  const segments = coat.rest.length / heights.length;
  const rowOf = (v: number) => Math.floor(v / segments);
  const mask = groups[0].mask;
  const rows = mask.map(rowOf);
  const [top, bottom] = [
    Math.max(0, Math.min(...rows) - 1),
    Math.min(heights.length - 1, Math.max(...rows) + 1),
  ];
  const under: number[] = [];
  for (let row = top; row <= bottom; row++) for (let s = 0; s < segments; s++) under.push(row * segments + s);
  const vertices = under.map((v) => {
    const p = coat.rest[v], radius = Math.hypot(p[0], p[2]);
    const k = (radius + gap) / radius;
    return [p[0] * k, p[1], p[2] * k].map((x) => +x.toPrecision(7));
  });
  const polys: number[][] = [];
  for (let j = 0; j + 1 <= bottom - top; j++) {
    for (let s = 0; s < segments; s++) {
      const [a, b] = [j * segments + s, j * segments + ((s + 1) % segments)];
      polys.push([0, 0, a, b, b + segments, a + segments]);
    }
  }
  const at = new Map(under.map((v, i) => [v, i]));
  const covered = groups.map((g) => ({
    id: g.id,
    belt: g.mask.filter((v) => at.has(v)).map((v) => at.get(v)!),
  }))
    .filter((g) => g.belt.length);
  return {
    coat,
    file: figureFile("Belt", { vertices, polys }, []),
    under,
    covered,
    gap,
    habits: [...coat.habits, `a belt ${gap} cm out over ${covered.map((g) => g.id).join(", ")}`],
  };
}

/** Where Daz draws each belt vertex (cm) with the body's shapes at `dials`: the coat's place under it, moved out. */
export function beltExpectedAt(c: ChainedRigidityCase, dials: readonly (readonly [string, number])[]): V3[] {
  const coat = c.coat.expectedAt(dials);
  return c.under.map((v) => {
    const rest = c.coat.rest[v];
    const k = (Math.hypot(rest[0], rest[2]) + c.gap) / Math.hypot(rest[0], rest[2]);
    return [coat[v][0] + rest[0] * (k - 1), coat[v][1], coat[v][2] + rest[2] * (k - 1)] as V3;
  });
}
