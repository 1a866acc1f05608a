/**
 * three.js as a client in tests: `GLTFLoader.parse` (npm:three) on a GLB with images stubbed, the
 * meshes' world vertices, and the checks that pivots turn their panels — rigidly about local X
 * ({@link checkPivotTurns}) and the way the rig report says ({@link checkPositiveSense}).
 *
 * @module
 */
import { ok as assert } from "node:assert/strict";
import * as THREE from "three";
import { GLTFLoader, type GLTFParser } from "three/examples/jsm/loaders/GLTFLoader.js";

/** Images are not decoded in Deno: every texture becomes an empty one. */
class StubTextures {
  readonly name = "partgraph_stub_textures";
  loadTexture(): Promise<THREE.Texture> {
    return Promise.resolve(new THREE.Texture());
  }
}

/** A GLB as three.js loaded it. */
export interface Loaded {
  readonly scene: THREE.Group;
  readonly animations: THREE.AnimationClip[];
  /** The three.js object of each named glTF node. */
  readonly byName: Map<string, THREE.Object3D>;
  readonly nodeCount: number;
  /** The loader's parser (its `json`, and `getDependency` for what no node uses). */
  readonly parser: GLTFParser & { json: Record<string, unknown> };
}

/** Loads a GLB with three.js's `GLTFLoader`, every texture an empty stub. */
export async function load(glb: Uint8Array): Promise<Loaded> {
  const loader = new GLTFLoader().register(() => new StubTextures() as never);
  const data = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  const gltf = await loader.parseAsync(data, "") as unknown as {
    scene: THREE.Group;
    animations: THREE.AnimationClip[];
    parser: GLTFParser & { json: { nodes?: { name?: string }[] } };
  };
  const nodes = gltf.parser.json.nodes ?? [];
  const byName = new Map<string, THREE.Object3D>();
  gltf.scene.traverse((object: THREE.Object3D) => {
    const index = gltf.parser.associations.get(object)?.nodes;
    const name = index === undefined ? undefined : nodes[index].name;
    if (name && !byName.has(name)) byName.set(name, object);
  });
  return {
    scene: gltf.scene,
    animations: gltf.animations,
    byName,
    nodeCount: nodes.length,
    parser: gltf.parser as Loaded["parser"],
  };
}

/** Every mesh under `scene`. */
export function meshes(scene: THREE.Object3D): THREE.Mesh[] {
  const out: THREE.Mesh[] = [];
  scene.traverse((o: THREE.Object3D) => void ((o as THREE.Mesh).isMesh && out.push(o as THREE.Mesh)));
  return out;
}

/** Every material of the meshes under `scene`, each once. */
export function materials(scene: THREE.Object3D): THREE.MeshStandardMaterial[] {
  return [...new Set(meshes(scene).flatMap((m) => [m.material].flat() as THREE.MeshStandardMaterial[]))];
}

/** World positions of every vertex of every mesh (morphs and skinning applied). */
export function worldVertices(scene: THREE.Object3D): Map<THREE.Mesh, Float64Array> {
  scene.updateMatrixWorld(true);
  const out = new Map<THREE.Mesh, Float64Array>();
  const v = new THREE.Vector3();
  for (const mesh of meshes(scene)) {
    const count = mesh.geometry.getAttribute("position").count;
    const values = new Float64Array(count * 3);
    for (let i = 0; i < count; i++) {
      values.set(mesh.getVertexPosition(i, v).applyMatrix4(mesh.matrixWorld).toArray(), 3 * i);
    }
    out.set(mesh, values);
  }
  return out;
}

/** The diagonal of the scene's bounding box. */
export function extentOf(scene: THREE.Object3D): number {
  scene.updateMatrixWorld(true);
  return new THREE.Box3().setFromObject(scene).getSize(new THREE.Vector3()).length();
}

/** The largest distance any vertex of `mesh` moves between the clip's times `a` and `b`. */
export function clipMotion(
  loaded: Loaded,
  clip: THREE.AnimationClip,
  mesh: THREE.Mesh,
  a: number,
  b: number,
): number {
  const mixer = new THREE.AnimationMixer(loaded.scene);
  mixer.clipAction(clip).play();
  mixer.setTime(a);
  const before = worldVertices(loaded.scene).get(mesh)!;
  mixer.setTime(b);
  const after = worldVertices(loaded.scene).get(mesh)!;
  mixer.stopAllAction().uncacheRoot(loaded.scene);
  return Math.max(...before.map((x, i) => Math.abs(x - after[i])));
}

/** Turns each `ctrl_type: rotation` pivot 20° about its local X: its subtree turns rigidly, nothing else moves. */
export function checkPivotTurns(loaded: Loaded): number {
  const extent = extentOf(loaded.scene);
  const pivots = [...loaded.byName.values()].filter((o) => o.userData.ctrl_type === "rotation");
  const angle = THREE.MathUtils.degToRad(20);
  for (const pivot of pivots) {
    const before = worldVertices(loaded.scene);
    const turn = pivot.matrixWorld.clone().multiply(new THREE.Matrix4().makeRotationX(angle))
      .multiply(pivot.matrixWorld.clone().invert());
    const rest = pivot.quaternion.clone();
    pivot.rotateX(angle);
    const after = worldVertices(loaded.scene);
    pivot.quaternion.copy(rest);
    const subtree = new Set<THREE.Object3D>();
    pivot.traverse((o: THREE.Object3D) => void subtree.add(o));
    let worst = 0, moved = 0;
    for (const [mesh, old] of before) {
      const follows = subtree.has(mesh);
      const now = after.get(mesh)!;
      for (let i = 0; i < old.length; i += 3) {
        const p = new THREE.Vector3(old[i], old[i + 1], old[i + 2]);
        if (follows) p.applyMatrix4(turn), moved++;
        worst = Math.max(worst, p.distanceTo(new THREE.Vector3(now[i], now[i + 1], now[i + 2])));
      }
    }
    assert(moved > 0, `pivot ${pivot.name} turns no vertex`);
    assert(worst <= 1e-5 * extent, `pivot ${pivot.name}: a vertex is ${worst} off (extent ${extent})`);
  }
  loaded.scene.updateMatrixWorld(true);
  return pivots.length;
}

/** The fields of a rig report part that {@link checkPositiveSense} reads. */
export interface SensePart {
  readonly name: string;
  readonly positive: string | null;
  readonly hinge: { readonly world: { readonly axis: readonly number[] } } | null;
}

/** Where a positive turn moves an edge: which edge, and toward the aircraft's up or right. */
const SENSES: Record<string, { edge: "trailing" | "leading"; toward: "down" | "up" | "right" }> = {
  trailing_edge_down: { edge: "trailing", toward: "down" },
  trailing_edge_up: { edge: "trailing", toward: "up" },
  trailing_edge_right: { edge: "trailing", toward: "right" },
  leading_edge_down: { edge: "leading", toward: "down" },
};

/**
 * Turns the pivot of each part whose `positive` names an edge by +20° about its local X, as a client
 * deflects it, and asserts that its panel's far edge (the vertices within a tenth of the chord of its
 * aftmost point, or foremost for `leading_edge_down`) moves the way the report says: down, up, or
 * toward the aircraft's right (rudders, and a `trailing_edge_down` panel standing upright, whose hinge
 * runs more along up than across). `forward` and `up` are the aircraft's axes in the file. Returns
 * the names of the parts checked.
 */
export function checkPositiveSense(
  loaded: Loaded,
  parts: readonly SensePart[],
  forward: THREE.Vector3,
  up: THREE.Vector3,
): string[] {
  const right = forward.clone().cross(up);
  const angle = THREE.MathUtils.degToRad(20);
  const checked: string[] = [];
  for (const part of parts) {
    const sense = part.positive ? SENSES[part.positive] : undefined;
    const pivot = loaded.byName.get(part.name);
    if (!sense || !part.hinge) continue;
    assert(pivot, `pivot ${part.name} is loaded`);
    const axis = new THREE.Vector3(...part.hinge.world.axis);
    const upright = Math.abs(axis.dot(up)) > Math.abs(axis.dot(right));
    const toward = sense.toward === "right" || (sense.toward === "down" && upright)
      ? right
      : up.clone().multiplyScalar(sense.toward === "up" ? 1 : -1);
    const panel = meshes(pivot);
    loaded.scene.updateMatrixWorld(true);
    const before = worldVertices(pivot);
    pivot.rotateX(angle);
    const after = worldVertices(pivot);
    pivot.rotateX(-angle);
    pivot.updateMatrixWorld(true);
    // Along the aircraft's forward: the far edge is the panel's aftmost (or foremost) strip.
    let lo = Infinity, hi = -Infinity;
    const along = (values: Float64Array, i: number) =>
      values[i] * forward.x + values[i + 1] * forward.y + values[i + 2] * forward.z;
    for (const values of before.values()) {
      for (let i = 0; i < values.length; i += 3) {
        lo = Math.min(lo, along(values, i)), hi = Math.max(hi, along(values, i));
      }
    }
    const chord = hi - lo, moved = new THREE.Vector3();
    let count = 0;
    for (const [mesh, values] of before) {
      const now = after.get(mesh)!;
      for (let i = 0; i < values.length; i += 3) {
        const x = along(values, i);
        if (sense.edge === "trailing" ? x > lo + chord / 10 : x < hi - chord / 10) continue;
        moved.add(
          new THREE.Vector3(now[i] - values[i], now[i + 1] - values[i + 1], now[i + 2] - values[i + 2]),
        );
        count++;
      }
    }
    assert(panel.length > 0 && count > 0, `${part.name}: its panel has no far edge`);
    moved.divideScalar(count);
    const agreement = moved.dot(toward) / moved.length();
    assert(
      moved.length() > 0.1 * chord * Math.sin(angle) && agreement > 0.7,
      `${part.name} (${part.positive}): +20° moves its ${sense.edge} edge ${moved.toArray()} (agreement ${
        agreement.toFixed(2)
      } with ${sense.toward})`,
    );
    checked.push(part.name);
  }
  return checked;
}
