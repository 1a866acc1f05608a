/**
 * A child process running numbered cases, as `deno task fuzz` and `deno task sweep` run them: it
 * prints one JSON line as each case starts (`{"start": i}`) and one with its result (`{"index": i,
 * …}`), so a case that hangs, runs out of memory or crashes the process is known by its number, and
 * the parent starts a new child after it.
 *
 * @module
 */
import { lineStream } from "../runtime/lines.ts";

/** What a case child ended with. */
export interface CaseChildEnd {
  /** The case it started and did not finish (it hung, or died in it), if any. */
  readonly current: number | undefined;
  /** True when no line came within the time limit and it was killed. */
  readonly hung: boolean;
  /** True when it exited with status 0. */
  readonly success: boolean;
  /** Its standard error. */
  readonly stderr: string;
}

/**
 * Runs `deno <args>` as a case child, handing each result line to `onResult`; killed when no line
 * comes within `timeoutMs`.
 */
export async function runCaseChild(
  args: string[],
  timeoutMs: number,
  // deno-lint-ignore no-explicit-any
  onResult: (result: any) => void,
): Promise<CaseChildEnd> {
  const process = new Deno.Command(Deno.execPath(), { args, stdout: "piped", stderr: "piped" }).spawn();
  const stderr = new Response(process.stderr).text();
  const reader = process.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(lineStream()).getReader();
  let current: number | undefined;
  let hung = false;
  while (true) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = new Promise<"timeout">((r) => timer = setTimeout(() => r("timeout"), timeoutMs));
    const read = await Promise.race([reader.read(), tick]);
    clearTimeout(timer);
    if (read === "timeout") {
      hung = true;
      process.kill("SIGKILL");
      break;
    }
    if (read.done) break;
    const line = JSON.parse(read.value);
    if ("start" in line) current = line.start;
    else {
      onResult(line);
      current = undefined;
    }
  }
  await reader.cancel().catch(() => {});
  const status = await process.status;
  return { current, hung, success: status.success, stderr: await stderr };
}
