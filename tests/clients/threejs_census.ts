/**
 * What three.js's `GLTFLoader` makes of a GLB, against what the file declares: a named node that is no
 * object, a clip's track that binds nothing, a morphed mesh whose dictionary does not hold every target
 * name once or whose object's influences are not its node's weights, a custom attribute dropped, a camera
 * missing. Used by the odd-output tests (`threejs_odd_test.ts`) and the client sweep
 * (`scripts/odd_clients_sweep.ts`).
 *
 * @module
 */
import * as THREE from "three";
import { load } from "../support/threejs_client.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** Each thing of `glb` three.js did not load as written, in words; empty when it loaded whole. */
export async function threeLosses(glb: Uint8Array): Promise<string[]> {
  const loaded = await load(glb);
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
    const node = json.nodes?.[loaded.parser.associations.get(mesh)?.nodes ?? -1];
    const targets = def?.primitives?.[0]?.targets?.length ?? 0;
    if (node && targets) {
      const expected: number[] = node.weights ?? def.weights ?? new Array(targets).fill(0);
      const got = mesh.morphTargetInfluences ?? [];
      if (expected.some((w, k) => Math.abs(w - (got[k] ?? NaN)) > 1e-3)) {
        problems.push(`node '${node.name ?? ""}': influences ${got} for weights ${expected}`);
      }
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
  return problems;
}
