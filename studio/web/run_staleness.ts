/**
 * What each top graph's latest run read, and whether the graph shown has changed since: the run's
 * badges are dimmed ("from the last run; the graph changed since") once the top graph or a group
 * file the run read is no longer as it ran. Moving a node changes nothing a run does, so layout is
 * left out of the comparison.
 *
 * @module
 */
import { canonical, type GraphModel } from "./model.ts";

/** What a top graph's latest run read; its badges are stale once one of these changed. */
export interface RanAs {
  /** The top graph's {@link runContent} when the run started. */
  readonly top: string;
  /** Each other open graph when the run started (sent as a group file): its content, and whether unsaved. */
  readonly sent: ReadonlyMap<string, { readonly content: string; readonly dirty: boolean }>;
  /** Every group file the run read (its plan's `files`; until the plan comes, every open graph). */
  files: readonly string[];
}

/**
 * What a run reads of an open graph, as text: its JSON without the layout (moving a node changes
 * nothing a run does; undoing back to the graph that ran gives the same text).
 */
function runContent(model: GraphModel): string {
  return canonical({ ...model.graph, ui: undefined });
}

/** Each top graph's latest run, as {@link RanAs}. */
export class RunsRead {
  readonly #ran = new Map<string, RanAs>();

  /** Records a run of `top` starting now, the other open graphs `groups` sent with it; returns the record. */
  start(top: GraphModel, groups: readonly GraphModel[]): RanAs {
    const ran: RanAs = {
      top: runContent(top),
      sent: new Map(groups.map((g) => [g.path, { content: runContent(g), dirty: g.dirty }])),
      files: groups.map((g) => g.path),
    };
    this.#ran.set(top.path, ran);
    return ran;
  }

  /**
   * True when top graph `top` last ran as something else than it is now: the graph, or a group file
   * the run read (at any depth, open then or not; an open file the run did not read counts not).
   * `models` are the graphs open now.
   */
  stale(top: string, models: ReadonlyMap<string, GraphModel>): boolean {
    const model = models.get(top);
    const ran = this.#ran.get(top);
    if (!model || !ran) return false;
    return runContent(model) !== ran.top ||
      ran.files.some((path) => groupChanged(ran, models.get(path), path));
  }
}

/** True when group file `path` (open now as `model`, or closed) is not as the run `ran` read it. */
function groupChanged(ran: RanAs, model: GraphModel | undefined, path: string): boolean {
  const sent = ran.sent.get(path);
  // Read from its file (not open then): changed once opened and edited.
  if (!sent) return !!model?.dirty;
  // Closed since: runs read its file now, without the edits sent.
  if (!model) return sent.dirty;
  return runContent(model) !== sent.content;
}
