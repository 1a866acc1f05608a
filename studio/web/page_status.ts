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
  return () =>
    void action().catch((error) => status(error instanceof Error ? error.message : String(error), true));
}
