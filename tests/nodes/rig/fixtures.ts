/**
 * Synthetic control panels for the rig tests: tapered, swept wedge-section panels with a flat nose
 * (so the true hinge is the nose's mid-thickness line, known exactly), optional horn balance, under
 * any parent transform. Also helpers to pose a pivot and to measure lines.
 *
 * @module
 */
import { Document, type Node } from "@gltf-transform/core";
import {
  cross,
  dot,
  invertAffine,
  multiply,
  normalize,
  type Quat,
  quatMultiply,
  sub,
  transformPoint,
  type Vec3,
} from "../../../nodes/rig/transform.ts";

/** A synthetic panel, in its design frame (the parent node's space). */
export interface PanelSpec {
  name: string;
  /** Hinge line at the root and the tip, at mid-thickness. */
  root: Vec3;
  tip: Vec3;
  /** Unit streamwise (aft) direction. */
  aft: Vec3;
  /** Unit thickness direction. */
  normal: Vec3;
  chordRoot: number;
  chordTip: number;
  /** Thickness at the nose (it tapers to a tenth at the far edge). */
  thickness: number;
  /** Chord fraction of the hinge from the leading edge (0: nose; 0.25: all-moving surface). */
  hingeFraction?: number;
  /** Where the hinge is for a leading-edge device: "aft" puts `root`/`tip` on the aft edge. */
  hingeEdge?: "forward" | "aft";
  stations?: number;
  divisions?: number;
  /** A horn balance reaching `depth` ahead of the hinge from span fraction `fromSpan` outboard. */
  horn?: { fromSpan: number; depth: number };
  /** How far the upper nose corner sits ahead of the lower one (a slanted nose face). */
  noseRake?: number;
}

/** A node transform. */
export interface Trs {
  translation?: Vec3;
  rotation?: Quat;
  scale?: Vec3;
}

/** Positions and triangle indices of a panel, design frame. */
export function panelMesh(
  spec: PanelSpec,
): { positions: Float32Array<ArrayBuffer>; indices: Uint32Array<ArrayBuffer> } {
  const stations = spec.stations ?? 13;
  const divisions = spec.divisions ?? 6;
  const h = spec.hingeFraction ?? 0;
  const aftEdge = spec.hingeEdge === "aft";
  const points: number[] = [];
  for (let s = 0; s < stations; s++) {
    const t = s / (stations - 1);
    const hinge: Vec3 = [0, 1, 2].map((k) => spec.root[k] + t * (spec.tip[k] - spec.root[k])) as Vec3;
    const chord = spec.chordRoot + t * (spec.chordTip - spec.chordRoot);
    const hornDepth = spec.horn && t >= spec.horn.fromSpan ? spec.horn.depth : 0;
    // Chord position (from the leading edge, in metres) of each division, and its half-thickness.
    for (const side of [1, -1]) {
      for (let i = 0; i <= divisions; i++) {
        const f = i / divisions;
        const x = aftEdge ? -chord + f * chord : -h * chord - hornDepth + f * (chord + hornDepth);
        // Thickness tapers from the nose (or, for a leading-edge device, from the aft edge).
        const fromNose = aftEdge ? 1 - f : Math.max(0, (x + h * chord) / chord);
        const half = (spec.thickness / 2) * (1 - 0.9 * Math.min(1, fromNose));
        const rake = i === 0 && side === 1 ? -(spec.noseRake ?? 0) : 0;
        for (let k = 0; k < 3; k++) {
          points.push(hinge[k] + spec.aft[k] * (x + rake) + spec.normal[k] * side * half);
        }
      }
    }
  }
  const perStation = 2 * (divisions + 1);
  const indices: number[] = [];
  for (let s = 0; s + 1 < stations; s++) {
    for (let i = 0; i < perStation - 1; i++) {
      const a = s * perStation + i, b = a + 1, c = a + perStation, d = c + 1;
      indices.push(a, c, b, b, c, d);
    }
  }
  return { positions: new Float32Array(points), indices: new Uint32Array(indices) };
}

/** The true hinge of a panel in world space, given its parent's world matrix. */
export function trueHinge(spec: PanelSpec, parentWorld: ArrayLike<number>): { origin: Vec3; axis: Vec3 } {
  const a = transformPoint(parentWorld, spec.root), b = transformPoint(parentWorld, spec.tip);
  return { origin: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2], axis: normalize(sub(b, a)) };
}

/** Adds a panel under `parent` (or the scene), its mesh stored in its own local space. */
export function addPanel(doc: Document, parent: Node | undefined, spec: PanelSpec, own: Trs = {}): Node {
  const node = doc.createNode(spec.name);
  applyTrs(node, own);
  const scene = doc.getRoot().getDefaultScene() ?? doc.createScene("Scene");
  doc.getRoot().setDefaultScene(scene);
  if (parent) parent.addChild(node);
  else scene.addChild(node);
  const toLocal = invertAffine(node.getWorldMatrix());
  const parentWorld = parent ? parent.getWorldMatrix() : IDENTITY;
  const { positions, indices } = panelMesh(spec);
  const local = new Float32Array(positions.length);
  const toLocalFromDesign = multiply(toLocal, parentWorld);
  for (let i = 0; i < positions.length; i += 3) {
    local.set(transformPoint(toLocalFromDesign, positions.subarray(i, i + 3)), i);
  }
  const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
  const position = doc.createAccessor(`${spec.name}.position`, buffer).setType("VEC3").setArray(local);
  const index = doc.createAccessor(`${spec.name}.indices`, buffer).setType("SCALAR").setArray(indices);
  node.setMesh(
    doc.createMesh(spec.name).addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", position).setIndices(index),
    ),
  );
  return node;
}

/** Adds an empty group node. */
export function addGroup(doc: Document, parent: Node | undefined, name: string, trs: Trs = {}): Node {
  const node = doc.createNode(name);
  applyTrs(node, trs);
  const scene = doc.getRoot().getDefaultScene() ?? doc.createScene("Scene");
  doc.getRoot().setDefaultScene(scene);
  if (parent) parent.addChild(node);
  else scene.addChild(node);
  return node;
}

function applyTrs(node: Node, trs: Trs): void {
  if (trs.translation) node.setTranslation([...trs.translation]);
  if (trs.rotation) node.setRotation([...trs.rotation]);
  if (trs.scale) node.setScale([...trs.scale]);
}

/** The identity matrix. */
export const IDENTITY: number[] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** A rotation of `degrees` about `axis`. */
export function axisAngle(axis: Vec3, degrees: number): Quat {
  const n = normalize(axis);
  const half = (degrees * Math.PI) / 360;
  return [n[0] * Math.sin(half), n[1] * Math.sin(half), n[2] * Math.sin(half), Math.cos(half)];
}

/** Angle in degrees between two lines' directions (sign ignored). */
export function axisErrorDegrees(a: Vec3, b: Vec3): number {
  const c = Math.min(1, Math.abs(dot(normalize(a), normalize(b))));
  return (Math.acos(c) * 180) / Math.PI;
}

/** Distance of point `p` from the line through `origin` along `axis`. */
export function distanceToLine(p: Vec3, origin: Vec3, axis: Vec3): number {
  const u = normalize(axis);
  return Math.hypot(...cross(sub(p, origin), u));
}

/**
 * Where a world point rigidly attached below `pivot` goes when the pivot turns by `degrees` about
 * its local X.
 */
export function turnAttached(pivot: Node, point: Vec3, degrees: number): Vec3 {
  const before = pivot.getWorldMatrix();
  const rotation = pivot.getRotation() as Quat;
  pivot.setRotation(quatMultiply(rotation, axisAngle([1, 0, 0], degrees)));
  const after = pivot.getWorldMatrix();
  pivot.setRotation(rotation);
  return transformPoint(multiply(after, invertAffine(before)), point);
}

/** World positions of every vertex of a node's own mesh. */
export function worldVertices(node: Node): Float64Array {
  const accessor = node.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!;
  const world = node.getWorldMatrix();
  const out = new Float64Array(accessor.getCount() * 3);
  const v = [0, 0, 0];
  for (let i = 0; i < accessor.getCount(); i++) {
    out.set(transformPoint(world, accessor.getElement(i, v)), i * 3);
  }
  return out;
}

/** Largest distance between corresponding points of two position arrays. */
export function maxDisplacement(a: Float64Array, b: Float64Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i += 3) {
    max = Math.max(max, Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1], a[i + 2] - b[i + 2]));
  }
  return max;
}

/** A new empty document with a default scene. */
export function newScene(): Document {
  const doc = new Document();
  doc.getRoot().setDefaultScene(doc.createScene("Scene"));
  doc.createBuffer();
  return doc;
}
