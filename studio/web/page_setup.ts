/// <reference lib="dom" />
/**
 * The page's start: its buttons wired to what they do (open, save, revert, run, undo, redo, frame),
 * the search box, the graph it opens first (the URL's, the server's start graph, or a new one), and
 * the browser's question before a reload that would lose unsaved edits.
 *
 * @module
 */
import type { NodeEditor } from "./editor.ts";
import { type FilesContext, revertShown } from "./files.ts";
import type { GraphModel } from "./model.ts";
import type { Navigation } from "./navigation.ts";
import { type PreviewPanel, selectTab } from "./preview_panel.ts";
import { type RunContext, runTop } from "./run_panel.ts";
import { saveAll } from "./save.ts";
import { noticeGone } from "./gone_notice.ts";
import { followMoved } from "./moved_file.ts";
import { arrangeNodes } from "./editor_keys.ts";
import { setUpSearch } from "./search.ts";
import { openStart } from "./start.ts";
import { api, type Catalogue } from "./types.ts";
import { guarded, status } from "./page_status.ts";

/** What the page's start wires together. */
export interface PageParts {
  readonly nav: Navigation;
  readonly models: Map<string, GraphModel>;
  readonly editor: NodeEditor;
  readonly previews: PreviewPanel;
  readonly catalogue: Catalogue;
  readonly openFiles: FilesContext;
  readonly runContext: RunContext;
  current(): GraphModel;
  newGraph(path: string): GraphModel;
  addFromSearch(type: string): void;
  updateTitle(): void;
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** Wires the page and opens its first graph; `body[data-ready]` is set once it is shown. */
export async function setUp(page: PageParts): Promise<void> {
  const { nav, models, editor, previews } = page;
  const { files, start } = await api<{ files: string[]; start?: string }>("/api/graphs");
  const requested = new URLSearchParams(location.search).get("graph") ?? start;
  const picker = $<HTMLSelectElement>("graph-picker");
  picker.replaceChildren(...files.map((f) => new Option(f, f, false, f === requested)));
  picker.onchange = guarded(() =>
    nav.open(picker.value).catch((error) => {
      // Not opened (a half-written file, merge-conflict markers): the picker must not go on naming it
      // over the graph still shown, which Save and Run would then seem to act on.
      if (!nav.stack.length) throw error;
      showPicked(nav.top);
      throw new Error(`${error instanceof Error ? error.message : error}; still showing ${nav.top}`);
    })
  );
  $("open-path").onclick = guarded(() => nav.openTyped($<HTMLInputElement>("graph-path").value.trim()));
  $("save").onclick = guarded(() =>
    saveAll({
      models,
      status,
      saved: () => {
        page.updateTitle();
        editor.render();
      },
      moved: (from, to) => followMoved({ models, nav }, from, to),
    })
  );
  $("revert").onclick = guarded(() => revertShown(page.openFiles));
  $("run").onclick = guarded(() => runTop(page.runContext));
  $("undo").onclick = () => editor.history("undo");
  $("redo").onclick = () => editor.history("redo");
  $("frame").onclick = () => editor.frameAll();
  $("arrange").onclick = () => arrangeNodes(editor, editor.events);
  previews.setUp(guarded);
  setUpSearch(() => nav.stack.length ? page.current().catalogue : page.catalogue, page.addFromSearch);
  selectTab("editor");
  await openStart(
    {
      open: (path) => nav.open(path),
      startNew: (path) => page.newGraph(path).markNew(),
      shown: (path) =>
        api<{ path: string }>(`/api/exists?path=${encodeURIComponent(path)}`).then((a) => a.path, () => path),
      status,
    },
    files,
    requested,
  );
  const model = new URLSearchParams(location.search).get("model");
  if (model) await previews.show(`/api/model?path=${encodeURIComponent(model)}`, model);
  noticeGone({ current: () => nav.stack.length ? page.current() : undefined, status });
  document.body.dataset.ready = "true";
}

/**
 * Shows the top graph in the picker, adding it when it is not in `graphs/` (opened by path or from
 * the URL), so the picker never names a graph other than the one being edited.
 */
export function showPicked(path: string): void {
  const picker = $<HTMLSelectElement>("graph-picker");
  if (![...picker.options].some((o) => o.value === path)) picker.append(new Option(path, path));
  picker.value = path;
}

/**
 * Reloading or closing the page would lose unsaved edits: the browser asks first, only when there are
 * (a value typed but not yet entered included).
 */
export function askBeforeLeaving(models: ReadonlyMap<string, GraphModel>): void {
  addEventListener("beforeunload", (event) => {
    // A value typed in a field and not yet entered (its change event comes with Enter or on leaving
    // the field) is an edit too: closing the tab lost it unasked. Leaving the field enters it now.
    const typing = document.activeElement;
    if (typing instanceof HTMLInputElement || typing instanceof HTMLTextAreaElement) typing.blur();
    if (![...models.values()].some((model) => model.dirty)) return;
    event.preventDefault();
    // Chromium before 119 (and Safari) prompt only when returnValue is set as well. Deno's DOM types
    // give it as a boolean (the type checks of the whole tree see those); browsers take a string.
    (event as { returnValue: unknown }).returnValue = "";
  });
}
