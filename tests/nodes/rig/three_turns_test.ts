/**
 * The rigged demo fighter loaded by three.js's GLTFLoader: turning each pivot +20° (and its limits)
 * about its local X — `rotateX`, or `rotation.x = θ` on a `zero_rest` pivot — moves every vertex of
 * its panel onto the ideal rotation about the pivot's world hinge, and nothing else.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import * as THREE from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { runNode } from "../../support/context.ts";
import { rig } from "./pipeline.ts";

async function loadInThree(glb: Uint8Array): Promise<THREE.Object3D> {
  const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  const gltf = await new Promise<{ scene: THREE.Object3D }>((resolve, reject) =>
    new GLTFLoader().parse(buffer, "", resolve, reject)
  );
  gltf.scene.updateMatrixWorld(true);
  return gltf.scene;
}

/** Every vertex of every (unskinned) mesh, in world space. */
function worldPositions(root: THREE.Object3D): Map<THREE.Mesh, THREE.Vector3[]> {
  root.updateMatrixWorld(true);
  const out = new Map<THREE.Mesh, THREE.Vector3[]>();
  root.traverse((object: THREE.Object3D) => {
    const mesh = object as THREE.Mesh;
    if (!mesh.isMesh || (mesh as THREE.SkinnedMesh).isSkinnedMesh) return;
    const position = mesh.geometry.getAttribute("position");
    const points: THREE.Vector3[] = [];
    for (let i = 0; i < position.count; i++) {
      points.push(new THREE.Vector3().fromBufferAttribute(position, i).applyMatrix4(mesh.matrixWorld));
    }
    out.set(mesh, points);
  });
  return out;
}

/** Worst distance (relative to the model's size) of a turned vertex from its ideal rigid turn. */
function worstTurn(
  root: THREE.Object3D,
  byRotationX: boolean,
): { off: number; others: number; pivots: number } {
  const rest = worldPositions(root);
  const box = new THREE.Box3().setFromObject(root);
  const size = box.max.distanceTo(box.min);
  const pivots: THREE.Object3D[] = [];
  root.traverse((o: THREE.Object3D) => {
    if (o.userData.ctrl_type === "rotation" && o.name.startsWith("HINGE_auto_")) pivots.push(o);
  });
  let off = 0, others = 0;
  for (const pivot of pivots) {
    const origin = new THREE.Vector3().setFromMatrixPosition(pivot.matrixWorld);
    const axis = new THREE.Vector3().setFromMatrixColumn(pivot.matrixWorld, 0).normalize();
    const sense = pivot.matrixWorld.determinant() < 0 ? -1 : 1;
    const under = new Set<THREE.Object3D>();
    pivot.traverse((o: THREE.Object3D) => under.add(o));
    const saved = pivot.quaternion.clone();
    for (const degrees of [20, pivot.userData.min, pivot.userData.max]) {
      const radians = THREE.MathUtils.degToRad(degrees);
      if (byRotationX) pivot.rotation.x = radians;
      else {pivot.quaternion.copy(saved).multiply(
          new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(1, 0, 0), radians),
        );}
      const turned = worldPositions(root);
      const turn = new THREE.Quaternion().setFromAxisAngle(axis, sense * radians);
      for (const [mesh, points] of rest) {
        points.forEach((p, i) => {
          const ideal = under.has(mesh) ? p.clone().sub(origin).applyQuaternion(turn).add(origin) : p;
          const d = turned.get(mesh)![i].distanceTo(ideal) / size;
          if (under.has(mesh)) off = Math.max(off, d);
          else others = Math.max(others, d);
        });
      }
      pivot.quaternion.copy(saved);
    }
  }
  return { off, others, pivots: pivots.length };
}

for (const zeroRest of [false, true]) {
  Deno.test(`three.js: every demo fighter pivot turns rigidly${zeroRest ? " (zero_rest, rotation.x)" : ""}`, async () => {
    const rigged = await rig((await runNode(demoFighter, {})).scene, { forward: "auto", up: "auto" }, {}, {
      zero_rest: zeroRest,
    });
    const root = await loadInThree(await writeGlb(rigged.scene, { generator: GENERATOR }));
    if (zeroRest) {
      root.traverse((o: THREE.Object3D) => {
        if (o.userData.ctrl_type === "rotation" && o.name.startsWith("HINGE_auto_")) {
          assertEquals([o.rotation.x, o.rotation.y, o.rotation.z], [0, 0, 0], o.name);
        }
      });
    }
    const { off, others, pivots } = worstTurn(root, zeroRest);
    assertEquals(pivots, 21);
    if (!(off < 1e-6)) throw new Error(`a pivot turn is ${off} of the model size off the ideal rotation`);
    if (!(others < 1e-12)) throw new Error(`a vertex outside the turned pivot moved ${others}`);
  });
}
