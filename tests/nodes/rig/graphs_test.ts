/** The ready-made rig graphs run end to end through the runtime. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runGraph } from "../../../mod.ts";
import type { BytesValue } from "../../../runtime/node.ts";
import { fighterTruth } from "../../../nodes/demo/fighter_truth.ts";
import { corpusFile, withoutCorpus } from "../../support/corpus.ts";
import { validateGltf } from "../../support/validator.ts";
import { tempDir } from "../../support/temp.ts";

const graph = (name: string) => fileURLToPath(new URL(`../../../graphs/${name}`, import.meta.url));

Deno.test("graphs/aircraft.json: the rigged demo fighter and its report", async () => {
  const outDir = await tempDir();
  try {
    const run = await runGraph(graph("aircraft.json"), { outDir, cacheDir: false });
    const glb = run.outputs.glb as BytesValue;
    assertEquals(await Deno.readFile(`${outDir}/fighter.rigged.glb`), glb.bytes);
    assertEquals((await validateGltf(glb.bytes)).errors, 0);
    const report = run.outputs.report as { parts: { panel: string | null }[] };
    const truth = fighterTruth();
    assertEquals(report.parts.length, truth.panels.length + truth.prerigged.length);
    assertEquals(JSON.parse(await Deno.readTextFile(`${outDir}/fighter.rig.json`)), report);
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});

Deno.test({
  name: "graphs/aircraft_file.json: a glTF file rigged with its forward axis",
  ignore: withoutCorpus("aircraft/sketchbook_airplane.glb"),
  async fn() {
    const outDir = await tempDir();
    try {
      const run = await runGraph(graph("aircraft_file.json"), {
        outDir,
        cacheDir: false,
        inputs: { model: corpusFile("aircraft/sketchbook_airplane.glb")!, forward: "+Z", out: "plane.glb" },
      });
      const report = run.outputs.report as { parts: { kind: string; side: string }[] };
      assertEquals(report.parts.map((p) => `${p.kind}/${p.side}`), [
        "aileron/left",
        "aileron/right",
        "elevator/left",
        "elevator/right",
        "rudder/centre",
      ]);
      assert((await Deno.stat(`${outDir}/plane.glb`)).size > 0);
      assertEquals(JSON.parse(await Deno.readTextFile(`${outDir}/model.rig.json`)), report);
    } finally {
      await Deno.remove(outDir, { recursive: true });
    }
  },
});
