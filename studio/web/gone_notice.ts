/// <reference lib="dom" />
/**
 * A graph file renamed, moved or deleted on disk while the page shows it (`git mv`, a branch switch, a
 * file manager) is said when the user comes back to the page, not first at Save: the window's focus
 * asks the server whether the file shown is still there, and the status bar names it when it is not,
 * and what Save will do (offer where it went, or ask before writing it again).
 *
 * @module
 */
import type { GraphModel } from "./model.ts";
import { api } from "./types.ts";

/** What the notice needs of the page: the graph shown and its status bar. */
export interface GoneContext {
  current(): GraphModel | undefined;
  status(message: string, refused?: boolean): void;
}

/** Checks the file shown each time the window gets the focus back (see the module doc). */
export function noticeGone(ctx: GoneContext): void {
  addEventListener("focus", () => void checkShown(ctx).catch(() => undefined));
}

/** Says in the status bar when the graph shown has a file that is no longer on disk. */
export async function checkShown(ctx: GoneContext): Promise<void> {
  const model = ctx.current();
  if (!model?.hasFile) return; // a new graph has no file yet
  const answer = await api<{ exists: boolean }>(`/api/exists?path=${encodeURIComponent(model.path)}`);
  if (answer.exists || ctx.current() !== model) return;
  ctx.status(
    `${goneMessage(model.path)}: Save offers where it went when the same file is found in the project, ` +
      "else asks before writing it again",
    true,
  );
}

/** The start of what the page says of a graph file no longer on disk. */
export function goneMessage(path: string): string {
  return `${path} is no longer on disk (renamed, moved or deleted outside the studio)`;
}
