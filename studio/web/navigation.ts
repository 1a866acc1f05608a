/// <reference lib="dom" />
/**
 * Where the page is: the top graph shown and the node groups Tab entered from it, and the ways to
 * move — open a graph (from the picker, a typed path, the address), Tab into a group and back, go to
 * the node a run-log line names, show an open file where its tab last showed it.
 *
 * @module
 */
import type { Checked } from "./live_check.ts";
import type { GraphModel } from "./model.ts";
import type { Trails } from "./trails.ts";
import { api, joinPath } from "./types.ts";

/** What moving around asks of the page. */
export interface NavigationPage {
  readonly models: ReadonlyMap<string, GraphModel>;
  /** Where each open file was last shown. */
  readonly trails: Trails;
  /** Reads a graph file into the page's open graphs (not shown), with its node groups' sockets. */
  load(path: string): Promise<GraphModel>;
  /** Adds a new, empty graph that has no file yet (Open with a path that does not exist). */
  create(path: string): GraphModel;
  /** The live check of a graph just opened, before it is first drawn (its group nodes' sockets). */
  firstCheck(model: GraphModel): Promise<Checked | undefined>;
  /** An open graph shown again: re-read when unedited; what changed, if anything (see `followFile`). */
  follow(model: GraphModel): Promise<string | undefined>;
  /** Draws the graph shown now, with its run states, and the title and tabs. */
  draw(): void;
  /** After a graph was opened: the picker, the panel, the search list, the check (`first`, or a new one). */
  opened(first: Checked | undefined): Promise<void>;
  /** After Tab back out of a group: the check. */
  left(): Promise<void>;
  /** Selects a node of the graph shown. */
  select(id: string): void;
  status(message: string, refused?: boolean): void;
}

/** The graph shown and the way Tab led to it, and the moves between graphs. */
export class Navigation {
  /** Paths of the open graph and the graphs it was entered from (Tab into a group pushes). */
  readonly stack: string[] = [];
  /** The group node ids Tab entered, from the top graph down (`stack[i + 1]` is `entered[i]`'s graph). */
  readonly entered: string[] = [];

  constructor(private readonly page: NavigationPage) {}

  /** The graph shown. */
  current(): GraphModel {
    return this.page.models.get(this.stack[this.stack.length - 1])!;
  }

  /** The path of the top graph shown (the one Run runs). */
  get top(): string {
    return this.stack[0];
  }

  /**
   * Opens a graph file (or shows it again if it is open), with its node groups' sockets: as the top
   * graph, or `via` a group node of the graph shown now (Tab).
   */
  async open(path: string, via?: string): Promise<void> {
    let model = this.page.models.get(path);
    let first: Checked | undefined;
    if (!model) {
      model = await this.page.load(path);
      path = model.path;
      // Its group nodes take the sockets of the groups as open here (unsaved edits included) before it
      // is first drawn; the file's sockets the server read would show for one round trip.
      first = await this.page.firstCheck(model);
    }
    // Shown again: as its file is now, unless edited here (another tab or git may have written it).
    const followed = first ? undefined : await this.page.follow(model);
    if (via === undefined) {
      this.stack.length = this.entered.length = 0;
      addressTop(path);
    } else this.entered.push(via);
    this.stack.push(path);
    this.page.draw();
    await this.page.opened(first);
    if (followed) this.page.status(followed, followed.includes("cannot be read"));
    else if (first && model.unstacked.length) this.page.status(unstackedNotice(model.unstacked.length));
    // A refusal still in the bar (an earlier open that failed) would read as this open's.
    else if (refusalShown()) this.page.status(`Opened ${path}`);
  }

  /**
   * Open with a typed path: a graph file, or one that does not exist yet — a new, empty graph there
   * after a confirm, written by Save (a pipeline authored from scratch needs no file made elsewhere).
   * Asking first whether it exists also keeps a typo from being an HTTP 404 in the console.
   */
  async openTyped(path: string): Promise<void> {
    const { models, status } = this.page;
    if (models.has(path)) return this.open(path);
    const { path: shown, exists } = await api<{ path: string; exists: boolean }>(
      `/api/exists?path=${encodeURIComponent(path)}`,
    );
    if (exists || models.has(shown)) return this.open(shown);
    if (!shown.endsWith(".json")) {
      return status(`${shown} does not exist (a graph file's name ends in .json)`, true);
    }
    if (!confirm(`${shown} does not exist. Start a new graph there? Its file is written when you Save.`)) {
      return status(`Open cancelled: ${shown} does not exist`);
    }
    this.page.create(shown).markNew();
    await this.open(shown);
    status(`New graph ${shown}: it is written when you Save`);
  }

  /** Tab on a group node: opens its graph inside the graph shown. */
  async enterGroup(id: string): Promise<void> {
    const node = this.current().graph.nodes[id];
    if (node?.graph) await this.open(joinPath(this.current().path, node.graph), id);
  }

  /** Tab with nothing selected: back to the graph the one shown was entered from. */
  async leaveGroup(): Promise<void> {
    if (this.stack.length < 2) {
      return this.page.status("Tab: select a node group to open it (this is the top graph)");
    }
    this.stack.pop();
    this.entered.pop();
    this.page.draw();
    await this.page.left();
  }

  /**
   * Shows the node a run-log line names (`id` flattened, as the runtime reports it) in the graph `top`
   * ran: leaves the groups it is not inside and Tabs into those it is, then selects it.
   */
  async reveal(top: string, id: string): Promise<void> {
    const groups = id.split("/");
    const node = groups.pop()!;
    // The graph was edited since the run: show the deepest group that is still there.
    const gone = await this.goTo(top, groups);
    const shown = gone ?? node;
    if (shown in this.current().graph.nodes) return this.page.select(shown);
    this.page.status(`${id} is not in ${this.current().path} any more`, true);
  }

  /**
   * A file tab's click: shows that open file where it was last shown — leaving the groups entered
   * below it, or going back through the group nodes Tab entered to reach it — else as the top graph.
   */
  async showFile(path: string): Promise<void> {
    const at = this.stack.indexOf(path);
    if (at >= 0) {
      while (this.stack.length > at + 1) await this.leaveGroup();
      return;
    }
    const trail = this.page.trails.of(path);
    if (trail && !(await this.goTo(trail.top, trail.entered)) && this.current().path === path) return;
    await this.open(path);
  }

  /**
   * Shows the graph reached from top graph `top` by entering the group nodes `groups` in turn: leaves
   * the groups shown that are not on the way and Tabs into the rest. Returns the first of `groups` that
   * is no longer a group node of the graph shown (it stops there), else undefined.
   */
  private async goTo(top: string, groups: readonly string[]): Promise<string | undefined> {
    if (this.top !== top) await this.open(top);
    const entered = this.entered;
    let shared = 0;
    while (shared < entered.length && shared < groups.length && entered[shared] === groups[shared]) shared++;
    while (entered.length > shared) await this.leaveGroup();
    for (const group of groups.slice(shared)) {
      if (this.current().graph.nodes[group]?.type !== "graph") return group;
      await this.enterGroup(group);
    }
    return undefined;
  }
}

/**
 * Puts the top graph shown in the address (`?graph=`), so a reload opens it again rather than the
 * graph the studio started with (the unsaved-changes prompt comes first when there are any).
 */
function addressTop(path: string): void {
  const url = new URL(location.href);
  if (url.searchParams.get("graph") === path) return;
  url.searchParams.set("graph", path);
  history.replaceState(history.state, "", url);
}

/**
 * What the status bar says when a file put nodes wholly under others (`stacks.ts`): where they are
 * now, and that the file is unchanged until a Save.
 */
export function unstackedNotice(count: number): string {
  const nodes = count === 1 ? "1 node" : `${count} nodes`;
  return `${nodes} the file put under others (the mouse could not reach them) laid out below the rest; ` +
    "the file keeps its positions until you Save";
}

/** True when the status bar shows a refused action's message. */
function refusalShown(): boolean {
  return document.getElementById("status")?.classList.contains("refused") ?? false;
}
