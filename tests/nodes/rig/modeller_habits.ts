/**
 * Whole aircraft (`surface_classes.ts`: elevators on a foreplane, all-moving canards, swept-wing
 * ailerons, V-tails; low-poly every other round) whose control surfaces carry a habit of how real
 * modellers and exporters hand low-poly models over that the other generators do not draw, one per
 * scene:
 *
 * - `shared_buffer`: the surface and the fixed surface ahead drawn from one vertex buffer (one mesh
 *   split by material only, as game rips and old exporters store it): the surface's primitive holds
 *   the wing's vertices too, its indices drawing only its own triangles.
 * - `origin_vertex`: a loose vertex left at the model's origin in the surface's vertex list, drawn by
 *   no triangle (a deleted face's corner an exporter kept).
 * - `degenerate_origin`: a triangle collapsed onto the model's origin (all three corners there).
 * - `stray_wing_faces`: one to three faces of the wing's cove left in the surface's mesh when it was
 *   separated (Blender's `P` with a few wing faces still selected).
 * - `stray_far`: a small loose triangle or quad a few chords away from the surface in its mesh.
 * - `holes`: a tenth of the surface's triangles missing (a bad rip, a decimator's holes).
 * - `parent_inverse`: the surface's node at the model's origin, its mesh in model space, under a
 *   parent group turned and moved (Blender's parent inverse written into the child).
 * - `sheared`: the surface's node turned under an unevenly scaled parent (the world matrix shears).
 * - `loose_edges`: a guide edge the modeller kept along the hinge, run out half a span past both
 *   ends, and one to the body, exported as a second primitive of lines (Blender's loose edges).
 * - `loose_points`: a handful of leftover vertices within a chord of the surface, drawn by nothing
 *   (faces deleted, their corners kept).
 * - `material_split`: the surface never separated from the fixed surface ahead: one object, one mesh,
 *   the surface a primitive of its own only by its material (`Aileron_L`, `M_Aileron_L`,
 *   `aileron_l_mat`, or one `Aileron` material on both sides), from one vertex buffer or two.
 *
 * The world geometry of every habit but `stray_*`/`holes` is the clean sample's; each panel's true
 * hinge, chord, side carry over. Deterministic from a seed.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { invertAffine, type Quat, transformPoint, type Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { axisAngle, newScene } from "./fixtures.ts";
import {
  canardAircraft,
  type ClassMesh,
  type ClassSample,
  sweptWingAircraft,
  vTailAircraft,
} from "./surface_classes.ts";

/** The habits, cycled by seed. */
export const MODELLER_HABITS = [
  "shared_buffer",
  "origin_vertex",
  "degenerate_origin",
  "stray_wing_faces",
  "stray_far",
  "holes",
  "parent_inverse",
  "sheared",
  "loose_edges",
  "loose_points",
  "material_split",
] as const;

/** One modeller's habit, or `clean` (none: the base aircraft as drawn, to compare against). */
export type ModellerHabit = (typeof MODELLER_HABITS)[number] | "clean";

/** A panel's truth in the scene's world: hinge through `origin` along `axis`, its span, chord, side. */
export interface ModellerTruth {
  readonly name: string;
  readonly origin: Vec3;
  readonly axis: Vec3;
  readonly span: number;
  readonly chord: number;
  readonly side: "left" | "right";
  /** Other names the rig may give the panel (a surface drawn by its wing's mesh: its material's). */
  readonly aliases?: string[];
}

/** A generated scene, its panels with a true hinge, and what it is. */
export interface ModellerSample {
  readonly doc: Document;
  readonly truths: ModellerTruth[];
  readonly habit: ModellerHabit;
  readonly description: string;
}

/** Aircraft coordinates (aft, up, left) to the default world (−Z forward, +Y up, +X right). */
const toWorld = (p: ArrayLike<number>): Vec3 => [-p[2], p[1], p[0]];

/** A mesh moved into the default world. */
const worldMesh = (mesh: ClassMesh): { positions: number[]; triangles: number[] } => {
  const positions: number[] = [];
  for (let i = 0; i < mesh.positions.length; i += 3) {
    positions.push(...toWorld([mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]]));
  }
  return { positions, triangles: Array.from(mesh.triangles) };
};

/** A random unit quaternion-ish turn: about a drawn axis by up to `most` degrees. */
const randomTurn = (next: () => number, most: number): Quat =>
  axisAngle([next() - 0.5, next() - 0.5, next() - 0.5], (next() * 2 - 1) * most);

/** The sample of `seed`: a base aircraft (by seed / habits) given the habit of `seed`. */
export function modellerSample(
  seed: number,
  habit: ModellerHabit = MODELLER_HABITS[seed % MODELLER_HABITS.length],
): ModellerSample {
  const next = prng(seed * 7919 + 101);
  const base = Math.floor(seed / MODELLER_HABITS.length) % 3;
  const lowPoly = Math.floor(seed / (3 * MODELLER_HABITS.length)) % 2 === 1;
  const sample: ClassSample = base === 0
    ? canardAircraft(next, 2 * seed + (seed % 3 === 0 ? 1 : 0), lowPoly ? { around: [10, 16] } : {})
    : base === 1
    ? sweptWingAircraft(next)
    : vTailAircraft(next, seed);
  const doc = newScene();
  const truths: ModellerTruth[] = [];
  // The fixed surface ahead of each panel: its name (`Wing_L` ahead of `Aileron_L`) by place in the list.
  const fixedAhead = new Map<string, { positions: number[]; triangles: number[] }>();
  const panelsBySide = sample.panels;
  const fixedSurfaces = sample.fixed.filter((f) => f.name !== "Fuselage");
  panelsBySide.forEach((p, i) => {
    const f = fixedSurfaces[i];
    if (f) fixedAhead.set(p.name, worldMesh(f.mesh));
  });
  for (const f of sample.fixed) {
    // Drawn with its panel when they share one buffer or one mesh.
    if ((habit === "shared_buffer" || habit === "material_split") && f.name !== "Fuselage") continue;
    addWorldMesh(doc, f.name, worldMesh(f.mesh));
  }
  sample.panels.forEach((p, i) => {
    const mesh = worldMesh(p.mesh);
    const wing = fixedAhead.get(p.name);
    if (p.truth) {
      truths.push({
        name: p.name,
        origin: toWorld(p.truth.origin),
        axis: toWorld(p.truth.axis),
        span: p.truth.span,
        chord: p.truth.chord,
        side: p.side,
      });
    }
    if (habit === "material_split" && wing) {
      const material = addMaterialSplit(doc, fixedSurfaces[i].name, wing, p.name, p.kind, mesh, seed);
      const truth = truths.find((t) => t.name === p.name);
      if (truth) {
        truths[truths.indexOf(truth)] = {
          ...truth,
          aliases: [material, `${material}_${fixedSurfaces[i].name}`],
        };
      }
      return;
    }
    if (habit === "shared_buffer" && wing) {
      addSharedPair(doc, fixedSurfaces[i].name, wing, p.name, mesh);
      return;
    }
    if (habit === "origin_vertex") {
      addWorldMesh(doc, p.name, mesh, { loose: [[0, 0, 0]] });
      return;
    }
    if (habit === "degenerate_origin") {
      const at = mesh.positions.length / 3;
      mesh.positions.push(0, 0, 0, 0, 0, 0, 0, 0, 0);
      mesh.triangles.push(at, at + 1, at + 2);
      addWorldMesh(doc, p.name, mesh);
      return;
    }
    if (habit === "stray_wing_faces" && wing) {
      addWorldMesh(doc, p.name, withStrayFaces(mesh, wing, 1 + Math.floor(3 * next())));
      return;
    }
    if (habit === "stray_far") {
      addWorldMesh(doc, p.name, withFarStray(mesh, p.truth?.chord ?? 1, next));
      return;
    }
    if (habit === "holes") {
      addWorldMesh(doc, p.name, withHoles(mesh, 0.06 + 0.08 * next(), next));
      return;
    }
    if (habit === "parent_inverse") {
      const parent = doc.createNode(`Empty.${String(i + 1).padStart(3, "0")}`)
        .setTranslation([4 * next() - 2, 2 * next() - 1, 4 * next() - 2])
        .setRotation(randomTurn(next, 60));
      doc.getRoot().getDefaultScene()!.addChild(parent);
      // The child's own transform undoes the parent's: its origin is the model's.
      const inverse = invertAffine(parent.getMatrix());
      const node = addWorldMesh(doc, p.name, mesh, { parent });
      node.setMatrix(inverse as unknown as Parameters<Node["setMatrix"]>[0]);
      rebake(node, mesh);
      return;
    }
    if (habit === "sheared") {
      const parent = doc.createNode(`Dummy${String(i + 1).padStart(2, "0")}`)
        .setScale([0.6 + next(), 0.6 + next(), 0.6 + next()])
        .setRotation(randomTurn(next, 30));
      doc.getRoot().getDefaultScene()!.addChild(parent);
      const node = addWorldMesh(doc, p.name, mesh, { parent });
      node.setRotation(randomTurn(next, 45)).setTranslation([next() - 0.5, next() - 0.5, next() - 0.5]);
      rebake(node, mesh);
      return;
    }
    if (habit === "loose_points") {
      const chord = p.truth?.chord ?? 1, n = 2 + Math.floor(5 * next());
      const middle = meanOf(mesh.positions);
      const loose = Array.from({ length: n }, () => middle.map((c) => c + (2 * next() - 1) * chord) as Vec3);
      addWorldMesh(doc, p.name, mesh, { loose });
      return;
    }
    const node = addWorldMesh(doc, p.name, mesh);
    if (habit === "loose_edges" && p.truth) addGuideEdges(doc, node, p.truth, next);
  });
  return { doc, truths, habit, description: `seed ${seed} ${habit}: ${sample.description}` };
}

/** Adds a node drawing `mesh` (world positions) as it stands, with `loose` unreferenced vertices. */
function addWorldMesh(
  doc: Document,
  name: string,
  mesh: { positions: number[]; triangles: number[] },
  options: { parent?: Node; loose?: Vec3[] } = {},
): Node {
  const positions = [...mesh.positions, ...(options.loose ?? []).flat()];
  const buffer = doc.getRoot().listBuffers()[0];
  const position = doc.createAccessor(`${name}.position`, buffer).setType("VEC3")
    .setArray(new Float32Array(positions));
  const index = doc.createAccessor(`${name}.indices`, buffer).setType("SCALAR")
    .setArray(new Uint32Array(mesh.triangles));
  const node = doc.createNode(name).setMesh(
    doc.createMesh(name).addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", position).setIndices(index),
    ),
  );
  (options.parent ?? doc.getRoot().getDefaultScene()!).addChild(node);
  return node;
}

/** The mean of a position list. */
const meanOf = (positions: number[]): Vec3 =>
  [0, 1, 2].map((k) => {
    let s = 0;
    for (let i = k; i < positions.length; i += 3) s += positions[i];
    return s / (positions.length / 3);
  }) as Vec3;

/** A second primitive of lines on `node`'s mesh: the hinge run past both ends, and an edge to the body. */
function addGuideEdges(
  doc: Document,
  node: Node,
  truth: ClassSample["panels"][number]["truth"] & object,
  next: () => number,
): void {
  const origin = toWorld(truth.origin), axis = toWorld(truth.axis);
  const reach = (0.9 + 0.4 * next()) * truth.span;
  const at = (f: number): number[] => [0, 1, 2].map((k) => origin[k] + axis[k] * f * reach);
  // The body's centre line at the hinge's middle: x = 0 in the default world.
  const positions = [...at(-1), ...at(1), ...origin, 0, origin[1], origin[2]];
  const buffer = doc.getRoot().listBuffers()[0];
  const primitive = doc.createPrimitive().setMode(1)
    .setAttribute(
      "POSITION",
      doc.createAccessor(`${node.getName()}.edges`, buffer).setType("VEC3").setArray(
        new Float32Array(positions),
      ),
    )
    .setIndices(
      doc.createAccessor(`${node.getName()}.edge_indices`, buffer).setType("SCALAR")
        .setArray(new Uint32Array([0, 1, 2, 3])),
    );
  node.getMesh()!.addPrimitive(primitive);
}

/** Stores `node`'s positions in its own frame so its world geometry is `mesh` (after a transform change). */
function rebake(node: Node, mesh: { positions: number[] }): void {
  const inverse = invertAffine(node.getWorldMatrix());
  const local: number[] = [];
  for (let i = 0; i < mesh.positions.length; i += 3) {
    local.push(...transformPoint(inverse, mesh.positions.slice(i, i + 3)));
  }
  node.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!.setArray(new Float32Array(local));
}

/** The wing and its panel as two nodes whose primitives share one vertex accessor. */
function addSharedPair(
  doc: Document,
  wingName: string,
  wing: { positions: number[]; triangles: number[] },
  panelName: string,
  panel: { positions: number[]; triangles: number[] },
): void {
  const buffer = doc.getRoot().listBuffers()[0];
  const shared = doc.createAccessor(`${wingName}.position`, buffer).setType("VEC3")
    .setArray(new Float32Array([...wing.positions, ...panel.positions]));
  const base = wing.positions.length / 3;
  const parts: [string, number[]][] = [
    [wingName, wing.triangles],
    [panelName, panel.triangles.map((t) => t + base)],
  ];
  for (const [name, triangles] of parts) {
    const index = doc.createAccessor(`${name}.indices`, buffer).setType("SCALAR")
      .setArray(new Uint32Array(triangles));
    const node = doc.createNode(name).setMesh(
      doc.createMesh(name).addPrimitive(
        doc.createPrimitive().setAttribute("POSITION", shared).setIndices(index),
      ),
    );
    doc.getRoot().getDefaultScene()!.addChild(node);
  }
}

/** The wing and its panel as one node whose mesh draws each by a primitive of its own material (its name). */
function addMaterialSplit(
  doc: Document,
  wingName: string,
  wing: { positions: number[]; triangles: number[] },
  panelName: string,
  kind: string,
  panel: { positions: number[]; triangles: number[] },
  seed: number,
): string {
  const buffer = doc.getRoot().listBuffers()[0];
  const style = Math.floor(seed / MODELLER_HABITS.length) % 4;
  const word = kind[0].toUpperCase() + kind.slice(1);
  const materialName = [panelName, `M_${panelName}`, `${panelName.toLowerCase()}_mat`, word][style];
  // One material per name: `Aileron` on both wings is one material, as a modeller paints both.
  const material = doc.getRoot().listMaterials().find((m) => m.getName() === materialName) ??
    doc.createMaterial(materialName);
  const metal = doc.getRoot().listMaterials().find((m) => m.getName() === "Metal") ??
    doc.createMaterial("Metal");
  const oneBuffer = seed % 2 === 0;
  const base = oneBuffer ? wing.positions.length / 3 : 0;
  const shared = oneBuffer
    ? doc.createAccessor(`${wingName}.position`, buffer).setType("VEC3")
      .setArray(new Float32Array([...wing.positions, ...panel.positions]))
    : undefined;
  const mesh = doc.createMesh(wingName);
  const parts: [number[], number[], typeof material][] = [
    [wing.positions, wing.triangles, metal],
    [panel.positions, panel.triangles.map((t) => t + base), material],
  ];
  parts.forEach(([positions, triangles, m], k) => {
    const position = shared ?? doc.createAccessor(`${wingName}.position${k}`, buffer).setType("VEC3")
      .setArray(new Float32Array(positions));
    const index = doc.createAccessor(`${wingName}.indices${k}`, buffer).setType("SCALAR")
      .setArray(new Uint32Array(triangles));
    mesh.addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", position).setIndices(index).setMaterial(m),
    );
  });
  doc.getRoot().getDefaultScene()!.addChild(doc.createNode(wingName).setMesh(mesh));
  return materialName;
}

/** The centroid of triangle `t` of a mesh. */
const centroid = (mesh: { positions: number[]; triangles: number[] }, t: number): Vec3 =>
  [0, 1, 2].map((k) =>
    (mesh.positions[3 * mesh.triangles[3 * t] + k] + mesh.positions[3 * mesh.triangles[3 * t + 1] + k] +
      mesh.positions[3 * mesh.triangles[3 * t + 2] + k]) / 3
  ) as Vec3;

/** `mesh` with the `count` wing triangles nearest its middle copied in (left selected on separation). */
function withStrayFaces(
  mesh: { positions: number[]; triangles: number[] },
  wing: { positions: number[]; triangles: number[] },
  count: number,
): { positions: number[]; triangles: number[] } {
  const n = mesh.positions.length / 3;
  const middle = [0, 1, 2].map((k) => {
    let s = 0;
    for (let i = k; i < mesh.positions.length; i += 3) s += mesh.positions[i];
    return s / n;
  });
  const order = Array.from({ length: wing.triangles.length / 3 }, (_, t) => t)
    .map((t) => ({ t, d: Math.hypot(...centroid(wing, t).map((c, k) => c - middle[k])) }))
    .sort((a, b) => a.d - b.d || a.t - b.t).slice(0, count);
  const positions = [...mesh.positions], triangles = [...mesh.triangles];
  for (const { t } of order) {
    const at = positions.length / 3;
    for (let c = 0; c < 3; c++) {
      positions.push(
        ...wing.positions.slice(3 * wing.triangles[3 * t + c], 3 * wing.triangles[3 * t + c] + 3),
      );
    }
    triangles.push(at, at + 1, at + 2);
  }
  return { positions, triangles };
}

/** `mesh` with a small loose triangle or quad 2–4 chords from its middle. */
function withFarStray(
  mesh: { positions: number[]; triangles: number[] },
  chord: number,
  next: () => number,
): { positions: number[]; triangles: number[] } {
  const n = mesh.positions.length / 3;
  const middle = [0, 1, 2].map((k) => {
    let s = 0;
    for (let i = k; i < mesh.positions.length; i += 3) s += mesh.positions[i];
    return s / n;
  });
  const far = (2 + 2 * next()) * chord, a = 2 * Math.PI * next();
  const at: Vec3 = [
    middle[0] + far * Math.cos(a),
    middle[1] + (next() - 0.5) * chord,
    middle[2] + far * Math.sin(a),
  ];
  const size = 0.05 + 0.1 * next() * chord;
  const positions = [...mesh.positions], triangles = [...mesh.triangles];
  const first = positions.length / 3;
  positions.push(...at, at[0] + size, at[1], at[2], at[0], at[1], at[2] + size);
  triangles.push(first, first + 1, first + 2);
  if (next() < 0.5) {
    positions.push(at[0] + size, at[1], at[2] + size);
    triangles.push(first + 1, first + 3, first + 2);
  }
  return { positions, triangles };
}

/** `mesh` with a `share` of its triangles dropped at random. */
function withHoles(
  mesh: { positions: number[]; triangles: number[] },
  share: number,
  next: () => number,
): { positions: number[]; triangles: number[] } {
  const triangles: number[] = [];
  for (let t = 0; t < mesh.triangles.length; t += 3) {
    if (next() >= share) triangles.push(mesh.triangles[t], mesh.triangles[t + 1], mesh.triangles[t + 2]);
  }
  return { positions: mesh.positions, triangles };
}
