/**
 * Aircraft Blender itself builds and exports (`gltf_blender_aircraft.py`: dotted names under a turned,
 * scaled empty, packed textures, one through a second UV map, an emissive material of strength 4, a
 * shadeless canopy, the right aileron the left one's mesh mirrored by scale): decoded, and decoded again
 * after `export.gltf`, every part is where Blender placed it, under its name, in its colour, lit or
 * unlit, glowing as before. Skipped with a message when Blender (or its numpy) is absent.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runBlenderScript } from "../../clients/blender.ts";
import { judgeExported, judgeExporterFile } from "./gltf_exporter_judge.ts";
import type { PartTruth } from "./gltf_exporter_parts.ts";

/** Seeds of the test (the measurement's held-out ones are others): 7 and 5 parts, textured and not. */
const SEEDS = [6, 9];

Deno.test("exporters: Blender 3.4's own exports decode and export as Blender drew them", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "partgraph_blender_exports_" });
  try {
    const script = fileURLToPath(new URL("./gltf_blender_aircraft.py", import.meta.url));
    const run = await runBlenderScript(script, [dir, ...SEEDS.map(String)]);
    const printed = "skip" in run ? "" : new TextDecoder().decode(run.stdout);
    const skip = "skip" in run ? run.skip : /PARTGRAPH_SKIP (.*)/.exec(printed)?.[1];
    if (skip) {
      console.log(`skipped: ${skip}`);
      return;
    }
    assertEquals(
      printed.includes("PARTGRAPH_MADE"),
      true,
      new TextDecoder().decode((run as Deno.CommandOutput).stderr),
    );
    for (const seed of SEEDS) {
      await t.step(`seed ${seed}`, async () => {
        const parts: PartTruth[] = JSON.parse(await Deno.readTextFile(`${dir}/blender_${seed}.json`));
        const bytes = await Deno.readFile(`${dir}/blender_${seed}.glb`);
        const file = { tool: "blender-3.4", name: `blender_${seed}.glb`, bytes, parts };
        const decoded = await judgeExporterFile(file);
        assertEquals([decoded.refused, decoded.wrong], [undefined, []]);
        const exported = await judgeExported(file);
        assertEquals([exported.refused, exported.wrong], [undefined, []]);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
