import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../support/temp.ts";
import { hostileGraph } from "../support/hostile_graph.ts";

const CLI = new URL("../../cli/main.ts", import.meta.url).pathname;

/** Runs the CLI in a process of its own; its exit code, stdout lines and stderr. */
async function cli(args: string[]): Promise<{ code: number; lines: string[]; stderr: string }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--frozen", "-A", CLI, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code, lines: text.decode(stdout).split("\n").filter(Boolean), stderr: text.decode(stderr) };
}

/** The lines of `lines` that are not JSON. */
function notJson(lines: string[]): string[] {
  return lines.filter((line) => {
    try {
      JSON.parse(line);
      return false;
    } catch {
      return true;
    }
  });
}

Deno.test("--json: stdout is JSON lines only, and what a node prints goes to stderr (run, and batch on both pools)", async () => {
  const dir = await tempDir({ prefix: "partgraph-json-output-" });
  // A file starting with byte 3 makes the node print a line to its console.
  const graph = await hostileGraph(dir, { "print.bin": [3, 0], "plain.bin": [0] });
  const out = join(dir, "out");
  const batch = ["batch", graph, "--each", `model=${dir}/in/*.bin`, "--out", out, "--json"];
  const runs = {
    run: ["run", graph, "--set", `model=${join(dir, "in", "print.bin")}`, "--out", out, "--json"],
    "batch on Deno workers": [...batch, "--workers"],
    "batch on worker processes": [...batch, "--processes"],
  };
  for (const [what, args] of Object.entries(runs)) {
    const { code, lines, stderr } = await cli([...args, "--no-cache"]);
    assertEquals(code, 0, `${what}: ${stderr}`);
    assertEquals(notJson(lines), [], what);
    assert(lines.length > 1, `${what}: ${lines.length} JSON lines`);
    assert(stderr.includes("a line a node printed"), `${what}: ${stderr}`);
  }
});
