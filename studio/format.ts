/**
 * Stable text for saved graph files: the same graph always gives the same bytes, keys keep the order
 * the graph has (so a diff shows only what changed), and small values sit on one line.
 *
 * @module
 */

/** Line width within which an object or array is written on one line. */
export const LINE_WIDTH = 110;

/**
 * Formats a graph as JSON text. The top level and its maps (`inputs`, `nodes`, `outputs`, `ui`) and
 * each node are always one entry per line; deeper values, and arrays at any depth (`modules`, a
 * position in `ui`), go on one line when they fit.
 *
 * @example
 * ```ts
 * const text = formatGraph({ version: 1, nodes: { a: { type: "demo.fighter" } } });
 * ```
 */
export function formatGraph(graph: unknown): string {
  return write(graph, "", 0, 0) + "\n";
}

// Depth below which containers always break: 0 the file, 1 its maps, 2 one node or input.
const ALWAYS_BREAK_DEPTH = 3;

function write(value: unknown, indent: string, depth: number, prefix: number): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  const entries: [string | undefined, unknown][] = Array.isArray(value)
    ? value.map((v) => [undefined, v])
    : Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) return open + close;
  const key = (k: string | undefined) => (k === undefined ? "" : `${JSON.stringify(k)}: `);
  // An array is a list of values, not a map of entries: `[x, y]` on four lines reads as nothing.
  if (depth >= ALWAYS_BREAK_DEPTH || Array.isArray(value)) {
    const inline = oneLine(value);
    if (indent.length + prefix + inline.length <= LINE_WIDTH) return inline;
  }
  const inner = indent + "  ";
  const lines = entries.map(([k, v]) => inner + key(k) + write(v, inner, depth + 1, key(k).length + 1));
  return `${open}\n${lines.join(",\n")}\n${indent}${close}`;
}

function oneLine(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(oneLine).join(", ")}]`;
  const parts = Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) =>
    `${JSON.stringify(k)}: ${oneLine(v)}`
  );
  return parts.length ? `{ ${parts.join(", ")} }` : "{}";
}
