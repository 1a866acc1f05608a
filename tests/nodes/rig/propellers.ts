/**
 * Propellers and rotors as real models draw them, with their true shafts: lofted blades (2–6) with
 * pitch falling off as the radius grows (a helix's), taper and sweep, sections of 4–8 points
 * (low-poly) or 16 (dense); blades as one mesh, as one object per blade baked in place, or as linked
 * duplicates turned by their nodes; with or without a spinner (a cone of its own tessellation) or hub;
 * shafts tilted up to 5° and offset (real thrust lines are); tractor, pusher and contra-rotating
 * propellers, helicopter main and tail rotors; under mirrored (−1 scale) and non-uniformly scaled
 * parents, whose transforms the vertices undo so the world shape is the same. Scene axes are the
 * default frame: −Z forward, +Y up, −X left. Deterministic from a seed.
 *
 * @module
 */
import { ok as assert } from "node:assert/strict";
import type { Document, Node } from "@gltf-transform/core";
import {
  cross,
  dot,
  invertAffine,
  type Mat4,
  normalize,
  type Quat,
  quatFromBasis,
  quatMultiply,
  transformPoint,
  type Vec3,
} from "../../../nodes/rig/transform.ts";
import type { SpinningKind } from "../../../nodes/rig/spinning_names.ts";
import { axisAngle, axisErrorDegrees, distanceToLine, newScene } from "./fixtures.ts";
import type { RigResult } from "./pipeline.ts";
import { boxMesh, type ClassMesh, joined } from "./surface_classes.ts";

/** The named directions of the default frame (scene axes). */
export const FORWARD: Vec3 = [0, 0, -1], UP: Vec3 = [0, 1, 0], LEFT: Vec3 = [-1, 0, 0];

/** A spinning part the scene holds and its truth (world). */
export interface SpinTruth {
  /** The part's node name (what the pivot turns). */
  readonly name: string;
  readonly kind: SpinningKind;
  /** The shaft, signed along the kind's named direction. */
  readonly axis: Vec3;
  /** The hub's centre (on the shaft). */
  readonly centre: Vec3;
  readonly radius: number;
  readonly blades: number;
}

/** A generated scene and what the rig should find in it. */
export interface SpinSample {
  readonly doc: Document;
  readonly parts: SpinTruth[];
  /** Objects named like rotor structure that must not be rigged. */
  readonly still: string[];
  readonly description: string;
}

/**
 * How one blade is drawn apart from the others: retopologised (its own section and point counts, its
 * points started elsewhere round the section), an extra edge loop, or deliberately broken (pitched,
 * set off its even spacing, coned out of the disc).
 */
export interface BladeShape {
  readonly sectionPoints?: number;
  readonly sections?: number;
  /** Where round the section its first point sits, a share of the points' spacing. */
  readonly pointPhase?: number;
  /** A section inserted half-way between two (an extra edge loop), at this share of the span. */
  readonly loopAt?: number;
  readonly pitchDelta?: number;
  /** Degrees off its even place about the shaft. */
  readonly phiDelta?: number;
  /** Degrees the blade is coned out of the disc. */
  readonly cone?: number;
}

/** How one rotor is drawn: its truth, and how its blades, hub and parent look. */
export interface RotorDraw extends SpinTruth {
  /** Blade pitch at 70 % radius, degrees. */
  readonly pitch: number;
  /** +1 or −1: which way the blades are twisted (a contra-rotating pair's are opposite). */
  readonly hand: number;
  readonly chord: number;
  readonly sectionPoints: number;
  readonly sections: number;
  readonly storage: "one_mesh" | "per_blade" | "linked";
  readonly hub: "spinner" | "hub" | "none";
  /** `nacelle`: a node (`parentName`) whose local −Z runs along the shaft (a tilted nacelle, a canted gearbox). */
  readonly parent: "none" | "mirrored" | "scaled" | "nacelle";
  readonly parentName?: string;
  /** Degrees the nacelle node leans apart from the shaft (0: along it). */
  readonly nacelleOff?: number;
  /** Per-blade drawing apart from the others (by blade index). */
  readonly bladeShapes?: readonly (BladeShape | undefined)[];
  /** A counterweight opposite blade 1 (a single-blade propeller's). */
  readonly counterweight?: boolean;
}

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)];
const lerp = (a: number, b: number, t: number) => a + (b - a) * t;
const add = (a: Vec3, b: Vec3, s = 1): Vec3 => [a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s];

/** A unit vector tilted from `axis` by up to `degrees` in a random direction. */
export function tilted(next: () => number, axis: Vec3, degrees: number): Vec3 {
  const u = normalize(cross(axis, Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0])), w = cross(axis, u);
  const t = (next() * degrees * Math.PI) / 180, phi = next() * 2 * Math.PI;
  const off = add(add([0, 0, 0], u, Math.cos(phi)), w, Math.sin(phi));
  return normalize(add(add([0, 0, 0], axis, Math.cos(t)), off, Math.sin(t)));
}

/** Orthonormal (u, w) across unit `a`, with u rotated by `phase`. */
function across(a: Vec3, phase: number): [Vec3, Vec3] {
  const u0 = normalize(cross(a, Math.abs(a[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0])), w0 = cross(a, u0);
  const u = add(add([0, 0, 0], u0, Math.cos(phase)), w0, Math.sin(phase));
  return [u, cross(a, u)];
}

/** One blade at angle `phi` about the shaft, world coordinates. */
function blade(d: RotorDraw, phi: number, u0: Vec3, w0: Vec3, shape: BladeShape = {}): ClassMesh {
  phi += ((shape.phiDelta ?? 0) * Math.PI) / 180;
  const radial0 = add(add([0, 0, 0], u0, Math.cos(phi)), w0, Math.sin(phi));
  const coneRad = ((shape.cone ?? 0) * Math.PI) / 180;
  const radial = add(add([0, 0, 0], radial0, Math.cos(coneRad)), d.axis, Math.sin(coneRad));
  const tangent = cross(d.axis, radial0);
  const a = cross(radial, tangent);
  const root = d.radius * (d.hub === "none" ? 0.1 : 0.16);
  const positions: number[] = [], triangles: number[] = [];
  const m = shape.sectionPoints ?? d.sectionPoints, sections = shape.sections ?? d.sections;
  // Pitch of a helix: tan β·r constant, set by the pitch at 70 % radius.
  const helix = Math.tan(((d.pitch + (shape.pitchDelta ?? 0)) * Math.PI) / 180) * 0.7 * d.radius;
  const stations = Array.from({ length: sections }, (_, s) => s / (sections - 1));
  if (shape.loopAt !== undefined) {
    const k = Math.max(1, Math.min(sections - 1, Math.ceil(shape.loopAt * (sections - 1))));
    stations.splice(k, 0, (stations[k - 1] + stations[k]) / 2);
  }
  const d0 = { ...d, sections: stations.length };
  for (let s = 0; s < d0.sections; s++) {
    const t = stations[s], r = lerp(root, d.radius, t);
    const beta = Math.atan(helix / r);
    const chord = d.chord * (1 - 0.45 * t) * (t < 0.1 ? 0.7 + 3 * t : 1);
    const lead = add([0, 0, 0], tangent, Math.cos(beta) * d.hand);
    const chordDir = add(lead, a, Math.sin(beta));
    const thickDir = add(add([0, 0, 0], tangent, -Math.sin(beta) * d.hand), a, Math.cos(beta));
    const centre = add(add(d.centre, radial, r), tangent, 0.15 * d.chord * t * t * d.hand); // swept tip
    for (let k = 0; k < m; k++) {
      const theta = (2 * Math.PI * (k + (shape.pointPhase ?? 0))) / m;
      const x = 0.5 - 0.5 * Math.cos(theta), y = (Math.sin(theta) > 0 ? 0.09 : 0.03) * Math.sin(theta);
      positions.push(...add(add(centre, chordDir, (x - 0.35) * chord), thickDir, y * chord));
    }
  }
  for (let s = 0; s + 1 < d0.sections; s++) {
    for (let k = 0; k < m; k++) {
      const p = s * m + k, q = s * m + ((k + 1) % m);
      triangles.push(p, q, q + m, p, q + m, p + m);
    }
  }
  for (const s of [0, d0.sections - 1]) {
    for (let k = 1; k + 1 < m; k++) triangles.push(s * m, s * m + k, s * m + k + 1);
  }
  return { positions, triangles };
}

/** A spinner (a cone, `segments` round) or a hub (a short cylinder) on the shaft. */
function hubMesh(d: RotorDraw, segments: number, phase: number): ClassMesh {
  const [u, w] = across(d.axis, phase);
  const rh = d.radius * (d.hub === "spinner" ? 0.18 : 0.12);
  const rings: [number, number][] = d.hub === "spinner"
    ? [[-0.12, 1], [0.05, 0.95], [0.16, 0.6], [0.22, 0.2]]
    : [[-0.06, 1], [0.06, 1]];
  const positions: number[] = [], triangles: number[] = [];
  for (const [along, scale] of rings) {
    for (let k = 0; k < segments; k++) {
      const t = (2 * Math.PI * k) / segments;
      const p = add(
        add(add(d.centre, d.axis, along * d.radius), u, Math.cos(t) * rh * scale),
        w,
        Math.sin(t) * rh * scale,
      );
      positions.push(...p);
    }
  }
  for (let r = 0; r + 1 < rings.length; r++) {
    for (let k = 0; k < segments; k++) {
      const p = r * segments + k, q = r * segments + ((k + 1) % segments);
      triangles.push(p, q, q + segments, p, q + segments, p + segments);
    }
  }
  const last = (rings.length - 1) * segments;
  for (let k = 1; k + 1 < segments; k++) triangles.push(0, k, k + 1, last, last + k + 1, last + k);
  return { positions, triangles };
}

/** A mesh node; positions given in world, stored in the space of `parent` (its transform undone). */
export function meshNode(
  doc: Document,
  name: string,
  mesh: ClassMesh,
  parent: Node | undefined,
  local?: Mat4,
): Node {
  const inverse = invertAffine(
    local ?? parent?.getWorldMatrix() ?? [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  );
  const stored = new Float32Array(mesh.positions.length);
  for (let i = 0; i < mesh.positions.length; i += 3) {
    stored.set(transformPoint(inverse, [mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]]), i);
  }
  const buffer = doc.getRoot().listBuffers()[0];
  const node = doc.createNode(name).setMesh(
    doc.createMesh(name).addPrimitive(
      doc.createPrimitive()
        .setAttribute("POSITION", doc.createAccessor(`${name}.p`, buffer).setType("VEC3").setArray(stored))
        .setIndices(
          doc.createAccessor(`${name}.i`, buffer).setType("SCALAR").setArray(new Uint32Array(mesh.triangles)),
        ),
    ),
  );
  if (parent) parent.addChild(node);
  else doc.getRoot().getDefaultScene()!.addChild(node);
  return node;
}

/** Adds one rotor as drawn, under a parent per `d.parent`; returns the truth. */
export function addRotor(doc: Document, next: () => number, d: RotorDraw): SpinTruth {
  let parent: Node | undefined;
  if (d.parent === "nacelle") {
    // Local −Z along the shaft, local +Y as near up as it can be: a tilted nacelle or canted gearbox
    // (or, `nacelleOff` degrees, a node leaning apart from the shaft, that vouches for nothing).
    const z = d.axis.map((v) => -v) as Vec3;
    const x = normalize(cross(Math.abs(z[1]) < 0.99 ? UP : [1, 0, 0], z)), y = cross(z, x);
    const off = axisAngle(x, d.nacelleOff ?? 0);
    parent = doc.createNode(d.parentName ?? "Nacelle").setRotation(quatMultiply(off, quatFromBasis(x, y, z)))
      .setTranslation(d.centre);
    doc.getRoot().getDefaultScene()!.addChild(parent);
  } else if (d.parent !== "none") {
    const rotation: Quat = axisAngle(normalize([next() - 0.5, next() - 0.5, next() - 0.5]), 10 + next() * 60);
    const scale: Vec3 = d.parent === "mirrored"
      ? [-1, 1, 1]
      : [lerp(0.6, 1.6, next()), lerp(0.6, 1.6, next()), lerp(0.6, 1.6, next())];
    parent = doc.createNode(d.parent === "mirrored" ? "Nacelle_Mirror" : "Engine_Scaled")
      .setTranslation([next() - 0.5, next() - 0.5, next() - 0.5]).setRotation(rotation).setScale(scale);
    doc.getRoot().getDefaultScene()!.addChild(parent);
  }
  const [u0, w0] = across(d.axis, next() * 2 * Math.PI);
  const counterweights: ClassMesh[] = [];
  const phase = next() * 2 * Math.PI;
  const blades = Array.from(
    { length: d.blades },
    (_, i) => blade(d, phase + (2 * Math.PI * i) / d.blades, u0, w0, d.bladeShapes?.[i]),
  );
  if (d.counterweight) {
    // A stubby block opposite the blade, hub-side of its root.
    const opposite = blade(
      { ...d, radius: 0.3 * d.radius, chord: 1.6 * d.chord, pitch: 0 },
      phase + Math.PI,
      u0,
      w0,
    );
    (d.storage === "one_mesh" ? blades : counterweights).push(opposite);
  }
  const hub = d.hub === "none" ? undefined : hubMesh(d, Math.floor(lerp(10, 25, next())), next() * 6);
  if (d.storage === "one_mesh") {
    meshNode(doc, d.name, joined(hub ? [...blades, hub] : blades), parent);
  } else {
    const group = doc.createNode(d.name);
    if (parent) parent.addChild(group);
    else doc.getRoot().getDefaultScene()!.addChild(group);
    for (const c of counterweights) meshNode(doc, "Counterweight", c, group);
    if (d.storage === "per_blade" || d.parent === "scaled" || d.blades === 1) {
      blades.forEach((b, i) => meshNode(doc, `Blade_${i + 1}`, b, group));
    } else {
      // Linked duplicates: one blade mesh, each node turned about the shaft through the centre.
      const first = meshNode(doc, "Blade_1", blades[0], group);
      const world = group.getWorldMatrix();
      const inverse = invertAffine(world);
      const c = transformPoint(inverse, d.centre);
      const localAxis = normalize(transformPoint(inverse, add(d.centre, d.axis)).map((v, k) => v - c[k]));
      const sign = d.parent === "mirrored" ? -1 : 1;
      for (let i = 1; i < d.blades; i++) {
        const q = axisAngle(localAxis, (sign * 360 * i) / d.blades);
        const node = doc.createNode(`Blade_${i + 1}`).setMesh(first.getMesh());
        // Turn about c: translation c − q·c.
        const qc = rotate(q, c);
        node.setRotation(q).setTranslation([c[0] - qc[0], c[1] - qc[1], c[2] - qc[2]]);
        group.addChild(node);
      }
    }
    if (hub) meshNode(doc, d.hub === "spinner" ? "Spinner" : "Hub", hub, group);
  }
  return { name: d.name, kind: d.kind, axis: d.axis, centre: d.centre, radius: d.radius, blades: d.blades };
}

function rotate(q: Quat, v: Vec3): Vec3 {
  const [x, y, z, w] = q;
  const t = cross([x, y, z], v).map((c) => 2 * c) as Vec3;
  return add(add(v, t, w), cross([x, y, z], t));
}

const PROP_NAMES = [
  "Propeller",
  "Prop",
  "Airscrew",
  "Luftschraube",
  "Hélice",
  "Elica",
  "Винт",
  "rotor",
  "Propeller.001",
];
const MAIN_NAMES = ["MainRotor", "Hauptrotor", "Rotor_Main", "main_rotor", "Rotor"];
const TAIL_NAMES = ["TailRotor", "Heckrotor", "Rotor_Tail", "tail_rotor", "Fenestron"];

/** The sample's configuration for an index: cycles so every kind meets every storage and parent. */
export function propellerSample(next: () => number, index: number): SpinSample {
  const doc = newScene();
  const config = index % 5;
  const storage = (["one_mesh", "per_blade", "linked"] as const)[Math.floor(index / 5) % 3];
  const parent = (["none", "mirrored", "scaled", "none"] as const)[Math.floor(index / 15) % 4];
  const hub = (["spinner", "none", "hub"] as const)[index % 3];
  const dense = index % 2 === 1;
  const blades = 2 + (Math.floor(index / 5) + Math.floor(index / 60)) % 5;
  const shape = {
    sectionPoints: dense ? 16 : 4 + Math.floor(next() * 5),
    sections: dense ? 18 : 3 + Math.floor(next() * 3),
    storage,
    parent,
  };
  meshNode(doc, "Fuselage", boxMesh([-0.6, -0.6, -4], [0.6, 0.6, 6]), undefined);
  const parts: SpinTruth[] = [], still: string[] = [];
  const prop = (name: string, centre: Vec3, axis: Vec3, hand: number, extra: Partial<RotorDraw> = {}) =>
    parts.push(addRotor(doc, next, {
      name,
      kind: "propeller",
      axis,
      centre,
      radius: lerp(0.8, 1.3, next()),
      blades,
      pitch: lerp(15, 35, next()),
      hand,
      chord: lerp(0.12, 0.22, next()),
      hub,
      ...shape,
      ...extra,
    }));
  const name = pick(next, PROP_NAMES);
  let description = "";
  if (config === 0) {
    description = "tractor";
    prop(name, [lerp(-0.1, 0.1, next()), lerp(-0.2, 0.1, next()), -4.3], tilted(next, FORWARD, 5), 1);
  } else if (config === 1) {
    description = "wing engines";
    const axis = tilted(next, FORWARD, 5);
    prop("Prop_L", [-3, -0.2, -1.5], axis, 1);
    prop("Prop_R", [3, -0.2, -1.5], [-axis[0], axis[1], axis[2]], -1);
  } else if (config === 2) {
    description = "pusher";
    prop(name, [0, lerp(0, 0.3, next()), 6.4], tilted(next, FORWARD, 5), next() < 0.5 ? 1 : -1);
  } else if (config === 3) {
    description = "contra-rotating pair";
    const axis = tilted(next, FORWARD, 5), centre: Vec3 = [0, 0, -4.3];
    prop("Prop_Front", centre, axis, 1);
    prop("Prop_Rear", add(centre, axis, -0.35), axis, -1, { hub: "none" });
  } else {
    description = "helicopter";
    const mainAxis = tilted(next, UP, 5), tailAxis = tilted(next, next() < 0.5 ? LEFT : [1, 0, 0], 5);
    parts.push(addRotor(doc, next, {
      name: pick(next, MAIN_NAMES),
      kind: "main_rotor",
      axis: mainAxis,
      centre: [0, 1.6, lerp(-0.5, 0.5, next())],
      radius: lerp(4, 5.5, next()),
      blades: Math.min(blades, 5),
      pitch: lerp(6, 12, next()),
      hand: 1,
      chord: lerp(0.25, 0.4, next()),
      hub: hub === "spinner" ? "hub" : hub,
      ...shape,
    }));
    const tail = addRotor(doc, next, {
      name: pick(next, TAIL_NAMES),
      kind: "tail_rotor",
      axis: tailAxis,
      centre: [-0.7, 0.9, 6.3],
      radius: lerp(0.6, 0.9, next()),
      blades: 2 + (index % 3),
      pitch: lerp(8, 15, next()),
      hand: 1,
      chord: lerp(0.1, 0.16, next()),
      hub: hub === "spinner" ? "hub" : hub,
      ...shape,
    });
    // The tail rotor's named direction is the aircraft's left, whichever side it is drawn turning.
    parts.push({ ...tail, axis: dot(tail.axis, LEFT) < 0 ? tail.axis.map((v) => -v) as Vec3 : tail.axis });
    meshNode(doc, "RotorMast", boxMesh([-0.08, 0.6, -0.08], [0.08, 1.55, 0.08]), undefined);
    meshNode(doc, "Swashplate", boxMesh([-0.25, 1.1, -0.25], [0.25, 1.15, 0.25]), undefined);
    still.push("RotorMast", "Swashplate");
  }
  if (index % 8 === 7 && parts.length > 0) {
    // Something asymmetric drawn into the first part (a cowling lip, a pitot joined into it): the fit
    // must not be judged good on it.
    const first = doc.getRoot().listNodes().find((n) => n.getName() === parts[0].name)!;
    const t = parts[0], r = t.radius;
    const box = boxMesh(
      add(t.centre, [0.3 * r, 0.2 * r, -0.1 * r]) as Vec3,
      add(t.centre, [0.6 * r, 0.5 * r, 0.3 * r]) as Vec3,
    );
    meshNode(doc, "Lip", box, first);
    description = `${description}, asymmetric lip inside`;
  }
  if (config !== 4) {
    meshNode(doc, "Prop_Guard", boxMesh([-2, -1.6, 2], [-1.9, -1.5, 2.3]), undefined);
    still.push("Prop_Guard");
  }
  return {
    doc,
    parts,
    still,
    description: `#${index} ${description}: ${blades} blades, ${storage}, ${parent} parent, ${hub}, ` +
      `${dense ? "dense" : "low-poly"} (${parts.map((p) => p.name).join(", ")})`,
  };
}

/** The unit vector the kind's named direction is in the default frame. */
export function namedDirection(kind: SpinningKind): Vec3 {
  return kind === "propeller" ? FORWARD : kind === "main_rotor" ? UP : LEFT;
}

/** Right: the kind, the sign and the line within 1° and 2 % of the radius; `world` maps scene to file axes. */
export function judge(
  sample: { readonly description: string },
  result: RigResult,
  truth: SpinTruth,
  world: (v: Vec3) => Vec3,
) {
  const part = result.report.parts.find((p) => p.panel === truth.name);
  assert(part, `${sample.description}: ${truth.name} not rigged`);
  const axis = world(truth.axis), centre = world(truth.centre);
  const degrees = axisErrorDegrees(part.hinge!.world.axis, axis);
  const offset = distanceToLine(centre, part.hinge!.world.origin, part.hinge!.world.axis) / truth.radius;
  const signed = dot(part.hinge!.world.axis, axis) > 0;
  const confidence = (part.fit as { confidence?: string }).confidence!;
  const right = degrees <= 1 && offset <= 0.02 && signed && part.kind === truth.kind;
  return { part, degrees, offset, confidence, right };
}
