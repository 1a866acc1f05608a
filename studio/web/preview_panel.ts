/// <reference lib="dom" />
/**
 * The page's preview tab: opens a GLB from the server (a run output, or any model file through
 * `/api/model`) in the three.js viewer (`preview.ts`, made on first use), lists the warnings of the
 * server's decode, and wires the tab's controls (open a path, frame all, wireframe, hinges,
 * hardpoints). A file that cannot be shown is said so over the view, with the runtime's typed error
 * (format, offset or path, expected and found), and the last model is taken away.
 *
 * The viewer's code — three.js, its loaders and decoders, two thirds of the page's script — is
 * imported on the first preview only (the server serves it as a chunk of its own): a page that only
 * edits graphs never parses it, and every page opens without it.
 *
 * @module
 */
import type { Preview } from "./preview.ts";
import { tooLargeToPreview } from "./preview_limit.ts";
import { shownMessage, shownText } from "./shown_name.ts";

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** Shows the editor or the preview tab. */
export function selectTab(tab: "editor" | "preview"): void {
  document.body.dataset.tab = tab;
}

/**
 * The preview tab's state: the viewer, once a model has been shown.
 *
 * @example
 * ```ts
 * const previews = new PreviewPanel((message, refused) => console.log(message, refused));
 * await previews.show("/api/model?path=graphs/x.glb", "x.glb");
 * ```
 */
export class PreviewPanel {
  /** The three.js viewer; undefined until the first model is shown. */
  viewer: Preview | undefined;
  /** The viewer while its module loads (the first preview's), so that two previews make one. */
  private making: Promise<Preview> | undefined;
  /** How many models were asked for: only the latest may change the view (a slow one never lands late). */
  private asked = 0;
  /**
   * How many of the models asked for have had their outcome: shown, failed, or dropped because a later
   * one was asked for meanwhile. `body[data-preview-settled]` says it, so that a test waits until a
   * superseded answer has been dealt with (`preview_stale_test.ts`) instead of for a time.
   */
  private settled = 0;
  /** The address of the model shown. */
  private shown = "";
  /** What the status bar was told when the model was shown ("" once the editor tab is back). */
  private said = "";

  /** `status` writes the page's status bar (`refused` marks a failure). */
  constructor(private readonly status: (message: string, refused?: boolean) => void) {}

  /** Wires the tab's buttons; `guarded` reports a failed action in the status bar. */
  setUp(guarded: (action: () => Promise<unknown>) => () => void): void {
    $("tab-editor").onclick = () => {
      selectTab("editor");
      // Back in the editor, the preview's "Shown x" is no news about what is in front of the user.
      if (this.said && $("status").textContent === shownMessage(this.said)) this.status("");
      this.said = "";
    };
    $("tab-preview").onclick = () => selectTab("preview");
    $("preview-open").onclick = guarded(() => {
      const path = $<HTMLInputElement>("model-path").value;
      return this.show(`/api/model?path=${encodeURIComponent(path)}`, path);
    });
    for (const [id] of TOGGLES) {
      $<HTMLInputElement>(id).onchange = () => this.viewer && applyToggles(this.viewer);
    }
    $("frame-3d").onclick = () => this.viewer?.frameAll();
  }

  /**
   * Shows the preview tab with the GLB at `url` (a run output, or a model file via /api/model). Once
   * it is shown, failed or superseded, `body[data-preview-settled]` counts it.
   */
  async show(url: string, label: string): Promise<void> {
    const ticket = ++this.asked;
    showPath(url);
    try {
      await this.open(url, label, () => ticket === this.asked);
    } finally {
      document.body.dataset.previewSettled = String(++this.settled);
    }
  }

  /** The viewer, made on first use: its module (three.js and all the preview draws with) loaded then. */
  private made(): Promise<Preview> {
    this.making ??= import("./preview.ts").then(({ Preview }) => {
      this.viewer = new Preview({
        canvas: $<HTMLCanvasElement>("view3d"),
        parts: $("parts"),
        tree: $("tree"),
        lod: $<HTMLSelectElement>("lod"),
        clips: $<HTMLSelectElement>("clips"),
        info: $("preview-info"),
      });
      // A box ticked or unticked before the first preview holds for it too.
      applyToggles(this.viewer);
      return this.viewer;
    }).catch(async (error) => {
      // Not loaded (the server stopped, or serves another build now): the next preview tries again.
      this.making = undefined;
      throw await whyNotLoaded(error);
    });
    return this.making;
  }

  /** {@link show}'s work; `current` is false once a later model was asked for. */
  private async open(url: string, label: string, current: () => boolean): Promise<void> {
    selectTab("preview");
    // Decoding a large model takes seconds: say so, and clear the last preview's message meanwhile;
    // the page is not preview-ready again until this model is shown (tests wait on it).
    this.status(`Opening ${label}…`);
    delete document.body.dataset.previewReady;
    delete document.body.dataset.previewFailed;
    showError(undefined);
    // The viewer's module (on the first preview) and the model load side by side.
    const [viewer, answer] = await Promise.all([this.made(), fetch(url)]);
    let response = answer;
    if (!current()) return;
    if (!response.ok) return this.failed(label, await errorOf(response), undefined, current);
    // A run output is sent whole: one too large for the tab is not read into it.
    const tooLarge = tooLargeToPreview(label, Number(response.headers.get("content-length") ?? 0));
    if (tooLarge) {
      await response.body?.cancel();
      return this.failed(label, tooLarge, undefined, current);
    }
    let note = "";
    try {
      if (!await viewer.load(await response.arrayBuffer(), label, current)) return;
    } catch (error) {
      if (!current()) return;
      // three.js's own message is rarely more than a RangeError: a model file is decoded by the
      // runtime instead, which names what is wrong where, or reads what three.js cannot (glTF 1.0).
      const three = `three.js could not load it: ${messageOf(error)}`;
      if (!url.startsWith("/api/model?")) return this.failed(label, three, undefined, current);
      response = await fetch(`${url}&decode=1`);
      if (!current()) return;
      if (!response.ok) return this.failed(label, await errorOf(response), three, current);
      try {
        if (!await viewer.load(await response.arrayBuffer(), label, current)) return;
      } catch (again) {
        return this.failed(
          label,
          `three.js could not load the runtime's GLB either: ${messageOf(again)}`,
          three,
          current,
        );
      }
      note = "; three.js could not load the file as it is, shown as partgraph decodes it";
    }
    const warnings = showWarnings(response.headers);
    // Said as done ("Shown"), not as under way: "Previewing x" read as still loading long after.
    this.said = `Shown ${label} in the preview` +
      `${warnings ? ` (${warnings} warning${warnings === 1 ? "" : "s"})` : ""}${note}`;
    this.status(this.said);
    this.shown = url;
    delete document.body.dataset.previewOutdated;
    document.body.dataset.previewReady = label;
  }

  /**
   * A run started: a run output shown (its address is the latest run's) is from an earlier run now,
   * and says so, so it is not taken for the new run's result; previewing the new output clears it.
   */
  runStarted(): void {
    if (!this.shown.startsWith("/api/output?")) return;
    const info = $("preview-info");
    if (!document.body.dataset.previewOutdated) {
      info.textContent += " — from an earlier run (a new run started)";
    }
    document.body.dataset.previewOutdated = "1";
  }

  /** Says over the view why `label` cannot be shown, and takes the last model away. */
  private failed(label: string, error: string, detail?: string, current = () => true): void {
    if (!current()) return; // another model was asked for meanwhile: its outcome is what counts
    this.shown = "";
    this.viewer?.clear();
    showWarnings(new Headers());
    showError(`Cannot preview ${label}`, error, detail);
    this.status(`Preview failed: ${error}`, true);
    document.body.dataset.previewFailed = label;
  }
}

/**
 * Puts the path of the model asked for in the path field (a run output, which has no path, empties
 * it). It kept the path typed last: after a run output's or a written file's Preview, it named another
 * file than the one shown, and "Preview file" then showed that one instead of reloading this.
 */
function showPath(url: string): void {
  const field = $<HTMLInputElement>("model-path");
  const path = url.startsWith("/api/model?") ? new URLSearchParams(url.slice(11)).get("path") : null;
  field.value = path ?? "";
}

/** The view's check boxes and what each sets in the viewer. */
const TOGGLES: readonly [id: string, set: (viewer: Preview, on: boolean) => void][] = [
  ["wireframe", (viewer, on) => viewer.setWireframe(on)],
  ["hinges", (viewer, on) => viewer.setHinges(on)],
  ["hardpoints", (viewer, on) => viewer.setHardpoints(on)],
];

/**
 * Sets the viewer as its check boxes say: when one is clicked, and when the viewer is made (a box
 * unticked before the first preview was not heeded: the viewer started with hinges shown).
 */
function applyToggles(viewer: Preview): void {
  for (const [id, set] of TOGGLES) set(viewer, $<HTMLInputElement>(id).checked);
}

/**
 * What the status bar says when the studio answers but no longer serves the preview's script: it was
 * started again, with another build of the page (whose chunks have other names), after this page was
 * opened. "Does not answer" would be wrong, and so would be reloading unasked: edits may be unsaved.
 */
export const PAGE_REPLACED = "the 3D preview's script is not on the studio server any more: it was " +
  "started again with another version since this page was opened; Save, then reload the page to preview";

/**
 * Why the preview's script did not load: `error` as it is when the server does not answer (the status
 * bar says so), {@link PAGE_REPLACED} when it does.
 */
async function whyNotLoaded(error: unknown): Promise<unknown> {
  const answers = await fetch("/api/graphs").then((r) => (r.body?.cancel(), r.ok), () => false);
  return answers ? new Error(PAGE_REPLACED) : error;
}

/** The error a failed /api request answered (its JSON `error`, or the HTTP status). */
async function errorOf(response: Response): Promise<string> {
  const body = await response.json().catch(() => undefined);
  return typeof body?.error === "string" ? body.error : `HTTP ${response.status} ${response.statusText}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Shows (or, with no title, hides) the box over the 3D view saying why a file is not shown. */
function showError(title: string | undefined, error = "", detail = ""): void {
  const box = $("preview-error");
  box.hidden = title === undefined;
  box.replaceChildren(
    ...[["strong", title], ["p", error], ["p", detail]].filter(([, text]) => text).map(([tag, text]) =>
      Object.assign(document.createElement(tag!), { textContent: shownText(text!) })
    ),
  );
}

/**
 * Lists the warnings the server's decode of a previewed model raised (headers of /api/model: a
 * texture its library lacks, a part left unresolved), or hides the list; returns how many there were.
 */
function showWarnings(headers: Headers): number {
  const count = Number(headers.get("x-partgraph-warning-count") ?? 0);
  const lines: string[] = JSON.parse(decodeURIComponent(headers.get("x-partgraph-warnings") ?? "%5B%5D"));
  const items = lines.map((line) => {
    const li = document.createElement("li");
    li.className = "warning";
    li.textContent = shownText(line);
    return li;
  });
  if (count > lines.length) {
    items.push(Object.assign(document.createElement("li"), {
      textContent: `… and ${count - lines.length} more`,
    }));
  }
  $("preview-warnings").replaceChildren(...items);
  $("preview-warning-count").textContent = String(count);
  $("preview-warnings-box").hidden = count === 0;
  return count;
}
