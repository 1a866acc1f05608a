/**
 * Names `export.gltf` cut to Blender's 63 bytes, wrote a NUL of as `_`, or made unique, come back as the
 * source had them through `decode.gltf`: node, mesh, material and light names from `extras.name`, morph
 * target names from the mesh's `extras.partgraph.target_names` — after a decode → export → decode round
 * trip, and through Blender 3.4 with custom properties on (skipped when Blender is absent). A name a user
 * changed (no respelling of its original) is kept as written.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { isRespelling } from "../../../nodes/decode/gltf/codec/restore_names.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import { editedGlb, glbJson } from "../../support/shapes.ts";
import { LONG_OBJECT, longNamesScene, MORPH_NAMES, morphNamesScene } from "../export/long_names.ts";
import { throughBlender } from "../../clients/blender.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

async function decoded(bytes: Uint8Array) {
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "model.glb" } }, {}, ctx);
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

async function exported(scene: Document): Promise<Uint8Array> {
  return (await runNode(exportGltf, { scene })).bytes.bytes;
}

/** Every name a scene gives, per kind, in file order. */
function names(doc: Document): Record<string, string[]> {
  const root = doc.getRoot();
  const of = (list: { getName(): string }[]) => list.map((p) => p.getName());
  const lights = root.listExtensionsUsed().find((e) => e.extensionName === "KHR_lights_punctual");
  return {
    nodes: of(root.listNodes()),
    meshes: of(root.listMeshes()),
    materials: of(root.listMaterials()),
    lights: of(lights?.listProperties() ?? []),
  };
}

function targetNames(doc: Document): string[] {
  return doc.getRoot().listMeshes()[0].listPrimitives()[0].listTargets().map((t) => t.getName());
}

Deno.test("isRespelling: a name cut to 63 bytes (with or without _<n>) or with NUL as `_` is one; a rename or a shorter prefix is not", () => {
  const long = `${LONG_OBJECT}_Обшивка`; // > 63 bytes
  const cut = new TextDecoder().decode(new TextEncoder().encode(long).subarray(0, 63));
  assert(isRespelling(cut, long), "cut at 63 bytes");
  const cut61 = new TextDecoder().decode(new TextEncoder().encode(long).subarray(0, 61));
  assert(isRespelling(`${cut61}_1`, long), "cut to fit _1");
  assert(isRespelling("Gear_Door", "Gear\0Door"), "NUL written _");
  assert(isRespelling("Gear_Door_2", "Gear\0Door"), "NUL written _, made unique");
  assert(isRespelling("FlapL", "Flap.L") && isRespelling("Paint_1", "Paint"), "the spellings before");
  assert(!isRespelling("Left wing", long), "a rename in Blender");
  assert(!isRespelling(cut.slice(0, 40), long), "a shorter prefix");
  assert(!isRespelling(`${cut}_1`, long), "a _<n> past 63 bytes is no cut partgraph writes");
  assert(!isRespelling("Gear Door", "Gear\0Door"), "a space is no NUL");
});

Deno.test("long names come back whole after decode → export → decode (nodes, meshes, Cyrillic and Japanese materials, lights)", async () => {
  const source = longNamesScene(2);
  const first = await exported(source);
  const json = glbJson(first);
  // The file holds cut names (the round trip would be no test otherwise).
  assert(json.materials.some((m: Json) => m.name !== m.extras?.name && m.extras?.name), "a material was cut");
  const { scene, warnings } = await decoded(first);
  assertEquals(names(scene), names(source));
  assert(warnings.some((w) => /restored from extras\.name/.test(w)), warnings.join("\n"));
  // No extras.name left behind: the name holds it now.
  for (const node of scene.getRoot().listNodes()) assertEquals((node.getExtras() as Json).name, undefined);
  // Written again, the same file's names.
  const second = glbJson(await exported(scene));
  for (const kind of ["nodes", "meshes", "materials"]) {
    assertEquals(second[kind].map((p: Json) => p.name), json[kind].map((p: Json) => p.name), kind);
  }
  assertEquals(names((await decoded(await exported(scene))).scene), names(source), "a second trip");
});

Deno.test("a NUL in a node name comes back after the round trip (written `_`)", async () => {
  const source = longNamesScene(1);
  source.getRoot().listNodes()[0].setName("Gear\0Door");
  source.getRoot().listNodes()[1].setName("Gear\0Hatch");
  const json = glbJson(await exported(source));
  assertEquals(json.nodes.slice(0, 2).map((n: Json) => n.name), ["Gear_Door", "Gear_Hatch"]);
  const { scene } = await decoded(await exported(source));
  assertEquals(names(scene).nodes.slice(0, 2), ["Gear\0Door", "Gear\0Hatch"]);
});

Deno.test("morph target names export.gltf cut or made unique come back from extras.partgraph.target_names, the key removed", async () => {
  const first = await exported(morphNamesScene());
  const written = glbJson(first).meshes[0].extras.targetNames;
  assert(written.some((name: string, i: number) => name !== MORPH_NAMES[i]), "the file holds changed names");
  const { scene, warnings } = await decoded(first);
  assertEquals(targetNames(scene), MORPH_NAMES);
  const extras = scene.getRoot().listMeshes()[0].getExtras() as Json;
  assertEquals(extras.partgraph?.target_names, undefined);
  assertEquals(extras.targetNames, MORPH_NAMES);
  assert(warnings.some((w) => w.includes("'Blink_1' → 'Blink'")), warnings.join("\n"));
  // Written again: the same names, the originals beside them again; decoded again: the originals.
  const again = glbJson(await exported(scene)).meshes[0].extras;
  assertEquals(again.targetNames, written);
  assertEquals(again.partgraph.target_names, MORPH_NAMES);
  assertEquals(targetNames((await decoded(await exported(scene))).scene), MORPH_NAMES);
});

Deno.test("morph target names a user changed, or a list of another length, are kept as written", async () => {
  const first = await exported(morphNamesScene());
  const renamed = editedGlb(first, (json) => json.meshes[0].extras.targetNames[3] = "Wink");
  assertEquals(
    targetNames((await decoded(renamed)).scene),
    [...glbJson(first).meshes[0].extras.targetNames]
      .map((name, i) => i === 3 ? "Wink" : name),
  );
  const shorter = editedGlb(first, (json) => json.meshes[0].extras.partgraph.target_names.pop());
  assertEquals(targetNames((await decoded(shorter)).scene), glbJson(first).meshes[0].extras.targetNames);
});

Deno.test("a node renamed in Blender keeps its new name; one left alone gets its whole name back", async () => {
  const first = await exported(longNamesScene(1));
  const index = glbJson(first).nodes.findIndex((n: Json) => n.extras?.name?.startsWith(LONG_OBJECT));
  const edited = editedGlb(first, (json) => json.nodes[index].name = "Lower panel");
  const { scene } = await decoded(edited);
  assertEquals(scene.getRoot().listNodes()[index].getName(), "Lower panel");
  assertEquals(
    names(scene).nodes.filter((n) => n.startsWith(LONG_OBJECT)).length,
    1,
    "the other one restored",
  );
});

/**
 * Both Blender round trips (the long names with lights, the morph names), in one Blender process per
 * run of this file rather than one each: every job is imported and exported on its own.
 */
let tripOnce: ReturnType<typeof throughBlender> | undefined;
const source = longNamesScene(2);
async function blenderTrip() {
  tripOnce ??= throughBlender([
    { glb: await exported(source), extras: true, lights: true },
    { glb: await exported(morphNamesScene()), extras: true },
  ]);
  return tripOnce;
}

Deno.test("through Blender 3.4 (custom properties on), long node, mesh and material names come back whole", async () => {
  const trip = await blenderTrip();
  if ("skip" in trip) return console.warn(`skipped: ${trip.skip}`);
  const out = trip.outputs[0];
  if ("error" in out) throw new Error(out.error);
  const { scene } = await decoded(out.glb);
  const sorted = (list: string[]) => [...list].sort();
  const back = names(scene), before = names(source);
  assertEquals(sorted(back.materials), sorted(before.materials));
  assertEquals(sorted(back.meshes), sorted(before.meshes));
  for (const name of before.nodes) assert(back.nodes.includes(name), `${name} in ${back.nodes}`);
  assertEquals(sorted(back.lights), sorted(before.lights));
});

Deno.test("through Blender 3.4 (custom properties on), morph target names export.gltf changed come back whole", async () => {
  const trip = await blenderTrip();
  if ("skip" in trip) return console.warn(`skipped: ${trip.skip}`);
  const out = trip.outputs[1];
  if ("error" in out) throw new Error(out.error);
  // Blender keeps the cut names as its shape keys and the originals as a custom property of the mesh.
  assert(glbJson(out.glb).meshes[0].extras.targetNames.includes("Blink_1"));
  assertEquals(targetNames((await decoded(out.glb)).scene), MORPH_NAMES);
});
