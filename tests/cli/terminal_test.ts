/**
 * partgraph at a terminal, as a user types it: run under a pseudo-terminal (util-linux `script`),
 * the CLI with the permissions of the `partgraph` task and a library script with only what its
 * outputs need must finish without Deno stopping them for a permission prompt (the remote cache's
 * environment variables are read only when `--allow-env` grants them; a cache folder without write
 * access is a warning, not a question).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { copyGraphFile } from "../support/test_nodes.ts";
import { tempDir } from "../support/temp.ts";

const CLI = new URL("../../cli/main.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;
const MOD = new URL("../../mod.ts", import.meta.url).href;
const hasScript = (() => {
  try {
    return new Deno.Command("script", { args: ["--version"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
})();
if (!hasScript) console.warn("skipped: the terminal test needs util-linux `script` for a pseudo-terminal");

/**
 * Runs `deno run <flags> <script> <args>` (the CLI by default) on a pseudo-terminal, in `cwd`; what it
 * printed, and its exit code.
 */
async function atTerminal(
  flags: string[],
  args: string[],
  script = CLI,
  cwd?: string,
): Promise<{ code: number; text: string }> {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const command = [Deno.execPath(), "run", "--frozen", "--config", CONFIG, ...flags, script, ...args].map(
    quote,
  )
    .join(" ");
  const child = new Deno.Command("script", {
    args: ["-qec", command, "/dev/null"],
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // A prompt waits for an answer that never comes: give up after a while rather than hang the suite.
  // Two minutes, as a guard only: a run that needs no answer ends in a second, or a few on a loaded machine.
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const { code, stdout, stderr } = await child.output();
  clearTimeout(timer);
  return { code, text: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr) };
}

Deno.test({
  name: "run and batch at a terminal, with the task's permissions, ask for none",
  ignore: !hasScript,
  async fn() {
    const dir = await tempDir();
    const { graph, src } = await copyGraphFile(dir);
    // The `partgraph` task's permissions, with the output and cache folders in the temp folder.
    const flags = ["--allow-read", `--allow-write=${dir}`];
    const cache = ["--cache-dir", join(dir, "cache")];
    const run = await atTerminal(flags, [
      "run",
      graph,
      "--set",
      `src=${src}`,
      "--out",
      join(dir, "a"),
      ...cache,
    ]);
    assert(!run.text.includes("Deno requests"), run.text);
    assertEquals(run.code, 0, run.text);
    assertEquals(await Deno.readFile(join(dir, "a", "copy.bin")), await Deno.readFile(src));
    const batch = await atTerminal(flags, [
      "batch",
      graph,
      "--each",
      `src=${dir}/*.bin`,
      "--out",
      join(dir, "b"),
      ...cache,
    ]);
    assert(!batch.text.includes("Deno requests"), batch.text);
    assertEquals(batch.code, 0, batch.text);
    assert(batch.text.includes("[1/1]"), `the live progress line is drawn on a terminal: ${batch.text}`);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "a library script at a terminal without write access to the cache folder runs, warning, unasked",
  ignore: !hasScript,
  async fn() {
    const dir = await tempDir();
    const script = join(dir, "build.ts");
    await Deno.writeTextFile(
      script,
      `import { runGraph } from ${JSON.stringify(MOD)};\n` +
        `const run = await runGraph({ version: 1, nodes: { fighter: { type: "demo.fighter" } },\n` +
        `  outputs: { scene: "fighter.scene" } }, { outDir: "out" });\n` +
        `console.log("warned: " + run.warnings[0]?.message);\n`,
    );
    // Output folder granted, the default cache folder (.partgraph-cache in the working folder) not.
    const res = await atTerminal(["--allow-read", `--allow-write=${join(dir, "out")}`], [], script, dir);
    assert(!res.text.includes("Deno requests"), res.text);
    assertEquals(res.code, 0, res.text);
    assert(res.text.includes("warned: result not cached: no write access to the cache folder"), res.text);
    await Deno.remove(dir, { recursive: true });
  },
});
