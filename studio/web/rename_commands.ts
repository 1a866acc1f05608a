/// <reference lib="dom" />
/**
 * The page's renames (F2, a double-click on a node, the name fields of the parameter panel): a node's
 * id in the graph shown, or a graph input or output — the sockets of every node that uses the graph
 * as a node group, which follow in the same change, as Blender's group nodes follow a socket renamed
 * in the group's interface. Graphs that use it and are not open are opened (as unsaved tabs); files
 * that use it but that the editor cannot draw are named, to be fixed by hand. The files' steps are
 * marked together: undoing the rename in one undoes it in the others.
 *
 * @module
 */
import type { GraphModel } from "./model.ts";
import { type RenameKind, renameProblem } from "./rename.ts";
import { api } from "./types.ts";

/** What a rename works on: the page's open graphs and its status bar. */
export interface RenameContext {
  readonly models: Map<string, GraphModel>;
  /** The graph shown. */
  current(): GraphModel;
  /** Opens a graph file in the page without showing it (a user of a renamed group socket). */
  load(path: string): Promise<GraphModel>;
  status(message: string, refused?: boolean): void;
}

/** `GET /api/users`: the graph files that use a group file, and where they were looked for. */
interface GroupUsers {
  users: string[];
  unopenable: string[];
  /** The folders searched, each with those below it. */
  searched: string[];
  /** How many `.json` files were read. */
  files: number;
  /** False when the search stopped at its limit: users past it were not looked for. */
  complete: boolean;
  /** Folders not searched to the end (the first few), and how many there are in all. */
  unfinished?: string[];
  unfinishedCount?: number;
}

let renames = 0;

/**
 * Renames `from` to `to` in the graph shown; for a graph input or output, in every graph that uses
 * it as a node group too. Returns the reason when the name is refused (nothing changes then).
 */
export async function renameInShown(
  ctx: RenameContext,
  kind: RenameKind,
  from: string,
  to: string,
): Promise<string | undefined> {
  const model = ctx.current();
  const problem = renameProblem(model.graph, kind, from, to);
  if (problem) return problem;
  if (to === from) return undefined;
  if (kind === "node") {
    model.rename(kind, from, to);
    ctx.status(`Renamed ${from} to ${to} in ${model.path}, with its links`);
    return undefined;
  }
  const found = model.hasFile
    ? await api<GroupUsers>(`/api/users?path=${encodeURIComponent(model.path)}`)
    : undefined;
  // A graph open here uses the group as it is open (an unsaved group node counts; one deleted does not).
  const opened: string[] = [];
  for (const path of (found?.users ?? []).filter((p) => !ctx.models.has(p))) {
    await ctx.load(path);
    opened.push(path);
  }
  // The graph shown may have changed while the users were read: check the name again.
  const late = renameProblem(model.graph, kind, from, to);
  if (late) return late;
  const together = `rename-${++renames}`;
  model.rename(kind, from, to, together);
  const followed: string[] = [];
  for (const other of ctx.models.values()) {
    if (other === model) continue;
    if (other.followGroupRename(model.path, kind, from, to, together).length) followed.push(other.path);
  }
  const parts = [`Renamed graph ${kind} ${from} to ${to} in ${model.path}`];
  if (followed.length) {
    const fresh = followed.filter((p) => opened.includes(p));
    parts.push(
      `its uses follow in ${followed.join(", ")} (unsaved${
        fresh.length ? `; opened: ${fresh.join(", ")}` : ""
      })`,
    );
  }
  const unopenable = found?.unopenable ?? [];
  if (unopenable.length) {
    parts.push(
      `${unopenable.join(", ")} ${unopenable.length > 1 ? "use" : "uses"} it too but cannot ` +
        `be drawn here: rename '${from}' there by hand`,
    );
  }
  // Where its users were looked for, so a graph elsewhere is not missed without a word.
  if (found) parts.push(searchedNote(found));
  ctx.status(parts.join("; "), unopenable.length > 0 || found?.complete === false);
  return undefined;
}

/** Folders not searched to the end that the rename's note names, at most. */
const NOTE_FOLDERS = 1;

/** Where `GET /api/users` looked: its folders (with those below them), and whether it stopped short. */
function searchedNote(found: GroupUsers): string {
  const where = `users looked for in ${found.files} .json file(s) under ${found.searched.join(", ")}`;
  if (found.complete) return where;
  // Name the first folder left unfinished, so the user knows where to look by hand: the status
  // bar cuts a long message, and the server names up to 20 (a checkout's out/ of copies of the repo).
  const named = (found.unfinished ?? []).slice(0, NOTE_FOLDERS);
  const more = (found.unfinishedCount ?? named.length) - named.length;
  const folders = named.length
    ? ` (not searched to the end: ${named.join(", ")}${more > 0 ? ` and ${more} more` : ""})`
    : "";
  return `${where}, stopped at the search's limit${folders}: rename it by hand in the graphs it did not reach`;
}

/**
 * After Undo (Redo) took a step marked `together` in one file: takes the same step in every other open
 * file whose next step it is, and names those; a file edited since keeps its part, and is named too.
 */
export function stepTogether(
  models: Iterable<GraphModel>,
  done: GraphModel,
  direction: "undo" | "redo",
  together: string,
): string {
  const followed: string[] = [], kept: string[] = [];
  for (const model of models) {
    if (model === done) continue;
    if (model.nextTogether(direction) === together) {
      model.step(direction);
      followed.push(model.path);
    } else if (model.holds(together)) kept.push(model.path);
  }
  return [
    ...(followed.length ? [`; also in ${followed.join(", ")}`] : []),
    ...(kept.length ? [`; not in ${kept.join(", ")} (edited since: ${direction} there)`] : []),
  ].join("");
}
