/**
 * Newer decoder outputs as clients load them (`tests/support/new_outputs.ts`, each through the graph
 * a user runs): the Khronos validator finds no error, and three.js `GLTFLoader.parse` (npm:three,
 * images stubbed) loads each with the nodes, clips, materials and textures the decoder meant —
 * Carnivores areas in both layouts (a skinned limb, a morph clip, ground textures), a `.3df` with
 * `.vtl` clips of both layouts, a Freelancer planet (six sides, a blended atmosphere), a Flight
 * Simulator normal map and OPAQUE windshield, and an aircraft whose own clip keys its surfaces about
 * their hinges: rigged, it plays that clip as the source does and its pivots turn its panels. Blender
 * loads the same files in `deno task interop`.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import * as THREE from "three";
import { GLTFLoader, type GLTFParser } from "three/examples/jsm/loaders/GLTFLoader.js";
import { decode as decodePng } from "fast-png";
import { readGltf } from "../../runtime/scene/gltf_io.ts";
import { demoFighter } from "../../nodes/demo/fighter.ts";
import { runNode } from "../support/context.ts";
import { gltf1Of } from "../support/gltf1.ts";
import { validateGltf } from "../support/validator.ts";
import {
  CLIENT_CASES,
  type ClientCase,
  type ClientRun,
  KEYED_PANELS,
  MSFS_NORMAL_GREEN,
  runClientCase,
  SPH_SIDES,
} from "../support/new_outputs.ts";

/** Images are not decoded in Deno: every texture becomes an empty one. */
class StubTextures {
  readonly name = "partgraph_stub_textures";
  loadTexture(): Promise<THREE.Texture> {
    return Promise.resolve(new THREE.Texture());
  }
}

interface Loaded {
  readonly scene: THREE.Group;
  readonly animations: THREE.AnimationClip[];
  /** The three.js object of each named glTF node. */
  readonly byName: Map<string, THREE.Object3D>;
  readonly nodeCount: number;
}

async function load(glb: Uint8Array): Promise<Loaded> {
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
  return { scene: gltf.scene, animations: gltf.animations, byName, nodeCount: nodes.length };
}

function meshes(scene: THREE.Object3D): THREE.Mesh[] {
  const out: THREE.Mesh[] = [];
  scene.traverse((o: THREE.Object3D) => void ((o as THREE.Mesh).isMesh && out.push(o as THREE.Mesh)));
  return out;
}

function materials(scene: THREE.Object3D): THREE.MeshStandardMaterial[] {
  return [...new Set(meshes(scene).flatMap((m) => [m.material].flat() as THREE.MeshStandardMaterial[]))];
}

/** World positions of every vertex of every mesh (morphs and skinning applied). */
function worldVertices(scene: THREE.Object3D): Map<THREE.Mesh, Float64Array> {
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

function extentOf(scene: THREE.Object3D): number {
  scene.updateMatrixWorld(true);
  return new THREE.Box3().setFromObject(scene).getSize(new THREE.Vector3()).length();
}

/** The largest distance any vertex of `mesh` moves between the clip's times `a` and `b`. */
function clipMotion(
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
function checkPivotTurns(loaded: Loaded): number {
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

const runs = new Map<string, Promise<ClientRun>>();
const run = (c: ClientCase) => {
  if (!runs.has(c.label)) runs.set(c.label, runClientCase(c));
  return runs.get(c.label)!;
};
/** The demo fighter as binary glTF 1.0 (several meshes per surface node), as `deno task interop` runs it. */
const FIGHTER_GLTF1: ClientCase = {
  label: "aircraft_file.json demo fighter as binary glTF 1.0",
  graph: "aircraft_file.json",
  files: async () => ({
    "fighter1.glb": await gltf1Of((await runNode(demoFighter, {}, {})).scene, {
      binary: true,
      splitMeshes: (name) => /Aileron|flap|rud/i.test(name),
      sharedVertexView: true,
    }),
  }),
  model: "fighter1.glb",
};
const CASES = [...CLIENT_CASES, FIGHTER_GLTF1];
const caseNamed = (prefix: string) => CASES.find((c) => c.label.startsWith(prefix))!;

Deno.test("Khronos validator: every newer output has no error", async () => {
  for (const c of CASES) {
    const report = await validateGltf((await run(c)).glb);
    assertEquals([c.label, report.errors, report.messages], [c.label, 0, []]);
  }
});

for (const version of ["C1", "C2"]) {
  Deno.test(`three.js: a Carnivores area (${version}) loads with its objects, skinned limb, morph clip and textures`, async () => {
    const loaded = await load((await run(caseNamed(`carnivores.json area1.rsc (${version})`))).glb);
    // C2 adds each object's far billboard (decode.rsc v2): a "billboards" group and three quads.
    const billboards = version === "C2" ? ["billboard_00", "billboard_01", "billboard_02"] : [];
    assertEquals(loaded.nodeCount, 12 + (billboards.length ? billboards.length + 1 : 0));
    for (
      const name of ["obj_00", "obj_01", "obj_02", "ground_00", "ground_01", "obj_00_skeleton", ...billboards]
    ) {
      assert(loaded.byName.has(name), `${name} loaded`);
    }
    assert((loaded.byName.get("obj_00") as THREE.SkinnedMesh).isSkinnedMesh, "the limb is skinned");
    assertEquals(loaded.animations.map((a) => a.name), ["obj_02"]);
    const box = loaded.byName.get("obj_02") as THREE.Mesh;
    assertEquals(Object.keys(box.morphTargetDictionary!).length, 3);
    // Frame 1 of 3 at 10 KPS is at 0.15 s: the box's vertices move between it and frame 0.
    assert(clipMotion(loaded, loaded.animations[0], box, 0, 0.15) > 1e-3);
    const all = materials(loaded.scene);
    assertEquals(all.length, 5 + billboards.length);
    // The area's three billboards are one picture (the fixture's default word): one texture after dedup.
    assertEquals(
      new Set(all.map((m) => m.map).filter((t) => t)).size,
      5 + (billboards.length ? 1 : 0),
      "a texture on each material",
    );
    assertEquals(all.filter((m) => !m.map).length, 0, "no material without its texture");
  });
}

Deno.test("three.js: a .3df with .vtl clips loads as a skinned mesh whose two clips move it", async () => {
  const loaded = await load((await run(caseNamed("carnivores.json limb.3df"))).glb);
  assertEquals(loaded.nodeCount, 6);
  const limb = loaded.byName.get("limb") as THREE.SkinnedMesh;
  assert(limb.isSkinnedMesh);
  assertEquals(limb.skeleton.bones.map((b) => b.name), ["hip", "ankle", "knee", "tail"]);
  assertEquals(Object.keys(limb.morphTargetDictionary!), [
    "run[0]",
    "run[1]",
    "run[2]",
    "run[3]",
    "eat[0]",
    "eat[1]",
  ]);
  assertEquals(loaded.animations.map((a) => a.name), ["run", "eat"]);
  for (const clip of loaded.animations) {
    assert(clipMotion(loaded, clip, limb, 0, clip.duration / 2) > 1e-3, clip.name);
  }
  assert(materials(loaded.scene)[0].map, "textured");
});

Deno.test("three.js: a .sph planet loads as seven primitives, the textured +Z side and a transparent atmosphere 1.25 × larger", async () => {
  const loaded = await load((await run(caseNamed("freelancer.json planet.sph"))).glb);
  assertEquals(loaded.nodeCount, 1);
  const parts = meshes(loaded.scene);
  const names = parts.map((m) => (m.material as THREE.Material).name);
  assertEquals(names, [...SPH_SIDES, "planet_atmo"]);
  const byMaterial = new Map(parts.map((m) => [(m.material as THREE.Material).name, m]));
  const atmo = byMaterial.get("planet_atmo")!.material as THREE.Material;
  assert(atmo.transparent && !atmo.depthWrite, "the atmosphere is blended");
  assert(SPH_SIDES.every((s) => !(byMaterial.get(s)!.material as THREE.Material).transparent));
  assert((byMaterial.get("planet_px")!.material as THREE.MeshStandardMaterial).map, "M0 is textured");
  // Distance of the farthest vertex from the planet's centre (the node's origin).
  const radius = (m: THREE.Mesh) => {
    const p = m.geometry.getAttribute("position");
    let most = 0;
    for (let i = 0; i < p.count; i++) most = Math.max(most, Math.hypot(p.getX(i), p.getY(i), p.getZ(i)));
    return most;
  };
  const ratio = radius(byMaterial.get("planet_atmo")!) / radius(byMaterial.get("planet_px")!);
  assert(Math.abs(ratio - 1.25) < 1e-4, `atmosphere ${ratio} × the sides`);
});

Deno.test("three.js: a Flight Simulator aircraft keeps its normal map (green turned to glTF's) and its windshield is blended; pivots turn", async () => {
  const { glb } = await run(caseNamed("aircraft_file.json light aircraft in Flight Simulator's packing"));
  const loaded = await load(glb);
  assertEquals(loaded.nodeCount, 20);
  const byName = new Map(materials(loaded.scene).map((m) => [m.name, m]));
  assertEquals([...byName.keys()].sort(), ["paint", "trim", "windshield"]);
  assert(byName.get("paint")!.normalMap, "paint keeps its normal map");
  const windshield = byName.get("windshield")!;
  assert(windshield.transparent && Math.abs(windshield.opacity - 0.3) < 1e-6, "the windshield is blended");
  assert(!byName.get("paint")!.transparent);
  // The image three.js would draw as the normal map: DirectX's green 200 inverted to 55.
  const doc = await readGltf(glb);
  const png = decodePng(
    doc.getRoot().listMaterials().find((m) => m.getName() === "paint")!.getNormalTexture()!.getImage()!,
  );
  assertEquals(png.data[1], 255 - MSFS_NORMAL_GREEN);
  assertEquals(checkPivotTurns(loaded), 7);
});

Deno.test("three.js: an aircraft keyed about its hinges, rigged, plays its clip as the source does and every pivot turns its panel", async () => {
  const { glb, model, outputs } = await run(caseNamed("aircraft_file.json demo fighter keyed"));
  // The hinges come from the clip (rig.fit_hinge v22), so this is the output that case makes.
  const parts = (outputs.report as { parts: { panel: string; fit?: { rule?: string } }[] }).parts;
  assertEquals(
    KEYED_PANELS.map((name) => [name, parts.find((p) => p.panel === name)?.fit?.rule]),
    KEYED_PANELS.map((name) => [name, "animation"]),
  );
  const [source, rigged] = [await load(model), await load(glb)];
  assertEquals(rigged.animations.map((a) => a.name), ["surfaces"]);
  const extent = extentOf(source.scene);
  const mixers = [source, rigged].map((l) => {
    const mixer = new THREE.AnimationMixer(l.scene);
    mixer.clipAction(l.animations[0]).play();
    return mixer;
  });
  let worst = 0, moved = 0;
  const rest = new Map<string, number[]>();
  for (const t of [0, 0.3, 0.5, 0.8, 1.2, 1.5, 1.9]) {
    for (const mixer of mixers) mixer.setTime(t);
    source.scene.updateMatrixWorld(true);
    rigged.scene.updateMatrixWorld(true);
    for (const name of KEYED_PANELS) {
      const want = source.byName.get(name)!.matrixWorld.elements;
      const got = rigged.byName.get(name)!.matrixWorld.elements;
      worst = Math.max(worst, ...want.map((v, i) => Math.abs(v - got[i])));
      if (!rest.has(name)) rest.set(name, [...want]);
      moved = Math.max(moved, ...want.map((v, i) => Math.abs(v - rest.get(name)![i])));
    }
  }
  assert(moved > 0.1, "the clip turns the panels");
  assert(worst <= 1e-5 * extent, `an animated panel is ${worst} off the source's pose (extent ${extent})`);
  for (const mixer of mixers) mixer.stopAllAction();
  const still = await load(glb);
  assertEquals(checkPivotTurns(still), 23);
});

Deno.test("three.js: the demo fighter as binary glTF 1.0, upgraded and rigged, loads with every pivot turning its panel", async () => {
  const loaded = await load((await run(FIGHTER_GLTF1)).glb);
  // Split surfaces are child meshes of their node: the pivot turns them all.
  assert(meshes(loaded.byName.get("LeftAileron")!).length > 1, "the aileron's meshes are children");
  assertEquals(checkPivotTurns(loaded), 23);
});
