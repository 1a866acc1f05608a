/**
 * A batch, or `verify`'s rebuild of one, that stopped because Deno workers could no longer start
 * ({@link WorkersWedged}, `batch/left_running.ts`): the one place both commands take it as a value and
 * tell of it — on stderr, and with `--json` as the stream's last line, so a consumer of the NDJSON (a CI
 * dashboard) sees why the batch ended rather than a stream that just stops.
 *
 * @module
 */
import { WorkersWedged } from "../batch/left_running.ts";
import type { BatchSummary } from "../batch/types.ts";
import { EXIT } from "./exit.ts";

/** `run`'s result, or the {@link WorkersWedged} that stopped it; any other error is thrown on. */
export function orWedged<T>(run: Promise<T>): Promise<T | WorkersWedged> {
  return run.catch((error) => {
    if (error instanceof WorkersWedged) return error;
    throw error;
  });
}

/** How far a wedged batch came: inputs of the run, and how many ended ok, failed, or never ran. */
function counts(summary: BatchSummary | undefined): Record<string, number> | undefined {
  if (!summary) return undefined;
  const { inputs, ok, failed, notRun } = summary;
  return { inputs, ok, failed, notRun };
}

/**
 * Tells of a wedged batch (`command` "batch") or rebuild (`command` "verify") and gives its exit code
 * (1): the error on stderr with how far the batch came; with `json`, a final line — `batch`'s summary
 * event (`manifest` null, as none is written) with the error beside it, or `verify`'s verdict object
 * `{ ok: false, error, rebuilt }`. The error names the input whose fresh worker could not start and
 * the workers left running, each with its input and the node it was in (`left`).
 */
export function reportWedged(
  wedged: WorkersWedged,
  command: "batch" | "verify",
  json: boolean | undefined,
): number {
  const { summary } = wedged;
  if (json) {
    const error = wedged.toJSON();
    const line = command === "batch"
      ? { event: "summary", ...summary, manifest: null, error }
      : { ok: false, error, rebuilt: counts(summary) ?? null };
    console.log(JSON.stringify(line));
  }
  const came = summary
    ? `${summary.ok + summary.failed} of ${summary.inputs} inputs ended (${summary.failed} failed), ` +
      `${summary.notRun} not run; `
    : "";
  // What ran is in the cache; the process ends here, the worker left running with it.
  const after = command === "batch"
    ? "no manifest written (a re-run on worker processes takes what finished from the cache)"
    : "nothing verified";
  console.error(`error: ${wedged.message}\n${came}${after}`);
  return EXIT.failed;
}
