/**
 * `--fail-on-warning`: a run (or batch input) that warned — here a messy glTF's repair — fails, its
 * outputs still written; without the flag the same run succeeds, and a clean input passes either way.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { EXIT } from "../../cli/main.ts";
import { cli } from "../support/cli.ts";
import { messyGlb } from "../support/messy_gltf.ts";
import { tempDir } from "../support/temp.ts";

const GRAPH = new URL("../../graphs/gltf.json", import.meta.url).pathname;

/** A folder with a clean GLB and one whose PNG is declared JPEG (a repair warning on decode). */
async function models(): Promise<string> {
  const dir = await tempDir();
  await Deno.mkdir(join(dir, "in"));
  await Deno.writeFile(join(dir, "in", "clean.glb"), await messyGlb(() => {}));
  await Deno.writeFile(
    join(dir, "in", "messy.glb"),
    await messyGlb((json) => json.images[0].mimeType = "image/jpeg"),
  );
  return dir;
}

Deno.test("run --fail-on-warning: a warning fails the run after its outputs are written; a clean run passes", async () => {
  const dir = await models();
  const run = (model: string, ...flags: string[]) =>
    cli(
      "run",
      GRAPH,
      "--set",
      `model=${join(dir, "in", model)}`,
      "--out",
      join(dir, model),
      "--no-cache",
      ...flags,
    );
  const lenient = await run("messy.glb");
  assertEquals(lenient.code, EXIT.ok, lenient.err);
  assert(
    /warning: decode: messy\.glb: image 'paint' is declared 'image\/jpeg'/.test(lenient.err),
    lenient.err,
  );
  const strict = await run("messy.glb", "--fail-on-warning");
  assertEquals(strict.code, EXIT.failed);
  assert(
    strict.err.endsWith("error: 1 warning(s), and warnings fail this run (--fail-on-warning)"),
    strict.err,
  );
  assert((await Deno.stat(join(dir, "messy.glb", "model.glb"))).size > 0, "the output is written");
  const json = await run("messy.glb", "--fail-on-warning", "--json");
  const result = JSON.parse(json.out.split("\n").at(-1)!);
  assertEquals([json.code, result.ok, result.warnings], [EXIT.failed, false, 1]);
  assertEquals((await run("clean.glb", "--fail-on-warning")).code, EXIT.ok);
});

Deno.test("batch --fail-on-warning: the input that warned fails, with its warnings in the manifest; the others pass", async () => {
  const dir = await models();
  const batch = (...flags: string[]) =>
    cli(
      "batch",
      GRAPH,
      "--each",
      `model=${join(dir, "in")}/*.glb`,
      "--out",
      join(dir, "out"),
      "--no-cache",
      "--jobs",
      "1",
      "--quiet",
      ...flags,
    );
  assertEquals((await batch()).code, EXIT.ok);
  const strict = await batch("--fail-on-warning");
  assertEquals(strict.code, EXIT.failed);
  const manifest = JSON.parse(await Deno.readTextFile(join(dir, "out", "batch.manifest.json")));
  const entry = (name: string) => manifest.inputs[name];
  assertEquals([entry("clean.glb").ok, entry("messy.glb").ok], [true, false]);
  assert(/warnings fail this batch/.test(entry("messy.glb").error.message));
  assertEquals(entry("messy.glb").warnings.length, 1);
  assert(Object.keys(entry("messy.glb").writes).length > 0, "its outputs are written");
});
