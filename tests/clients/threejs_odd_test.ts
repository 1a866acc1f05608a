/**
 * partgraph's own odd outputs (`odd_outputs.ts`) through three.js's `GLTFLoader`: every named node is
 * an object, every clip's track binds a node, each morphed mesh's dictionary holds every target name
 * once, custom attributes are kept and every camera comes in. three.js took all of them before and
 * after export.gltf v22's renames (the NUL written `_`, cameras and meshes named apart from nodes):
 * this guards that no rename made for Blender costs three.js anything. Held-out seed.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import * as THREE from "three";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { runNode } from "../support/context.ts";
import { load } from "../support/threejs_client.ts";
import { ODD_CASES } from "./odd_outputs.ts";

const SEED = 17;

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

for (const c of ODD_CASES) {
  Deno.test(`three.js loads the odd output '${c.label}' (seed ${SEED}) whole`, async () => {
    const loaded = await load((await runNode(exportGltf, { scene: await c.scene(SEED) })).bytes.bytes);
    const json = loaded.parser.json as Json;
    const problems: string[] = [];
    for (const node of json.nodes ?? []) {
      if (node.name && !loaded.byName.has(node.name)) problems.push(`node '${node.name}' missing`);
    }
    for (const clip of loaded.animations) {
      for (const track of clip.tracks) {
        const { nodeName } = THREE.PropertyBinding.parseTrackName(track.name);
        if (!THREE.PropertyBinding.findNode(loaded.scene, nodeName)) {
          problems.push(`track '${track.name}' binds nothing`);
        }
      }
    }
    let cameras = 0;
    loaded.scene.traverse((object) => {
      if ((object as THREE.Camera).isCamera) cameras++;
      const mesh = object as THREE.Mesh;
      if (!mesh.isMesh) return;
      const def = json.meshes?.[loaded.parser.associations.get(mesh)?.meshes ?? -1];
      const names: string[] | undefined = def?.extras?.targetNames;
      if (names && Object.keys(mesh.morphTargetDictionary ?? {}).length !== names.length) {
        problems.push(
          `mesh '${def.name}': ${
            Object.keys(mesh.morphTargetDictionary ?? {}).length
          } targets reachable of ${names.length}`,
        );
      }
      for (const semantic of Object.keys(def?.primitives?.[0]?.attributes ?? {})) {
        // three.js keeps a custom attribute under its lower-case name.
        if (semantic.startsWith("_") && !mesh.geometry.attributes[semantic.toLowerCase()]) {
          problems.push(`attribute ${semantic} of '${def.name}' missing`);
        }
      }
    });
    const declared = (json.nodes ?? []).filter((n: Json) => n.camera !== undefined).length;
    if (cameras !== declared) problems.push(`${cameras} cameras of ${declared}`);
    assertEquals(problems, []);
  });
}
