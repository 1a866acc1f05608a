/**
 * partgraph's rigged output through three.js (`GLTFLoader`, then `GLTFExporter`, as a web editor saves
 * a loaded model) and rigged again: the same pivots, kinds, sides, extras and hinges. three.js writes
 * names as its loader sanitises them (`Flap.L` → `FlapL`, the original kept in `extras.name`), and
 * `decode.gltf` restores the originals: parts come back under the names they had.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import * as THREE from "three";
import { GLTFExporter } from "three/examples/jsm/exporters/GLTFExporter.js";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { demoFighter } from "../../nodes/demo/fighter.ts";
import { runNode } from "../support/context.ts";
import { corpusFile } from "../support/corpus.ts";
import { load } from "../support/threejs_client.ts";
import { compareRigs, glbJson, interopExtras, nestedPivots, rigGlb } from "./roundtrip.ts";

const AIRPLANE = "aircraft/sketchbook_airplane.glb";
const sanitise = (name: string) => THREE.PropertyBinding.sanitizeNodeName(name);

/** Loads a GLB with three.js and writes it back with `GLTFExporter` (binary, its clips included). */
async function throughThree(glb: Uint8Array): Promise<Uint8Array> {
  const { scene, animations } = await load(glb);
  // The exporter encodes textures through a canvas, which Deno has not: maps are left out (the rig
  // reads no texture).
  scene.traverse((object) => {
    const material = (object as THREE.Mesh).material as unknown as Record<string, unknown> | undefined;
    for (const key of Object.keys(material ?? {})) {
      if ((material![key] as THREE.Texture | null)?.isTexture) material![key] = null;
    }
  });
  return new Uint8Array(
    await new GLTFExporter().parseAsync(scene, { binary: true, animations }) as ArrayBuffer,
  );
}

async function roundTrip(model: Uint8Array, inputs: Record<string, unknown>) {
  const first = await rigGlb(model, inputs);
  const written = await throughThree(first.glb);
  // userData → extras: every pivot's and declared part's interop extras as partgraph wrote them.
  const before = new Map([...interopExtras(first.glb)].map(([name, extras]) => [sanitise(name), extras]));
  assertEquals(interopExtras(written), before);
  // The loader's original names come back as extras.name.
  // deno-lint-ignore no-explicit-any
  const originals = glbJson(written).nodes.filter((n: any) => n.extras?.name).map((n: any) => n.extras.name);
  for (const name of before.keys()) assert(originals.some((o: string) => sanitise(o) === name), name);
  const second = await rigGlb(written, inputs);
  // Names three.js respelt are restored from extras.name: the parts are named as before the trip.
  const diff = compareRigs(first.parts, second.parts);
  assertEquals({ lost: diff.lost, added: diff.added, changed: diff.changed }, {
    lost: [],
    added: [],
    changed: [],
  });
  assert(diff.compared === first.parts.length && diff.compared >= 5, `${diff.compared} parts compared`);
  assert(diff.worstAngle < 1e-3, `a hinge turned ${diff.worstAngle}°`);
  assert(diff.worstOffset < 1e-5, `a hinge moved ${diff.worstOffset}`);
  assertEquals(nestedPivots(second.glb).length, nestedPivots(first.glb).length);
  assert(!second.warnings.some((w) => w.includes("carry no extras")), second.warnings.join("\n"));
}

Deno.test("three.js GLTFExporter: the rigged demo fighter rigs again to the same parts and hinges", async () => {
  const fighter = await writeGlb((await runNode(demoFighter, {}, {})).scene, { generator: GENERATOR });
  await roundTrip(fighter, {});
});

Deno.test({
  name: "three.js GLTFExporter: the rigged Sketchbook airplane rigs again to the same parts and hinges",
  ignore: corpusFile(AIRPLANE) === undefined,
  fn: async () => await roundTrip(await Deno.readFile(corpusFile(AIRPLANE)!), { forward: "+Z" }),
});
