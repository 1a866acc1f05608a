/**
 * A mesh or material `export.gltf` renamed keeps its original where three.js's `GLTFLoader` leaves it
 * reachable. three.js merges a one-primitive mesh's extras into its node's object and then sets
 * `userData.name` to the node's name, so a mesh's `extras.name` is lost there; export.gltf writes the
 * original of a renamed mesh as `extras.mesh_name` too, a key three.js does not overwrite. Materials keep
 * theirs in `material.userData.name`. Measured on generated kit-bash/CAD scenes (`renamed_meshes.ts`).
 *
 * @module
 */
import { deepStrictEqual as equal, ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import type * as THREE from "three";
import { decodeGltf } from "../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { runNode } from "../support/context.ts";
import { load, materials } from "../support/threejs_client.ts";
import { renamedMeshesScene } from "./renamed_meshes.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** Counts of renamed meshes and materials, and of those whose original three.js leaves nowhere. */
export interface Lost {
  meshes: number;
  meshesLost: number;
  materials: number;
  materialsLost: number;
  /** Cameras and lights. */
  others: number;
  othersLost: number;
}

/** What three.js keeps of the originals of renamed meshes and materials in `glb`. */
export async function renamedOriginals(glb: Uint8Array): Promise<Lost & { lost: string[] }> {
  const loaded = await load(glb);
  const json = loaded.parser.json as Json;
  const counts = {
    meshes: 0,
    meshesLost: 0,
    materials: 0,
    materialsLost: 0,
    others: 0,
    othersLost: 0,
    lost: [] as string[],
  };
  const byMesh = new Map<number, THREE.Object3D[]>();
  loaded.scene.traverse((o) => {
    const index = loaded.parser.associations.get(o)?.meshes;
    if (index !== undefined) byMesh.set(index, [...byMesh.get(index) ?? [], o]);
  });
  const drawn = new Set((json.nodes ?? []).map((n: Json) => n.mesh));
  (json.meshes ?? []).forEach((def: Json, i: number) => {
    const original = def.extras?.name;
    if (typeof original !== "string" || !drawn.has(i)) return;
    counts.meshes++;
    // Every object three.js made of the mesh must lead to it (the mesh object, or a group's children).
    const objects = byMesh.get(i) ?? [];
    const reaches = (o: THREE.Object3D) =>
      o.userData.name === original || o.userData.mesh_name === original ||
      o.children.some((c) => c.userData.name === original || c.userData.mesh_name === original);
    if (objects.length === 0 || !objects.every(reaches)) {
      counts.meshesLost++;
      counts.lost.push(`mesh '${def.name}' (was '${original}')`);
    }
  });
  // A camera or light three.js makes the node's own object when it is all the node holds.
  const attached = (kind: "cameras" | "lights", defs: Json[] | undefined, index: (node: Json) => unknown) => {
    (defs ?? []).forEach((def: Json, i: number) => {
      const original = def.extras?.name;
      if (typeof original !== "string") return;
      counts.others++;
      const key = `${kind.slice(0, -1)}_name`;
      const holders = (json.nodes ?? []).map((n: Json, n_: number) => [n, n_]).filter(([n]: Json) =>
        index(n) === i
      );
      const objects = holders.map(([, n]: Json) => objectOf(n));
      const reaches = (o: THREE.Object3D | undefined) =>
        o !== undefined &&
        [o, ...o.children].some((c) => c.userData.name === original || c.userData[key] === original);
      if (objects.length === 0 || !objects.every(reaches)) {
        counts.othersLost++;
        counts.lost.push(`${kind.slice(0, -1)} '${def.name}' (was '${original}')`);
      }
    });
  };
  const byNode = new Map<number, THREE.Object3D>();
  loaded.scene.traverse((o) => {
    const index = loaded.parser.associations.get(o)?.nodes;
    if (index !== undefined && !byNode.has(index)) byNode.set(index, o);
  });
  const objectOf = (n: number) => byNode.get(n);
  attached("cameras", json.cameras, (n) => n.camera);
  attached(
    "lights",
    json.extensions?.KHR_lights_punctual?.lights,
    (n) => n.extensions?.KHR_lights_punctual?.light,
  );
  const loadedMaterials = materials(loaded.scene);
  (json.materials ?? []).forEach((def: Json, i: number) => {
    const original = def.extras?.name;
    if (typeof original !== "string") return;
    const material = loadedMaterials.find((m) => loaded.parser.associations.get(m)?.materials === i);
    if (!material) return;
    counts.materials++;
    if (material.userData.name !== original) {
      counts.materialsLost++;
      counts.lost.push(`material '${def.name}' (was '${original}')`);
    }
  });
  return counts;
}

/** Sums {@link renamedOriginals} over seeds `from`..`to`. */
async function sweep(from: number, to: number) {
  const total = {
    meshes: 0,
    meshesLost: 0,
    materials: 0,
    materialsLost: 0,
    others: 0,
    othersLost: 0,
    lost: [] as string[],
  };
  for (let seed = from; seed <= to; seed++) {
    const glb = (await runNode(exportGltf, { scene: renamedMeshesScene(seed) })).bytes.bytes;
    const one = await renamedOriginals(glb);
    total.meshes += one.meshes;
    total.meshesLost += one.meshesLost;
    total.materials += one.materials;
    total.materialsLost += one.materialsLost;
    total.others += one.others;
    total.othersLost += one.othersLost;
    total.lost.push(...one.lost.map((l) => `seed ${seed}: ${l}`));
  }
  return total;
}

Deno.test("three.js reaches every renamed mesh's and material's original (held-out seeds 101-130)", async () => {
  const total = await sweep(101, 130);
  console.log(
    `renamed meshes ${total.meshes}, lost ${total.meshesLost}; materials ${total.materials}, lost ${total.materialsLost}; cameras and lights ${total.others}, lost ${total.othersLost}`,
  );
  assert(total.meshes > 20 && total.materials > 10, "the scenes rename meshes and materials");
  equal(total.lost, []);
});

/** Names and extras of a scene's meshes, cameras and lights. */
function namesOf(doc: Document) {
  const root = doc.getRoot();
  const lights = root.listExtensionsUsed().find((e) => e.extensionName === "KHR_lights_punctual");
  return [...root.listMeshes(), ...root.listCameras(), ...lights?.listProperties() ?? []]
    .map((p) => [p.getName(), p.getExtras()]);
}

Deno.test("decode.gltf gives renamed meshes, cameras and lights their names back and drops extras.mesh_name… with extras.name", async () => {
  const scene = renamedMeshesScene(7);
  const before = namesOf(scene);
  const glb = (await runNode(exportGltf, { scene })).bytes.bytes;
  const json = JSON.parse(
    new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer).getUint32(12, true))),
  );
  assert(json.meshes.some((m: Json) => m.extras?.mesh_name), "seed 7 renames a mesh");
  assert(json.cameras.some((c: Json) => c.extras?.camera_name), "seed 7 renames a camera");
  const back: Document = (await runNode(decodeGltf, {
    bytes: { bytes: glb, name: "model.glb" },
  })).scene;
  equal(namesOf(back), before);
});
