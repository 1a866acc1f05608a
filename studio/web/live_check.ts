/// <reference lib="dom" />
/**
 * Live validation: the server runs the runtime's validator on the graph as it is now, and on the node
 * groups it uses as they are open in the page (unsaved edits included: what a run would run); its
 * answer gives the open graphs' group nodes their sockets, and its issues are listed.
 *
 * @module
 */
import { type CheckedSockets, followSockets } from "./live_sockets.ts";
import type { GraphModel } from "./model.ts";
import { openVersions } from "./run.ts";
import { api, type Issue } from "./types.ts";
import { shownMessage } from "./shown_name.ts";
import { clickable } from "./keyboard.ts";

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/**
 * Every open graph but the one at `path`: what a check or run sends as `groups`, the page's open
 * versions of group files, whichever the graph turns out to use.
 */
export function othersOpen(models: ReadonlyMap<string, GraphModel>, path: string): GraphModel[] {
  return [...models.values()].filter((m) => m.path !== path);
}

/** A live check's answer, and whether it changed any group node's sockets. */
export type Checked = { issues: Issue[]; moved: boolean } & CheckedSockets;

/**
 * The live checks of the page: each posts a graph with the other open graphs as the group files they
 * stand for; an answer that a later check's overtook is dropped.
 */
export class LiveChecks {
  /** Checks sent, and the latest one whose answer was applied. */
  #asked = 0;
  #applied = 0;

  constructor(private readonly models: ReadonlyMap<string, GraphModel>) {}

  /**
   * Posts a live check of `model` with the other open graphs as the group files they stand for, and
   * gives the open graphs' group nodes the sockets it computed. Undefined when a later check's answer
   * came first: this one would put back sockets since edited away.
   */
  async of(model: GraphModel): Promise<Checked | undefined> {
    const asked = ++this.#asked;
    const answer = await this.post(model.path, model.graph);
    if (asked < this.#applied) return undefined;
    this.#applied = asked;
    // Group nodes take the sockets of their groups as open here, as the check and a run see them.
    const moved = followSockets(this.models.values(), model, answer);
    return { ...answer, moved };
  }

  /**
   * The live check of a graph as `graph` has it (`path`: where it lives), with every other open graph
   * sent as the group file it stands for. The server reads only those the graph uses, at any depth —
   * also through a group file that is not open (closed, or never entered), which the page cannot see.
   */
  post(path: string, graph: unknown): Promise<{ issues: Issue[] } & CheckedSockets> {
    return api<{ issues: Issue[] } & CheckedSockets>("/api/check", {
      path,
      graph,
      groups: openVersions(othersOpen(this.models, path)),
    });
  }
}

/** Lists a check's issues (a click on one selects its node) and counts them. */
export function showIssues(issues: Issue[], select: (node: string) => void): void {
  const list = $("issues");
  list.replaceChildren(...issues.map((issue) => {
    const li = document.createElement("li");
    li.className = "issue";
    li.textContent = shownMessage(`${issue.kind} at ${issue.path || "/"}: ${issue.message}`);
    const node = /^\/nodes\/([^/]+)/.exec(issue.path)?.[1];
    if (node) clickable(li, () => select(node.replaceAll("~1", "/").replaceAll("~0", "~")));
    return li;
  }));
  $("issue-count").textContent = issues.length ? `${issues.length} issue(s)` : "valid";
  $("issue-count").className = issues.length ? "bad" : "good";
}
