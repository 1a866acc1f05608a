/**
 * Which node (and which wire) the graph check's issues concern, for the editor's drawing: an issue
 * names a JSON path in the graph file, the editor draws nodes by id and wires by their ends.
 *
 * @module
 */
import { escapePointer } from "./svg.ts";
import { INPUTS_ID, OUTPUTS_ID, type Shape, type Wire } from "./shapes.ts";
import type { Issue } from "./types.ts";

/** The issues of each node, by id (Group Input's under `/inputs`, Group Output's under `/outputs`). */
export function issuesByNode(issues: readonly Issue[]): Map<string, Issue[]> {
  const byNode = new Map<string, Issue[]>();
  for (const issue of issues) {
    const [, top, id] = issue.path.split("/");
    const node = top === "inputs"
      ? INPUTS_ID
      : top === "outputs"
      ? OUTPUTS_ID
      : top === "nodes" && id !== undefined
      ? id.replaceAll("~1", "/").replaceAll("~0", "~")
      : undefined;
    if (node === undefined) continue;
    byNode.set(node, [...byNode.get(node) ?? [], issue]);
  }
  return byNode;
}

/**
 * True when a wire is wrong: the check reports the input it feeds (`/nodes/<to>/inputs/<socket>`,
 * `/outputs/<name>`: an output that is gone, a type that no longer matches), or a socket it joins
 * is not drawn (a group's socket removed in its open version, or a group with issues). It stays,
 * marked, until it is fixed or the socket is back. `shapeOf` gives each node's sockets as drawn.
 */
export function wireIsWrong(
  wire: Wire,
  shapeOf: (id: string) => Shape,
  issuePaths: ReadonlySet<string>,
): boolean {
  const at = wire.to === OUTPUTS_ID
    ? `/outputs/${escapePointer(wire.toSocket)}`
    : `/nodes/${escapePointer(wire.to)}/inputs/${escapePointer(wire.toSocket)}`;
  const drawn = (id: string, socket: string, side: "inputs" | "outputs") =>
    shapeOf(id)[side].some((s) => s.name === socket);
  return issuePaths.has(at) || !drawn(wire.from, wire.fromSocket, "outputs") ||
    !drawn(wire.to, wire.toSocket, "inputs");
}
