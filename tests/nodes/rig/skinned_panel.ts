/**
 * A coarse panel (`coarse_panels.ts`) as a game export has it when the surface is a skin bone: one
 * skinned mesh holding a body weighted to a root joint and the panel weighted mostly (0.55–1, the
 * rest on the root, as painted weights are) to the panel's bone. The vertices are stored in a random
 * bind space and the armature and bones are turned at random, so only real skinning puts the panel
 * where it was generated. Deterministic from a seed.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { invertAffine, multiply, transformPoint, type Vec3 } from "../../../nodes/rig/transform.ts";
import type { CoarsePanel } from "./coarse_panels.ts";
import { addGroup, axisAngle, newScene } from "./fixtures.ts";
import { mat4 } from "gl-matrix";

/** Aircraft coordinates (aft, up, left) → scene coordinates in the default frame (−Z forward, +Y up). */
function toScene(p: ArrayLike<number>, o = 0): Vec3 {
  return [-p[o + 2], p[o + 1], p[o]];
}

/** A skinned scene whose bone `aileron_bone` moves `panel`; the body hangs on `Root`. */
export function skinnedPanel(panel: CoarsePanel, next: () => number): { doc: Document; bone: Node } {
  const doc = newScene();
  const turn = (): [number, number, number, number] =>
    axisAngle([next() - 0.5, next() - 0.5, next() - 0.5], 360 * next());
  const offset = (): Vec3 => [4 * next() - 2, 4 * next() - 2, 4 * next() - 2];
  const armature = addGroup(doc, undefined, "Armature", { translation: offset(), rotation: turn() });
  const root = addGroup(doc, armature, "Root", { translation: offset(), rotation: turn() });
  const bone = addGroup(doc, root, "aileron_bone", { translation: offset(), rotation: turn() });
  const bind = Array.from(mat4.fromRotationTranslation(mat4.create(), turn(), offset()));
  const toBind = invertAffine(bind);

  // A body box on the root joint, in the same mesh (exports merge them): none of it is the bone's.
  const positions: number[] = [], joints: number[] = [], weights: number[] = [], indices: number[] = [];
  for (let corner = 0; corner < 8; corner++) {
    const world: Vec3 = [-3 + (corner & 1), -0.5 + ((corner >> 1) & 1), -0.5 + ((corner >> 2) & 1)];
    positions.push(...transformPoint(toBind, toScene(world)));
    joints.push(0, 0, 0, 0);
    weights.push(1, 0, 0, 0);
  }
  indices.push(0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6);
  const first = positions.length / 3;
  for (let i = 0; i < panel.positions.length; i += 3) {
    positions.push(...transformPoint(toBind, toScene(panel.positions, i)));
    const own = next() < 0.3 ? 0.55 + 0.45 * next() : 1;
    joints.push(1, 0, 0, 0);
    weights.push(own, 1 - own, 0, 0);
  }
  for (const index of panel.triangles) indices.push(first + index);

  const buffer = doc.getRoot().listBuffers()[0];
  const inverseBind = new Float32Array(
    [root, bone].flatMap((j) => multiply(invertAffine(j.getWorldMatrix()), bind)),
  );
  const primitive = doc.createPrimitive()
    .setAttribute(
      "POSITION",
      doc.createAccessor("position", buffer).setType("VEC3").setArray(new Float32Array(positions)),
    )
    .setAttribute(
      "JOINTS_0",
      doc.createAccessor("joints", buffer).setType("VEC4").setArray(new Uint8Array(joints)),
    )
    .setAttribute(
      "WEIGHTS_0",
      doc.createAccessor("weights", buffer).setType("VEC4").setArray(new Float32Array(weights)),
    )
    .setIndices(doc.createAccessor("indices", buffer).setType("SCALAR").setArray(new Uint32Array(indices)));
  const skin = doc.createSkin("Armature").setSkeleton(armature).addJoint(root).addJoint(bone)
    .setInverseBindMatrices(doc.createAccessor("inverse_bind", buffer).setType("MAT4").setArray(inverseBind));
  const mesh = doc.createNode("Aircraft").setMesh(doc.createMesh("Aircraft").addPrimitive(primitive)).setSkin(
    skin,
  );
  doc.getRoot().getDefaultScene()!.addChild(mesh);
  return { doc, bone };
}
