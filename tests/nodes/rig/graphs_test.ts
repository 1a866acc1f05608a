/** The ready-made rig graphs run end to end through the runtime. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runGraph } from "../../../mod.ts";
import type { BytesValue } from "../../../runtime/node.ts";
import { fighterTruth } from "../../../nodes/demo/fighter_truth.ts";
import { corpusFile, withoutCorpus } from "../../support/corpus.ts";
import { validateGltf } from "../../support/validator.ts";
import { tempDir } from "../../support/temp.ts";
import { runNode } from "../../support/context.ts";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import type { Axis } from "../../../runtime/scene/source.ts";
import { turn } from "./turned.ts";

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
        "propeller/centre",
        "rudder/centre",
      ]);
      assert((await Deno.stat(`${outDir}/plane.glb`)).size > 0);
      assertEquals(JSON.parse(await Deno.readTextFile(`${outDir}/model.rig.json`)), report);
    } finally {
      await Deno.remove(outDir, { recursive: true });
    }
  },
});

/** The report's parts as `panel/kind/side` with their world hinge lines, and the warnings, of `aircraft_file.json` on `glb`. */
async function rigFile(glb: Uint8Array, frame: { forward?: Axis; up?: Axis }) {
  const dir = await tempDir();
  try {
    await Deno.writeFile(`${dir}/plane.glb`, glb);
    const run = await runGraph(graph("aircraft_file.json"), {
      outDir: dir,
      cacheDir: false,
      inputs: { model: `${dir}/plane.glb`, ...frame },
    });
    type Part = {
      panel: string;
      kind: string;
      side: string;
      hinge?: { world: { origin: number[]; axis: number[] } };
    };
    const report = run.outputs.report as { frame: Record<string, unknown>; parts: Part[] };
    return { report, warnings: run.warnings.map((w) => w.message) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("graphs/aircraft_file.json with no frame given finds it: a fighter facing glTF's +Z, −Z or +X rigs as with its frame given", async () => {
  const frames: [Axis, Axis][] = [["+Z", "+Y"], ["-Z", "+Y"], ["+X", "+Z"]];
  for (const [forward, up] of frames) {
    const doc = turn((await runNode(demoFighter, {}, {})).scene, forward, up);
    const glb = (await runNode(exportGltf, { scene: doc }, {})).bytes.bytes;
    const [found, given] = [await rigFile(glb, {}), await rigFile(glb, { forward, up })];
    const frame = found.report.frame;
    assertEquals([frame.forward, frame.up, frame.found_by, frame.confidence], [
      forward,
      up,
      "geometry",
      "good",
    ]);
    assertEquals(found.report.parts.length, 23);
    assertEquals(found.report.parts.length, given.report.parts.length);
    found.report.parts.forEach((part, i) => {
      const other = given.report.parts[i];
      assertEquals(`${part.panel}/${part.kind}/${part.side}`, `${other.panel}/${other.kind}/${other.side}`);
      for (const key of ["origin", "axis"] as const) {
        part.hinge!.world[key].forEach((v, k) =>
          assert(Math.abs(v - other.hinge!.world[key][k]) < 1e-9, `${forward}/${up} ${part.panel} ${key}`)
        );
      }
    });
    assert(!found.warnings.some((w) => /frame|faces the other way/.test(w)), found.warnings.join("\n"));
  }
  // The −Z this graph took before a frame was found is the other end of a file facing glTF's +Z: warned.
  const facingPlusZ = turn((await runNode(demoFighter, {}, {})).scene, "+Z", "+Y");
  const glb = (await runNode(exportGltf, { scene: facingPlusZ }, {})).bytes.bytes;
  const reversed = await rigFile(glb, { forward: "-Z", up: "+Y" });
  assert(reversed.warnings.some((w) => /faces the other way/.test(w)), reversed.warnings.join("\n"));
});
