/**
 * The outputs as three.js loads them: every graph in `graphs/` on its fixtures goes through
 * `GLTFLoader.parse` (npm:three, images stubbed) and must load without error, with the names the
 * file gives (no renaming), morph dictionaries keyed by frame names, clips that move vertices,
 * `ctrl_type` parts in `userData`, pivots whose turn about local X moves their panel exactly and
 * nothing else, and one LOD with no wireframe drawn; and a messy glTF's repaired output with its UVs,
 * weights and clip.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import * as THREE from "three";
import { type CaseRun, GRAPH_CASES, missingCorpus, runCase } from "../support/graph_runs.ts";
import { encode } from "fast-png";
import {
  editAccessor,
  embeddedView,
  messyGlb,
  renameWingAttribute,
  wingAttribute,
} from "../support/messy_gltf.ts";
import { load as loadClient, worldVertices } from "../support/threejs_client.ts";

/** A GLB as three.js loaded it, with the file's JSON and each glTF node index's three.js object. */
interface Loaded {
  readonly gltf: { scene: THREE.Group; animations: THREE.AnimationClip[] };
  // deno-lint-ignore no-explicit-any
  readonly json: any;
  /** The three.js object made from each glTF node index. */
  readonly objects: Map<number, THREE.Object3D>;
}

async function load(glb: Uint8Array): Promise<Loaded> {
  const { scene, animations, parser } = await loadClient(glb);
  const objects = new Map<number, THREE.Object3D>();
  scene.traverse((object: THREE.Object3D) => {
    const index = parser.associations.get(object)?.nodes;
    if (index !== undefined) objects.set(index, object);
  });
  return { gltf: { scene, animations }, json: parser.json, objects };
}

/** The diagonal of the box around the drawn vertices (skinning and morphs applied). */
function extentOf(vertices: Map<THREE.Mesh, Float64Array>): number {
  const box = new THREE.Box3();
  for (const values of vertices.values()) {
    for (let i = 0; i < values.length; i += 3) {
      box.expandByPoint(new THREE.Vector3(...values.subarray(i, i + 3)));
    }
  }
  return box.isEmpty() ? 0 : box.getSize(new THREE.Vector3()).length();
}

/** How much of vertex i follows the subtree of `pivot`: 1 for a mesh in it, else its skin weights. */
function influence(mesh: THREE.Mesh, i: number, subtree: Set<THREE.Object3D>): number {
  const skinned = mesh as THREE.SkinnedMesh;
  if (!skinned.isSkinnedMesh) return subtree.has(mesh) ? 1 : 0;
  const index = skinned.geometry.getAttribute("skinIndex");
  const weight = skinned.geometry.getAttribute("skinWeight");
  let sum = 0;
  for (let k = 0; k < 4; k++) {
    if (subtree.has(skinned.skeleton.bones[index.getComponent(i, k)])) sum += weight.getComponent(i, k);
  }
  return sum;
}

const TURN = THREE.MathUtils.degToRad(20);

/** Turns `pivot` about its local X; returns how many vertices moved, asserting where each went. */
function checkTurn(scene: THREE.Object3D, pivot: THREE.Object3D, label: string): number {
  const before = worldVertices(scene);
  const extent = extentOf(before);
  const turn = new THREE.Matrix4().copy(pivot.matrixWorld)
    .multiply(new THREE.Matrix4().makeRotationX(TURN))
    .multiply(pivot.matrixWorld.clone().invert());
  const rest = pivot.quaternion.clone();
  pivot.rotateX(TURN);
  const after = worldVertices(scene);
  pivot.quaternion.copy(rest);
  const subtree = new Set<THREE.Object3D>();
  pivot.traverse((o: THREE.Object3D) => void subtree.add(o));
  let moved = 0;
  let worst = 0;
  for (const [mesh, old] of before) {
    const now = after.get(mesh)!;
    for (let i = 0; i < old.length / 3; i++) {
      const share = influence(mesh, i, subtree);
      if (share > 1e-6 && share < 1 - 1e-6) continue; // blended between bones: no single ideal
      const p = new THREE.Vector3(...old.subarray(i * 3, i * 3 + 3));
      const ideal = share > 0.5 ? p.clone().applyMatrix4(turn) : p;
      const error = ideal.distanceTo(new THREE.Vector3(...now.subarray(i * 3, i * 3 + 3)));
      worst = Math.max(worst, error);
      if (share > 0.5) moved++;
    }
  }
  assert(worst <= 1e-5 * extent, `${label}: a vertex is ${worst} off its ideal place (extent ${extent})`);
  return moved;
}

function caseTest(name: string, fn: (run: CaseRun, loaded: Loaded) => void | Promise<void>) {
  for (const c of GRAPH_CASES) {
    const missing = missingCorpus(c);
    Deno.test({
      name: `three.js ${c.label}: ${name}${missing ? ` (skipped: corpus file ${missing} absent)` : ""}`,
      ignore: missing !== undefined,
      async fn() {
        const run = await cached(c);
        await fn(run, await load(run.glb!));
      },
    });
  }
}

const runs = new Map<string, Promise<CaseRun>>();
const cached = (c: (typeof GRAPH_CASES)[number]) => {
  if (!runs.has(c.label)) runs.set(c.label, runCase(c));
  return runs.get(c.label)!;
};

caseTest("loads, and every node keeps the name the file gives it", (_run, { json, objects }) => {
  const names: string[] = (json.nodes ?? []).map((n: { name?: string }) => n.name ?? "");
  const named = names.filter((n) => n !== "");
  assertEquals(new Set(named).size, named.length, "node names in the file are unique");
  names.forEach((name, index) => {
    const object = objects.get(index);
    if (!object || !name) return;
    assertEquals(object.name, THREE.PropertyBinding.sanitizeNodeName(name), `node ${index}`);
  });
});

caseTest("morph dictionaries carry the frame names, and clips move vertices", (_run, { gltf, json }) => {
  const morphed: THREE.Mesh[] = [];
  gltf.scene.traverse((o: THREE.Object3D) => {
    if ((o as THREE.Mesh).isMesh && (o as THREE.Mesh).morphTargetDictionary) morphed.push(o as THREE.Mesh);
  });
  for (const mesh of morphed) {
    const keys = Object.keys(mesh.morphTargetDictionary!);
    assert(keys.every((k) => k !== ""), `morph names of ${mesh.name}: ${keys.slice(0, 5)}`);
  }
  const weightClips = gltf.animations.filter((clip: THREE.AnimationClip) =>
    clip.tracks.some((t: THREE.KeyframeTrack) => t.name.endsWith("morphTargetInfluences"))
  );
  if (
    json.animations?.some((a: { channels: { target: { path: string } }[] }) =>
      a.channels.some((c) => c.target.path === "weights")
    )
  ) {
    assert(weightClips.length > 0, "the weight animations became three.js clips");
  }
  for (const clip of weightClips) {
    const mixer = new THREE.AnimationMixer(gltf.scene);
    mixer.clipAction(clip).play();
    const mesh = morphed[0];
    const frames = Object.keys(mesh.morphTargetDictionary!).filter((k) => k.startsWith(`${clip.name}[`));
    assert(frames.length > 0, `targets named after clip ${clip.name}`);
    const times = (clip.tracks[0] as THREE.NumberKeyframeTrack).times;
    mixer.setTime(0);
    const first = worldVertices(gltf.scene).get(mesh)!;
    mixer.setTime(times[times.length - 1] - 1e-6);
    const last = worldVertices(gltf.scene).get(mesh)!;
    const lastFrame = mesh.morphTargetDictionary![`${clip.name}[${frames.length - 1}]`];
    assert(
      Math.abs(mesh.morphTargetInfluences![lastFrame] - 1) < 1e-3,
      `${clip.name}: last frame weighted 1`,
    );
    const moved = first.some((v, i) => Math.abs(v - last[i]) > 1e-6);
    assert(moved, `clip ${clip.name} moves the mesh`);
    mixer.stopAllAction();
  }
});

caseTest(
  "ctrl_type parts are in userData, and a 20° turn about local X moves exactly their panel",
  (_run, loaded) => {
    const { json, objects, gltf } = loaded;
    // deno-lint-ignore no-explicit-any
    (json.nodes ?? []).forEach((node: any, index: number) => {
      if (!node.extras?.ctrl_type) return;
      const object = objects.get(index);
      assert(object, `part ${node.name} is in the three.js scene`);
      assertEquals(object.userData.ctrl_type, node.extras.ctrl_type);
      for (const key of ["min", "max"]) {
        assertEquals(object.userData[key], node.extras[key], `${node.name} ${key}`);
      }
      if (node.extras.ctrl_type !== "rotation") {
        return;
      }
      const moved = checkTurn(gltf.scene, object, node.name);
      const hasGeometry = (() => {
        let found = false;
        object.traverse((o: THREE.Object3D) =>
          void (found ||= (o as THREE.Mesh).isMesh || (o as THREE.Bone).isBone)
        );
        return found;
      })();
      if (hasGeometry) assert(moved > 0, `turning ${node.name} moves its panel`);
    });
  },
);

caseTest("one LOD and no wireframe are drawn", (_run, { gltf, json }) => {
  const drawnNames: string[] = [];
  gltf.scene.traverse((o: THREE.Object3D) => {
    assert(!(o as THREE.Line).isLine, `line object ${o.name} drawn`);
    drawnNames.push(o.name);
  });
  const lodOrWire = drawnNames.filter((n) => /\$lod\d+|vmeshwire/.test(n));
  assertEquals(lodOrWire, []);
  // The LODs are still in the file (Freelancer: kept on no node).
  // deno-lint-ignore no-explicit-any
  const kept = (json.nodes ?? []).flatMap((n: any) => n.extras?.partgraph?.freelancer?.kept_meshes ?? []);
  const meshNames = new Set((json.meshes ?? []).map((m: { name?: string }) => m.name));
  for (const name of kept) assert(meshNames.has(name), `kept mesh ${name} is in the file`);
});

Deno.test("a messy glTF's repaired output loads in three.js with its UVs, skin weights and one clip", async () => {
  const messy = await messyGlb((json, bin) => {
    renameWingAttribute(json, "TEXCOORD_0", "TEXCOORD0");
    editAccessor(json, bin, wingAttribute(json, "WEIGHTS_0"), (weights) => weights[0] = 0.4);
    editAccessor(json, bin, json.animations[0].samplers[0].input, (times) => times[2] = 1);
  });
  const { glb } = await runCase({
    label: "messy",
    graph: "gltf.json",
    model: { name: "messy.glb", bytes: () => messy },
  });
  const { gltf } = await load(glb!);
  let wing: THREE.SkinnedMesh | undefined;
  gltf.scene.traverse((o: THREE.Object3D) => void (o.name === "Wing" && (wing = o as THREE.SkinnedMesh)));
  assert(wing?.isSkinnedMesh, "the wing is a skinned mesh");
  const geometry = wing!.geometry;
  // The UV set three.js reads as `uv` (under its misspelt name it was an unknown `texcoord0`).
  const uv = geometry.getAttribute("uv");
  assertEquals(Array.from({ length: uv.count }, (_, i) => [uv.getX(i), uv.getY(i)]), [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ]);
  const weights = geometry.getAttribute("skinWeight");
  assert(Math.abs(weights.getX(0) + weights.getY(0) - 1) < 1e-6, "the first vertex's weights sum to 1");
  assertEquals(gltf.animations.map((clip) => clip.tracks[0].times.length), [2]);
});

Deno.test("a specular-glossiness material without a metal-rough fallback loads in three.js textured and dielectric", async () => {
  // Older Sketchfab downloads: the extension alone, required; three.js (since r147) no longer reads it.
  const glossMap = encode({
    width: 2,
    height: 2,
    data: new Uint8Array([9, 9, 9, 0, ...new Array(12).fill(255)]),
  });
  const messy = await messyGlb((json) => {
    json.extensionsUsed = json.extensionsRequired = ["KHR_materials_pbrSpecularGlossiness"];
    const image = json.images.push({ bufferView: embeddedView(json, glossMap), mimeType: "image/png" }) - 1;
    const glossTexture = json.textures.push({ source: image }) - 1;
    json.materials[0] = {
      name: "painted",
      extensions: {
        KHR_materials_pbrSpecularGlossiness: {
          diffuseFactor: [1, 0.5, 0.5, 1],
          diffuseTexture: { index: 0 },
          glossinessFactor: 0.8,
          specularGlossinessTexture: { index: glossTexture },
        },
      },
    };
  });
  const { glb } = await runCase({
    label: "spec-gloss",
    graph: "gltf.json",
    model: { name: "sg.glb", bytes: () => messy },
  });
  const { gltf, json } = await load(glb!);
  let wing: THREE.Mesh | undefined;
  gltf.scene.traverse((o: THREE.Object3D) => void (o.name === "Wing" && (wing = o as THREE.Mesh)));
  const material = wing!.material as THREE.MeshStandardMaterial;
  // Before: white, metalness 1, roughness 1, no map — grey metal. Gloss: 0.8 × the map's mean alpha 0.75.
  assertEquals(
    [material.color.toArray(), material.metalness, material.roughness, material.map !== null],
    [[1, 0.5, 0.5], 0, 0.4, true],
  );
  assertEquals(json.extensionsRequired, undefined);
  assert(
    json.materials[0].extensions.KHR_materials_pbrSpecularGlossiness,
    "the extension is kept for viewers that read it",
  );
});

Deno.test("a clip an old exporter started at -1 s plays in three.js from 0 with its length kept", async () => {
  const messy = await messyGlb((json, bin) =>
    editAccessor(json, bin, json.animations[0].samplers[0].input, (times) => times[0] = -1)
  );
  const { glb } = await runCase({
    label: "negative",
    graph: "gltf.json",
    model: { name: "n.glb", bytes: () => messy },
  });
  const { gltf } = await load(glb!);
  const [clip] = gltf.animations;
  // Keys at -1, 1, 2 s: slid by 1 s, so the clip runs 3 s and its first key is its start.
  assertEquals([clip.duration, Array.from(clip.tracks[0].times)], [3, [0, 2, 3]]);
});
