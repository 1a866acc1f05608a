/**
 * A graph as Graphviz DOT, for seeing a pipeline the way a node editor shows it: nodes with their
 * types, links labelled with their sockets, node groups as boxes around their inner nodes, graph
 * inputs and outputs at the edges.
 *
 * @module
 */
import { isInputRef, parseLink } from "./graph.ts";
import type { Scope } from "./validate.ts";

/**
 * Renders a validated graph (see `validateScope`) as DOT text.
 *
 * @example
 * ```ts
 * import { createRegistry, graphToDot, loadGraph, validateScope } from "./mod.ts";
 *
 * const { scope } = await validateScope(await loadGraph("graphs/aircraft.json"), createRegistry());
 * await Deno.writeTextFile("aircraft.dot", graphToDot(scope!)); // then: dot -Tsvg aircraft.dot
 * ```
 */
export function graphToDot(scope: Scope): string {
  const lines = [
    "digraph partgraph {",
    "  rankdir=LR;",
    '  node [shape=box, style="rounded,filled", fillcolor="#eef3fb", fontname="Helvetica"];',
    '  edge [fontname="Helvetica", fontsize=10];',
  ];
  renderScope(scope, "", "  ", lines);
  for (const name of Object.keys(scope.graph.outputs ?? {})) {
    lines.push(`  ${id(`out:${name}`)} [label=${quote(name)}, shape=ellipse, fillcolor="#e8f6e8"];`);
    const source = sourceOf(scope, "", scope.graph.outputs![name]);
    lines.push(`  ${source.node} -> ${id(`out:${name}`)} [label=${quote(source.socket)}];`);
  }
  lines.push("}");
  return lines.join("\n") + "\n";
}

/** Adds one scope's inputs, nodes and links; node groups become clusters. */
function renderScope(scope: Scope, prefix: string, indent: string, lines: string[]): void {
  for (const [name, decl] of Object.entries(scope.signature.inputs)) {
    const label = decl.default === undefined ? name : `${name} = ${JSON.stringify(decl.default)}`;
    lines.push(
      `${indent}${id(`${prefix}in:${name}`)} [label=${quote(label)}, shape=ellipse, fillcolor="#fdf3e1"];`,
    );
  }
  for (const [nodeId, decl] of Object.entries(scope.graph.nodes)) {
    const full = prefix + nodeId;
    const group = scope.groups.get(nodeId);
    if (group) {
      lines.push(`${indent}subgraph ${id(`cluster_${full}`)} {`);
      lines.push(`${indent}  label=${quote(`${nodeId} (${decl.graph})`)}; style="rounded,dashed";`);
      renderScope(group, `${full}/`, `${indent}  `, lines);
      lines.push(`${indent}}`);
    } else {
      lines.push(`${indent}${id(full)} [label=${quote(`${nodeId}\n${decl.type}`)}];`);
    }
    // Links into this node (a group's links go to its input ellipses).
    for (const [socket, value] of Object.entries(decl.inputs ?? {})) {
      const target = group ? id(`${full}/in:${socket}`) : id(full);
      const from = isInputRef(value)
        ? { node: id(`${prefix}in:${value.$input}`), socket: "" }
        : sourceOf(scope, prefix, value);
      lines.push(
        `${indent}${from.node} -> ${target} [label=${
          quote(from.socket ? `${from.socket} → ${socket}` : socket)
        }];`,
      );
    }
    for (const [name, value] of Object.entries(decl.params ?? {})) {
      if (!isInputRef(value)) continue;
      const target = group ? id(`${full}/in:${name}`) : id(full);
      lines.push(
        `${indent}${id(`${prefix}in:${value.$input}`)} -> ${target} [label=${quote(name)}, style=dashed];`,
      );
    }
  }
}

/** The DOT id and socket of the node behind a link, following it into node groups. */
function sourceOf(scope: Scope, prefix: string, text: string): { node: string; socket: string } {
  const link = parseLink(text)!;
  const group = scope.groups.get(link.node);
  if (!group) return { node: id(prefix + link.node), socket: link.socket };
  return sourceOf(group, `${prefix}${link.node}/`, group.graph.outputs![link.socket]);
}

function id(text: string): string {
  return quote(text);
}

function quote(text: string): string {
  return JSON.stringify(text);
}
