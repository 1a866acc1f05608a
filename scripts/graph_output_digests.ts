/**
 * Builds every graph in `graphs/` on the shared corpus (plus the built-in demo) and prints, as
 * JSON, the SHA-256 of every file each run wrote and of every output value. Comparing its output
 * on two commits proves a change kept output bytes identical:
 *
 * ```sh
 * base=$(mktemp -d); git archive 9ea488c | tar -x -C "$base"
 * cp scripts/graph_output_digests.ts "$base/scripts/"
 * (cd "$base" && deno run --frozen=false -A scripts/graph_output_digests.ts "$PWD/../shared/corpus") > before.json
 * deno run --frozen -A scripts/graph_output_digests.ts ../shared/corpus > after.json
 * diff before.json after.json && echo identical
 * ```
 *
 * With `--memory`, every graph runs as the studio and watch mode run it, with a memory tier of the
 * caller's (so no node owns its input and every node copies): the digests must equal those of a plain
 * run, and every value the memory tier holds must be the same after the run as when it was stored
 * (a node that changed its input is reported under `changed`). The JSON of a clean memory run is therefore
 * byte-identical to a plain run's; that the mode took effect is said on stderr (how many values the memory
 * tier held and checked, how many changed), so stdout stays comparable.
 *
 * The API module is looked up at run time (`mod.ts`, else the older `runtime/mod.ts`), so the same
 * script runs on commits from before and after the public module moved.
 *
 * @module
 */
import { resolve } from "node:path";
import { createHash } from "node:crypto";
import { NodeIO } from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";

type Api = {
  runGraph(
    graph: unknown,
    options: Record<string, unknown>,
  ): Promise<{ outputs: Record<string, unknown>; writes: { path: string; sha256: string }[] }>;
};

const root = new URL("../", import.meta.url);
const api: Api = await import(new URL("mod.ts", root).href).catch(() =>
  import(new URL("runtime/mod.ts", root).href)
);
const { copyScene } = await import(new URL("runtime/scene/copy.ts", root).href);
const memoryMode = Deno.args.includes("--memory");
const corpus = resolve(Deno.args.find((arg) => !arg.startsWith("--")) ?? "../shared/corpus");
const at = (relative: string) => `${corpus}/${relative}`;
const graph = (name: string) => new URL(`graphs/${name}`, root).pathname;

const cases: [string, string, Record<string, unknown>][] = [
  ["aircraft default", "aircraft.json", {}],
  ["aircraft detail 4, no names", "aircraft.json", { detail: 4, names: false }],
  ["aircraft_file sketchbook", "aircraft_file.json", {
    model: at("aircraft/sketchbook_airplane.glb"),
    forward: "+Z",
  }],
  ["carnivores 3df", "carnivores.json", { model: at("carnivores/synthetic_quad.3df") }],
  ["carnivores car scaled", "carnivores.json", {
    model: at("carnivores/synthetic_quad.car"),
    options: { scale: 0.0145, interpolation: "step" },
  }],
  ["freelancer 3db", "freelancer.json", { model: at("freelancer/librelancer_monkey.3db") }],
  ["gltf from 3db", "gltf.json", { model: at("freelancer/librelancer_monkey.3db") }],
  ["gltf from car", "gltf.json", { model: at("carnivores/synthetic_quad.car") }],
  ["gltf from glb", "gltf.json", { model: at("aircraft/sketchbook_airplane.glb") }],
];
for (const file of ["game_engine_mouth_geograft.duf", "roblox_hand_grip.duf", "synthetic_rigidity.dsf"]) {
  cases.push([`dson ${file}`, "dson.json", { model: at(`dson/${file}`), content_roots: [at("dson")] }]);
  cases.push([`gltf from ${file}`, "gltf.json", { model: at(`dson/${file}`) }]);
}

const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");
const sorted = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sorted)
    : value && typeof value === "object"
    ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted((value as never)[k])]))
    : value;

async function digestOf(value: unknown): Promise<string> {
  if (value && typeof value === "object" && "getRoot" in value) {
    return "scene:" + sha256(await io.writeBinary(value as never));
  }
  if (value && typeof value === "object" && (value as { bytes?: unknown }).bytes instanceof Uint8Array) {
    const v = value as { bytes: Uint8Array; name: string };
    return `bytes:${v.name}:${sha256(v.bytes)}`;
  }
  return "json:" + sha256(JSON.stringify(sorted(value)) ?? "undefined");
}

/**
 * A caller's memory tier that remembers each stored value's digest, taken from a copy made at once
 * (writing is asynchronous; a node changing the value meanwhile must not change the digest).
 */
class RecordingMemory extends Map<string, { outputs: Record<string, unknown> }> {
  readonly stored: Promise<[string, string, string]>[] = [];
  override set(key: string, entry: { outputs: Record<string, unknown> }): this {
    for (const [socket, value] of Object.entries(entry.outputs)) {
      const now = value && typeof value === "object" && "getRoot" in value
        ? copyScene(value)
        : structuredClone(value);
      this.stored.push(digestOf(now).then((digest) => [key, socket, digest]));
    }
    return super.set(key, entry);
  }
  /** How many values were stored (each checked by {@link changed}). */
  get checked(): number {
    return this.stored.length;
  }
  /** The stored values whose digest is not what it was when they were stored. */
  async changed(): Promise<string[]> {
    const changed: string[] = [];
    for (const [key, socket, digest] of await Promise.all(this.stored)) {
      const value = this.get(key)?.outputs[socket];
      if (value !== undefined && await digestOf(value) !== digest) {
        changed.push(`${key.slice(0, 12)}#${socket}`);
      }
    }
    return changed;
  }
}

const report: Record<string, unknown> = {};
const memoryTotals = { graphs: 0, values: 0, changed: 0 };
for (const [name, file, inputs] of cases) {
  const outDir = await Deno.makeTempDir();
  try {
    const memory = memoryMode ? new RecordingMemory() : undefined;
    const run = await api.runGraph(graph(file), { inputs, outDir, cacheDir: false, memory });
    const outputs: Record<string, string> = {};
    for (const key of Object.keys(run.outputs).sort()) outputs[key] = await digestOf(run.outputs[key]);
    report[name] = { writes: run.writes, outputs };
    const changed = await memory?.changed();
    if (memory && changed) {
      memoryTotals.graphs++;
      memoryTotals.values += memory.checked;
      memoryTotals.changed += changed.length;
    }
    if (changed?.length) report[name] = { writes: run.writes, outputs, changed };
  } catch (error) {
    report[name] = { error: error instanceof Error ? error.message : String(error) };
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
}
console.log(JSON.stringify(report, null, 2));
if (memoryMode) {
  // On stderr: a clean memory run's JSON equals a plain run's, so this is how to see the mode ran.
  console.error(
    `--memory: ${memoryTotals.graphs} runs with a caller's memory tier; ${memoryTotals.values} stored values ` +
      `checked after the run, ${memoryTotals.changed} changed`,
  );
}
