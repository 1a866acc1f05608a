/**
 * Whole aircraft (`surface_classes.ts`: elevators on a foreplane, low-poly every other round;
 * swept-wing ailerons; V-tails) as exporters and converters hand them over, one habit per scene:
 * meshes unwelded (every triangle its own corners), a third of the faces flipped, vertices duplicated
 * with faces sharing them at random, T-junctions (an edge split on one face and not its neighbour),
 * slivers (a corner pulled to 1–5 % along an edge), or all of those at once (`decimated`); panels
 * under a rotated, unevenly scaled empty named as the panel (a third mirrored: one axis negative);
 * the model in centimetres under a 0.01 root, in inches with no scale, under a Z-up → Y-up root turn,
 * or its right half drawn as the left's meshes under a −1 scale; a control horn (and half the time its
 * pushrod) in each panel's mesh; inboard and outboard surfaces on one hinge sharing one name or the
 * outboard numbered `.001`; and an FBX export mixing a Z-up centimetre root, empties, decimated meshes
 * and horns. The world geometry is the clean sample's (inches scale it): each panel's true hinge, side
 * and span carry over. Deterministic from a seed.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import {
  cross,
  dot,
  invertAffine,
  type Mat4,
  normalize,
  transformPoint,
  type Vec3,
} from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { axisAngle, newScene } from "./fixtures.ts";
import {
  canardAircraft,
  type ClassMesh,
  type ClassSample,
  type ClassTruth,
  joined,
  sweptWingAircraft,
  vTailAircraft,
} from "./surface_classes.ts";

/** The habits, cycled by seed. */
export const HABITS = [
  "unwelded",
  "flipped",
  "duplicates",
  "t_junctions",
  "slivers",
  "decimated",
  "under_empty",
  "centimetres",
  "inches",
  "z_up_root",
  "mirrored_node",
  "control_horn",
  "split_same_name",
  "split_numbered",
  "fbx_mix",
] as const;

/** One exporter's habit. */
export type Habit = (typeof HABITS)[number];

/** A panel's truth in the scene's world: its hinge through `origin` along `axis`, span, side. */
export interface HabitTruth {
  readonly name: string;
  readonly origin: Vec3;
  readonly axis: Vec3;
  readonly span: number;
  readonly side: "left" | "right";
}

/** A generated scene, the panels with a true hinge, and what it is. */
export interface HabitSample {
  readonly doc: Document;
  readonly truths: HabitTruth[];
  readonly habit: Habit;
  readonly description: string;
}

/** Aircraft coordinates (aft, up, left) to the default world (−Z forward, +Y up, +X right). */
const toWorld = (p: ArrayLike<number>): Vec3 => [-p[2], p[1], p[0]];

/** The sample of `seed`: a base aircraft (by seed / habits) given the habit of `seed`. */
export function habitSample(seed: number, habit: Habit = HABITS[seed % HABITS.length]): HabitSample {
  const next = prng(seed * 104729 + 7);
  const base = Math.floor(seed / HABITS.length) % 3;
  // Every other round of canard aircraft low-poly (10–16 points round a section), as game models are.
  const lowPoly = Math.floor(seed / (3 * HABITS.length)) % 2 === 1;
  const sample: ClassSample = base === 0
    ? canardAircraft(next, 2 * seed, lowPoly ? { around: [10, 16] } : {})
    : base === 1
    ? sweptWingAircraft(next)
    : vTailAircraft(next, seed);
  const scale = habit === "inches" ? 1 / 0.0254 : 1;
  const doc = newScene();
  const scene = doc.getRoot().getDefaultScene()!;
  // A root that the habit may turn or scale, the meshes stored in its frame so the world stays.
  let root: Node | undefined;
  // An FBX export from a Z-up, centimetre tool: both on one root, the objects under empties,
  // triangulated by the exporter, control horns in the panels.
  const mix = habit === "fbx_mix";
  if (habit === "centimetres") root = doc.createNode("RootNode").setScale([0.01, 0.01, 0.01]);
  if (habit === "z_up_root") root = doc.createNode("Sketchfab_model").setRotation(axisAngle([1, 0, 0], -90));
  if (mix) {
    root = doc.createNode("RootNode").setRotation(axisAngle([1, 0, 0], -90)).setScale([0.01, 0.01, 0.01]);
  }
  if (root) scene.addChild(root);
  const drawn = new Map<string, ClassMesh>();
  let meshes = 1;
  const add = (name: string, mesh: ClassMesh, isPanel: boolean) => {
    let world = Array.from(mesh.positions);
    for (let i = 0; i < world.length; i += 3) {
      world.splice(
        i,
        3,
        ...toWorld(world.slice(i, i + 3)).map((v) => v * scale),
      );
    }
    let triangles = Array.from(mesh.triangles);
    ({ positions: world, triangles } = meshHabit(habit, world, triangles, next));
    let parent = root;
    if ((habit === "under_empty" || mix) && isPanel) {
      // A third of the empties mirrored (one axis scaled negative: the determinant below zero).
      const mirrorAxis = next() < 0.33 ? Math.floor(3 * next()) : -1;
      const turn = normalize([next() - 0.5, next() - 0.5, next() - 0.5]);
      // FBX and COLLADA exports name the empty (the object) as the panel and its mesh after the mesh.
      parent = doc.createNode(name).setRotation(axisAngle(turn, 20 + 140 * next()))
        .setScale(
          [0.5 + 1.5 * next(), 0.5 + 1.5 * next(), 0.5 + 1.5 * next()].map((v, k) =>
            k === mirrorAxis ? -v : v
          ) as Vec3,
        )
        .setTranslation([next() - 0.5, next() - 0.5, next() - 0.5]);
      (root ?? scene).addChild(parent);
    }
    let local: Mat4 | undefined;
    const twin = habit === "mirrored_node" ? drawn.get(leftTwin(name)) : undefined;
    if (twin) {
      // The right half drawn as the left's mesh under a node scaled −1 across (x).
      local = [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
      world = Array.from(twin.positions, (v, i) => i % 3 === 0 ? -v : v);
      triangles = Array.from(twin.triangles);
    }
    const own = parent && parent !== root
      ? (next() < 0.5 ? `${name}_mesh` : `Mesh.${String(meshes++).padStart(3, "0")}`)
      : name;
    const node = meshNodeAt(doc, own, { positions: world, triangles }, parent, local);
    if (habit === "mirrored_node") drawn.set(name, { positions: world, triangles });
    return node;
  };
  for (const f of sample.fixed) add(f.name, f.mesh, false);
  const pieces: { name: string; truth: ClassTruth; side: "left" | "right" }[] = [];
  for (const p of sample.panels) {
    if (habit.startsWith("split_") && p.truth) {
      // Inboard and outboard surfaces on one hinge line, the outboard named as the inboard is (an FBX
      // export keeps both names) or numbered as a copy (Blender's `.001`).
      const [inboard, outboard] = cutAcross(p.mesh, p.truth, 0.35 + 0.3 * next());
      const names = [p.name, habit === "split_same_name" ? p.name : `${p.name}.001`];
      add(names[0], inboard, true), add(names[1], outboard, true);
      for (const name of names) pieces.push({ name, truth: p.truth, side: p.side });
      continue;
    }
    const horn = (habit === "control_horn" || mix) && p.truth;
    add(p.name, horn ? joined([p.mesh, controlHorn(p.truth!, next)]) : p.mesh, true);
    if (p.truth) pieces.push({ name: p.name, truth: p.truth, side: p.side });
  }
  const truths = pieces.map((p) => ({
    name: p.name,
    origin: toWorld(p.truth.origin).map((v) => v * scale) as Vec3,
    axis: toWorld(p.truth.axis),
    span: p.truth.span * scale,
    side: p.side,
  }));
  return {
    doc,
    truths,
    habit,
    description: `seed ${seed} ${habit}${lowPoly && base === 0 ? " low-poly" : ""}: ${sample.description}`,
  };
}

/** The left twin's name of a right object (`Aileron_R` → `Aileron_L`), else the name itself. */
function leftTwin(name: string): string {
  return name.replace(/_R$/, "_L").replace(/_Right$/, "_Left").replace(/\.001$/, "");
}

/**
 * A mesh node whose world vertices are `mesh` (world coordinates): stored in the frame below `parent`
 * and `local` (the node's own matrix, when given) so that the world is unchanged.
 */
function meshNodeAt(
  doc: Document,
  name: string,
  mesh: ClassMesh,
  parent: Node | undefined,
  local?: Mat4,
): Node {
  const node = doc.createNode(name);
  if (local) node.setMatrix(local as unknown as Parameters<Node["setMatrix"]>[0]);
  if (parent) parent.addChild(node);
  else doc.getRoot().getDefaultScene()!.addChild(node);
  const inverse = invertAffine(node.getWorldMatrix());
  const stored = new Float32Array(mesh.positions.length);
  for (let i = 0; i < mesh.positions.length; i += 3) {
    stored.set(transformPoint(inverse, [mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]]), i);
  }
  const buffer = doc.getRoot().listBuffers()[0];
  const position = doc.createAccessor(`${name}.position`, buffer).setType("VEC3").setArray(stored);
  const index = doc.createAccessor(`${name}.indices`, buffer).setType("SCALAR")
    .setArray(new Uint32Array(mesh.triangles));
  return node.setMesh(
    doc.createMesh(name).addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", position).setIndices(index),
    ),
  );
}

/**
 * The mesh cut across its hinge at `fraction` of the span (by each triangle's centre), the half
 * nearer the fuselage first, each with only the vertices it uses.
 */
function cutAcross(mesh: ClassMesh, truth: ClassTruth, fraction: number): [ClassMesh, ClassMesh] {
  // Aircraft coordinates: left is +z, so the axis signed outward points away from the centre line.
  const out = Math.sign(truth.origin[2]) * Math.sign(truth.axis[2]) || 1;
  const at = (fraction - 0.5) * truth.span;
  const halves: number[][] = [[], []];
  const t = mesh.triangles, p = mesh.positions;
  for (let k = 0; k + 2 < t.length; k += 3) {
    let along = 0;
    for (let j = 0; j < 3; j++) {
      for (let c = 0; c < 3; c++) along += (p[3 * t[k + j] + c] - truth.origin[c]) * truth.axis[c] * out / 3;
    }
    halves[along < at ? 0 : 1].push(t[k], t[k + 1], t[k + 2]);
  }
  return halves.map((triangles) => {
    const index = new Map<number, number>(), positions: number[] = [];
    const renumbered = triangles.map((v) => {
      if (!index.has(v)) index.set(v, index.size), positions.push(p[3 * v], p[3 * v + 1], p[3 * v + 2]);
      return index.get(v)!;
    });
    return { positions, triangles: renumbered };
  }) as unknown as [ClassMesh, ClassMesh];
}

/** The habit done to one mesh's triangles (world positions, flat). */
function meshHabit(
  habit: Habit,
  positions: number[],
  triangles: number[],
  next: () => number,
): { positions: number[]; triangles: number[] } {
  let p = positions, t = triangles;
  const decimated = habit === "decimated" || habit === "fbx_mix";
  if (habit === "slivers" || decimated) ({ positions: p, triangles: t } = slivers(p, t, next));
  if (habit === "t_junctions" || decimated) ({ positions: p, triangles: t } = tJunctions(p, t, next));
  if (habit === "duplicates" || decimated) ({ positions: p, triangles: t } = duplicates(p, t, next));
  if (habit === "flipped" || decimated) t = flipped(t, next);
  if (habit === "unwelded") ({ positions: p, triangles: t } = unwelded(p, t));
  return { positions: p, triangles: t };
}

/** Every triangle its own three corners. */
function unwelded(p: number[], t: number[]) {
  const positions: number[] = [];
  for (const v of t) positions.push(p[3 * v], p[3 * v + 1], p[3 * v + 2]);
  return { positions, triangles: t.map((_, k) => k) };
}

/** A third of the faces wound the other way. */
function flipped(t: number[], next: () => number): number[] {
  const out = t.slice();
  for (let k = 0; k + 2 < out.length; k += 3) {
    if (next() < 0.33) [out[k + 1], out[k + 2]] = [out[k + 2], out[k + 1]];
  }
  return out;
}

/** Vertices copied (at the same place), faces using either copy at random. */
function duplicates(p: number[], t: number[], next: () => number) {
  const positions = p.slice(), copy = new Map<number, number>();
  const count = p.length / 3;
  for (let v = 0; v < count; v++) {
    if (next() < 0.4) {
      copy.set(v, positions.length / 3);
      positions.push(p[3 * v], p[3 * v + 1], p[3 * v + 2]);
    }
  }
  return { positions, triangles: t.map((v) => copy.has(v) && next() < 0.5 ? copy.get(v)! : v) };
}

/** A new vertex between `a` and `b` at `f`, its index. */
function between(p: number[], a: number, b: number, f: number): number {
  for (let k = 0; k < 3; k++) p.push(p[3 * a + k] + f * (p[3 * b + k] - p[3 * a + k]));
  return p.length / 3 - 1;
}

/** A quarter of the faces split at an edge's midpoint, their neighbours left whole: T-junctions. */
function tJunctions(p: number[], t: number[], next: () => number) {
  const positions = p.slice(), triangles: number[] = [];
  for (let k = 0; k + 2 < t.length; k += 3) {
    const [a, b, c] = [t[k], t[k + 1], t[k + 2]];
    if (next() >= 0.25) {
      triangles.push(a, b, c);
      continue;
    }
    const m = between(positions, a, b, 0.5);
    triangles.push(a, m, c, m, b, c);
  }
  return { positions, triangles };
}

/** Half the faces split from a corner to a point 1–5 % along the opposite edge: a needle and the rest. */
function slivers(p: number[], t: number[], next: () => number) {
  const positions = p.slice(), triangles: number[] = [];
  for (let k = 0; k + 2 < t.length; k += 3) {
    const [a, b, c] = [t[k], t[k + 1], t[k + 2]];
    if (next() >= 0.5) {
      triangles.push(a, b, c);
      continue;
    }
    const m = between(positions, b, c, 0.01 + 0.04 * next());
    triangles.push(a, b, m, a, m, c);
  }
  return { positions, triangles };
}

/**
 * A control horn in the panel's mesh, as detailed models group it with the surface: a thin plate
 * standing off the lower skin at the hinge, 20–45 % of the chord deep, a fifth to two fifths out
 * along the span; half the time with its pushrod running forward from the horn's tip, under the wing.
 * Aircraft coordinates.
 */
function controlHorn(truth: ClassTruth, next: () => number): ClassMesh {
  const aft: Vec3 = [1, 0, 0];
  const chordwise = normalize(aft.map((v, k) => v - dot(aft, truth.axis) * truth.axis[k]));
  let down = cross(truth.axis, chordwise);
  if (down[1] > 0) down = down.map((v) => -v) as Vec3;
  const at = truth.origin.map((v, k) => v + (0.2 * next() - 0.3 + 0.2 * next()) * truth.span * truth.axis[k]);
  const point = (c: number, d: number, s: number): Vec3 =>
    at.map((v, k) =>
      v + c * truth.chord * chordwise[k] + d * truth.chord * down[k] + s * truth.chord * truth.axis[k]
    ) as Vec3;
  const deep = 0.2 + 0.25 * next(), w = 0.015;
  // A wedge: its root along the skin from the hinge to 35 % of the chord, its tip below the hinge.
  const corners = [
    point(0, 0, -w),
    point(0.35, 0, -w),
    point(0.05, deep, -w),
    point(0, 0, w),
    point(0.35, 0, w),
    point(0.05, deep, w),
  ];
  const triangles = [0, 1, 2, 3, 5, 4, 0, 3, 4, 0, 4, 1, 1, 4, 5, 1, 5, 2, 2, 5, 3, 2, 3, 0];
  const horn = { positions: corners.flat(), triangles };
  if (next() < 0.5) return horn;
  const reach = 0.5 + 0.5 * next();
  const rod = [
    point(0.05, deep, -w),
    point(0.05 - reach, deep + 0.02, -w),
    point(0.05 - reach, deep + 0.02, w),
    point(0.05, deep, w),
  ];
  return joined([horn, { positions: rod.flat(), triangles: [0, 1, 2, 0, 2, 3] }]);
}
