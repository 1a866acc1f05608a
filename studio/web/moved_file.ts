/// <reference lib="dom" />
/**
 * After Save wrote a graph at the path its file was moved to on disk (`save.ts`): the page goes on with
 * it there. The top graph shown is opened from its new path. A node group's file is left (the top graph
 * shown again, the group read from its new path when entered), and each open graph that runs it runs
 * it from the new path — its group nodes' `graph` field re-pointed, one undo step, saved with the next
 * Save; graphs not open here that still name the old path are listed (they are not changed unasked).
 *
 * @module
 */
import type { GraphModel } from "./model.ts";
import type { Navigation } from "./navigation.ts";
import { api, folderOf, joinPath, relativePath } from "./types.ts";

/** What following a moved file needs: the open graphs and the navigation. */
export interface MovedContext {
  readonly models: Map<string, GraphModel>;
  readonly nav: Navigation;
}

/** Goes on with the file moved from `from` at `to` (see the module doc); returns what to tell the user. */
export async function followMoved(ctx: MovedContext, from: string, to: string): Promise<string> {
  const { models, nav } = ctx;
  if (nav.top === from) {
    models.delete(from);
    await nav.open(to);
    return `${to} is shown now (its undo history starts at this save)`;
  }
  if (nav.stack.includes(from)) await nav.open(nav.top);
  models.delete(from);
  const followed: string[] = [], kept: string[] = [];
  for (const model of models.values()) {
    const uses = Object.entries(model.graph.nodes)
      .filter(([, node]) => node.type === "graph" && joinPath(model.path, node.graph ?? "") === from);
    if (!uses.length) continue;
    const rel = relativePath(folderOf(model.path), to);
    if (rel === undefined) {
      kept.push(model.path);
      continue;
    }
    // Its sockets are known by the path the node names: the same file, now by its new name.
    for (const [, node] of uses) model.groups.set(rel, model.groups.get(node.graph!));
    model.edit((graph) => {
      for (const [id] of uses) graph.nodes[id].graph = rel;
    }, `run ${uses.map(([id]) => id).join(", ")} from ${rel} (its file was moved)`);
    followed.push(model.path);
  }
  const users = await api<{ users: string[] }>(`/api/users?path=${encodeURIComponent(from)}`)
    .then((answer) => answer.users.filter((path) => !models.has(path)), () => []);
  return [
    followed.length ? `${followed.join(", ")} now run it from ${to} (unsaved: Save keeps it)` : "",
    kept.length ? `${kept.join(", ")} still name ${from} (no relative path to ${to} from there)` : "",
    users.length ? `not open here, ${users.join(", ")} still name ${from}` : "",
  ].filter(Boolean).join("; ");
}
