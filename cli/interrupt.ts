/**
 * Interruption of long commands (`batch`, `verify` of a batch): the first SIGINT, SIGTERM or SIGHUP
 * asks the command to stop cleanly (a batch kills its worker processes, which a bare exit would leave
 * running, and says what did not run); a second one exits at once.
 *
 * @module
 */

/** The signals that interrupt, with the exit code a shell expects after each (128 + its number). */
const SIGNALS = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

/** A signal name this module listens for. */
export type InterruptSignal = keyof typeof SIGNALS;

/** An interruption in progress: its abort signal, and which signal aborted it. */
export interface Interruption {
  /** Aborts at the first interrupting signal. */
  readonly signal: AbortSignal;
  /** The signal that arrived, if one has. */
  readonly received: () => InterruptSignal | undefined;
  /** Stops listening (the command is done). */
  readonly dispose: () => void;
}

/**
 * Listens for the interrupting signals until `dispose` (the signals Windows lacks are skipped).
 *
 * @example
 * ```ts
 * const interruption = listenForInterrupts();
 * try {
 *   await runBatch({ ...options, signal: interruption.signal });
 * } finally {
 *   interruption.dispose();
 * }
 * ```
 */
export function listenForInterrupts(): Interruption {
  const controller = new AbortController();
  let received: InterruptSignal | undefined;
  const listeners: [InterruptSignal, () => void][] = [];
  for (const name of Object.keys(SIGNALS) as InterruptSignal[]) {
    const listener = () => {
      if (received) Deno.exit(SIGNALS[received]); // asked twice: stop now
      received = name;
      controller.abort(new Error(`interrupted by ${name}`));
    };
    try {
      Deno.addSignalListener(name, listener);
      listeners.push([name, listener]);
    } catch {
      // Not a signal on this platform.
    }
  }
  return {
    signal: controller.signal,
    received: () => received,
    dispose: () => {
      for (const [name, listener] of listeners) Deno.removeSignalListener(name, listener);
    },
  };
}

/** The exit code after `signal`, as a shell reports a process it ended (128 + the signal's number). */
export function interruptedExitCode(signal: InterruptSignal): number {
  return SIGNALS[signal];
}
