/**
 * The odd-output client sweep, run by hand: every odd case (`tests/clients/odd_outputs.ts`) of each seed
 * through `export.gltf`, then Blender 3.4's importer (`tests/clients/blender_census.ts`, one Blender
 * process per seed) and three.js's `GLTFLoader` (`tests/clients/threejs_census.ts`). Counts, per case,
 * what came in lost or renamed and whether export.gltf's warnings named it; a silent loss is the worst.
 * The tests run one held-out seed of the same (`blender_odd_test.ts`, `threejs_odd_test.ts`).
 *
 * Usage: `deno run --frozen --allow-read --allow-write --allow-run scripts/odd_clients_sweep.ts [--seeds 1-8]
 * [--verbose]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import { exportGltf } from "../nodes/export/gltf.ts";
import { runNode, testContext } from "../tests/support/context.ts";
import { ODD_CASES } from "../tests/clients/odd_outputs.ts";
import { blenderCensus, losses } from "../tests/clients/blender_census.ts";
import { threeLosses } from "../tests/clients/threejs_census.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { seeds: { type: "string", default: "1-8" }, verbose: { type: "boolean", default: false } },
});
const [low, high = low] = values.seeds!.split("-").map(Number);

function glbJson(glb: Uint8Array) {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

type Tally = { blender: number; warned: number; silent: number; three: number; invented: number };
const tallies = new Map<string, Tally>(
  ODD_CASES.map((c) => [c.label, { blender: 0, warned: 0, silent: 0, three: 0, invented: 0 }]),
);
for (let seed = low; seed <= high; seed++) {
  const runs = [];
  for (const c of ODD_CASES) {
    const ctx = testContext();
    const glb = (await runNode(exportGltf, { scene: await c.scene(seed) }, {}, ctx)).bytes.bytes;
    runs.push({ label: c.label, glb, warnings: ctx.warnings.map((w) => w.message) });
  }
  const census = await blenderCensus(runs.map((r) => r.glb));
  if ("skip" in census) throw new Error(`Blender cannot run: ${census.skip}`);
  for (const [i, run] of runs.entries()) {
    const tally = tallies.get(run.label)!;
    for (const loss of losses(glbJson(run.glb), census[i])) {
      tally.blender++;
      if (run.warnings.some((w) => w.includes(loss.name))) tally.warned++;
      else {
        tally.silent++;
        if (values.verbose) {
          console.log(`seed ${seed} ${run.label}: silent ${loss.kind} '${loss.name}' ${loss.detail}`);
        }
      }
    }
    // A KTX2 texture needs the app's KTX2Loader (`setKTX2Loader`), which a Deno harness has none of:
    // the load throws before any node is made, so the file is not judged by three.js.
    // Objects Blender named `<name>.001`… that the file names nowhere: not a loss of a written name (an
    // unnamed node's), but what a round trip through Blender writes back as the node's name.
    const got = census[i];
    if (!("error" in got)) {
      const json = glbJson(run.glb);
      const written = new Set((json.nodes ?? []).map((n: { name?: string }) => n.name));
      tally.invented += got.objects.filter((o) => /\.\d{3}$/.test(o.name) && !written.has(o.name)).length;
    }
    const three = await threeLosses(run.glb).catch((error: Error) => {
      if (/setKTX2Loader/.test(error.message)) return [];
      throw error;
    });
    tally.three += three.length;
    if (values.verbose) { for (const p of three) console.log(`seed ${seed} ${run.label}: three.js ${p}`); }
  }
}
console.log(
  `seeds ${low}-${high}: Blender losses (warned / silent), three.js losses, objects Blender named .001 of its own`,
);
const total = { blender: 0, warned: 0, silent: 0, three: 0, invented: 0 };
for (const [label, t] of tallies) {
  console.log(
    `${label.padEnd(52)} ${t.blender} (${t.warned} / ${t.silent}), three.js ${t.three}, .001 ${t.invented}`,
  );
  for (const k of Object.keys(total) as (keyof Tally)[]) total[k] += t[k];
}
console.log(
  `${
    "total".padEnd(52)
  } ${total.blender} (${total.warned} / ${total.silent}), three.js ${total.three}, .001 ${total.invented}`,
);
