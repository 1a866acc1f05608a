/**
 * Exit codes and the usage error: what `cli/main.ts` needs before it knows the command, kept apart
 * from `shared.ts` so that dispatching loads nothing a command does not need.
 *
 * @module
 */

/** Exit codes of the CLI. */
export const EXIT = { ok: 0, failed: 1, usage: 2, invalidGraph: 3, badInput: 4 } as const;

/**
 * A mistake in how the CLI was called (exit code 2). `showUsage: false` for a mistake in what the
 * arguments name (files that clash, a manifest that is not one, a missing permission): the usage
 * text would only bury the message.
 */
export class UsageError extends Error {
  constructor(message: string, readonly showUsage = true) {
    super(message);
  }
}
