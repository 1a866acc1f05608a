/**
 * Aircraft made by code the way users' files come: a light aircraft (tube fuselage, wing with
 * dihedral and sweep, ailerons and flaps behind it, tailplane and elevators, fin and rudder; every
 * fixed surface modelled ahead of its moving one) with its true hinges, and wrappers that put it in
 * a file as real sources do — a game rip's single skinned mesh whose bones are named for the
 * surfaces, under a Sketchfab-style Z-up→Y-up, centimetre armature.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import {
  invertAffine,
  multiply,
  normalize,
  type Quat,
  transformPoint,
  type Vec3,
} from "../../../nodes/rig/transform.ts";
import { axisAngle, newScene, panelMesh, type PanelSpec } from "./fixtures.ts";
import { prng } from "../../support/prng.ts";

/** One piece of the aircraft, in the design frame (−Z forward, +Y up, +X right), metres. */
export interface ShapePart {
  name: string;
  positions: Float32Array;
  indices: Uint32Array;
  /** For a moving surface: its true hinge line (mid-thickness of the forward edge), kind and side. */
  truth?: { root: Vec3; tip: Vec3; kind: string; side: "left" | "right" | "centre" };
}

const AFT: Vec3 = [0, 0, 1];

function piece(spec: PanelSpec, truth?: ShapePart["truth"]): ShapePart {
  const { positions, indices } = panelMesh({ stations: 7, divisions: 4, ...spec });
  return { name: spec.name, positions, indices, truth };
}

function mirrored(part: ShapePart, name: string): ShapePart {
  const positions = new Float32Array(part.positions);
  for (let i = 0; i < positions.length; i += 3) positions[i] = -positions[i];
  const indices = new Uint32Array(part.indices);
  for (let i = 0; i < indices.length; i += 3) {
    [indices[i + 1], indices[i + 2]] = [indices[i + 2], indices[i + 1]];
  }
  const flip = (v: Vec3): Vec3 => [-v[0], v[1], v[2]];
  const truth = part.truth &&
    { ...part.truth, root: flip(part.truth.root), tip: flip(part.truth.tip), side: "left" as const };
  return { name, positions, indices, truth };
}

/** An octagonal tube along Z, tapering to the nose and the tail. */
function fuselage(length: number, radius: number): ShapePart {
  const points: number[] = [], indices: number[] = [];
  const sides = 8, sections = 11;
  for (let i = 0; i < sections; i++) {
    const t = i / (sections - 1);
    const r = radius * (t < 0.25 ? 0.3 + 2.8 * t : t > 0.5 ? 1.75 - 1.5 * t : 1);
    for (let j = 0; j < sides; j++) {
      const a = (2 * Math.PI * j) / sides;
      points.push(r * Math.cos(a), r * Math.sin(a), (t - 0.5) * length);
    }
  }
  for (let i = 0; i + 1 < sections; i++) {
    for (let j = 0; j < sides; j++) {
      const a = i * sides + j, b = i * sides + ((j + 1) % sides);
      indices.push(a, b, b + sides, a, b + sides, a + sides);
    }
  }
  return { name: "Fuselage", positions: new Float32Array(points), indices: new Uint32Array(indices) };
}

/** The light aircraft: `sweep` of the wing's leading edge and `dihedral`, degrees. */
export function lightAircraft(options: { sweep?: number; dihedral?: number } = {}): ShapePart[] {
  const sweep = ((options.sweep ?? 0) * Math.PI) / 180, dihedral = ((options.dihedral ?? 3) * Math.PI) / 180;
  const normal = normalize([-Math.sin(dihedral), Math.cos(dihedral), 0]);
  // Leading edge and total chord of the wing at span station x (0.5 … 5.5 m).
  const wing = (x: number) => ({
    edge: [x, Math.tan(dihedral) * (x - 0.5), -1 + Math.tan(sweep) * (x - 0.5)] as Vec3,
    chord: 2 - (x - 0.5) / 5,
  });
  const box = 0.72; // the fixed wing's share of the chord
  const behind = (name: string, from: number, to: number, kind: string) => {
    const a = wing(from), b = wing(to);
    const root: Vec3 = [a.edge[0], a.edge[1], a.edge[2] + box * a.chord];
    const tip: Vec3 = [b.edge[0], b.edge[1], b.edge[2] + box * b.chord];
    const chordRoot = (1 - box) * a.chord, chordTip = (1 - box) * b.chord;
    const spec = { name, root, tip, aft: AFT, normal, chordRoot, chordTip, thickness: 0.25 * chordRoot };
    return piece(spec, { root, tip, kind, side: "right" });
  };
  const a = wing(0.5), b = wing(5.5);
  const right = [
    piece({
      name: "Wing_R",
      root: a.edge,
      tip: b.edge,
      aft: AFT,
      normal,
      chordRoot: box * a.chord,
      chordTip: box * b.chord,
      thickness: 0.12 * a.chord,
    }),
    behind("Aileron_R", 3.2, 5.2, "aileron"),
    behind("Flap_R", 0.8, 3.0, "flap"),
    piece({
      name: "Tailplane_R",
      root: [0.2, 0.35, 2.6],
      tip: [1.9, 0.35, 2.85],
      aft: AFT,
      normal: [0, 1, 0],
      chordRoot: 0.7,
      chordTip: 0.45,
      thickness: 0.08,
    }),
  ];
  const elevator: Vec3[] = [[0.2, 0.35, 3.3], [1.9, 0.35, 3.3]];
  right.push(piece({
    name: "Elevator_R",
    root: elevator[0],
    tip: elevator[1],
    aft: AFT,
    normal: [0, 1, 0],
    chordRoot: 0.4,
    chordTip: 0.28,
    thickness: 0.04,
  }, { root: elevator[0], tip: elevator[1], kind: "elevator", side: "right" }));
  const rudder: Vec3[] = [[0, 0.4, 3.4], [0, 2.0, 3.6]];
  return [
    fuselage(8, 0.55),
    piece({
      name: "Fin",
      root: [0, 0.4, 2.5],
      tip: [0, 2.0, 3.1],
      aft: AFT,
      normal: [1, 0, 0],
      chordRoot: 0.9,
      chordTip: 0.5,
      thickness: 0.09,
    }),
    piece({
      name: "Rudder",
      root: rudder[0],
      tip: rudder[1],
      aft: AFT,
      normal: [1, 0, 0],
      chordRoot: 0.5,
      chordTip: 0.3,
      thickness: 0.04,
    }, { root: rudder[0], tip: rudder[1], kind: "rudder", side: "centre" }),
    ...right.flatMap((part) => [part, mirrored(part, part.name.replace(/_R$/, "_L"))]),
  ];
}

function matrixOf(rotation: Quat, scale = 1): number[] {
  const [x, y, z, w] = rotation;
  const r = [
    [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
    [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
    [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)],
  ];
  return [
    ...r[0].map((v) => v * scale),
    0,
    ...r[1].map((v) => v * scale),
    0,
    ...r[2].map((v) => v * scale),
    0,
    0,
    0,
    0,
    1,
  ];
}

/**
 * A game rip: the whole aircraft one skinned mesh, each surface weighted fully to a bone named for it
 * (`aileron_l_3`, with an `_end` leaf bone), the fixed structure to a root bone. The armature hangs
 * under `Sketchfab_model` (Z-up → Y-up) and a unit node (scale `unit`, default 0.01: centimetres),
 * turned Z-up unless `zUp: false`; the bones are turned
 * arbitrarily and sit off their hinges; the armature is raised `lift` metres. The skinned mesh node is at the scene root, as the glTF
 * validator asks, and its vertices are stored in the armature's space (its unit, Z up): only
 * skinning puts them where they are drawn. Returns the document and each surface's bone name.
 */
export function gameRip(
  parts: ShapePart[],
  seed: number,
  options: { unit?: number; lift?: number; zUp?: boolean } = {},
): { doc: Document; bones: Map<string, string> } {
  const next = prng(seed);
  const doc = newScene();
  const scene = doc.getRoot().getDefaultScene()!;
  const top = doc.createNode("Sketchfab_model").setMatrix(matrixOf(axisAngle([1, 0, 0], -90)) as never);
  const { unit = 0.01, lift = 0, zUp = true } = options;
  const units = doc.createNode("aircraft.fbx").setMatrix(matrixOf(axisAngle([1, 0, 0], 90), unit) as never);
  // Raised `lift` metres, as a rip placed on its gear or spawn point.
  const armature = doc.createNode("Armature").setTranslation([0, lift / unit, 0]);
  if (zUp) armature.setRotation(axisAngle([1, 0, 0], -90));
  scene.addChild(top);
  top.addChild(units);
  units.addChild(armature);
  const root = doc.createNode("Root_0").setTranslation([0, 0, 30]);
  armature.addChild(root);
  const joints: Node[] = [root];
  const jointOf = new Map<string, number>(), bones = new Map<string, string>();
  for (const part of parts) {
    if (!part.truth) continue;
    const mid = [0, 1, 2].map((k) => (part.truth!.root[k] + part.truth!.tip[k]) / 2 + (next() - 0.5) * 0.4);
    const name = `${part.name.toLowerCase()}_${joints.length}`;
    const bone = doc.createNode(name)
      .setTranslation(transformPoint(invertAffine(root.getWorldMatrix()), mid))
      .setRotation(axisAngle([next() - 0.5, next() - 0.5, next() - 0.5], 360 * next()));
    bone.addChild(doc.createNode(`${name}_end`).setTranslation([0, 20, 0]));
    root.addChild(bone);
    jointOf.set(part.name, joints.length);
    bones.set(part.name, name);
    joints.push(bone);
  }
  const bind = armature.getWorldMatrix();
  const toBind = invertAffine(bind);
  const positions: number[] = [], influences: number[] = [], weights: number[] = [], indices: number[] = [];
  for (const part of parts) {
    const first = positions.length / 3, joint = jointOf.get(part.name) ?? 0;
    for (let i = 0; i < part.positions.length; i += 3) {
      positions.push(...transformPoint(toBind, part.positions.subarray(i, i + 3)));
      influences.push(joint, 0, 0, 0);
      weights.push(1, 0, 0, 0);
    }
    for (const index of part.indices) indices.push(first + index);
  }
  const buffer = doc.getRoot().listBuffers()[0];
  const accessor = (
    name: string,
    type: "VEC3" | "VEC4" | "SCALAR" | "MAT4",
    array: Float32Array | Uint16Array | Uint32Array,
  ) => doc.createAccessor(name, buffer).setType(type).setArray(array as Float32Array<ArrayBuffer>);
  const primitive = doc.createPrimitive()
    .setAttribute("POSITION", accessor("position", "VEC3", new Float32Array(positions)))
    .setAttribute("JOINTS_0", accessor("joints", "VEC4", new Uint16Array(influences)))
    .setAttribute("WEIGHTS_0", accessor("weights", "VEC4", new Float32Array(weights)))
    .setIndices(accessor("indices", "SCALAR", new Uint32Array(indices)));
  const inverseBind = joints.flatMap((joint) => multiply(invertAffine(joint.getWorldMatrix()), bind));
  const skin = doc.createSkin("skin0").setSkeleton(root)
    .setInverseBindMatrices(accessor("inverse_bind", "MAT4", new Float32Array(inverseBind)));
  for (const joint of joints) skin.addJoint(joint);
  scene.addChild(
    doc.createNode("Object_7").setMesh(doc.createMesh("Object_0").addPrimitive(primitive)).setSkin(skin),
  );
  return { doc, bones };
}

/** The parts turned by `matrix` (positions and truths). */
export function placed(parts: ShapePart[], matrix: ArrayLike<number>): ShapePart[] {
  return parts.map((part) => {
    const positions = new Float32Array(part.positions.length);
    for (let i = 0; i < positions.length; i += 3) {
      positions.set(transformPoint(matrix, part.positions.subarray(i, i + 3)), i);
    }
    const truth = part.truth &&
      {
        ...part.truth,
        root: transformPoint(matrix, part.truth.root),
        tip: transformPoint(matrix, part.truth.tip),
      };
    return { ...part, positions, truth };
  });
}
