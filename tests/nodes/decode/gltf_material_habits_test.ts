/**
 * Exporter material habits `decode.gltf` kept silently (`gltf_material_habits.ts`): Blender's shared
 * material sampling a second UV set some meshes lack is named (geometry kept); a specular-glossiness
 * fallback drawing metal where the extension draws a non-metal is made from the extension, a true metal's
 * and a consistent one kept; Godot 4's `GODOT_single_root` is said to carry no data, and what dropping the
 * mark costs.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import {
  blenderSharedUv1,
  judgeSharedUv,
  judgeSpecGloss,
  specGlossFallbackFile,
} from "./gltf_material_habits.ts";
import { exporterFile } from "./gltf_exporters.ts";
import { judgeExporterFile } from "./gltf_exporter_judge.ts";

/** Seeds the tests run (the measurement's held-out seeds were 201-230). */
const SEEDS = [1, 2, 3, 4, 5];

Deno.test("material habits: Blender's shared material sampling TEXCOORD_1 names each primitive lacking it, geometry kept", async () => {
  let named = 0;
  for (const seed of SEEDS) {
    const file = await blenderSharedUv1(seed);
    const { wrong, warnings } = await judgeSharedUv(file);
    assertEquals(wrong, [], `${file.name}\n${warnings.join("\n")}`);
    named += [...file.lacking.values()].reduce((sum, l) => sum + l.primitives.length, 0);
  }
  assert(named >= SEEDS.length, `${named} primitives lacking the set`);
});

Deno.test("material habits: the shared-UV judge sees a primitive left unnamed", async () => {
  const file = await blenderSharedUv1(2);
  const [entry] = file.lacking.values();
  const forged = {
    ...file,
    lacking: new Map([["Paint", {
      ...entry,
      primitives: ["mesh 'Nowhere' primitive 0", ...entry.primitives],
    }]]),
  };
  const { wrong } = await judgeSharedUv(forged);
  assert(wrong.some((w) => w.includes("Nowhere")), wrong.join("\n"));
});

Deno.test("material habits: a spec-gloss fallback drawing metal over a non-metal is made from the extension; metals and consistent ones kept", async () => {
  for (const seed of SEEDS) {
    const file = await specGlossFallbackFile(seed);
    const { wrong, warnings } = await judgeSpecGloss(file);
    assertEquals(wrong, [], `${file.name}\n${warnings.join("\n")}`);
    const made = file.truth.filter((t) => t.named);
    assert(made.length > 0, file.name);
    const note = warnings.find((w) => w.includes(`material '${made[0].material}'`))!;
    assert(/contradicts it: metallic 1 .*metallic 0/.test(note), note);
  }
});

Deno.test("material habits: Godot 4's GODOT_single_root is said to carry no data, naming the root Godot will wrap", async () => {
  for (const seed of SEEDS.slice(0, 2)) {
    const { warnings, wrong } = await judgeExporterFile(await exporterFile("godot4", seed));
    assertEquals(wrong, []);
    const notes = warnings.filter((w) => w.includes("GODOT_single_root"));
    assertEquals(notes.length, 1, warnings.join("\n"));
    assert(/carries no data/.test(notes[0]) && !/data is left out/.test(notes[0]), notes[0]);
    assert(notes[0].includes("extra root node above node 'Aircraft'"), notes[0]);
  }
});
