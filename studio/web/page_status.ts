/// <reference lib="dom" />
/**
 * The page's status bar: what an action did, or why it was refused (a refusal is marked), and the
 * guard every page action runs in, so a failure is said there rather than lost in the console.
 *
 * @module
 */
import { shownMessage } from "./shown_name.ts";

/** Says `message` in the status bar; `refused` marks a refused action. */
export function status(message: string, refused = false): void {
  const bar = document.getElementById("status")!;
  bar.textContent = shownMessage(message);
  bar.classList.toggle("refused", refused);
}

/** Runs a page action; a failure (a refused path, an unreadable file) goes to the status bar. */
export function guarded(action: () => Promise<unknown>): () => void {
  return () => void action().catch((error) => status(errorText(error), true));
}

/**
 * What the status bar says when the studio's server did not answer at all (its process was stopped,
 * its terminal closed): the browser's own words were "Failed to fetch", which left a user to reload
 * the page — and lose every unsaved edit with it.
 */
export const SERVER_GONE = "the studio server does not answer (stopped, or its terminal closed): start " +
  "partgraph studio again in the same folder, then try again; this page keeps its unsaved edits until " +
  "then (reloading it now would lose them)";

/** True when `error` is a request the server never answered (chromium, Firefox and Safari words). */
export function serverGone(error: unknown): boolean {
  return error instanceof TypeError && /failed to fetch|networkerror|load failed/i.test(error.message);
}

/** An action's failure as the status bar says it. */
export function errorText(error: unknown): string {
  return serverGone(error) ? SERVER_GONE : error instanceof Error ? error.message : String(error);
}
