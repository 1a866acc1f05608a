import { ok as assert } from "node:assert/strict";
import { CATALOGUE_BEGIN, CATALOGUE_END, withCatalogue } from "../scripts/update_docs.ts";
import { runGraph } from "../mod.ts";
import { buildFighterScene } from "../nodes/demo/fighter_run.ts";
import { tempDir } from "./support/temp.ts";

const root = new URL("../", import.meta.url);
const readme = await Deno.readTextFile(new URL("README.md", root));

Deno.test("the README's node catalogue is generated from the current declarations", () => {
  assert(readme.includes(CATALOGUE_BEGIN) && readme.includes(CATALOGUE_END));
  const fresh = withCatalogue(readme);
  const section = (text: string) => text.slice(text.indexOf(CATALOGUE_BEGIN), text.indexOf(CATALOGUE_END));
  // Compare ignoring layout: deno fmt wraps prose and aligns tables.
  const squash = (text: string) => section(text).replace(/\s+/g, "").replace(/\|-+/g, "|-");
  assert(squash(fresh) === squash(readme), "the catalogue is stale: run `deno task docs`");
});

Deno.test("the README shows the library example verbatim, and it runs", async () => {
  const example = await Deno.readTextFile(new URL("examples/scripted_graph.ts", root));
  assert(readme.includes(example.trim()), "README.md must show examples/scripted_graph.ts verbatim");
  const log = console.log;
  const lines: string[] = [];
  console.log = (...args: unknown[]) => void lines.push(args.join(" "));
  try {
    await import(new URL("examples/scripted_graph.ts", root).href);
  } finally {
    console.log = log;
  }
  assert(/^the demo fighter has [1-9]\d* meshes$/.test(lines.join("\n")), lines.join("\n"));
});

Deno.test("the README's custom node module is the example file, and the example graph runs it", async () => {
  const module = await Deno.readTextFile(new URL("examples/report_bounds.ts", root));
  assert(readme.includes(module.trim()), "README.md must show examples/report_bounds.ts verbatim");
  const outDir = await tempDir();
  const run = await runGraph(new URL("examples/bounds.json", root).pathname, { outDir, cacheDir: false });
  const bounds = run.outputs.bounds as Record<string, { min: number[]; max: number[] }>;
  // Independently: the canopy glass's extent from its own POSITION array.
  const mesh = buildFighterScene(2).getRoot().listMeshes().find((m) => m.getName() === "Canopy_Glass")!;
  const array = mesh.listPrimitives()[0].getAttribute("POSITION")!.getArray()!;
  const ys = Array.from({ length: array.length / 3 }, (_, i) => array[i * 3 + 1]);
  assert(Math.abs(bounds.Canopy_Glass.max[1] - Math.max(...ys)) <= 5e-4, JSON.stringify(bounds.Canopy_Glass));
  assert(Math.abs(bounds.Canopy_Glass.min[1] - Math.min(...ys)) <= 5e-4, JSON.stringify(bounds.Canopy_Glass));
  assert(JSON.parse(await Deno.readTextFile(`${outDir}/fighter.bounds.json`)).Canopy_Glass);
});

Deno.test("CI runs the README's test command, and both set-up commands name existing tasks", async () => {
  const ci = await Deno.readTextFile(new URL(".ci/run", root));
  const tasks = JSON.parse(await Deno.readTextFile(new URL("deno.json", root))).tasks;
  const commands = [...readme.matchAll(/^npx --yes deno@[\d.]+ task (\w+)$/gm)];
  assert(commands.length >= 2, "README shows the two set-up commands");
  for (const [line, task] of commands) assert(task in tasks, `${line}: no task '${task}'`);
  assert(
    commands.some(([line, task]) => task === "test" && ci.includes(line)),
    ".ci/run runs the README's test command",
  );
});
