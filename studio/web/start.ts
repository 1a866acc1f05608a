/**
 * The graph the page starts on, whatever state the project's files are in: a project without
 * `graphs/`, a requested graph that is broken (a merge's conflict markers, a half-written file, not
 * a graph at all) and the next ones in `graphs/` broken too — the page opens what it can, says why
 * it did not open the rest, and is always usable (a new graph when nothing opens).
 *
 * @module
 */

/** What starting works on: the page's navigation and status bar. */
export interface StartContext {
  /** Opens a graph file as the top graph; throws when it cannot (the reason as the message). */
  open(path: string): Promise<void>;
  /** Adds a new, empty graph at `path` that has no file until Save. */
  startNew(path: string): void;
  /** `path` as the picker lists it (relative to the project), or as given when the server refuses it. */
  shown(path: string): Promise<string>;
  status(message: string, refused?: boolean): void;
}

/**
 * Opens `requested` (the page's `?graph=`, the server's start graph, or undefined), else the first of
 * `files` (the picker's) that opens, else a new graph beside them; each fallback is said in the status
 * bar with the reason the graph before it did not open.
 */
export async function openStart(
  ctx: StartContext,
  files: readonly string[],
  requested?: string,
): Promise<void> {
  const tried: string[] = [];
  // The one asked for is not tried twice when the picker lists it under its project-relative name.
  const asked = requested === undefined ? undefined : await ctx.shown(requested);
  const order = asked === undefined ? files : [requested!, ...files.filter((f) => f !== asked)];
  for (const path of order) {
    try {
      await ctx.open(path);
    } catch (error) {
      tried.push(error instanceof Error ? error.message : String(error));
      continue;
    }
    if (tried.length) ctx.status(`${tried[0]}; opened ${path} instead${others(tried)}`, true);
    return;
  }
  const path = newGraphPath(files);
  ctx.startNew(path);
  await ctx.open(path);
  const why = tried.length ? `${tried[0]}${others(tried)}; ` : "No graph files in graphs/ here: ";
  ctx.status(`${why}a new graph ${path}, written when you Save (Open takes a path)`, tried.length > 0);
}

/** How many more graphs did not open, after the first's reason. */
function others(tried: readonly string[]): string {
  return tried.length > 1 ? ` (${tried.length - 1} more graph file(s) in graphs/ did not open either)` : "";
}

/** `graphs/graph.json`, or `graphs/graph_2.json`… when a file of the picker's has the name. */
function newGraphPath(files: readonly string[]): string {
  let path = "graphs/graph.json";
  for (let i = 2; files.includes(path); i++) path = `graphs/graph_${i}.json`;
  return path;
}
