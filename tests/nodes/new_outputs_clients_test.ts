/**
 * Newer decoder outputs as clients load them (`tests/support/new_outputs.ts`, each through the graph
 * a user runs): the Khronos validator finds no error, and three.js `GLTFLoader.parse` (npm:three,
 * images stubbed) loads each with the nodes, clips, materials and textures the decoder meant —
 * Carnivores areas in both layouts (a skinned limb, a morph clip, ground textures), a `.3df` with
 * `.vtl` clips of both layouts, a Freelancer planet (six sides, a blended atmosphere), a Flight
 * Simulator normal map and OPAQUE windshield, and an aircraft whose own clip keys its surfaces about
 * their hinges: rigged, it plays that clip as the source does and its pivots turn its panels. And
 * those of `tests/support/client_cases.ts`: a Flight Simulator clear coat as a physical
 * material's coat, glTF 1.0 blended RGB textures drawn opaque or by the transparency alone with an
 * unused skin kept, a 1.0 colour texture uploaded as LUMINANCE_ALPHA drawn as grey of its red channel, the fighter facing +Z rigged with no frame given (each surface's edge moves the
 * way the report says), helicopters (a fixed stabiliser no pivot, a UH-60's stabilator turning), and
 * a Daz joint corrective at its bent elbow's weight. Blender loads the same files in
 * `deno task interop`.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import * as THREE from "three";
import { decode as decodePng } from "fast-png";
import type { Clearcoat } from "@gltf-transform/extensions";
import { readGltf } from "../../runtime/scene/gltf_io.ts";
import { demoFighter } from "../../nodes/demo/fighter.ts";
import { fighterTruth } from "../../nodes/demo/fighter_truth.ts";
import { JCM, jcmCurve } from "./decode/dson/jcm_figure.ts";
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
import {
  DIRT_PIXELS,
  helicopters,
  JCM_BENDS,
  LUMINANCE_PIXELS,
  MORE_CLIENT_CASES,
} from "../support/client_cases.ts";
import {
  checkPivotTurns,
  checkPositiveSense,
  clipMotion,
  extentOf,
  load,
  materials,
  meshes,
  type SensePart,
  worldVertices,
} from "../support/threejs_client.ts";
import { isSpinningKind } from "../../nodes/rig/spinning_names.ts";

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
const CASES = [...CLIENT_CASES, FIGHTER_GLTF1, ...MORE_CLIENT_CASES];
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

Deno.test("three.js: a Flight Simulator clear coat loads as a physical material coated by its dirt texture", async () => {
  const { glb } = await run(
    caseNamed("aircraft_file.json light aircraft in Flight Simulator's packing, clear"),
  );
  const loaded = await load(glb);
  const byName = new Map(materials(loaded.scene).map((m) => [m.name, m as THREE.MeshPhysicalMaterial]));
  const paint = byName.get("paint")!;
  assert(paint.isMeshPhysicalMaterial, "KHR_materials_clearcoat makes a MeshPhysicalMaterial");
  assertEquals([paint.clearcoat, paint.clearcoatRoughness], [1, 1]);
  assert(paint.clearcoatMap && paint.clearcoatRoughnessMap, "the coat and its roughness are textured");
  assert(!byName.get("trim")!.isMeshPhysicalMaterial, "the trim has no coat");
  // The image those maps draw is the dirt texture as the file gave it (red the coat, green its roughness).
  const coat = (await readGltf(glb)).getRoot().listMaterials().find((m) => m.getName() === "paint")!
    .getExtension<Clearcoat>("KHR_materials_clearcoat")!;
  assertEquals([...decodePng(coat.getClearcoatTexture()!.getImage()!).data], DIRT_PIXELS);
  assertEquals(checkPivotTurns(loaded), 7);
});

Deno.test("three.js: a glTF 1.0 colour texture uploaded as LUMINANCE_ALPHA draws its red channel as grey, blended", async () => {
  const { glb } = await run(caseNamed("gltf.json glTF 1.0 wing, colour texture uploaded as LUMINANCE_ALPHA"));
  const painted = materials((await load(glb)).scene).find((m) => m.name === "painted")!;
  assert(painted.map && painted.transparent, "textured and blended");
  // The image three.js is given: (R, R, R, A) of the 1.0 image, as WebGL 1 uploaded it.
  const png = decodePng(
    (await readGltf(glb)).getRoot().listMaterials()[0].getBaseColorTexture()!.getImage()!,
  );
  const expected = LUMINANCE_PIXELS.map((v, i) => i % 4 === 3 ? v : LUMINANCE_PIXELS[i - (i % 4)]);
  assertEquals([png.channels, [...png.data]], [4, expected]);
});

for (const transparency of [1, 0.5]) {
  Deno.test(
    `three.js: a glTF 1.0 blended RGB texture of transparency ${transparency} draws ${
      transparency === 1 ? "opaque" : "blended by it alone"
    }; its unused skin loads`,
    async () => {
      const { glb } = await run(
        caseNamed(`gltf.json glTF 1.0 wing, blended RGB texture, transparency ${transparency}`),
      );
      const loaded = await load(glb);
      const painted = materials(loaded.scene).find((m) => m.name === "painted")!;
      assert(painted.map, "textured");
      assertEquals([painted.transparent, painted.opacity], [transparency < 1, transparency]);
      // Blended, the image three.js draws has no alpha of its own to blend by.
      const image = (await readGltf(glb)).getRoot().listMaterials()[0].getBaseColorTexture()!.getImage()!;
      if (transparency < 1) assertEquals(decodePng(image).channels, 3);
      // The skin no node uses is in the file, and three.js builds its skeleton from the same joints.
      const skins = loaded.parser.json.skins as { name: string }[];
      assertEquals(skins.map((s) => s.name), ["wing_skin", "spare"]);
      const [used, spare] = await Promise.all([0, 1].map((i) => loaded.parser.getDependency("skin", i)));
      assertEquals(spare.bones.map((b: THREE.Bone) => b.name), used.bones.map((b: THREE.Bone) => b.name));
      assert(spare.bones.length > 0);
    },
  );
}

Deno.test("three.js: the demo fighter facing +Z, rigged with no frame given, turns each surface's edge the way the report says", async () => {
  const { glb, outputs } = await run(caseNamed("aircraft_file.json demo fighter facing +Z"));
  const report = outputs.report as {
    frame: { forward: string; up: string; found_by: string };
    parts: (SensePart & { panel: string | null })[];
  };
  assertEquals([report.frame.forward, report.frame.up, report.frame.found_by], ["+Z", "+Y", "geometry"]);
  const loaded = await load(glb);
  assertEquals(checkPivotTurns(loaded), 23);
  const checked = checkPositiveSense(
    loaded,
    report.parts,
    new THREE.Vector3(0, 0, 1),
    new THREE.Vector3(0, 1, 0),
  );
  // Every true panel but those that open (air brake, drag rudders) moves an edge, and was checked.
  const edged = fighterTruth().panels.filter((p) => !["air_brake", "drag_rudder"].includes(p.kind));
  assertEquals(
    report.parts.filter((p) => checked.includes(p.name)).map((p) => p.panel).sort(),
    edged.map((p) => p.name).sort(),
  );
});

Deno.test("three.js: a Bell 206's fixed stabiliser is no pivot and stays put (its rotors spin); a UH-60's stabilator halves turn trailing edge down", async () => {
  const { bell, uh60 } = helicopters();
  type Part = SensePart & { panel: string; kind: string };
  const fixed = await run(caseNamed("aircraft_file.json Bell 206"));
  const bellParts = (fixed.outputs.report as { parts: Part[] }).parts;
  // Only its rotors are parts (they spin about their shafts); no fixed surface is.
  assertEquals(bellParts.map((p) => p.kind).sort(), ["main_rotor", "tail_rotor"]);
  const [source, rigged] = [await load(fixed.model), await load(fixed.glb)];
  assert(bell.stabiliser.length > 0);
  for (const name of bell.stabiliser) {
    assert(rigged.byName.has(name), `${name} loaded`);
    for (let o: THREE.Object3D | null = rigged.byName.get(name)!; o; o = o.parent) {
      assert(!o.userData.ctrl_type, `${name} is under no pivot (found ${o.name})`);
    }
  }
  // Every part draws where the source draws it (by mesh name: the rotor's blades are gathered under a
  // node of their own, which changes the order meshes are met in).
  const [want, got] = [source, rigged].map((l) =>
    new Map([...worldVertices(l.scene)].map(([mesh, vertices]) => [mesh.name, vertices]))
  );
  const extent = extentOf(source.scene);
  assertEquals([...got.keys()].sort(), [...want.keys()].sort());
  for (const [name, w] of want) {
    assert(w.every((v, i) => Math.abs(v - got.get(name)![i]) <= 1e-6 * extent), `${name} drawn where it was`);
  }
  const turning = await run(caseNamed("aircraft_file.json UH-60"));
  const parts = (turning.outputs.report as { parts: Part[] }).parts;
  const surfaces = parts.filter((p) => !isSpinningKind(p.kind));
  assertEquals(surfaces.map((p) => p.panel), uh60.panels.map((p) => p.name));
  const loaded = await load(turning.glb);
  // Every pivot, rotors' too, turns its subtree rigidly about its own X.
  assertEquals(checkPivotTurns(loaded), parts.length);
  assertEquals(
    checkPositiveSense(loaded, surfaces, new THREE.Vector3(0, 0, -1), new THREE.Vector3(0, 1, 0)),
    surfaces.map((p) => p.name),
  );
});

for (
  const [prefix, bend] of [["dson.json figure whose elbow", JCM_BENDS.decoded], [
    "dson.json figure at rest",
    JCM_BENDS.preset,
  ]] as const
) {
  Deno.test(
    `three.js: a Daz figure's joint corrective is drawn at the weight its elbow bent ${bend}° gives (${
      prefix === "dson.json figure at rest" ? "a pose preset" : "as decoded"
    })`,
    async () => {
      const loaded = await load((await run(caseNamed(prefix))).glb);
      const mesh = meshes(loaded.scene).find((m) => m.morphTargetDictionary?.[JCM] !== undefined);
      assert(mesh && (mesh as THREE.SkinnedMesh).isSkinnedMesh, "a skinned mesh with the corrective");
      const weight = mesh.morphTargetInfluences![mesh.morphTargetDictionary![JCM]];
      assert(Math.abs(weight - jcmCurve(bend)) < 1e-6, `weight ${weight}, the curve ${jcmCurve(bend)}`);
      assert(weight > 0 && weight < 1);
    },
  );
}
