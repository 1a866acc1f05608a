/**
 * Control surfaces carrying hardware that looks like a control linkage, as real files have it, beside
 * `rough_surfaces.ts`'s horns and rods: **horns at two span places** with no rod (one per pushrod, or
 * one at each end of a long surface; below, above or a pair), merged into the surface's mesh or as
 * child nodes named as files name them (`ElevatorHorn`, `Horn.001`, `Ruderhorn`, `guignol`, or
 * `Cube.004`); and **brackets as modellers make them**, which must not pass for linkages: a flap hung on
 * a dropped hinge whose mesh holds only one bracket plate (a short segment, or its other brackets drawn
 * with the wing), or one or two hinge fairings (pods about the bracket down to the pivot); airliners'
 * **flap-track canoe fairings**, long pods under a dropped-hinge flap running forward under the wing
 * and aft past its trailing edge, the pivot inside; and a plain hinge with fairings hung below it.
 * Each surface's true hinge is the construction's (a dropped hinge's: its pivot). Deterministic from
 * a seed.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { linkage } from "./linkage_shapes.ts";
import { type RoughTruth, surfaceFrame } from "./rough_surfaces.ts";
import type { JudgedSample } from "./rough_tally.ts";
import {
  canardAircraft,
  type ClassMesh,
  type ClassSample,
  joined,
  sweptWingAircraft,
  vTailAircraft,
} from "./surface_classes.ts";

/** The habits, cycled by seed. */
export const LINKAGE_HABITS = [
  "two_horns",
  "dropped_bracket",
  "dropped_fairing",
  "flap_track",
  "plain_fairing",
] as const;

/** One habit of {@link LINKAGE_HABITS}. */
export type LinkageHabit = (typeof LINKAGE_HABITS)[number];

/** Names files give a control horn, and names that say nothing. */
const HORN_NAMES = ["ElevatorHorn", "Horn.001", "horn_L", "Ruderhorn", "guignol", "ControlHorn", "Cube.004"];
/** Names files give a hinge bracket or fairing, and names that say nothing. */
const BRACKET_NAMES = ["HingeBracket", "Bracket.002", "Hinge_Fairing", "Scharnier", "charniere", "Object021"];
/** Names files give a flap track's canoe fairing, and names that say nothing. */
const TRACK_NAMES = ["FlapTrack", "Canoe_Fairing", "flap_track_fairing.001", "Cylinder.002", "Object033"];

/** Aircraft coordinates (aft, up, left) to the default world (−Z forward, +Y up, +X right). */
const toWorld = (p: ArrayLike<number>): Vec3 => [-p[2], p[1], p[0]];

/** What {@link linkageSample} may be told to draw: horns on one `side` only (1 below, −1 above), as children named `names`. */
export interface LinkageOptions {
  readonly side?: 1 | -1;
  readonly names?: readonly string[];
}

/** The sample of `seed` with the habit of `seed` (or `habit`). */
export function linkageSample(
  seed: number,
  habit: LinkageHabit = LINKAGE_HABITS[seed % LINKAGE_HABITS.length],
  told: LinkageOptions = {},
): JudgedSample {
  const next = prng(seed * 7919 + 3);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const dropped = habit !== "two_horns" && habit !== "plain_fairing";
  const drop = dropped ? 0.08 + 0.17 * next() : 0;
  const base = Math.floor(seed / LINKAGE_HABITS.length) % 3;
  const sample: ClassSample = dropped
    ? canardAircraft(next, 2 * seed, { drop, bracketsApart: true })
    : base === 0
    ? canardAircraft(next, 2 * seed)
    : base === 1
    ? sweptWingAircraft(next)
    : vTailAircraft(next, seed);
  const doc = newScene();
  const truths: RoughTruth[] = [];
  for (const f of sample.fixed) addAircraftMesh(doc, f.name, f.mesh.positions, f.mesh.triangles);
  for (const p of sample.panels) {
    const truth = p.truth;
    if (!truth) {
      addAircraftMesh(doc, p.name, p.mesh.positions, p.mesh.triangles);
      continue;
    }
    const parts: ClassMesh[] = [p.mesh];
    const children: { name: string; mesh: ClassMesh }[] = [];
    // Half the files merge the hardware into the surface's mesh, half hang it below as named children.
    const asChildren = next() < 0.5 || told.names !== undefined;
    const put = (mesh: ClassMesh, names: readonly string[]) =>
      asChildren ? children.push({ name: pick(told.names ?? names), mesh }) : parts.push(mesh);
    const lift = dropped ? drop + 0.1 : 0;
    const frame = surfaceFrame(truth, lift);
    const places = habit === "dropped_bracket" ? [-0.3 + 0.6 * next()] : twoPlaces(habit, next);
    for (const s of places) {
      if (habit === "two_horns") {
        const at = (c: number, d: number, w = 0) => frame.point(c, d, s, w);
        const side = told.side ?? (next() < 0.6 ? 1 : -1);
        put(linkage(at, side, 0.2 + 0.25 * next(), 0, 1, next).horn, HORN_NAMES);
        if (next() < 0.3 && !told.side) {
          put(linkage(at, -side, 0.2 + 0.2 * next(), 0, 1, next).horn, HORN_NAMES);
        }
      } else if (habit === "dropped_bracket") {
        // A plate from the lower skin down to the pivot, a little ahead of the nose.
        const w = 0.005 + 0.015 * next();
        put(
          prism(frame, s, w, [[-0.03, lift + 0.02], [0.03, lift - 0.01], [0.3, 0.08], [0.05, 0.03]]),
          BRACKET_NAMES,
        );
      } else if (habit === "dropped_fairing" || habit === "plain_fairing") {
        // A pod about the bracket, from just ahead of the hinge aft, down past the pivot.
        const aft = 0.35 + 0.3 * next(), deep = dropped ? lift + 0.04 + 0.04 * next() : 0.1 + 0.1 * next();
        put(
          pod(frame, s, [-0.1 - 0.1 * next(), aft], [0.02, deep], 0.03 + 0.04 * next(), next),
          BRACKET_NAMES,
        );
      } else {
        // A canoe fairing: forward under the wing, aft past the trailing edge, the pivot inside it.
        const fore = -0.3 - 0.5 * next(), aft = 1.0 + 0.4 * next();
        put(
          pod(frame, s, [fore, aft], [0.02, lift + 0.05 + 0.07 * next()], 0.04 + 0.04 * next(), next),
          TRACK_NAMES,
        );
      }
    }
    const mesh = joined(parts);
    const node = addAircraftMesh(doc, p.name, mesh.positions, mesh.triangles);
    for (const child of children) addChild(doc, child.name, child.mesh, node);
    truths.push({
      name: p.name,
      origin: toWorld(truth.origin),
      axis: toWorld(truth.axis),
      span: truth.span,
      side: p.side,
    });
  }
  return {
    doc,
    truths,
    description: `seed ${seed} ${habit}${
      dropped ? ` (drop ${(100 * drop).toFixed(0)} %)` : ""
    }: ${sample.description}`,
  };
}

/** One or two span places (fractions from the middle), two at least a third of the span apart. */
function twoPlaces(habit: LinkageHabit, next: () => number): number[] {
  if (habit !== "two_horns" && next() < 0.5) return [-0.3 + 0.6 * next()];
  const a = -0.4 + 0.2 * next(), b = 0.15 + 0.25 * next();
  return next() < 0.5 ? [a, b] : [b, a];
}

function addChild(doc: ReturnType<typeof newScene>, name: string, mesh: ClassMesh, parent: Node): void {
  addAircraftMesh(doc, name, mesh.positions, mesh.triangles, parent);
}

/** A closed plate: the polygon (`c` aft, `d` down) at span place `s`, `w` chords either side. */
function prism(
  frame: ReturnType<typeof surfaceFrame>,
  s: number,
  w: number,
  outline: readonly [number, number][],
): ClassMesh {
  const n = outline.length, positions: number[] = [], triangles: number[] = [];
  for (const side of [-w, w]) for (const [c, d] of outline) positions.push(...frame.point(c, d, s, side));
  for (let k = 1; k + 1 < n; k++) triangles.push(0, k, k + 1, n, n + k + 1, n + k);
  for (let k = 0; k < n; k++) {
    const k1 = (k + 1) % n;
    triangles.push(k, n + k, n + k1, k, n + k1, k1);
  }
  return { positions, triangles };
}

/**
 * A closed pod along the chord over `c`, its top and bottom at depths `d`, `w` chords half-wide at
 * span place `s`: sections of 4–12 sides (a box, or a faceted round body) tapering to its ends.
 */
function pod(
  frame: ReturnType<typeof surfaceFrame>,
  s: number,
  c: readonly [number, number],
  d: readonly [number, number],
  w: number,
  next: () => number,
): ClassMesh {
  const sides = next() < 0.3 ? 4 : 6 + Math.floor(7 * next()), rings = 5 + Math.floor(4 * next());
  const positions: number[] = [], triangles: number[] = [];
  const mid = (d[0] + d[1]) / 2, half = (d[1] - d[0]) / 2;
  for (let r = 0; r < rings; r++) {
    const t = r / (rings - 1), cc = c[0] + (c[1] - c[0]) * t;
    // Full at the middle, a third at the ends: a streamlined body, its top along the skin.
    const scale = 0.35 + 0.65 * Math.sin(Math.PI * t);
    for (let k = 0; k < sides; k++) {
      const a = (2 * Math.PI * (k + 0.5)) / sides;
      const dd = mid + half * Math.cos(a) * (Math.cos(a) < 0 ? 1 : scale);
      positions.push(...frame.point(cc, Math.max(d[0], dd), s, w * scale * Math.sin(a)));
    }
  }
  for (let r = 0; r + 1 < rings; r++) {
    for (let k = 0; k < sides; k++) {
      const a = r * sides + k, b = r * sides + (k + 1) % sides;
      triangles.push(a, b, b + sides, a, b + sides, a + sides);
    }
  }
  const last = (rings - 1) * sides;
  for (let k = 1; k + 1 < sides; k++) triangles.push(0, k + 1, k, last, last + k, last + k + 1);
  return { positions, triangles };
}
