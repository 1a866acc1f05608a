/**
 * Names through Blender 3.4 (import, then export with the default settings): a scene of repeated
 * material, mesh, image and clip names (two kits merged, each with its `Paint`, `Cube`, `texture`,
 * `Action`) written by `export.gltf`, imported and exported by Blender, and decoded by `decode.gltf`
 * keeps every name as partgraph wrote it — Blender would rename a repeat `Paint.001` on import — and
 * a second trip changes nothing more. Long names (Blender keeps 63 bytes) and lights likewise. Skipped
 * with a message when Blender is absent. Every test's first trip goes through one Blender process
 * ({@link firstTrips}: Blender takes two CPU-seconds to start, six starts made this file the suite's
 * longest); only the second trip, which needs the first one's output, starts another.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeGltf } from "../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { runNode } from "../support/context.ts";
import { repeatedNamesScene } from "../nodes/export/repeated_names.ts";
import {
  keyedSkinScene,
  longNamesScene,
  MORPH_NAMES,
  morphNamesScene,
  rootSkinScene,
} from "../nodes/export/long_names.ts";
import { GRAPH_CASES, missingCorpus, runCase } from "../support/graph_runs.ts";
import { type BlenderJob, type BlenderResult, throughBlender } from "./blender.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** The JSON chunk of a GLB. */
function glbJson(glb: Uint8Array): Json {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

/** The names Blender keeps of a scene: materials, meshes, images and clips (cameras it does not export). */
function names(doc: Document) {
  const root = doc.getRoot();
  const sorted = (list: { getName(): string }[]) => list.map((p) => p.getName()).sort();
  return {
    materials: sorted(root.listMaterials()),
    meshes: sorted(root.listMeshes()),
    images: sorted(root.listTextures()),
    animations: sorted(root.listAnimations()),
  };
}

async function decoded(glb: Uint8Array): Promise<Document> {
  return (await runNode(decodeGltf, { bytes: { bytes: glb, name: "blender.glb" } })).scene;
}

/** The files each test sends on its first trip, built once; keyed by test. */
async function firstJobs() {
  const repeated = (await runNode(exportGltf, { scene: await repeatedNamesScene(2) })).bytes.bytes;
  const long = (await runNode(exportGltf, { scene: longNamesScene(2) })).bytes.bytes;
  const morphs = (await runNode(exportGltf, { scene: morphNamesScene() })).bytes.bytes;
  const figures = [{
    label: "generated",
    glb: (await runNode(exportGltf, { scene: rootSkinScene() })).bytes.bytes,
  }];
  const dson = GRAPH_CASES.find((c) => c.label.startsWith("dson.json"));
  if (dson && !missingCorpus(dson)) figures.push({ label: dson.label, glb: (await runCase(dson)).glb! });
  else console.warn("DSON corpus file absent: the generated figure only");
  const limb = (await runNode(exportGltf, { scene: keyedSkinScene() })).bytes.bytes;
  const jobs: Record<string, BlenderJob[]> = {
    repeated: [{ glb: repeated, extras: false }, { glb: repeated, extras: true }],
    long: [{ glb: long, extras: false, lights: true }],
    morphs: [{ glb: morphs, extras: false }],
    figures: figures.map(({ glb }) => ({ glb, extras: false })),
    limb: [{ glb: limb, extras: true }],
  };
  return { repeated, long, morphs, figures, limb, jobs };
}

type FirstJobs = Awaited<ReturnType<typeof firstJobs>>;
let shared: Promise<{ built: FirstJobs; trips: Record<string, BlenderResult> }> | undefined;

/**
 * The first trip of every test in this file, through one Blender process (started by the first test to
 * ask); each test gets its own jobs' outputs, in its order, or the skip reason.
 */
function firstTrips() {
  shared ??= (async () => {
    const built = await firstJobs();
    const keys = Object.keys(built.jobs);
    const all = await throughBlender(keys.flatMap((key) => built.jobs[key]));
    const trips: Record<string, BlenderResult> = {};
    let at = 0;
    for (const key of keys) {
      const count = built.jobs[key].length;
      trips[key] = "skip" in all ? all : { outputs: all.outputs.slice(at, at + count) };
      at += count;
    }
    return { built, trips };
  })();
  return shared;
}

Deno.test("Blender keeps repeated names as export.gltf writes them, and a second trip changes nothing", async () => {
  const first = (await firstTrips()).trips.repeated;
  if ("skip" in first) return console.warn(`skipped: ${first.skip}`);
  const [out, withExtras] = first.outputs;
  if ("error" in out) throw new Error(out.error);
  if ("error" in withExtras) throw new Error(withExtras.error);
  const expected = {
    materials: ["Glass", "Paint", "Paint_1"],
    meshes: ["Canopy0", "Canopy1", "Cube", "Cube_1"],
    images: ["texture", "texture_1"],
    animations: ["Action", "Action_1"],
  };
  // Without custom properties Blender drops extras.name: the unique names are what comes back.
  const back = await decoded(out.glb);
  assertEquals(names(back), expected);
  // With them, extras.name brings the originals back into the scene, and writing makes them unique
  // again, to the same names.
  const kept = await decoded(withExtras.glb);
  assertEquals(names(kept).materials, ["Glass", "Paint", "Paint"]);
  const rewritten = (await runNode(exportGltf, { scene: kept })).bytes.bytes;
  const length = new DataView(rewritten.buffer, rewritten.byteOffset).getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(rewritten.subarray(20, 20 + length)));
  assertEquals(json.materials.map((m: { name: string }) => m.name).sort(), expected.materials);
  const again = (await runNode(exportGltf, { scene: back })).bytes.bytes;
  const second = await throughBlender([{ glb: again, extras: false }]);
  if ("skip" in second) return;
  const out2 = second.outputs[0];
  if ("error" in out2) throw new Error(out2.error);
  assertEquals(names(await decoded(out2.glb)), expected);
});

Deno.test("Blender keeps long names as export.gltf writes them (63 bytes, Cyrillic and Japanese uncut mid-character), and lights of one name", async () => {
  const { built, trips } = await firstTrips();
  const json = glbJson(built.long);
  const first = trips.long;
  if ("skip" in first) return console.warn(`skipped: ${first.skip}`);
  const out = first.outputs[0];
  if ("error" in out) throw new Error(out.error);
  const back = glbJson(out.glb);
  const sorted = (list: { name: string }[] | undefined) => (list ?? []).map((p) => p.name).sort();
  for (const kind of ["materials", "meshes"]) {
    assertEquals(sorted(back[kind]), sorted(json[kind]), kind);
  }
  // Blender writes a light's data name; the objects holding them and the meshes keep the node names.
  const lights = (doc: Json) => sorted(doc.extensions?.KHR_lights_punctual?.lights);
  assertEquals(lights(back), lights(json));
  const meshNodes = (doc: Json) => sorted(doc.nodes.filter((n: Json) => n.mesh !== undefined));
  assertEquals(meshNodes(back), meshNodes(json));
  assert(sorted(json.materials).some((name) => /[Ж-я]/.test(name)), "Cyrillic names are among them");
});

Deno.test("Blender imports long and repeated morph target names as export.gltf writes them, each shape key with its own offsets", async () => {
  const { built, trips } = await firstTrips();
  const written = built.morphs;
  const first = trips.morphs;
  if ("skip" in first) return console.warn(`skipped: ${first.skip}`);
  const out = first.outputs[0];
  if ("error" in out) throw new Error(out.error);
  const mesh = glbJson(out.glb).meshes[0];
  assertEquals(mesh.extras.targetNames, glbJson(written).meshes[0].extras.targetNames);
  // Each target keeps its own offsets (a repeat's went into the first key of its name).
  const back = await decoded(out.glb);
  const targets = back.getRoot().listMeshes()[0].listPrimitives()[0].listTargets();
  const moved = targets.map((target) => {
    const array = target.getAttribute("POSITION")!.getArray()!;
    return Math.round(Math.max(...Array.from(array, Math.abs)) * 10) / 10;
  });
  assertEquals(moved, MORPH_NAMES.map((_, i) => Math.round(i + 1) / 10));
});

Deno.test("Blender keeps the mesh node of a figure whose root bone is at the scene root (generated, and the DSON geograft)", async () => {
  const { built, trips } = await firstTrips();
  const scenes = built.figures;
  const trip = trips.figures;
  if ("skip" in trip) return console.warn(`skipped: ${trip.skip}`);
  for (const [i, { label, glb }] of scenes.entries()) {
    const out: { glb: Uint8Array; objects: string[] } | { error: string } = trip.outputs[i];
    if ("error" in out) throw new Error(`${label}: ${out.error}`);
    const meshNodes = (json: Json) =>
      json.nodes.filter((n: Json) => n.mesh !== undefined).map((n: Json) => n.name).sort();
    // Blender adds an armature node for a rig at the scene root; the mesh nodes keep their names.
    assertEquals(meshNodes(glbJson(out.glb)), meshNodes(glbJson(glb)), label);
    assert(!out.objects.some((name) => name.endsWith(".001")), `${label}: ${out.objects}`);
  }
});

Deno.test("Blender renames no object of a skinned mesh a clip keys (Carnivores' limb) or of a mesh on a joint", async () => {
  const trip = (await firstTrips()).trips.limb;
  if ("skip" in trip) return console.warn(`skipped: ${trip.skip}`);
  const out = trip.outputs[0];
  if ("error" in out) throw new Error(out.error);
  assert(!out.objects.some((name) => /\.\d{3}$/.test(name)), `${out.objects}`);
  // limb comes in as an empty (knee as a bone), each mesh as an object named as export.gltf wrote it.
  for (const name of ["limb", "limb_1", "knee_1", "Body"]) assert(out.objects.includes(name), name);
  // With custom properties on, the mesh keeps its original name through Blender (extras.name).
  const meshes = glbJson(out.glb).meshes.map((m: Json) => m.extras?.name ?? m.name).sort();
  assertEquals(meshes, ["Body", "knee", "limb"]);
});
