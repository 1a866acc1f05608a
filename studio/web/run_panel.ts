/// <reference lib="dom" />
/**
 * The page's Run: posts the top graph as edited (with the open group files) and follows its event
 * stream — node badges as they change, the run log (each line shows its node), the outputs and the
 * files written (`run_outputs.ts`). Run stays disabled until the run ends, however it ends.
 *
 * @module
 */
import type { GraphModel } from "./model.ts";
import { type RunEnd, runGraphLive } from "./run.ts";
import { listOutputs } from "./run_outputs.ts";
import type { RunStates } from "./states.ts";
import type { RunsRead } from "./run_staleness.ts";
import { shownMessage } from "./shown_name.ts";
import { clickable } from "./keyboard.ts";

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** What a run works on: the page's open graphs, its run records and how it shows them. */
export interface RunContext {
  readonly models: Map<string, GraphModel>;
  /** The path of the top graph shown: the graph Run runs. */
  top(): string;
  /** The latest run's node states of each top graph. */
  readonly runs: RunStates;
  /** What each top graph's latest run read (its badges' staleness). */
  readonly runsRead: RunsRead;
  /** Every open graph but the one at `path` (sent as the group files they stand for). */
  othersOpen(path: string): GraphModel[];
  /** Redraws the badges of top graph `top`'s run, if it is the top graph shown. */
  showStates(top: string): void;
  /** Shows the node a run-log line names (flattened id) in the graph `top` ran. */
  reveal(top: string, id: string): Promise<void>;
  /** Shows a model in the 3D preview. */
  preview(url: string, label: string): Promise<void>;
  /** A run started: a run output the preview shows is from an earlier run now. */
  runStarted(): void;
  status(message: string, refused?: boolean): void;
  guarded(action: () => Promise<unknown>): () => void;
}

/**
 * Runs the top graph as edited. Run stays disabled until the run ends — finished, failed or its
 * stream broken off — so a second click cannot start a second run whose end would overwrite this
 * one's states and outputs.
 */
export async function runTop(ctx: RunContext): Promise<void> {
  const { models, runs, runsRead, status, guarded } = ctx;
  const button = $<HTMLButtonElement>("run");
  if (button.disabled) return;
  const model = models.get(ctx.top())!;
  const top = model.path;
  button.disabled = true;
  button.title = "A run is going: Run is enabled again when it ends";
  runs.start(top);
  // Every other open graph goes with the run as the group file it stands for (the server reads those
  // the graph uses, at any depth). Until the plan names the files it read, each counts for staleness.
  const groups = ctx.othersOpen(top);
  const ran = runsRead.start(model, groups);
  // A state event redraws the graph's badges at most every BADGE_MS: one redraw per event was
  // quadratic, a 750-node graph's run froze the page for a minute. Start and end redraw at once.
  const badges = throttled(() => ctx.showStates(top), BADGE_MS);
  const shown = () => badges.now();
  shown();
  $("run-log").replaceChildren();
  $("outputs").replaceChildren();
  ctx.runStarted();
  status(`Running ${top}… (Run is disabled until it ends)`);
  // The run reports nodes by their ids when it started; a node renamed since (even while the run goes
  // on) is named, and a click shows it, by its id at that time.
  const now = (reported: string) => runs.current(top, reported) ?? reported;
  const log = (id: string | undefined, message: string, kind: string) => {
    const li = document.createElement("li");
    li.className = kind;
    li.textContent = shownMessage(`${id === undefined ? "run" : now(id)}: ${message}`);
    if (id !== undefined) {
      li.dataset.node = now(id);
      clickable(li, guarded(() => ctx.reveal(top, now(id))));
    }
    $("run-log").append(li);
  };
  // Node groups open in the page run as they are open, unsaved edits included (the files stay as
  // they are until Save): the log names each one whose edits are in this run and not in its file.
  let end: RunEnd;
  try {
    end = await runGraphLive(model, groups, {
      plan: (ids, read, files) => {
        runs.plan(top, ids);
        // Only the group files it read can make its badges stale (an unrelated file's edit cannot).
        ran.files = files;
        shown();
        for (const group of groups.filter((g) => g.dirty && read.includes(g.path))) {
          log(
            undefined,
            `${group.path} runs as edited: its unsaved changes are in this run, not in its file`,
            "info",
          );
        }
      },
      state: (id, state) => {
        runs.set(top, id, state);
        badges.soon();
      },
      log,
    }).catch((error): RunEnd => ({
      ok: false,
      ms: 0,
      broken: true,
      error: { message: `the connection broke off (${error instanceof Error ? error.message : error})` },
    }));
  } finally {
    // However the run ended, Run is back.
    button.disabled = false;
    button.title = "";
  }
  // Nodes that never reported are no longer "queued". A broken stream leaves nodes that were running
  // or waiting with no outcome: they show as interrupted (not running forever), and the log says why.
  const cut = runs.end(top, end.broken);
  shown();
  if (end.broken) {
    const what = cut.length
      ? `; ${cut.length} node(s) interrupted, their outcome unknown: ${cut.join(", ")}`
      : "";
    log(
      undefined,
      `${end.error?.message ?? "the event stream broke off"} before the run ended${what}`,
      "error",
    );
  }
  status(
    end.ok
      ? `Run finished in ${end.ms} ms`
      : `Run failed: ${firstFailure(end.error?.message ?? "see the log")}`,
    !end.ok,
  );
  listOutputs($("outputs"), end, (url, label) => guarded(() => ctx.preview(url, label))());
}

/**
 * A run error of several node failures as its first, counting the rest: a batch graph's run failing in
 * 250 nodes says one per line, which the status bar would run together (the log lists each, and a click
 * shows its node). Any other message (a failed check's issues) is kept whole.
 */
function firstFailure(message: string): string {
  const lines = message.split("\n").filter((line) => line.trim() !== "");
  return lines.length > 1 && lines.every((line) => line.startsWith("node '"))
    ? `${lines[0]} (and ${lines.length - 1} more in the log)`
    : message;
}

/** How often, at most, a run's state events redraw the badges (ms). */
const BADGE_MS = 100;

/**
 * `fn` called at most once every `ms` through `soon` (the calls between coalesced into one at the end
 * of the interval), or at once through `now` (which drops the one pending).
 */
function throttled(fn: () => void, ms: number): { soon(): void; now(): void } {
  let pending: ReturnType<typeof setTimeout> | undefined;
  let last = -Infinity;
  const run = () => {
    clearTimeout(pending);
    pending = undefined;
    last = performance.now();
    fn();
  };
  return {
    soon: () => {
      if (pending === undefined) pending = setTimeout(run, Math.max(0, last + ms - performance.now()));
    },
    now: run,
  };
}
