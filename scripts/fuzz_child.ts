/**
 * One fuzz worker process (started by `scripts/fuzz.ts`): runs cases `from … from+count-1` of one
 * format and seed, printing an NDJSON line before (`start`) and after (`outcome`) each, so the
 * parent can tell which case hung or took the process down.
 *
 * Usage: `deno run --allow-read scripts/fuzz_child.ts <format> <seed> <from> <count>`
 *
 * @module
 */
import { fuzzInput, runFuzzCase } from "../tests/fuzz/pipeline.ts";

const [format, seed, from, count] = Deno.args;
const encoder = new TextEncoder();
const say = (line: unknown) => Deno.stdout.writeSync(encoder.encode(JSON.stringify(line) + "\n"));
for (let i = Number(from); i < Number(from) + Number(count); i++) {
  say({ start: i });
  const { name, bytes } = await fuzzInput(format as never, Number(seed), i);
  const result = await runFuzzCase(bytes, name);
  say({ index: i, size: bytes.byteLength, ...result });
}
