/**
 * `export.gltf` names what Blender 3.4's importer drops of a valid file: a required extension it
 * refuses, a WebP- or KTX2-only image, custom `_` attributes, UV sets past the eighth. Scenes built as
 * the odd-output sweep builds them (`tests/clients/odd_outputs.ts`); Blender's side of each is measured
 * in `tests/clients/blender_odd_test.ts`.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { blenderDrops } from "../../../nodes/export/blender_drops.ts";
import { runNode, testContext } from "../../support/context.ts";
import { ODD_CASES } from "../../clients/odd_outputs.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** export.gltf's warnings on an odd case; the WebP/KTX2 ones are of images written alone (no PNG fallback). */
async function warningsOf(label: string, seed: number): Promise<string[]> {
  const ctx = testContext();
  const scene = await ODD_CASES.find((c) => c.label === label)!.scene(seed);
  await runNode(exportGltf, { scene }, { png_fallback: false }, ctx);
  return ctx.warnings.map((w) => w.message);
}

Deno.test("custom attributes and UV sets past the eighth are named, with the mesh", async () => {
  const warnings = await warningsOf("custom attributes and ten UV sets", 3);
  const custom = warnings.find((w) => w.startsWith("custom attribute(s)"));
  assert(custom?.includes("_BATCHID"), `${warnings}`);
  assert(
    warnings.some((w) => /has (9|10|11) UV sets: Blender 3.4's importer reads the first 8/.test(w)),
    `${warnings}`,
  );
});

Deno.test("WebP- and KTX2-only images are named; a required extension names the whole file's refusal", async () => {
  // Seeds where the extensions are and are not required (the case draws it).
  const kinds = new Set<string>();
  for (let seed = 1; seed <= 8 && kinds.size < 2; seed++) {
    const warnings = await warningsOf("WebP and KTX2 textures without PNG", seed);
    if (warnings.some((w) => w.startsWith("the file requires EXT_texture_webp"))) {
      assert(warnings.some((w) => w.startsWith("the file requires KHR_texture_basisu")), `${warnings}`);
      assert(!warnings.some((w) => w.startsWith("image ")), "an image of a refused file is not named again");
      kinds.add("required");
    } else {
      assertEquals(warnings.filter((w) => / is (WebP|KTX2) only /.test(w)).length, 2, `${warnings}`);
      assert(warnings.every((w) => w.includes("textures.to_png")), `${warnings}`);
      kinds.add("used");
    }
  }
  assertEquals(kinds.size, 2, "both kinds drawn");
});

Deno.test("a file Blender takes whole gets no such warning, and one that requires a known extension neither", () => {
  assertEquals(blenderDrops({ asset: { version: "2.0" } }), []);
  assertEquals(
    blenderDrops({
      asset: { version: "2.0" },
      extensionsRequired: ["KHR_mesh_quantization", "KHR_draco_mesh_compression"],
      meshes: [{ name: "m", primitives: [{ attributes: { POSITION: 0, TEXCOORD_7: 1, COLOR_7: 2 } }] }],
      textures: [{ source: 0, extensions: { EXT_texture_webp: { source: 1 } } }],
    }),
    [],
  );
  const [message] = blenderDrops({
    asset: { version: "2.0" },
    extensionsRequired: ["EXT_mesh_gpu_instancing"],
  });
  assert(message.includes("scene.uninstance"), message);
});

Deno.test("a morphed mesh Blender must copy (nodes at different weights, keyed per node, other skins) is named", () => {
  const mesh = { name: "Face", primitives: [{ attributes: { POSITION: 0 }, targets: [{ POSITION: 1 }] }] };
  const file = (nodes: Json[], animations: Json[] = []) =>
    blenderDrops({ asset: { version: "2.0" }, meshes: [mesh], nodes, animations });
  const copies = (messages: string[]) =>
    messages.filter((m) => m.startsWith("mesh 'Face' is drawn by nodes"));
  assertEquals(copies(file([{ mesh: 0, weights: [0.5] }, { mesh: 0, weights: [0.5] }])).length, 0);
  assert(copies(file([{ mesh: 0, weights: [0.5] }, { mesh: 0, weights: [1] }]))[0].includes("2 copies"));
  const keyed = [{ channels: [{ sampler: 0, target: { node: 1, path: "weights" } }], samplers: [] }];
  assert(copies(file([{ mesh: 0 }, { mesh: 0 }, { mesh: 0 }], keyed))[0].includes("2 copies"));
  // Without targets, only a different skin makes a copy.
  const plain = { name: "Face", primitives: [{ attributes: { POSITION: 0 } }] };
  const drops = (nodes: Json[]) => blenderDrops({ asset: { version: "2.0" }, meshes: [plain], nodes });
  assertEquals(drops([{ mesh: 0, weights: [1] }, { mesh: 0 }]), []);
  assertEquals(drops([{ mesh: 0, skin: 0 }, { mesh: 0, skin: 1 }]).length, 1);
});

Deno.test("an attribute on every mesh is one warning for the file, naming it; partgraph's own bookkeeping none", () => {
  const file = (attribute: string) =>
    blenderDrops({
      asset: { version: "2.0" },
      meshes: ["obj_01", "obj_02", "obj_03", "obj_04"].map((name) => ({
        name,
        primitives: [{ attributes: { POSITION: 0, [attribute]: 1 } }],
      })),
    });
  const messages = file("_BATCHID");
  assertEquals(messages.length, 1);
  assert(messages[0].includes("_BATCHID") && messages[0].includes("4 mesh(es)"), messages[0]);
  // Carnivores' _OWNER and DSON's _DSON_VERTEX serve later partgraph nodes, not a Blender user.
  assertEquals(file("_OWNER"), []);
  assertEquals(file("_DSON_VERTEX"), []);
});

Deno.test("a Carnivores export warns of no extras: its face records are the decoder's own (held-out tool files)", async () => {
  const { decodeAuto } = await import("../../../nodes/decode/auto.ts");
  const { toolCase, TOOL_HABITS } = await import("../decode/carnivores/community_tools.ts");
  let exported = 0;
  for (const habit of TOOL_HABITS.slice(0, 6)) {
    const file = toolCase(habit, 303);
    if (file.format === "rsc") continue;
    const { scene } = await runNode(decodeAuto, { bytes: { bytes: file.bytes, name: `m.${file.format}` } });
    const faces = scene.getRoot().listMeshes()[0].listPrimitives()[0].getExtras().partgraph?.carnivores;
    assert(faces?.flags, "the decoder keeps each primitive's face flags");
    const ctx = testContext();
    await runNode(exportGltf, { scene }, {}, ctx);
    const dropped = ctx.warnings.filter((w) => w.message.includes("drops the extras of every"));
    assertEquals(dropped.map((w) => w.message), [], habit);
    exported++;
  }
  assert(exported >= 4, `${exported} files exported`);
});
