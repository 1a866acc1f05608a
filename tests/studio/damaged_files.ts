/**
 * Graph files as a merge or another editor leaves them on disk: git's conflict markers around the
 * lines two branches changed (as `git merge` writes them, both sides in the save format), a save cut
 * short at a byte, an empty file.
 *
 * @module
 */
import { formatGraph } from "../../studio/format.ts";

/**
 * `ours` and `theirs` merged as git leaves a conflict: the lines both have alike before and after,
 * and between them `<<<<<<< HEAD`, our lines, `=======`, their lines, `>>>>>>> <branch>`.
 */
export function conflicted(ours: unknown, theirs: unknown, branch = "feature/rig-tweaks"): string {
  const a = formatGraph(ours).split("\n"), b = formatGraph(theirs).split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  return [
    ...a.slice(0, head),
    "<<<<<<< HEAD",
    ...a.slice(head, a.length - tail),
    "=======",
    ...b.slice(head, b.length - tail),
    `>>>>>>> ${branch}`,
    ...a.slice(a.length - tail),
  ].join("\n");
}

/** `graph` in the save format, cut at byte `at` (a fraction of its length): a save another editor left half done. */
export function cutShort(graph: unknown, at: number): string {
  const text = formatGraph(graph);
  return text.slice(0, Math.max(1, Math.floor(text.length * at)));
}
