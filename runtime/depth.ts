/**
 * Nesting-depth bounds for JSON from outside (graph files, glTF, DSON): measured without recursion,
 * so a hostile file nested 100,000 deep is refused with a clear error instead of overflowing the
 * stack of whichever recursive walk meets it first.
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
