/// <reference lib="dom" />
/**
 * Group nodes follow their group as it is open in the page: the live check (`/api/check`) answers
 * with the sockets of the graph it checked and of each group that graph uses, computed from the same
 * open versions the check and a run read. Every open graph's group nodes take them, so an output
 * added inside an unsaved group is a socket of its node at once, wiring it is allowed, and undoing
 * the edit (or leaving the page without saving) gives the saved sockets back — as Blender's group
 * nodes follow an edit of the group's interface.
 *
 * @module
 */
import type { GraphModel } from "./model.ts";
import { type GroupSockets, joinPath } from "./types.ts";

/** The sockets part of a live check's answer. */
export interface CheckedSockets {
  /** The checked graph's own sockets as a node group; absent when it has issues. */
  signature?: GroupSockets;
  /**
   * The sockets of each group it uses, by its `graph` field; null for one that is missing or has
   * issues. Absent when the check read no group (one lay outside the allowed folders).
   */
  groups?: Record<string, GroupSockets | null>;
}

/**
 * Gives `checked`'s group nodes, and every group node of the other open graphs that runs
 * `checked`'s file, the sockets the check computed. Returns true when any node's sockets changed
 * (the editor then redraws).
 */
export function followSockets(
  models: Iterable<GraphModel>,
  checked: GraphModel,
  sockets: CheckedSockets,
): boolean {
  if (!sockets.groups) return false;
  let changed = false;
  const set = (model: GraphModel, rel: string, value: GroupSockets | undefined) => {
    if (model.groups.has(rel) && same(model.groups.get(rel), value)) return;
    model.groups.set(rel, value);
    changed = true;
  };
  for (const [rel, value] of Object.entries(sockets.groups)) set(checked, rel, value ?? undefined);
  for (const model of models) {
    if (model === checked) continue;
    for (const rel of [...model.groups.keys()]) {
      if (joinPath(model.path, rel) === checked.path) set(model, rel, sockets.signature);
    }
  }
  return changed;
}

/** True when two groups' sockets are the same, in the same order (the order they are drawn in). */
function same(a: GroupSockets | undefined, b: GroupSockets | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
