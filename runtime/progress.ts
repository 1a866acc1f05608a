/**
 * Progress output: a human line per node on stderr (when it is a terminal, unless quiet), or one
 * NDJSON event per line for machines (`--json`).
 *
 * @module
 */
import type { EventSink, RunEvent } from "./events.ts";

/** Writes human-readable progress lines to stderr. */
export function humanProgress(): EventSink {
  const write = (text: string) => console.error(text);
  return (event: RunEvent) => {
    if (event.event === "warning") {
      write(`  warning  ${event.id}: ${event.message}`);
      return;
    }
    if (event.state === "running") return;
    const detail = event.state === "cached"
      ? `cached (${event.tier})`
      : event.state === "done"
      ? `${event.ms!.toFixed(1)} ms`
      : event.state === "failed"
      ? `FAILED: ${event.error?.message ?? ""}`
      : "skipped (upstream failed)";
    write(`  ${event.id.padEnd(24)} ${event.type.padEnd(22)} ${detail}`);
  };
}

/**
 * Writes each event as one JSON line to stdout, through the `console.log` of the moment the sink is
 * made: a caller may send `console.log` elsewhere while the run goes on (the CLI sends what nodes
 * print to stderr), and the events still reach stdout.
 */
export function ndjsonProgress(): EventSink {
  const log = console.log;
  return (event: RunEvent) => log(JSON.stringify(event));
}
