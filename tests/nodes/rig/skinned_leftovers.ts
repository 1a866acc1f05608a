/**
 * Skinned aircraft carrying weighted leftovers: a modeller aircraft (`modeller_habits.ts`, clean) as a
 * game-ready export has it, every object merged into one mesh skinned to an armature whose bones are
 * named after the control surfaces (the surface's vertices weighted to its bone, 0.55–1 for some as
 * painted weights are, the rest on `Root`), and any skinned scene (`skinned_aircraft.ts`), given one
 * habit of how weighted vertices nothing draws reach a file. Faces deleted in Blender with Delete ›
 * Only Faces or Only Edges & Faces keep their corners, and the corners keep their vertex groups: two to
 * six per surface bone within the size of its vertices, one to three on their box's far corners pushed
 * out (as `undrawn_parts.ts` leftovers), each weighted as a vertex of the bone's it was copied from.
 *
 * - `weighted_leftovers`: an exporter writing the mesh's whole vertex list (an FBX converter, a rip)
 *   leaves them in the triangles' vertex list.
 * - `loose_points`: Blender's glTF exporter with Loose Points on writes them as a primitive of points
 *   (mode 0) of their own, with JOINTS_0 and WEIGHTS_0 (io_scene_gltf2 primitive_extract.py,
 *   primitive_creation_edges_and_points).
 * - `loose_edges`: Only Faces keeps the edges too; with Loose Edges on, a primitive of lines (mode 1)
 *   joining them in pairs, weighted.
 * - `shared_buffer`: a game rip: one skinned mesh per surface bone (and one for the rest), each
 *   drawing its own triangles out of one vertex buffer (positions, joints, weights) for the whole
 *   aircraft, the leftovers in it as well, drawn by none.
 *
 * What every surface draws, where, is unchanged, so its truth holds. Deterministic from a seed.
 *
 * @module
 */
import type { Document, Node, Primitive } from "@gltf-transform/core";
import { invertAffine, type Mat4, transformPoint, type Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { addGroup, newScene } from "./fixtures.ts";
import { modellerSample, type ModellerTruth } from "./modeller_habits.ts";

/** The habits, cycled by callers. */
export const SKINNED_LEFTOVER_HABITS = [
  "weighted_leftovers",
  "loose_points",
  "loose_edges",
  "shared_buffer",
] as const;

/** One habit, or `clean` (the skinned aircraft with nothing left over). */
export type SkinnedLeftoverHabit = (typeof SKINNED_LEFTOVER_HABITS)[number] | "clean";

/** A skinned sample: the scene and its surfaces' truths (bones named as the surfaces). */
export interface SkinnedLeftoverSample {
  readonly doc: Document;
  readonly truths: ModellerTruth[];
  readonly description: string;
}

/** The skinned modeller aircraft of `seed` (surfaces' vertices on bones named as they are) given `habit`. */
export function skinnedLeftovers(seed: number, habit: SkinnedLeftoverHabit): SkinnedLeftoverSample {
  const sample = modellerSample(seed, "clean");
  const next = prng(seed * 6113 + 29);
  const doc = newScene();
  const scene = doc.getRoot().getDefaultScene()!;
  const armature = addGroup(doc, undefined, "Armature", { translation: [0, 0.05, 0] });
  const root = addGroup(doc, armature, "Root", { translation: [0, 0.4, 0] });
  const joints = [root];
  for (const truth of sample.truths) {
    const local = transformPoint(invertAffine(root.getWorldMatrix() as unknown as Mat4), truth.origin);
    joints.push(addGroup(doc, root, truth.name, { translation: local }));
  }
  const jointOf = (name: string) => Math.max(0, joints.findIndex((j) => j.getName() === name));
  // Every object merged into one mesh in world space (bind space = world), weighted to its bone.
  const p: number[] = [], j: number[] = [], w: number[] = [], t: number[] = [];
  for (const node of sample.doc.getRoot().listNodes()) {
    const world = node.getWorldMatrix() as unknown as Mat4, joint = jointOf(node.getName());
    for (const primitive of node.getMesh()?.listPrimitives() ?? []) {
      if (primitive.getMode() !== 4) continue;
      const position = primitive.getAttribute("POSITION")!, base = p.length / 3;
      for (let i = 0; i < position.getCount(); i++) {
        p.push(...transformPoint(world, position.getElement(i, [0, 0, 0]) as Vec3));
        const own = joint && next() < 0.3 ? 0.55 + 0.45 * next() : 1;
        j.push(joint, 0, 0, 0), w.push(own, 1 - own, 0, 0);
      }
      const indices = primitive.getIndices()?.getArray() ??
        Uint32Array.from({ length: position.getCount() }, (_, i) => i);
      for (const index of indices) t.push(base + index);
    }
  }
  const buffer = doc.getRoot().listBuffers()[0];
  const inverseBind = joints.flatMap((joint) => invertAffine(joint.getWorldMatrix() as unknown as Mat4));
  const skin = doc.createSkin("Armature").setSkeleton(armature).setInverseBindMatrices(
    doc.createAccessor("inverse_bind", buffer).setType("MAT4").setArray(new Float32Array(inverseBind)),
  );
  for (const joint of joints) skin.addJoint(joint);
  const primitive = doc.createPrimitive()
    .setAttribute(
      "POSITION",
      doc.createAccessor("position", buffer).setType("VEC3").setArray(new Float32Array(p)),
    )
    .setAttribute(
      "JOINTS_0",
      doc.createAccessor("joints", buffer).setType("VEC4").setArray(new Uint8Array(j)),
    )
    .setAttribute(
      "WEIGHTS_0",
      doc.createAccessor("weights", buffer).setType("VEC4").setArray(new Float32Array(w)),
    )
    .setIndices(doc.createAccessor("indices", buffer).setType("SCALAR").setArray(new Uint32Array(t)));
  scene.addChild(
    doc.createNode("Aircraft").setMesh(doc.createMesh("Aircraft").addPrimitive(primitive)).setSkin(skin),
  );
  giveWeightedLeftovers(doc, habit, seed);
  return { doc, truths: sample.truths, description: `skinned ${sample.description}, ${habit}` };
}

/**
 * Gives every skinned mesh of `doc` `habit` (see the module doc) for each joint but the skin's first
 * (the root the body hangs on) that dominates vertices of its first primitive of triangles: leftovers
 * in the mesh's (bind) space about that joint's vertices, each a copy of one of them moved (it keeps
 * that vertex's weights, as a deleted face's corner keeps its vertex groups). What is drawn is unchanged.
 */
export function giveWeightedLeftovers(doc: Document, habit: SkinnedLeftoverHabit, seed: number): void {
  if (habit === "clean") return;
  const next = prng(seed * 7027 + 3);
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh(), skin = node.getSkin();
    const primitive = mesh?.listPrimitives().find((q) => q.getMode() === 4 && q.getAttribute("JOINTS_0"));
    if (!mesh || !skin || !primitive) continue;
    const position = primitive.getAttribute("POSITION")!, count = position.getCount();
    const jointsOf = primitive.getAttribute("JOINTS_0")!, weightsOf = primitive.getAttribute("WEIGHTS_0")!;
    // Vertices by the joint holding at least half their weight.
    const groups = new Map<number, number[]>();
    const j4 = [0, 0, 0, 0], w4 = [0, 0, 0, 0];
    for (let v = 0; v < count; v++) {
      jointsOf.getElement(v, j4), weightsOf.getElement(v, w4);
      const sum = w4.reduce((a, b) => a + b, 0);
      for (let k = 0; k < 4; k++) {
        if (j4[k] !== 0 && w4[k] >= 0.5 * sum) groups.set(j4[k], [...groups.get(j4[k]) ?? [], v]);
      }
    }
    const loose: { from: number; at: Vec3 }[] = [];
    for (const [, members] of [...groups].sort((a, b) => a[0] - b[0])) {
      const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
      for (const v of members) {
        const q = position.getElement(v, [0, 0, 0]);
        for (let k = 0; k < 3; k++) min[k] = Math.min(min[k], q[k]), max[k] = Math.max(max[k], q[k]);
      }
      const size = Math.max(...max.map((m, k) => m - min[k]));
      const n = 2 + Math.floor(5 * next()), corners = 1 + Math.floor(3 * next());
      for (let i = 0; i < n; i++) {
        const at = (i < corners
          // A far corner of its box pushed out: a deleted flange's tip.
          ? [0, 1, 2].map((k) => (next() < 0.5 ? min[k] : max[k]) + (next() - 0.5) * 0.3 * size)
          : [0, 1, 2].map((k) => (min[k] + max[k]) / 2 + (2 * next() - 1) * size)) as Vec3;
        loose.push({ from: members[Math.floor(next() * members.length)], at });
      }
    }
    if (!loose.length) continue;
    // Every attribute of the primitive for the leftovers: the copied vertex's, at the new place.
    const attributes = new Map<string, Float32Array<ArrayBuffer>>();
    for (const semantic of primitive.listSemantics()) {
      const accessor = primitive.getAttribute(semantic)!, size = accessor.getElementSize();
      const held = accessor.getArray()!;
      const out = new (held.constructor as Float32ArrayConstructor)(size * loose.length);
      loose.forEach(({ from, at }, i) =>
        out.set(semantic === "POSITION" ? at : held.subarray(from * size, from * size + size), i * size)
      );
      attributes.set(semantic, out);
    }
    if (habit === "weighted_leftovers" || habit === "shared_buffer") {
      for (const [semantic, extra] of attributes) {
        const accessor = primitive.getAttribute(semantic)!;
        const held = accessor.getArray() as Float32Array<ArrayBuffer>;
        const out = new (held.constructor as Float32ArrayConstructor)(held.length + extra.length);
        out.set(held), out.set(extra, held.length);
        // A new array, as a tool writing the file would make: the scene's arrays are never written.
        accessor.setArray(out);
      }
      for (const target of primitive.listTargets()) {
        for (const semantic of target.listSemantics()) {
          const accessor = target.getAttribute(semantic)!;
          const held = accessor.getArray() as Float32Array<ArrayBuffer>;
          const out = new (held.constructor as Float32ArrayConstructor)(held.length + 3 * loose.length);
          out.set(held), accessor.setArray(out);
        }
      }
      if (habit === "shared_buffer") splitByJoint(doc, node, primitive);
      continue;
    }
    // Blender's exporter: the leftovers a primitive of their own, points or (in pairs) lines.
    const own = doc.createPrimitive().setMode(habit === "loose_points" ? 0 : 1);
    const buffer = position.getBuffer();
    for (const semantic of ["POSITION", "NORMAL", "JOINTS_0", "WEIGHTS_0"]) {
      const source = primitive.getAttribute(semantic);
      if (!source) continue;
      own.setAttribute(
        semantic,
        doc.createAccessor(`${mesh.getName()}.loose.${semantic}`, buffer).setType(source.getType())
          .setNormalized(source.getNormalized()).setArray(attributes.get(semantic)!),
      );
    }
    if (habit === "loose_edges") {
      // Edges left in pairs; an odd corner closes on the one before.
      const lines: number[] = [];
      for (let i = 0; i + 1 < loose.length; i += 2) lines.push(i, i + 1);
      if (loose.length % 2) lines.push(loose.length - 2, loose.length - 1);
      own.setIndices(
        doc.createAccessor(`${mesh.getName()}.loose.indices`, buffer).setType("SCALAR")
          .setArray(new Uint32Array(lines)),
      );
    }
    mesh.addPrimitive(own);
  }
}

/**
 * A rip's layout: `primitive`'s triangles split into one skinned mesh per joint dominating their first
 * corner, every mesh drawing its triangles out of the primitive's vertex buffer (leftovers included),
 * beside `node` under the same parent and skin; `node` keeps the root's triangles.
 */
function splitByJoint(doc: Document, node: Node, primitive: Primitive): void {
  const indices = primitive.getIndices()!.getArray()!, jointsOf = primitive.getAttribute("JOINTS_0")!;
  const weightsOf = primitive.getAttribute("WEIGHTS_0")!;
  const byJoint = new Map<number, number[]>();
  const j4 = [0, 0, 0, 0], w4 = [0, 0, 0, 0];
  for (let t = 0; t + 2 < indices.length; t += 3) {
    jointsOf.getElement(indices[t], j4), weightsOf.getElement(indices[t], w4);
    const k = w4.indexOf(Math.max(...w4)), joint = j4[k];
    byJoint.set(joint, [...byJoint.get(joint) ?? [], indices[t], indices[t + 1], indices[t + 2]]);
  }
  const buffer = primitive.getAttribute("POSITION")!.getBuffer();
  const joints = node.getSkin()!.listJoints();
  for (const [joint, list] of [...byJoint].sort((a, b) => a[0] - b[0])) {
    const drawing = joint === 0 ? primitive : primitive.clone();
    drawing.setIndices(
      doc.createAccessor(`ib.${joint}`, buffer).setType("SCALAR").setArray(new Uint32Array(list)),
    );
    if (joint === 0) continue;
    const name = `${joints[joint].getName()}_mesh`;
    const copy = doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(drawing)).setSkin(
      node.getSkin(),
    );
    (node.getParentNode() ?? doc.getRoot().getDefaultScene()!).addChild(copy);
  }
}
