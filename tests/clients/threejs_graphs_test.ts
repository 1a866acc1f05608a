/**
 * Every graph's output (`graphs/` on its fixtures and corpus files) as three.js's `GLTFLoader` and the
 * Khronos validator see it, beyond what `tests/nodes/threejs_load_test.ts` checks of the rig: no
 * validator error or warning, nothing `threeLosses` finds lost (`threejs_census.ts`), every material a
 * drawn mesh uses on a three.js mesh under its name with its extras as `userData`, every clip under its
 * name, every node's extras in its object's `userData`, the scene's in the scene's. Swept on 2026-12-06
 * with the hostile shapes' outputs (`deno task shapes`), the client cases and the odd outputs too: no
 * disagreement in names, materials, clips or extras but three.js's own (a single-primitive mesh's
 * extras merge into its node's object, whose `userData.name` is the node's name; primitives drawing the
 * same accessors share one geometry and the first one's extras, which export.gltf now warns of).
 *
 * @module
 */
import { deepStrictEqual as equal } from "node:assert/strict";
import type * as THREE from "three";
import { khronosValidate } from "../../nodes/export/khronos.ts";
import { GRAPH_CASES, missingCorpus, runCase } from "../support/graph_runs.ts";
import { load, materials } from "../support/threejs_client.ts";
import { threeLosses } from "./threejs_census.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** Loads `json`'s value as JSON would hand it back (as three.js's userData holds it). */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));

/** What three.js and the validator make of `glb` that differs from what it declares, in words. */
async function disagreements(glb: Uint8Array): Promise<string[]> {
  const problems: string[] = [];
  for (const issue of (await khronosValidate(glb, 100)).issues) {
    if (issue.severity <= 1) problems.push(`validator ${issue.code} at ${issue.pointer}`);
  }
  problems.push(...await threeLosses(glb));
  const loaded = await load(glb);
  const json = loaded.parser.json as Json;
  const objects = new Map<number, THREE.Object3D>();
  loaded.scene.traverse((o) => {
    const index = loaded.parser.associations.get(o)?.nodes;
    if (index !== undefined && !objects.has(index)) objects.set(index, o);
  });
  const drawn = new Set((json.nodes ?? []).map((n: Json) => n.mesh).filter((m: unknown) => m !== undefined));
  const loadedMaterials = materials(loaded.scene);
  (json.materials ?? []).forEach((def: Json, i: number) => {
    const used = (json.meshes ?? []).some((mesh: Json, m: number) =>
      drawn.has(m) && mesh.primitives.some((p: Json) => p.material === i)
    );
    if (!used) return;
    const material = loadedMaterials.find((m) => loaded.parser.associations.get(m)?.materials === i);
    if (!material) return problems.push(`material '${def.name}' on no mesh`);
    if (material.name !== (def.name ?? "")) problems.push(`material '${def.name}' named '${material.name}'`);
    if (def.extras) {
      try {
        equal(material.userData, asJson(def.extras));
      } catch {
        problems.push(`material '${def.name}' userData`);
      }
    }
  });
  (json.animations ?? []).forEach((def: Json, i: number) => {
    if (loaded.animations[i]?.name !== def.name) {
      problems.push(`clip '${def.name}' named '${loaded.animations[i]?.name}'`);
    }
  });
  (json.nodes ?? []).forEach((def: Json, i: number) => {
    const object = objects.get(i);
    if (!object) return problems.push(`node '${def.name}' not loaded`);
    for (const [key, value] of Object.entries(def.extras ?? {})) {
      try {
        equal(object.userData[key], asJson(value));
      } catch {
        problems.push(`node '${def.name}' userData.${key}`);
      }
    }
  });
  const scene = json.scenes?.[json.scene ?? 0];
  if (scene?.extras) {
    try {
      equal(loaded.scene.userData, asJson(scene.extras));
    } catch {
      problems.push("scene userData");
    }
  }
  return problems;
}

for (const c of GRAPH_CASES) {
  Deno.test({
    name: `three.js and the validator agree with ${c.label}'s output: names, materials, clips, extras`,
    ignore: missingCorpus(c) !== undefined,
    fn: async () => {
      const { glb } = await runCase(c);
      equal(await disagreements(glb!), []);
    },
  });
}
