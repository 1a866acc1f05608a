/**
 * The CLI run in this process, for tests: its exit code and what it printed.
 *
 * @module
 */
import { main } from "../../cli/main.ts";

/**
 * Runs `partgraph` with `args` in-process, capturing what it prints on stdout (`out`) and stderr (`err`).
 *
 * @example
 * ```ts ignore
 * const { code, err } = await cli("run", "graphs/gltf.json", "--set", "model=plane.glb");
 * ```
 */
export async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [], err: string[] = [];
  const log = console.log, error = console.error;
  console.log = (...a: unknown[]) => void out.push(a.join(" "));
  console.error = (...a: unknown[]) => void err.push(a.join(" "));
  try {
    return { code: await main(args), out: out.join("\n"), err: err.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}
