/**
 * All-moving surfaces as real files draw them, with the shaft each turns on by construction: canards
 * on a delta fighter, stabilators on a jet (named `Stabilator_L`, or `Elevator_L` as many fighter
 * files name them), an all-moving fin (`Rudder`, no fin ahead). Coarse, low-poly as game and
 * kit-bashed models are (12–44 triangles: 2–3 stations of 4–8 points around), cambered, swept,
 * tapered, with dihedral or anhedral; the shaft drawn (a square rod out of the root into the body,
 * in the surface's mesh or a child node) or not; the node's origin at the world origin, at the root,
 * or authored on the shaft (its X along it); files in metres, centimetres or inches (raw, or under a
 * scaled `RootNode`) and Y-up or Z-up (under a turned `RootNode`, or raw with the frame given).
 *
 * The shaft is the designer's: square to the flow in the surface's plane, through `f` (0.22–0.28) of
 * the mean aerodynamic chord on the MAC's station (the aerodynamic centre, where a stabilator's
 * hinge moment is least), its height on the camber line there. Truths are in world metres.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import {
  add,
  box,
  joined,
  type Mesh,
  mirrored,
  type Planform,
  rod,
  shaftOf,
  spanDir,
  surfaceMesh,
} from "./all_moving_meshes.ts";
import type { JsonValue } from "../../../runtime/node.ts";
import { prng } from "../../support/prng.ts";
import { newScene } from "./fixtures.ts";

/** The layouts, cycled by seed. */
export const ALL_MOVING_LAYOUTS = ["stabilators", "canards", "fin"] as const;
/**
 * The layouts of {@link SpindleHabits} samples, cycled by seed: besides the three, stabilators behind
 * a cropped delta whose trailing edge runs close and near parallel ahead of them (often named
 * `Elevator`), and a conventional tail — a fixed `Stabilizer` with an `Elevator` hinged behind it.
 */
export const SPINDLE_LAYOUTS = ["stabilators", "canards", "fin", "cropped", "conventional"] as const;

/**
 * Habits of real files turned on over the default sample (a stream of their own, so samples without
 * them stay as they were): the spindle anywhere at 20–45 % of the MAC (placed for hinge moment, not
 * only at 25 %); the shaft drawn as a rod, as a pair of bosses at the root, or not at all; the node's
 * origin also put at its bounds' centre (Blender's Origin to Geometry) or snapped onto the shaft at the
 * root with the node left unturned (`cursor`, Blender's Origin to 3D Cursor); and the two layouts above.
 */
export interface SpindleHabits {
  readonly spindles: true;
}

/** A surface's true shaft (world, metres) and its measures. */
export interface ShaftTruth {
  readonly name: string;
  readonly origin: Vec3;
  readonly axis: Vec3;
  /** The exposed span (m) and mean aerodynamic chord (m). */
  readonly span: number;
  readonly chord: number;
  /** The spindle's place, share of the MAC, or undefined for a trailing-edge elevator's hinge. */
  readonly spindle?: number;
  /** Whether the file shows the shaft: drawn (rod or bosses) or authored on the node's origin. */
  readonly shown?: boolean;
}

/** A generated scene, its truths, and the frame parameters a user would give the rig. */
export interface AllMovingSample {
  readonly doc: Document;
  readonly truths: ShaftTruth[];
  readonly frame: Record<string, JsonValue>;
  readonly description: string;
}

/** How the file stores the model: units per metre, Y-up or Z-up, and under a `RootNode` or raw. */
interface Storage {
  units: number;
  zUp: boolean;
  rooted: boolean;
}

/** Aircraft (aft, up, left, metres) to the file's own coordinates. */
function toFile(s: Storage): (p: Vec3) => Vec3 {
  // Y-up world: −Z forward, +X right. Z-up file: +Y forward, +Z up (a turned RootNode maps it back).
  return (p) =>
    s.zUp
      ? [-p[2] * s.units, -p[0] * s.units, p[1] * s.units]
      : [-p[2] * s.units, p[1] * s.units, p[0] * s.units];
}

/** Aircraft to the world the rig measures in: metres under a RootNode, file units raw. */
function toWorld(s: Storage): (p: Vec3) => Vec3 {
  const file = toFile(s);
  if (!s.rooted) return file;
  return (p) => {
    const q = file(p);
    const back: Vec3 = s.zUp ? [q[0], q[2], -q[1]] : q;
    return [back[0] / s.units, back[1] / s.units, back[2] / s.units];
  };
}

/** A node's placement in the file: its translation and rotation, and file coordinates to its own. */
interface Placement {
  at: Vec3;
  q: [number, number, number, number];
  toLocal: (v: Vec3) => Vec3;
}

/** The placement with its origin at `origin` and its X along `xAxis` (aircraft coordinates). */
function placement(s: Storage, origin?: Vec3, xAxis?: Vec3): Placement {
  const file = toFile(s);
  const at = origin ? file(origin) : [0, 0, 0] as Vec3;
  const shifted = (v: Vec3): Vec3 => [v[0] - at[0], v[1] - at[1], v[2] - at[2]];
  if (!xAxis) return { at, q: [0, 0, 0, 1], toLocal: shifted };
  const o = file([0, 0, 0]), x = normalize(file(xAxis).map((v, k) => v - o[k]) as Vec3);
  // The rotation taking +X to x: about X × x by the angle between them.
  const angle = Math.acos(Math.max(-1, Math.min(1, x[0])));
  if (!(angle > 1e-9)) return { at, q: [0, 0, 0, 1], toLocal: shifted };
  const k = normalize([0, -x[2], x[1]]), sh = Math.sin(angle / 2);
  const ca = Math.cos(-angle), sa = Math.sin(-angle);
  // Its inverse (about k by −angle, Rodrigues) takes file offsets into the node's frame.
  const toLocal = (w: Vec3): Vec3 => {
    const v = shifted(w), kv = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
    const cr: Vec3 = [k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0]];
    return [0, 1, 2].map((i) => v[i] * ca + cr[i] * sa + k[i] * kv * (1 - ca)) as Vec3;
  };
  return { at, q: [k[0] * sh, k[1] * sh, k[2] * sh, Math.cos(angle / 2)], toLocal };
}

/**
 * Adds a mesh (aircraft coordinates) as a node under `parent`, placed by `own`; a child of a placed
 * node passes the parent's placement as `frame` and sits at its parent's origin.
 */
function addMesh(
  doc: Document,
  parent: Node,
  name: string,
  mesh: Mesh,
  s: Storage,
  own: Placement = placement(s),
  frame: Placement = own,
): Node {
  const file = toFile(s);
  const local = new Float32Array(mesh.positions.length);
  for (let i = 0; i < mesh.positions.length; i += 3) {
    local.set(frame.toLocal(file([mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]])), i);
  }
  const buffer = doc.getRoot().listBuffers()[0];
  const position = doc.createAccessor(`${name}.position`, buffer).setType("VEC3").setArray(local);
  const index = doc.createAccessor(`${name}.indices`, buffer).setType("SCALAR")
    .setArray(new Uint32Array(mesh.triangles));
  const primitive = doc.createPrimitive().setAttribute("POSITION", position).setIndices(index);
  const node = doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(primitive));
  if (own !== frame) node.setTranslation([0, 0, 0]);
  else node.setTranslation(own.at).setRotation(own.q);
  parent.addChild(node);
  return node;
}

/** The sample of `seed`, its layout cycled by seed. */
export function allMovingSample(
  seed: number,
  layout: typeof SPINDLE_LAYOUTS[number] = ALL_MOVING_LAYOUTS[seed % ALL_MOVING_LAYOUTS.length],
  habits?: SpindleHabits,
): AllMovingSample {
  const more = prng(seed * 104729 + 17);
  const also = (a: number, b: number) => a + (b - a) * more();
  const choose = <T>(list: readonly T[]) => list[Math.floor(more() * list.length)];
  const next = prng(seed * 7919 + 3);
  const between = (a: number, b: number) => a + (b - a) * next();
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const deg = Math.PI / 180;
  const width = between(0.4, 0.7), length = between(14, 18);
  const storage: Storage = {
    units: pick([1, 1, 100, 1 / 0.0254]),
    zUp: next() < 0.4,
    rooted: next() < 0.6,
  };
  const frame: Record<string, JsonValue> = storage.zUp && !storage.rooted ? { forward: "+Y", up: "+Z" } : {};
  const low = next() < 0.7;
  const planform: Planform = {
    root: [0, 0, width],
    span: 0,
    rootChord: 0,
    taper: between(0.2, 0.6),
    sweep: 0,
    dihedral: 0,
    camber: next() < 0.5 ? 0 : between(0.01, 0.04),
    thickness: between(0.03, 0.08),
    stations: low ? pick([2, 2, 3]) : 3,
    around: low ? pick([4, 4, 6]) : pick([6, 8]),
  };
  let names: string[];
  const tail = layout === "cropped" || layout === "conventional";
  if (layout === "stabilators" || tail) {
    Object.assign(planform, {
      root: [length - between(3.5, 5), between(-0.2, 0.2), width],
      span: between(1.6, 3),
      rootChord: between(2, 3.5),
      sweep: between(30, 50) * deg,
      dihedral: between(-12, 4) * deg,
    });
    names = pick([["Stabilator_L", "Stabilator_R"], ["Elevator_L", "Elevator_R"], ["HStab_L", "HStab_R"], [
      "stabilator.L",
      "stabilator.R",
    ]]);
    // Game files name a stabilator behind a delta `Elevator` more often than not.
    if (layout === "cropped" && more() < 0.6) names = ["Elevator_L", "Elevator_R"];
    if (layout === "conventional") {
      names = choose([["Elevator_L", "Elevator_R"], ["elevator.L", "elevator.R"]]);
    }
  } else if (layout === "canards") {
    Object.assign(planform, {
      root: [between(3, 5), between(0.1, 0.4), width],
      span: between(1, 2),
      rootChord: between(1.2, 2.2),
      sweep: between(40, 58) * deg,
      dihedral: between(-3, 15) * deg,
    });
    names = pick([["Canard_L", "Canard_R"], ["canard_left", "canard_right"], ["Foreplane_L", "Foreplane_R"]]);
  } else {
    Object.assign(planform, {
      root: [length - between(4, 5.5), width, 0],
      span: between(2, 3.5),
      rootChord: between(2.5, 4),
      sweep: between(30, 50) * deg,
      dihedral: 90 * deg,
    });
    names = ["Rudder"];
  }
  let shaftAt = between(0.22, 0.28);
  let drawn: "none" | "merged" | "child" | "bosses" = pick(["none", "none", "merged", "child"] as const);
  let pivot: "world" | "root" | "authored" | "geometry" | "cursor" = pick(
    ["world", "root", "authored"] as const,
  );
  if (habits) {
    shaftAt = also(0.2, 0.45);
    drawn = choose(["none", "none", "merged", "child", "bosses"] as const);
    pivot = choose(["world", "root", "authored", "geometry", "cursor"] as const);
  }
  // A conventional tail's elevator: the aft `hinged` share of the whole tail's chord, a gap behind
  // the fixed stabiliser's trailing edge; thin, uncambered (its hinge is its leading edge).
  const hinged = also(0.25, 0.4), gap = also(0.005, 0.03);
  const whole = { ...planform };
  if (layout === "conventional") {
    const slope = Math.tan(whole.sweep) - (1 - hinged) * whole.rootChord * (1 - whole.taper) / whole.span;
    Object.assign(planform, {
      root: add(whole.root, [1, 0, 0], (1 - hinged) * whole.rootChord + gap),
      rootChord: hinged * whole.rootChord - gap,
      sweep: Math.atan(slope),
      camber: 0,
    });
  }
  const shaft = shaftOf(planform, shaftAt);
  const doc = newScene();
  const scene = doc.getRoot().getDefaultScene()!;
  let top: Node;
  if (storage.rooted) {
    top = doc.createNode("RootNode").setScale([1 / storage.units, 1 / storage.units, 1 / storage.units]);
    if (storage.zUp) top.setRotation([-Math.SQRT1_2, 0, 0, Math.SQRT1_2]);
    scene.addChild(top);
  } else {
    top = doc.createNode("Aircraft");
    scene.addChild(top);
  }
  // A coarse body, a delta wing and a fin (twin fins beside stabilators), all fixed.
  addMesh(doc, top, "Fuselage", box([0, -width, -width], [length, width, width]), storage);
  // The wing's root trailing edge a gap ahead of a stabilator's root (0.05–1.2 m: they never cross);
  // a close-coupled canard's may overlap the wing's root above it, as on delta fighters.
  const wingChord = between(5, 7);
  let wingRoot = layout === "canards" ? 6.5 : planform.root[0] - between(0.05, 1.2) - wingChord;
  const wingSpan = between(3.5, 5), wingTaper = layout === "cropped" ? also(0.12, 0.3) : 0.15;
  let wingSweep = between(45, 60) * deg;
  if (layout === "cropped") {
    // A cropped delta's trailing edge swept up to 5° less than the stabilators' leading edge, 0.05–0.5 m
    // ahead at the root: never crossing it in plan (swept more, it ran over the stabilator outboard).
    const te = planform.sweep - also(0, 5) * deg;
    wingSweep = Math.atan(Math.tan(te) + wingChord * (1 - wingTaper) / wingSpan);
    wingRoot = planform.root[0] - also(0.05, 0.5) - wingChord;
  }
  const wing = surfaceMesh({
    ...planform,
    root: [wingRoot, layout === "cropped" ? planform.root[1] : -0.1, width],
    span: wingSpan,
    rootChord: wingChord,
    taper: wingTaper,
    sweep: wingSweep,
    dihedral: 0,
    stations: 2,
    around: 4,
    camber: 0,
  });
  addMesh(doc, top, "Wing", joined(wing, mirrored(wing)), storage);
  if (layout === "conventional") {
    // The fixed stabiliser ahead of the elevator, named as many files do (`Stabilizer`, `HStab`).
    const fixed = surfaceMesh({ ...whole, rootChord: (1 - hinged) * whole.rootChord, camber: 0 });
    const word = choose(["Stabilizer", "HStab", "Stabiliser"]);
    addMesh(doc, top, `${word}_L`, fixed, storage);
    addMesh(doc, top, `${word}_R`, mirrored(fixed), storage);
  }
  if (layout !== "fin") {
    const fin = surfaceMesh({
      ...planform,
      root: [length - 5, width, 0],
      span: 2.5,
      rootChord: 3.5,
      taper: 0.35,
      sweep: 45 * deg,
      dihedral: 90 * deg,
      stations: 2,
      around: 4,
      camber: 0,
    });
    addMesh(doc, top, "VerticalTail", fin, storage);
  }
  const truths: ShaftTruth[] = [];
  const world = toWorld(storage);
  const sides = names.length === 2 ? [1, -1] : [1];
  for (const [i, side] of sides.entries()) {
    const flip = (m: Mesh) => side === 1 ? m : mirrored(m);
    const at = (p: Vec3): Vec3 => [p[0], p[1], side * p[2]];
    // A conventional elevator hinges on its leading edge (at mid-thickness: uncambered, sharp nose).
    const hingeDir = normalize(add(spanDir(planform), [1, 0, 0], Math.tan(planform.sweep)));
    const axis = at(layout === "conventional" ? hingeDir : shaft.axis);
    const line = layout === "conventional" ? shaftOf(planform, 0).origin : shaft.origin;
    let mesh = flip(surfaceMesh(planform));
    // A rod along the shaft from inside the body out past the root, or two bosses at the root.
    const d = spanDir(planform);
    const along = (p: Vec3) => (p[1] - planform.root[1]) * d[1] + (p[2] - planform.root[2]) * d[2];
    const stub = (a: number, b: number, r: number) =>
      flip(
        rod(
          add(shaft.origin, d, -along(shaft.origin) + a),
          add(shaft.origin, d, -along(shaft.origin) + b),
          r,
        ),
      );
    const shaftRod = stub(-0.3, 0.15 * planform.span, 0.03 * planform.rootChord);
    const show = layout === "conventional" ? "none" : drawn;
    if (show === "merged") mesh = joined(mesh, shaftRod);
    if (show === "bosses") {
      mesh = joined(
        mesh,
        joined(stub(-0.3, -0.18, 0.06 * planform.rootChord), stub(-0.1, 0, 0.06 * planform.rootChord)),
      );
    }
    let lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (let k = 0; k < mesh.positions.length; k += 3) {
      const p = mesh.positions.slice(k, k + 3) as Vec3;
      lo = lo.map((v, j) => Math.min(v, p[j])) as Vec3, hi = hi.map((v, j) => Math.max(v, p[j])) as Vec3;
    }
    const origin = pivot === "world"
      ? undefined
      : pivot === "root"
      ? at(planform.root)
      : pivot === "geometry"
      ? lo.map((v, j) => (v + hi[j]) / 2) as Vec3
      : pivot === "cursor"
      ? at(add(line, d, -along(line)))
      : at(line);
    const own = placement(storage, origin, pivot === "authored" ? axis : undefined);
    const node = addMesh(doc, top, names[i], mesh, storage, own);
    const rodName = pick(["Shaft", "Spindle", "Cylinder.003", "pivot_rod"]) + (side === 1 ? "" : ".001");
    if (show === "child") addMesh(doc, node, rodName, shaftRod, storage, placement(storage), own);
    const o = world(at(line)), far = world(add(at(line), axis));
    const scale = storage.rooted ? 1 : storage.units;
    truths.push({
      name: names[i],
      origin: o,
      axis: normalize([far[0] - o[0], far[1] - o[1], far[2] - o[2]]),
      span: planform.span * scale,
      chord: shaft.chord * scale,
      spindle: layout === "conventional" ? undefined : shaftAt,
      shown: layout !== "conventional" && (show !== "none" || pivot === "authored" || pivot === "cursor"),
    });
  }
  const tris = surfaceMesh(planform).triangles.length / 3;
  return {
    doc,
    truths,
    frame,
    description:
      `seed ${seed} ${layout} '${names[0]}': ${tris} triangles, sweep ${
        (planform.sweep / deg).toFixed(0)
      }°, ` +
      `taper ${planform.taper.toFixed(2)}, dihedral ${(planform.dihedral / deg).toFixed(0)}°, camber ${
        (planform.camber * 100).toFixed(1)
      } %, ` +
      `shaft at ${(shaftAt * 100).toFixed(0)} % MAC ${drawn}, pivot ${pivot}, ${
        storage.units.toFixed(2)
      } units/m ${storage.zUp ? "Z-up" : "Y-up"} ${storage.rooted ? "rooted" : "raw"}`,
  };
}
