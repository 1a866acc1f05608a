/**
 * Cycle detection for graph validation: every elementary cycle a depth-first search meets, each
 * reported once. Iterative (an explicit stack), so a graph of any depth is checked without
 * exhausting the call stack.
 *
 * @module
 */

/**
 * Cycles among nodes, given each node's upstream ids. Each cycle is listed from a node along its
 * links' direction of flow.
 *
 * @example
 * ```ts
 * import { findCycles } from "./cycles.ts";
 *
 * const edges = new Map([["a", ["b"]], ["b", ["a"]], ["c", []]]);
 * console.log(findCycles(edges)); // [["b", "a"]]
 * ```
 */
export function findCycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const cycles: string[][] = [];
  const seen = new Set<string>();
  for (const root of edges.keys()) {
    if (state.has(root)) continue;
    // Each frame: a node on the current path and how many of its upstream ids were looked at.
    const frames: { id: string; next: number }[] = [{ id: root, next: 0 }];
    state.set(root, "open");
    path.push(root);
    while (frames.length) {
      const frame = frames[frames.length - 1];
      const ups = edges.get(frame.id) ?? [];
      if (frame.next === ups.length) {
        frames.pop();
        path.pop();
        state.set(frame.id, "done");
        continue;
      }
      const up = ups[frame.next++];
      if (state.get(up) === "open") {
        const cycle = path.slice(path.indexOf(up)).reverse();
        const key = [...cycle].sort().join("\0");
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(cycle);
        }
      } else if (!state.has(up) && edges.has(up)) {
        state.set(up, "open");
        path.push(up);
        frames.push({ id: up, next: 0 });
      }
    }
  }
  return cycles;
}
