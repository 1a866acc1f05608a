/**
 * Carnivores and Freelancer outputs through Blender 3.4 (import, export) and back through partgraph's
 * own `decode.gltf` (`graphs/gltf.json`): skins, clips, morph targets and materials survive; the clips
 * play as before when exported with Animation → Always Sample Animations off, and are baked onto
 * Blender's 24 fps frames (their last partial frame cut) with it on, the default. One Blender process;
 * skipped with a message when Blender is absent.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import * as THREE from "three";
import { runGraph } from "../../mod.ts";
import type { BytesValue } from "../../runtime/node.ts";
import { GRAPH_CASES, graphPath, missingCorpus, runCase } from "../support/graph_runs.ts";
import { CLIENT_CASES, runClientCase } from "../support/new_outputs.ts";
import { load } from "../support/threejs_client.ts";
import { tempDir } from "../support/temp.ts";
import { type BlenderResult, throughBlender } from "./blender.ts";
import { glbJson } from "./roundtrip.ts";

/** Blender's scene frame rate, onto which its default export bakes clips. */
const FPS = 24;

interface Output {
  readonly label: string;
  readonly glb: Uint8Array;
}

let trip: Promise<{ outputs: Output[]; blender: BlenderResult }> | undefined;

/** The outputs, each through Blender with the default export, and with extras on and sampling off. */
function roundTrip() {
  trip ??= (async () => {
    const outputs: Output[] = [];
    for (const c of GRAPH_CASES.filter((c) => /^(carnivores|freelancer)\.json/.test(c.label))) {
      if (missingCorpus(c)) continue;
      outputs.push({ label: c.label, glb: (await runCase(c)).glb! });
    }
    for (const c of CLIENT_CASES.filter((c) => /\.(rsc|vtl|sph)\b/.test(c.label))) {
      outputs.push({ label: c.label, glb: (await runClientCase(c)).glb });
    }
    const jobs = outputs.flatMap((
      o,
    ) => [{ glb: o.glb, extras: false }, { glb: o.glb, extras: true, keys: true }]);
    return { outputs, blender: await throughBlender(jobs) };
  })();
  return trip;
}

/** A GLB through `graphs/gltf.json` (partgraph's decoder and writer). */
async function decoded(glb: Uint8Array): Promise<Uint8Array> {
  const dir = await tempDir();
  try {
    await Deno.writeFile(join(dir, "in.glb"), glb);
    const run = await runGraph(graphPath("gltf.json"), {
      inputs: { model: join(dir, "in.glb") },
      outDir: join(dir, "out"),
      cacheDir: false,
    });
    return (run.outputs.glb as BytesValue).bytes;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * What must survive, of what nodes draw (Blender imports no mesh that no node uses): skins' joint
 * counts, clip names, morph target counts, materials.
 */
function summary(glb: Uint8Array) {
  const json = glbJson(glb);
  type Primitive = { targets?: unknown[]; material?: number };
  const meshes: { primitives: Primitive[] }[] = json.meshes ?? [];
  const drawn = [...new Set((json.nodes ?? []).map((n: { mesh?: number }) => n.mesh))]
    .filter((m) => m !== undefined).map((m) => meshes[m as number]);
  const primitives = drawn.flatMap((m) => m.primitives);
  // deno-lint-ignore no-explicit-any
  const materials: any[] = [...new Set(primitives.map((p) => p.material))].filter((m) => m !== undefined)
    .map((m) => json.materials[m!]);
  return {
    skins: (json.skins ?? []).map((s: { joints: number[] }) => s.joints.length).sort(),
    clips: (json.animations ?? []).map((a: { name: string }) => a.name).sort(),
    morphTargets: primitives.map((p) => p.targets?.length ?? 0).sort(),
    // Blender renames a repeated material name (`opaque` → `opaque.001`).
    materials: materials.map((m) =>
      `${String(m.name).replace(/\.\d{3}$/, "")} ${m.alphaMode ?? "OPAQUE"}` +
      (m.pbrMetallicRoughness?.baseColorTexture ? " textured" : "")
    ).sort(),
  };
}

/** Each clip's bones' world positions and morph weights at nine times through it, and its duration. */
async function clipPoses(glb: Uint8Array): Promise<Map<string, { duration: number; rows: number[][] }>> {
  const { scene, animations } = await load(glb);
  const out = new Map<string, { duration: number; rows: number[][] }>();
  const objects: THREE.Object3D[] = [];
  scene.traverse((o) => objects.push(o));
  const bones = objects.filter((o) => (o as THREE.Bone).isBone).sort((a, b) => a.name.localeCompare(b.name));
  const morphed = objects.filter((o) => (o as THREE.Mesh).morphTargetInfluences) as THREE.Mesh[];
  const key = (m: THREE.Mesh) => Object.keys(m.morphTargetDictionary ?? {}).join();
  morphed.sort((a, b) => key(a).localeCompare(key(b)));
  for (const clip of animations) {
    const mixer = new THREE.AnimationMixer(scene);
    mixer.clipAction(clip).play();
    const rows: number[][] = [];
    for (let k = 0; k <= 8; k++) {
      mixer.setTime(clip.duration * k / 8 - 1e-6 * (k === 8 ? 1 : 0));
      scene.updateMatrixWorld(true);
      rows.push([
        ...bones.flatMap((b) => [...b.matrixWorld.elements.slice(12, 15)]),
        ...morphed.flatMap((m) => [...m.morphTargetInfluences!]),
      ]);
    }
    mixer.stopAllAction();
    out.set(clip.name, { duration: clip.duration, rows });
  }
  return out;
}

/** Largest difference between two clips' sampled poses (Infinity when their shapes differ). */
function worstPose(a: number[][], b: number[][]): number {
  if (a.length !== b.length || a[0].length !== b[0].length) return Infinity;
  return Math.max(0, ...a.flatMap((row, k) => row.map((v, i) => Math.abs(v - b[k][i]))));
}

Deno.test("Blender round trip of Carnivores and Freelancer outputs, read by decode.gltf: what survives", async (t) => {
  const { outputs, blender } = await roundTrip();
  if ("skip" in blender) {
    console.warn(`skipped: ${blender.skip}`);
    return;
  }
  assert(outputs.length >= 6, `${outputs.length} outputs`);
  for (const [i, output] of outputs.entries()) {
    await t.step(output.label, async () => {
      const [byDefault, keyed] = [blender.outputs[2 * i], blender.outputs[2 * i + 1]];
      assert(!("error" in byDefault) && !("error" in keyed), JSON.stringify([byDefault, keyed]));
      const [plain, kept] = [await decoded(byDefault.glb), await decoded(keyed.glb)];
      const before = summary(output.glb);
      assertEquals(summary(plain), before);
      assertEquals(summary(kept), before);
      const source = await clipPoses(output.glb);
      const [sampled, exact] = [await clipPoses(plain), await clipPoses(kept)];
      for (const [name, clip] of source) {
        // Always Sample Animations off: the clip's own keys, the same poses.
        assert(
          worstPose(clip.rows, exact.get(name)!.rows) < 1e-5,
          `${name}: ${worstPose(clip.rows, exact.get(name)!.rows)}`,
        );
        // On (Blender's default): baked on whole frames at 24 fps, the last partial frame cut.
        const baked = sampled.get(name)!.duration;
        assert(
          baked <= clip.duration + 1e-6 && clip.duration - baked < 1 / FPS,
          `${name}: ${clip.duration} → ${baked}`,
        );
        assert(
          Math.abs(baked * FPS - Math.round(baked * FPS)) < 1e-3,
          `${name}: ${baked} s is no whole frame`,
        );
      }
    });
  }
});

Deno.test("Blender round trip of a Freelancer compound: LOD and wireframe meshes no node draws are dropped, extras need Custom Properties", async () => {
  const { outputs, blender } = await roundTrip();
  if ("skip" in blender) return console.warn(`skipped: ${blender.skip}`);
  const index = outputs.findIndex((o) => o.label === "freelancer.json ship.cmp");
  const [byDefault, kept] = [blender.outputs[2 * index], blender.outputs[2 * index + 1]];
  assert(!("error" in byDefault) && !("error" in kept));
  type Json = { nodes: JsonNode[]; meshes: { name: string }[] };
  type JsonNode = { mesh?: number; extras?: Record<string, unknown> };
  const source: Json = glbJson(outputs[index].glb);
  const drawn = new Set(source.nodes.filter((n) => n.mesh !== undefined).map((n) => n.mesh));
  const names = (json: Json) => json.meshes.map((m) => m.name).sort();
  assert(
    source.meshes.length > drawn.size,
    "the compound carries meshes no node draws (a LOD, the wireframe)",
  );
  assertEquals(
    names(glbJson(kept.glb)),
    source.meshes.filter((_, i) => drawn.has(i)).map((m) => m.name).sort(),
  );
  // LancerEdit's hardpoint and construct extras: kept only with Include → Custom Properties on.
  const tagged = (json: Json) => json.nodes.filter((n) => n.extras?.hardpoint || n.extras?.construct).length;
  assert(tagged(source) >= 4, `${tagged(source)} hardpoints and constructs`);
  assertEquals(tagged(glbJson(kept.glb)), tagged(source));
  assertEquals(tagged(glbJson(byDefault.glb)), 0);
});
