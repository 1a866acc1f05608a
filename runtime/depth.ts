/**
 * Nesting-depth bounds for what comes from outside: JSON (graph files, glTF, DSON) and node
 * hierarchies (every decoder's parent links). Measured without recursion, so a hostile file nested
 * 100,000 deep is refused with a clear error instead of overflowing the stack of whichever recursive
 * walk meets it first, or making every walk up a hierarchy cost its depth.
 *
 * @module
 */

/** Result of {@link maxJsonDepth}: whether the limit is exceeded, and where. */
export interface DepthScan {
  /** True when some value is nested deeper than the limit. */
  readonly exceeded: boolean;
  /** Character index of the first bracket beyond the limit (0 when not exceeded). */
  readonly at: number;
}

/**
 * Scans JSON text (valid or not) for bracket nesting deeper than `limit`, skipping strings. Linear
 * in the text's length, constant memory.
 *
 * @example
 * ```ts
 * maxJsonDepth("[[[]]]", 2); // { exceeded: true, at: 2 }
 * ```
 */
export function maxJsonDepth(text: string, limit: number): DepthScan {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return { exceeded: true, at: i };
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return { exceeded: false, at: 0 };
}

/**
 * The JSON path (`/a/0/b`) of the first value nested deeper than `limit` in an in-memory value,
 * or undefined when it is within bounds. Iterative, so it is safe on any depth.
 *
 * @example
 * ```ts
 * tooDeepPath({ a: [[1]] }, 2); // "/a/0"
 * ```
 */
export function tooDeepPath(value: unknown, limit: number): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: "", depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (!value || typeof value !== "object") continue;
    if (depth >= limit) return path || "/";
    for (const [key, child] of Object.entries(value)) {
      if (child && typeof child === "object") {
        stack.push({ value: child, path: `${path}/${key}`, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/**
 * The deepest node hierarchy a decoder accepts, in levels (a root alone is 1). Real models stay far
 * below it (a Daz figure's fingertip is about 16 levels down, a Freelancer ship's deepest part a few);
 * Blender 3.4's glTF importer fails at about 985 levels (Python's recursion limit), so a model within
 * this bound, with the pivots a rig adds, still imports there.
 */
export const MAX_HIERARCHY_DEPTH = 512;

/** Result of {@link scanHierarchy}. */
export interface HierarchyScan {
  /**
   * The nodes of the first cycle met, each followed by its parent (the first node's parent is the
   * last); empty when the links form a forest.
   */
  readonly cycle: readonly number[];
  /** The first node, in index order, whose parent chain runs into that cycle; -1 without one. */
  readonly cycleFrom: number;
  /** Levels of the longest parent chain (0 for no nodes; not measured when there is a cycle). */
  readonly depth: number;
  /** The first node, in index order, that deep (-1 for no nodes or a cycle). */
  readonly deepest: number;
}

/**
 * Finds the first cycle in parent links, else the hierarchy's depth, in time linear in the node
 * count. `parents[i]` is node `i`'s parent, or any value outside `0..parents.length - 1` for a root.
 *
 * @example
 * ```ts
 * scanHierarchy([-1, 0, 1]); // { cycle: [], cycleFrom: -1, depth: 3, deepest: 2 }
 * scanHierarchy([-1, 2, 1]).cycle; // [1, 2]
 * ```
 */
export function scanHierarchy(parents: ArrayLike<number>): HierarchyScan {
  const n = parents.length;
  const levels = new Int32Array(n); // 0 until known
  const walkedBy = new Int32Array(n); // 1 + the start whose walk up last passed the node
  const chain: number[] = [];
  let depth = 0, deepest = -1;
  for (let start = 0; start < n; start++) {
    chain.length = 0;
    let at = start;
    while (at >= 0 && at < n && levels[at] === 0) {
      if (walkedBy[at] === start + 1) {
        return { cycle: chain.slice(chain.indexOf(at)), cycleFrom: start, depth: 0, deepest: -1 };
      }
      walkedBy[at] = start + 1;
      chain.push(at);
      at = parents[at];
    }
    let level = at >= 0 && at < n ? levels[at] : 0;
    for (let i = chain.length - 1; i >= 0; i--) {
      levels[chain[i]] = ++level;
      // A walk's start is its deepest node and starts go in index order: the first that deep wins.
      if (level > depth) [depth, deepest] = [level, chain[i]];
    }
  }
  return { cycle: [], cycleFrom: -1, depth, deepest };
}

/**
 * Names along a chain joined with arrows, a long chain shortened to its first and last `keep` names,
 * for messages about a cycle that may run through thousands of nodes.
 *
 * @example
 * ```ts
 * chainText(["a", "b", "a"]); // "a → b → a"
 * ```
 */
export function chainText(names: readonly string[], keep = 6): string {
  if (names.length <= 2 * keep) return names.join(" → ");
  const hidden = names.length - 2 * keep;
  return [...names.slice(0, keep), `… ${hidden} more …`, ...names.slice(-keep)].join(" → ");
}
