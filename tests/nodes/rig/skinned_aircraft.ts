/**
 * A skinned aircraft made by code, shaped like a game-ready export: one mesh skinned to an armature
 * whose bones are named after the control surfaces (`aileron_L`, `Aileron.R`, `Elevator_L`, `rudder`,
 * a `rudder_tab` bone under the rudder's, and a `flap_L` bone nothing is weighted to). The elevator's
 * hinge row is blended 0.6/0.4 with the root joint, the tab's split 0.5/0.5 with the rudder's bone,
 * and the aft fuselage weighted 0.3 to the elevator's bone. The mesh's
 * vertices are stored in a bind space that is not the world (the inverse bind matrices carry it) and
 * the bones are rotated like Blender's (Y along the bone), so only real skinning puts the surfaces
 * where they are designed. Also an independent skinning evaluator for the tests.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { mat4 } from "gl-matrix";
import { invertAffine, multiply, transformPoint, type Vec3 } from "../../../nodes/rig/transform.ts";
import { addGroup, axisAngle, newScene, panelMesh, type PanelSpec } from "./fixtures.ts";
import { AFT, aileron, RIGHT, UP } from "./cases.ts";

/** One designed surface and the bone that moves it (design frame = world). */
export interface SkinnedSurface {
  spec: PanelSpec;
  bone: string;
  kind: string;
  side: "left" | "right" | "centre";
  /** Direction a positive angle should move the far edge, world. */
  wanted: Vec3;
}

function mirrored(spec: PanelSpec, name: string): PanelSpec {
  return {
    ...spec,
    name,
    root: [-spec.root[0], spec.root[1], spec.root[2]],
    tip: [-spec.tip[0], spec.tip[1], spec.tip[2]],
  };
}

const DOWN: Vec3 = [0, -1, 0];

/** The surfaces of the skinned aircraft. */
export const SKINNED_SURFACES: readonly SkinnedSurface[] = [
  {
    spec: mirrored(aileron("aileron_L"), "aileron_L"),
    bone: "aileron_L",
    kind: "aileron",
    side: "left",
    wanted: DOWN,
  },
  { spec: aileron("Aileron.R"), bone: "Aileron.R", kind: "aileron", side: "right", wanted: DOWN },
  {
    spec: {
      name: "Elevator_L",
      root: [-0.3, 0.2, 5.0],
      tip: [-1.8, 0.22, 5.3],
      aft: AFT,
      normal: UP,
      chordRoot: 0.45,
      chordTip: 0.3,
      thickness: 0.025,
    },
    bone: "Elevator_L",
    kind: "elevator",
    side: "left",
    wanted: DOWN,
  },
  {
    spec: {
      name: "rudder",
      root: [0, 0.6, 5.2],
      tip: [0, 2.0, 5.7],
      aft: AFT,
      normal: RIGHT,
      chordRoot: 0.6,
      chordTip: 0.4,
      thickness: 0.03,
    },
    bone: "rudder",
    kind: "rudder",
    side: "centre",
    wanted: RIGHT,
  },
  {
    spec: {
      name: "rudder_tab",
      root: [0, 0.8, 5.86],
      tip: [0, 1.1, 5.92],
      aft: AFT,
      normal: RIGHT,
      chordRoot: 0.1,
      chordTip: 0.1,
      thickness: 0.008,
    },
    bone: "rudder_tab",
    kind: "trim_tab",
    side: "centre",
    wanted: RIGHT,
  },
];

/** The fuselage, weighted to the root joint (and, aft of z = 4, 0.3 to the elevator's bone). */
export const FUSELAGE: PanelSpec = {
  name: "Fuselage",
  root: [-0.5, 0, -3],
  tip: [0.5, 0, -3],
  aft: AFT,
  normal: UP,
  chordRoot: 8,
  chordTip: 8,
  thickness: 1,
};

/**
 * The fixed tailplane ahead of the elevator and fin ahead of the rudder, weighted to the root joint:
 * a trailing-edge surface with nothing fixed ahead of it would be all-moving.
 */
export const FIXED_TAIL: readonly PanelSpec[] = [
  {
    name: "Tailplane_L",
    root: [-0.3, 0.2, 4.48],
    tip: [-1.8, 0.22, 4.83],
    aft: AFT,
    normal: UP,
    chordRoot: 0.5,
    chordTip: 0.45,
    thickness: 0.05,
  },
  {
    name: "Fin",
    root: [0, 0.6, 4.58],
    tip: [0, 2.0, 5.28],
    aft: AFT,
    normal: RIGHT,
    chordRoot: 0.6,
    chordTip: 0.4,
    thickness: 0.05,
  },
];

/** Weight of the elevator's hinge-row vertices on its bone (the rest on the root joint). */
export const ELEVATOR_NOSE_WEIGHT = 0.6;

/** The skinned aircraft, with the joint index range of each surface's vertices. */
export function skinnedAircraft(
  options: { tabBesideRudder?: boolean; armatureScale?: Vec3 } = {},
): { doc: Document; mesh: Node; ranges: Map<string, [number, number]> } {
  const doc = newScene();
  const scene = doc.getRoot().getDefaultScene()!;
  // Blender's Z-up armature under a Y-up export: rotated −90° about X.
  const armature = addGroup(doc, undefined, "Armature", {
    translation: [0, 0.1, 0],
    rotation: axisAngle([1, 0, 0], -90),
    scale: options.armatureScale,
  });
  const root = addGroup(doc, armature, "Root", { translation: [0, 0.5, -0.1] });
  const bone = (parent: Node, name: string, head: Vec3, degrees: number, axis: Vec3): Node => {
    const local = transformPoint(invertAffine(parent.getWorldMatrix()), head);
    return addGroup(doc, parent, name, { translation: local, rotation: axisAngle(axis, degrees) });
  };
  const bones = new Map<string, Node>([["Root", root]]);
  for (const s of SKINNED_SURFACES) {
    // Exporters that flatten the armature put the tab's bone beside the rudder's, not under it.
    const parent = s.bone === "rudder_tab" && !options.tabBesideRudder ? bones.get("rudder")! : root;
    bones.set(s.bone, bone(parent, s.bone, s.spec.root, 70 + bones.size * 13, [0.2, 0.3, 1]));
  }
  bones.set("flap_L", bone(root, "flap_L", [-1.5, 0, 0.9], 80, [0, 0, 1]));
  const jointNames = ["Root", ...SKINNED_SURFACES.map((s) => s.bone), "flap_L"];
  const joints = jointNames.map((name) => bones.get(name)!);

  // Vertices in a bind space B (world = B · stored): the inverse bind matrices are inv(J) · B.
  const bind = Array.from(
    mat4.fromRotationTranslation(mat4.create(), axisAngle([0.3, 1, 0.1], 25), [0.4, -0.3, 1.2]),
  );
  const toBind = invertAffine(bind);
  const positions: number[] = [], jointIndices: number[] = [], weights: number[] = [], indices: number[] = [];
  const ranges = new Map<string, [number, number]>();
  const elevatorJoint = jointNames.indexOf("Elevator_L");
  const rudderJoint = jointNames.indexOf("rudder");
  const add = (spec: PanelSpec, joint: number) => {
    const mesh = panelMesh(spec);
    const first = positions.length / 3;
    const divisions = 6, perRow = divisions + 1;
    for (let i = 0; i < mesh.positions.length; i += 3) {
      const world = [mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]];
      positions.push(...transformPoint(toBind, world));
      const v = i / 3;
      if (spec.name === "Elevator_L" && v % perRow === 0) {
        // The hinge row blends into the tailplane, as painted weights do.
        jointIndices.push(elevatorJoint, 0, 0, 0);
        weights.push(ELEVATOR_NOSE_WEIGHT, 1 - ELEVATOR_NOSE_WEIGHT, 0, 0);
      } else if (spec.name === "rudder_tab" && v % perRow === 0) {
        // A tie between the tab's bone and its parent's: the vertex is the tab's, not the rudder's.
        jointIndices.push(joint, rudderJoint, 0, 0);
        weights.push(0.5, 0.5, 0, 0);
      } else if (spec === FUSELAGE && world[2] > 4) {
        jointIndices.push(0, elevatorJoint, 0, 0);
        weights.push(0.7, 0.3, 0, 0);
      } else {
        jointIndices.push(joint, 0, 0, 0);
        weights.push(1, 0, 0, 0);
      }
    }
    for (const index of mesh.indices) indices.push(first + index);
    ranges.set(spec.name, [first, positions.length / 3]);
  };
  add(FUSELAGE, 0);
  for (const spec of FIXED_TAIL) add(spec, 0);
  for (const s of SKINNED_SURFACES) add(s.spec, jointNames.indexOf(s.bone));

  const buffer = doc.getRoot().listBuffers()[0];
  const accessor = (
    name: string,
    type: "VEC3" | "VEC4" | "SCALAR" | "MAT4",
    array: Float32Array<ArrayBuffer> | Uint8Array<ArrayBuffer> | Uint32Array<ArrayBuffer>,
  ) => doc.createAccessor(name, buffer).setType(type).setArray(array);
  const primitive = doc.createPrimitive()
    .setAttribute("POSITION", accessor("position", "VEC3", new Float32Array(positions)))
    .setAttribute("JOINTS_0", accessor("joints", "VEC4", new Uint8Array(jointIndices)))
    .setAttribute("WEIGHTS_0", accessor("weights", "VEC4", new Float32Array(weights)))
    .setIndices(accessor("indices", "SCALAR", new Uint32Array(indices)));
  const inverseBind = new Float32Array(
    joints.flatMap((j) => multiply(invertAffine(j.getWorldMatrix()), bind)),
  );
  const skin = doc.createSkin("Armature").setSkeleton(armature)
    .setInverseBindMatrices(accessor("inverse_bind", "MAT4", inverseBind));
  for (const joint of joints) skin.addJoint(joint);
  const mesh = doc.createNode("Aircraft").setMesh(doc.createMesh("Aircraft").addPrimitive(primitive)).setSkin(
    skin,
  );
  scene.addChild(mesh);
  return { doc, mesh, ranges };
}

/**
 * World positions of a skinned mesh node's vertices, skinned as a renderer does:
 * Σ wᵢ · (jointWorldᵢ · IBMᵢ) · v over JOINTS_0/WEIGHTS_0.
 */
export function skinnedWorld(node: Node): Float64Array {
  const skin = node.getSkin()!;
  const joints = skin.listJoints();
  const ibm = skin.getInverseBindMatrices()!;
  const matrices = joints.map((joint, j) =>
    multiply(joint.getWorldMatrix(), ibm.getElement(j, new Array(16)))
  );
  const primitive = node.getMesh()!.listPrimitives()[0];
  const position = primitive.getAttribute("POSITION")!;
  const jointIndex = primitive.getAttribute("JOINTS_0")!;
  const weight = primitive.getAttribute("WEIGHTS_0")!;
  const out = new Float64Array(position.getCount() * 3);
  const p = [0, 0, 0], j4 = [0, 0, 0, 0], w4 = [0, 0, 0, 0];
  for (let i = 0; i < position.getCount(); i++) {
    position.getElement(i, p);
    jointIndex.getElement(i, j4);
    weight.getElement(i, w4);
    for (let k = 0; k < 4; k++) {
      if (w4[k] === 0) continue;
      const q = transformPoint(matrices[j4[k]], p);
      for (let c = 0; c < 3; c++) out[i * 3 + c] += w4[k] * q[c];
    }
  }
  return out;
}
