/// <reference lib="dom" />
/**
 * The page's Save: every changed open graph written in the save format, a new graph's first save
 * exclusive (a file made there in the meantime is written over only if confirmed).
 *
 * @module
 */
import { replaceFile, type SavedFile, saveNew } from "./group_commands.ts";
import type { GraphModel } from "./model.ts";
import { errorText, SERVER_GONE, serverGone } from "./page_status.ts";
import { joinPath } from "./types.ts";

/** What Save works on: the page's open graphs and its status bar. */
export interface SaveContext {
  readonly models: Map<string, GraphModel>;
  status(message: string, refused?: boolean): void;
  /** After the writes: the title's and tabs' `*`, the drawing. */
  saved(): void;
  /**
   * A graph's file was moved on disk and its edits were saved at the new path: the page goes on with
   * it there; returns what to add to the status bar.
   */
  moved?(from: string, to: string): Promise<string>;
}

/**
 * Save: writes every open graph that differs from its file (a new graph's first save is exclusive)
 * and says what was written; a group file's issues leave out the inputs its node gives.
 */
export function saveAll(ctx: SaveContext): Promise<void> {
  if (saving) {
    // A slow server: the first Save's answer has not come. A second one now would send the digest
    // the first is replacing, be refused as "changed on disk" and ask to overwrite the page's own
    // save; instead the edits made meanwhile are saved once the first is done.
    again = true;
    ctx.status("Saving… (the last Save is still on its way; edits made since are saved after it)");
    return saving;
  }
  saving = (async () => {
    try {
      do {
        again = false;
        await saveChanged(ctx);
      } while (again && [...ctx.models.values()].some((model) => model.dirty));
    } finally {
      saving = undefined;
    }
  })();
  return saving;
}

/** The Save going on (its answers not all come yet), and whether Save was pressed again meanwhile. */
let saving: Promise<void> | undefined;
let again = false;

/** One Save of every changed open graph (see {@link saveAll}). */
async function saveChanged(ctx: SaveContext): Promise<void> {
  const { models, status } = ctx;
  const changed = [...models.values()].filter((model) => model.dirty);
  if (!changed.length) return status("Nothing to save: every open graph is as its file has it");
  const done: string[] = [], kept: string[] = [], moves: [string, string][] = [];
  for (const model of changed) {
    // What is posted is what the file now holds, even if an edit lands while the save is on its way.
    const sent = JSON.stringify(model.graph);
    let saved: Awaited<ReturnType<typeof saveOver>>;
    try {
      saved = model.hasFile ? await saveOver(model) : await saveFirst(model);
    } catch (error) {
      // Refused (a folder not writable): said with the others, and the other files are still saved.
      kept.push(serverGone(error) ? `${model.path} not saved: ${SERVER_GONE}` : errorText(error));
      continue;
    }
    if (saved && typeof saved === "object" && "compare" in saved) {
      kept.push(saved.compare);
      continue;
    }
    if (!saved || saved === "deleted" || saved === "unreadable") {
      kept.push(
        saved === "deleted"
          ? `${model.path} was deleted or moved on disk since it was opened: not written again`
          : saved === "unreadable"
          ? `${model.path} on disk is not a graph file now (a merge or another editor's save): not saved ` +
            "over it; this page keeps its edits (Save again to be asked again)"
          : model.hasFile
          ? `${model.path} changed on disk since it was opened: not saved over it (Revert shows the file's)`
          : `${model.path} exists now: not saved over it`,
      );
      continue;
    }
    model.markSaved(sent);
    model.fileDigest = saved.digest;
    if (saved.path !== model.path) moves.push([model.path, saved.path]);
    // A group file's inputs come from the node that uses it: alone, the check calls them missing.
    const issues = saved.issues.filter((i) =>
      !(i.kind === "missing_graph_input" && usedAsGroup(models, model.path))
    );
    // Its group nodes already have its sockets: they follow the open version, which is now the file.
    const from = saved.path === model.path ? "" : `, where ${model.path} was moved on disk`;
    done.push(
      `${saved.path} (${saved.bytes} bytes${issues.length ? `, ${issues.length} issue(s)` : ""}${from})`,
    );
  }
  // The page goes on with a moved file at its new path (the top graph reopened from there).
  for (const [from, to] of moves) kept.push(await ctx.moved?.(from, to) ?? "");
  // A new graph's path taken, or a file changed on disk, not overwritten: its edits stay unsaved here.
  const refused = kept.length > moves.length;
  status([...(done.length ? [`Saved ${done.join(", ")}`] : []), ...kept.filter(Boolean)].join("; "), refused);
  ctx.saved();
}

/**
 * Saves an opened graph over its file, unless the file changed on disk since the page read it
 * (another tab saved it, an editor or git wrote it) or is gone: then asks, and undefined (or
 * "deleted") when kept.
 */
async function saveOver(
  model: GraphModel,
): Promise<SavedFile | "deleted" | "unreadable" | Compare | undefined> {
  const post = (base?: string) =>
    fetch("/api/save", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: model.path, graph: model.graph, base }),
    });
  let response = await post(model.fileDigest);
  let answer = await response.json();
  if (response.status === 409 && answer.unreadable) {
    // Not JSON now: a merge half done in it, or another editor's save cut short. Overwriting is what
    // the user may want (this page's graph is whole), but only these bytes, as they were when asked.
    const ask = `${answer.error}.\n\nOverwrite ${model.path} with this page's graph? Its text on disk ` +
      (answer.unreadable === "conflict"
        ? "(both sides of the merge) is lost; Cancel keeps it, to finish the merge in a text editor or git."
        : "is lost; Cancel keeps it.");
    if (!confirm(ask)) return "unreadable";
    response = await post(answer.digest);
    answer = await response.json();
    if (response.status === 409) return undefined; // changed again while the user was asked
  } else if (response.status === 409 && answer.deleted && answer.movedTo?.length) {
    const moved = await saveMoved(model, answer);
    // Refused there (that file changed since the question): the old path is not offered instead.
    if (moved) return moved === "refused" ? "deleted" : moved;
  } else if (response.status === 409 && answer.deleted && answer.movedLike?.length) {
    const compare = compareMoved(model, answer);
    if (compare) return compare;
  }
  if (response.status === 409 && answer.changed && !answer.unreadable) {
    const ask = answer.deleted
      ? `${answer.error}. Write it again from this page?`
      : `${answer.error}. Overwrite it with this page's version (its changes are lost)?`;
    if (!confirm(ask)) return answer.deleted ? "deleted" : undefined;
    response = await post();
    answer = await response.json();
  }
  if (!response.ok) throw new Error(answer.error ?? `saving ${model.path}: HTTP ${response.status}`);
  return answer as SavedFile;
}

/**
 * The file `model` was opened from is gone, and the same bytes are at `answer.movedTo` (renamed or moved
 * by git or a file manager): asks to save there, and saves (unless that file changed meanwhile).
 * Undefined when the user says no: Save then asks whether to write the old path again; "refused" when
 * the file there changed between the question and the save (nothing is written).
 */
async function saveMoved(
  model: GraphModel,
  answer: { error: string; movedTo: string[] },
): Promise<SavedFile | "refused" | undefined> {
  const [to, ...more] = answer.movedTo;
  const also = more.length ? ` (also at ${more.join(", ")})` : "";
  const ask = `${answer.error}.\n\nThe file as this page opened it is now at ${to}${also}: ` +
    `moved or renamed (git mv, a file manager)?\n\nOK saves this page's graph at ${to} and goes on ` +
    `editing it there; Cancel asks whether to write ${model.path} again.`;
  if (!confirm(ask)) return undefined;
  const response = await fetch("/api/save", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ path: to, graph: model.graph, base: model.fileDigest }),
  });
  const saved = await response.json();
  if (response.status === 409) return "refused";
  if (!response.ok) throw new Error(saved.error ?? `saving ${to}: HTTP ${response.status}`);
  return saved as SavedFile;
}

/**
 * The first save of a graph started on a path that did not exist: exclusive, so a file made there in
 * between (by another tool, another tab) is not overwritten unless confirmed, and then only as it was
 * when the user was asked (nor ever a file that is not a graph); undefined when kept.
 */
async function saveFirst(model: GraphModel): Promise<SavedFile | undefined> {
  const written = await saveNew(model.path, model.graph);
  if (!("exists" in written)) return written;
  if (!written.graph) return;
  if (!confirm(`${model.path} exists now: it was made since this graph was started. Overwrite it?`)) return;
  const replaced = await replaceFile(model.path, model.graph, written.digest);
  return replaced === "changed" ? undefined : replaced;
}

/** True when an open graph uses the graph file `path` as a node group. */
function usedAsGroup(models: Map<string, GraphModel>, path: string): boolean {
  return [...models.values()].some((m) => [...m.groups.keys()].some((rel) => joinPath(m.path, rel) === path));
}

/** A Save that opened a likely new home of a moved file to compare: what the status bar says. */
interface Compare {
  readonly compare: string;
}

/**
 * The file `model` was opened from is gone and no file has its bytes, but graph files look like it
 * (`answer.movedLike`: the same name, most of its nodes — moved and edited since, by git or by hand):
 * asks whether to open the likeliest in a new tab to compare. Nothing is written anywhere (saving
 * this page's graph over it would lose the edits made there); undefined when the user says no, and
 * Save then asks whether to write the old path again.
 */
function compareMoved(
  model: GraphModel,
  answer: { error: string; movedLike: { path: string; why: string }[] },
): Compare | undefined {
  const [best, ...more] = answer.movedLike;
  const also = more.length ? `\n\nAlso like it: ${more.map((m) => `${m.path} (${m.why})`).join(", ")}.` : "";
  const ask = `${answer.error}.\n\nNo file has the bytes this page opened, but ${best.path} looks like it ` +
    `(${best.why}): moved and edited since?${also}\n\nOK opens ${best.path} in a new tab to compare ` +
    `(nothing is written; this page keeps its edits); Cancel asks whether to write ${model.path} again.`;
  if (!confirm(ask)) return undefined;
  open(`?graph=${encodeURIComponent(best.path)}`, "_blank");
  return {
    compare: `${model.path} was deleted or moved on disk; ${best.path} looks like it, edited since ` +
      `(${best.why}): opened in a new tab to compare, nothing written (this page keeps its edits)`,
  };
}
