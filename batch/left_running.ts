/**
 * Deno workers a batch could not stop: Deno's `terminate()` does not end a worker in JavaScript that
 * never yields (denoland/deno#35657), so one stuck so runs on until the batch's process ends. Stuck
 * in a module's top level, it also keeps node_modules' lock (`node_modules/.deno/.deno.lock`, with
 * `"nodeModulesDir": "auto"`), which every module load of this process and of any Deno process on that
 * node_modules then waits for: no fresh Deno worker can start after it. Worker processes are killed,
 * their lock with them.
 *
 * @module
 */
import { PartgraphError } from "../runtime/errors.ts";
import type { BatchSummary } from "./types.ts";

/** A Deno worker left running: the input it was given, and where it was when it overran its limit. */
export interface LeftRunning {
  readonly input: string;
  /** The nodes it was in, or whose modules it was loading (as `RunningBoard.ids` names them). */
  readonly in: readonly string[];
  /** It overran its start (loading the graph's code), not the time limit per input. */
  readonly starting: boolean;
}

/**
 * Where a worker left running was, in brackets: ``(in node `x` (t))``, ``(loading the module of node
 * `x` (t))`` (a module that never ends loading keeps those loading beside it pending too), or what it did.
 */
export function whereText(left: LeftRunning): string {
  const where = left.in.map((item) => item.startsWith("node ") ? `in ${item}` : item);
  if (!where.length && left.starting) where.push("loading the graph's code");
  return where.length ? ` (${where.join(", ")})` : "";
}

/** Says a worker left running was, for a failed input's message and the batch's warning. */
export const RUNS_ON =
  "did not answer when stopped and runs on: a Deno worker in JavaScript that never yields cannot be " +
  "stopped (denoland/deno#35657)";

/**
 * Why a batch on Deno workers stopped: a fresh worker could not load the graph's code within its limit
 * after a worker was left running ({@link LeftRunning}), which then most likely holds node_modules'
 * lock, so every later fresh worker would wait out its limit too. Worker processes are the way out.
 */
export class WorkersWedged extends PartgraphError {
  /**
   * The batch's figures when it stopped (set by `runBatch` once its other workers gave up their
   * inputs): which inputs ended, ok or failed, and how many never ran.
   */
  summary?: BatchSummary;

  /**
   * `input`: the input whose fresh worker did not start within `seconds`; `left`: the workers left
   * running before it.
   */
  constructor(
    readonly input: string,
    readonly seconds: number,
    readonly left: readonly LeftRunning[],
  ) {
    const stuck = left.map((l) => `the one given ${l.input}${whereText(l)}`).join(", ");
    super(
      "workers_wedged",
      `the batch stopped: the fresh Deno worker given ${input} did not load the graph's code within ` +
        `${seconds} s, after a Deno worker was left running in JavaScript that never yields (${stuck}). ` +
        "Deno cannot stop such a worker (denoland/deno#35657), and one stuck while a module loads keeps " +
        "node_modules' lock (node_modules/.deno/.deno.lock), which every module load of this process, " +
        "and of any Deno process on that node_modules, waits for: each input left would wait out its " +
        "limit and fail. Run the batch on worker processes, which are killed when stuck: --processes, " +
        `with permission to run Deno (--allow-run=${Deno.execPath()}, or -A).`,
    );
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), input: this.input, seconds: this.seconds, left: this.left };
  }
}
