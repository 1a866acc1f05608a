/// <reference lib="dom" />
/**
 * The studio page: wires the node editor, the parameter panel, live validation, runs and the 3D
 * preview to the studio server's API.
 *
 * @module
 */
import { NodeEditor } from "./editor.ts";
import { groupSelection, ungroupSelection } from "./group_commands.ts";
import { GraphModel, INPUTS_ID, OUTPUTS_ID } from "./model.ts";
import { focusNameField } from "./name_field.ts";
import { renderGraphInputs, renderGraphOutputs, renderParams, showParamIssues } from "./params.ts";
import { type RenameContext, renameInShown, stepTogether } from "./rename_commands.ts";
import type { RenameKind } from "./rename.ts";
import { PreviewPanel, selectTab } from "./preview_panel.ts";
import { RunStates } from "./states.ts";
import { RunsRead } from "./run_staleness.ts";
import { type Checked, LiveChecks, othersOpen, showIssues } from "./live_check.ts";
import { type FilesContext, followFile, renderFileTabs, revertShown } from "./files.ts";
import { type RunContext, runTop } from "./run_panel.ts";
import { saveAll } from "./save.ts";
import { openStart } from "./start.ts";
import { scopesOf } from "./scopes.ts";
import { setUpSearch } from "./search.ts";
import { Trails } from "./trails.ts";
import { Navigation } from "./navigation.ts";
import { api, type Catalogue, type OpenedGraph } from "./types.ts";
import { shownMessage, shownText } from "./shown_name.ts";

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

const catalogue = await api<Catalogue>("/api/catalogue");
const models = new Map<string, GraphModel>();
/** The latest run's node states of each top graph, kept across navigation. */
const runs = new RunStates();
/** What each top graph's latest run read, for its badges' staleness. */
const runsRead = new RunsRead();
/** Where each open file was last shown: its top graph and the group nodes Tab entered to reach it. */
const trails = new Trails();
let checkTimer: ReturnType<typeof setTimeout> | undefined;
const checks = new LiveChecks(models);
const previews = new PreviewPanel(status);
/** The graph shown, the groups Tab entered to reach it, and the moves between graphs. */
const nav = new Navigation({
  models,
  trails,
  load,
  create: newGraph,
  firstCheck: (model) => checks.of(model),
  follow: followFile,
  draw: () => {
    // The title first: its file tabs may change the header's height, and so the editor's, which
    // framing the graph needs.
    updateTitle();
    editor.show(current(), runStates());
  },
  opened: async (first) => {
    showPicked(nav.top);
    showParams();
    // The search box lists this graph's node types (its own modules' too).
    $("node-search").dispatchEvent(new Event("input"));
    if (first) showChecked(first);
    else await check();
  },
  left: check,
  select: (id) => editor.select([id]),
  status,
});
const { stack, entered } = nav;

const editor = new NodeEditor($<HTMLElement>("editor") as unknown as SVGSVGElement, {
  changed: () => afterEdit(),
  selected: () => showParams(),
  status,
  tab: (group) => guarded(() => group ? nav.enterGroup(group) : nav.leaveGroup())(),
  nothingTo,
  group: (ids) => guarded(() => groupSelection(groupContext(), ids))(),
  ungroup: (ids) => guarded(() => ungroupSelection(groupContext(), ids))(),
  rename: focusRename,
  together: (direction, together) => {
    const note = stepTogether(models.values(), current(), direction, together);
    updateTitle();
    return note;
  },
});

/** What a rename works on (`rename_commands.ts`). */
const renameContext: RenameContext = { models, current, load, status };

/**
 * F2 or a double-click on a node: selects it and puts the cursor in its name field (a node's id; on
 * Group Input or Output, their first socket's name), its text selected to type over.
 */
function focusRename(id: string): void {
  if (editor.selection.length !== 1 || editor.selection[0] !== id) editor.select([id]);
  const none = focusNameField($("params"), id);
  if (none) status(none);
}

/** A name field's rename in the graph shown: the panel, the drawing and the check follow. */
async function renamed(kind: RenameKind, from: string, to: string): Promise<string | undefined> {
  const problem = await renameInShown(renameContext, kind, from, to);
  if (problem !== undefined) return problem;
  edited(true);
  markStale();
  return undefined;
}

/**
 * Undo with nothing to undo in the graph shown, while another open file has edits to undo (edited in
 * a group, then Tab back): each file has its own history, as each has its own Save, so say where the
 * steps are rather than a bare "Nothing to undo" that reads as if the edit were lost.
 */
function nothingTo(direction: "undo" | "redo"): string | undefined {
  const others = othersOpen(models, current().path).filter((m) => m.steps(direction) > 0).map((m) => m.path);
  if (!others.length) return undefined;
  return `Nothing to ${direction} in ${current().path}; each open file has its own history: ` +
    `${others.join(", ")} ${others.length > 1 ? "have" : "has"} steps to ${direction} (click its tab)`;
}

/** What grouping and ungrouping work on: the open graph, the page's graphs, its status bar. */
function groupContext() {
  return {
    model: current(),
    models,
    catalogue,
    knownPaths:
      () => [...models.keys(), ...[...$<HTMLSelectElement>("graph-picker").options].map((o) => o.value)],
    select: (ids: string[]) => editor.select(ids),
    afterEdit,
    status,
  };
}

/** What Revert and a tab's close button work on (`files.ts`). */
const openFiles: FilesContext = {
  models,
  stack,
  leaveGroup: () => nav.leaveGroup(),
  show: (path) => nav.showFile(path),
  signatureOf: async (path, graph) => (await checks.post(path, graph)).signature,
  status,
  refreshed: async () => {
    markStale();
    editor.render();
    showParams();
    updateTitle();
    await check();
  },
};

/** What Run works on (`run_panel.ts`). */
const runContext: RunContext = {
  models,
  top: () => nav.top,
  runs,
  runsRead,
  othersOpen: (path) => othersOpen(models, path),
  showStates: (top) => {
    if (stack[0] !== top) return;
    editor.states = runStates();
    editor.render();
  },
  reveal: (top, id) => nav.reveal(top, id),
  preview: (url, label) => previews.show(url, label),
  runStarted: () => previews.runStarted(),
  status,
  guarded,
};

/** After an edit of the graph shown: re-check, redraw the panel, mark unsaved, dim stale badges. */
function afterEdit(): void {
  scheduleCheck();
  showParams();
  updateTitle();
  markStale();
}

/** Runs a page action; a failure (a refused path, an unreadable file) goes to the status bar. */
function guarded(action: () => Promise<unknown>): () => void {
  return () =>
    void action().catch((error) => status(error instanceof Error ? error.message : String(error), true));
}

function status(message: string, refused = false): void {
  const bar = $("status");
  bar.textContent = shownMessage(message);
  bar.classList.toggle("refused", refused);
}

function current(): GraphModel {
  return nav.current();
}

/** Reads a graph file into the page's open graphs (not shown), with its node groups' sockets. */
async function load(path: string): Promise<GraphModel> {
  const loaded = await api<OpenedGraph>(`/api/graph?path=${encodeURIComponent(path)}`);
  // A group file that is missing or has issues has no sockets: the live check marks its node.
  const groups = new Map(Object.entries(loaded.groups ?? {}).map(([file, s]) => [file, s ?? undefined]));
  // Node types of the graph's own `modules` draw and add like built-ins, in this graph only.
  const own = loaded.nodes?.length
    ? { ...catalogue, nodes: [...loaded.nodes, ...catalogue.nodes] }
    : catalogue;
  const model = new GraphModel(loaded.path, loaded.graph, own, groups);
  model.fileDigest = loaded.digest;
  return register(model);
}

/** A new, empty graph at `path`, added to the page's open graphs. */
function newGraph(path: string): GraphModel {
  return register(new GraphModel(path, { version: 1, nodes: {} }, catalogue, new Map()));
}

/** Adds a graph to the page's open graphs; a node renamed in it keeps its run badge and file tabs. */
function register(model: GraphModel): GraphModel {
  model.nodeRenamed = (from, to) => followNodeRename(model, from, to);
  models.set(model.path, model);
  return model;
}

/**
 * Node `from` of `model` is now `to` (renamed, or a rename undone or redone): the run states and the
 * file tabs' remembered ways in (the group nodes Tab entered) know nodes by id, so they follow — under
 * every top graph that runs the file, through each group node that does (a group file shared by two
 * top graphs is renamed in both one's run and the other's trails), as the open graphs show them.
 */
function followNodeRename(model: GraphModel, from: string, to: string): void {
  const graphOf = (path: string) => models.get(path)?.graph;
  for (const top of models.keys()) {
    const scopes = scopesOf(graphOf, top, model.path);
    // Where it is shown counts even if the walk cannot name its file as the server did.
    const shown = model === current() && top === stack[0];
    if (shown && !scopes.some((s) => s.join("/") === entered.join("/"))) scopes.push([...entered]);
    for (const scope of scopes) {
      runs.rename(top, scope, from, to);
      trails.renamed(top, scope, from, to);
    }
  }
  // The selection knows nodes by id too: a selected node stays selected through a rename's undo.
  if (model === current()) editor.selection = editor.selection.map((id) => id === from ? to : id);
  editor.states = runStates();
}

/**
 * Shows the top graph in the picker, adding it when it is not in `graphs/` (opened by path or from
 * the URL), so the picker never names a graph other than the one being edited.
 */
function showPicked(path: string): void {
  const picker = $<HTMLSelectElement>("graph-picker");
  if (![...picker.options].some((o) => o.value === path)) picker.append(new Option(path, path));
  picker.value = path;
}

/**
 * The run states the graph shown now has: its top graph's latest run, seen from where Tab led. Sets
 * whether they are stale (the graph changed since that run) as well.
 */
function runStates() {
  editor.stale = isStale();
  return runs.view(stack[0], entered, Object.keys(current().graph.nodes));
}

/** True when the top graph shown last ran as something else than it is now (see `run_staleness.ts`). */
function isStale(): boolean {
  return runsRead.stale(stack[0], models);
}

/** After an edit: dims the badges if the graph no longer is the one that ran (or undims them). */
function markStale(): void {
  const stale = isStale();
  if (stale === editor.stale) return;
  editor.stale = stale;
  editor.render();
}

function updateTitle(): void {
  trails.shown(stack[stack.length - 1], stack[0], entered);
  $("crumbs").textContent = shownText(stack.map((p) => (models.get(p)?.dirty ? `${p} *` : p)).join("  ›  "));
  renderFileTabs($("files"), openFiles, guarded);
}

function scheduleCheck(): void {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(guarded(check), 150);
}

/**
 * Live validation: the server runs the runtime's validator on the graph as it is now, and on the node
 * groups it uses as they are open in the page (unsaved edits included: what a run would run).
 */
async function check(): Promise<void> {
  const model = current();
  const answer = await checks.of(model);
  if (!answer) return;
  if (model !== current()) return answer.moved ? editor.render() : undefined;
  showChecked(answer);
}

/** Shows a check of the graph shown: its issues on the nodes, in the list and in the panel. */
function showChecked(answer: Checked): void {
  const model = current();
  // Inside a group (Tab) the node that uses it gives its inputs; the check of the file alone cannot
  // know that, and one the node leaves unconnected is the parent graph's issue, reported there.
  const issues = stack.length > 1
    ? answer.issues.filter((i) => i.kind !== "missing_graph_input" || (i.file && i.file !== model.path))
    : answer.issues;
  editor.issues = issues.filter((i) => !i.file || i.file === model.path);
  editor.render();
  showIssues(issues, (node) => editor.select([node]));
  // A selected group node whose sockets changed (its group's input renamed, or that undone) shows
  // its parameter inputs as they are now; otherwise re-mark the panel's rows in place: rebuilding it
  // would drop what is being typed, and the focus.
  const [selected] = editor.selection;
  if (answer.moved && editor.selection.length === 1 && model.graph.nodes[selected]?.type === "graph") {
    showParams();
  }
  showParamIssues($("params"), editor.issues);
}

function showParams(): void {
  const id = editor.selection.length === 1 ? editor.selection[0] : undefined;
  const panel = $("params");
  if (id === INPUTS_ID) return renderGraphInputs(panel, current(), editor.issues, edited, renamed);
  if (id === OUTPUTS_ID) return renderGraphOutputs(panel, current(), renamed);
  if (!id || !(id in current().graph.nodes)) return void panel.replaceChildren();
  renderParams(panel, current(), id, editor.issues, edited, renamed);
}

/** After a panel edit: redraw, re-check, mark unsaved; `rebuild` redraws the panel (its rows changed). */
function edited(rebuild = false): void {
  editor.stale = isStale();
  editor.render();
  if (rebuild) showParams();
  scheduleCheck();
  updateTitle();
}

/** A node added from the search box: at the view's centre (or beside what is there), selected, shown. */
function addFromSearch(type: string): void {
  const id = current().addNode(type, editor.centre());
  editor.select([id]);
  editor.showNode(id);
  editor.render();
  scheduleCheck();
  updateTitle();
  status(`Added ${id} (${type})`);
}

async function setUp(): Promise<void> {
  const { files, start } = await api<{ files: string[]; start?: string }>("/api/graphs");
  const requested = new URLSearchParams(location.search).get("graph") ?? start;
  const picker = $<HTMLSelectElement>("graph-picker");
  picker.replaceChildren(...files.map((f) => new Option(f, f, false, f === requested)));
  picker.onchange = guarded(() => nav.open(picker.value));
  $("open-path").onclick = guarded(() => nav.openTyped($<HTMLInputElement>("graph-path").value.trim()));
  $("save").onclick = guarded(() =>
    saveAll({
      models,
      status,
      saved: () => {
        updateTitle();
        editor.render();
      },
    })
  );
  $("revert").onclick = guarded(() => revertShown(openFiles));
  $("run").onclick = guarded(() => runTop(runContext));
  $("undo").onclick = () => editor.history("undo");
  $("redo").onclick = () => editor.history("redo");
  $("frame").onclick = () => editor.frameAll();
  previews.setUp(guarded);
  setUpSearch(() => stack.length ? current().catalogue : catalogue, addFromSearch);
  selectTab("editor");
  await openStart(
    {
      open: (path) => nav.open(path),
      startNew: (path) => newGraph(path).markNew(),
      shown: (path) =>
        api<{ path: string }>(`/api/exists?path=${encodeURIComponent(path)}`).then((a) => a.path, () => path),
      status,
    },
    files,
    requested,
  );
  const model = new URLSearchParams(location.search).get("model");
  if (model) await previews.show(`/api/model?path=${encodeURIComponent(model)}`, model);
  document.body.dataset.ready = "true";
}

// Reloading or closing the page would lose unsaved edits: the browser asks first, only when there are.
addEventListener("beforeunload", (event) => {
  if (![...models.values()].some((model) => model.dirty)) return;
  event.preventDefault();
  // Chromium before 119 (and Safari) prompt only when returnValue is set as well. Deno's DOM types
  // give it as a boolean (the type checks of the whole tree see those); browsers take a string.
  (event as { returnValue: unknown }).returnValue = "";
});

// For tests and the screenshot script: the page's own objects.
Object.assign(globalThis, {
  studio: {
    editor,
    current,
    showPreview: (url: string, label: string) => previews.show(url, label),
    preview: () => previews.viewer,
  },
});
await setUp();
