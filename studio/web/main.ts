/// <reference lib="dom" />
/**
 * The studio page: wires the node editor, the parameter panel, live validation, runs and the 3D
 * preview to the studio server's API.
 *
 * @module
 */
import { NodeEditor } from "./editor.ts";
import { groupSelection, ungroupSelection } from "./group_commands.ts";
import { type GraphModel, INPUTS_ID, OUTPUTS_ID } from "./model.ts";
import { focusNameField } from "./name_field.ts";
import { renderGraphInputs, renderGraphOutputs, renderParams, showParamIssues } from "./params.ts";
import { type RenameContext, renameInShown, stepTogether } from "./rename_commands.ts";
import type { RenameKind } from "./rename.ts";
import { PreviewPanel } from "./preview_panel.ts";
import { RunStates } from "./states.ts";
import { RunsRead } from "./run_staleness.ts";
import { type Checked, LiveChecks, othersOpen, showIssues } from "./live_check.ts";
import { type FilesContext, followFile, renderFileTabs } from "./files.ts";
import type { RunContext } from "./run_panel.ts";
import { OpenGraphs } from "./open_graphs.ts";
import { askBeforeLeaving, setUp, showPicked } from "./page_setup.ts";
import { guarded, status } from "./page_status.ts";
import { Trails } from "./trails.ts";
import { Navigation } from "./navigation.ts";
import { api, type Catalogue } from "./types.ts";
import { shownText } from "./shown_name.ts";

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

const catalogue = await api<Catalogue>("/api/catalogue");
/** The open graph files, and how they are read and started. */
const graphs: OpenGraphs = new OpenGraphs(() => ({
  catalogue,
  runs,
  trails,
  editor,
  current,
  stack,
  entered,
  runStates,
}));
const { models } = graphs;
const load = (path: string) => graphs.load(path);
const newGraph = (path: string) => graphs.newGraph(path);
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
  canLeave: () => stack.length > 1,
  nothingTo: (direction) => graphs.nothingTo(current().path, direction),
  group: (ids) => guarded(() => groupSelection(groupContext(), ids))(),
  ungroup: (ids) => guarded(() => ungroupSelection(groupContext(), ids))(),
  rename: focusRename,
  // Enter on a node: its panel's first field (Shift+Tab comes back); Group Input/Output's are its sockets.
  open: (id) => {
    const field = $("params").querySelector<HTMLElement>("input, select, textarea, button");
    if (field) field.focus();
    else status(`${id} has no parameters to edit`);
  },
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

function current(): GraphModel {
  return nav.current();
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
  checkTimer = setTimeout(() => {
    checkTimer = undefined;
    guarded(check)();
  }, 150);
  showChecking();
}

/** Live checks posted whose answer (or failure) has not come yet. */
let checksOut = 0;

/**
 * `body[data-checking]` while a live check is due (its 150 ms wait) or on its way: what the page
 * still has to hear from the server after an edit. A test that stops the server waits until it is
 * gone; a check still due then failed, and its "does not answer" raced the message under test.
 */
function showChecking(): void {
  if (checkTimer !== undefined || checksOut > 0) document.body.dataset.checking = "true";
  else delete document.body.dataset.checking;
}

/**
 * Live validation: the server runs the runtime's validator on the graph as it is now, and on the node
 * groups it uses as they are open in the page (unsaved edits included: what a run would run).
 */
async function check(): Promise<void> {
  const model = current();
  checksOut++;
  showChecking();
  try {
    const answer = await checks.of(model);
    if (!answer) return;
    if (model !== current()) return answer.moved ? editor.render() : undefined;
    showChecked(answer);
  } finally {
    // Once its answer is shown (or it failed): `data-checking` then says the page is up to date.
    checksOut--;
    showChecking();
  }
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

askBeforeLeaving(models);

// For tests and the screenshot script: the page's own objects.
Object.assign(globalThis, {
  studio: {
    editor,
    current,
    showPreview: (url: string, label: string) => previews.show(url, label),
    preview: () => previews.viewer,
  },
});
await setUp({
  nav,
  models,
  editor,
  previews,
  catalogue,
  openFiles,
  runContext,
  current,
  newGraph,
  addFromSearch,
  updateTitle,
});
