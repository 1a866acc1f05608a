/**
 * The node catalogue — every registered node with its sockets and parameters — generated from the
 * declarations, for `partgraph nodes` and the README.
 *
 * @module
 */
import type { AnyNodeDef, ParamSpec } from "./node.ts";
import type { Registry } from "./registry.ts";

/** A plain-text catalogue for the terminal. */
export function catalogueText(registry: Registry): string {
  const lines: string[] = [];
  for (const node of registry.list()) {
    lines.push(`${node.type} (v${node.version})`, `  ${node.doc}`);
    for (const [name, s] of Object.entries(node.inputs)) {
      lines.push(`  in  ${name}: ${s.type}${s.optional ? "?" : ""} — ${s.doc}`);
    }
    for (const [name, s] of Object.entries(node.outputs)) lines.push(`  out ${name}: ${s.type} — ${s.doc}`);
    for (const [name, p] of Object.entries(node.params)) {
      lines.push(`  param ${name}: ${paramSummary(p)} — ${p.doc}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

/** A Markdown catalogue (one section per node) for the README. */
export function catalogueMarkdown(registry: Registry): string {
  return registry.list().map(nodeMarkdown).join("\n");
}

function nodeMarkdown(node: AnyNodeDef): string {
  const rows: string[] = [`#### \`${node.type}\` (v${node.version})`, "", node.doc, ""];
  const sockets = [
    ...Object.entries(node.inputs).map(([n, s]) =>
      `| in | \`${n}\` | ${s.type}${s.optional ? " (optional)" : ""} | ${s.doc} |`
    ),
    ...Object.entries(node.outputs).map(([n, s]) => `| out | \`${n}\` | ${s.type} | ${s.doc} |`),
  ];
  if (sockets.length) rows.push("| | socket | type | |", "| --- | --- | --- | --- |", ...sockets, "");
  const params = Object.entries(node.params).map(([n, p]) => `| \`${n}\` | ${paramSummary(p)} | ${p.doc} |`);
  if (params.length) rows.push("| parameter | type, default | |", "| --- | --- | --- |", ...params, "");
  return rows.join("\n");
}

function paramSummary(p: ParamSpec): string {
  let type: string = p.type;
  if (p.type === "enum") type = p.values.map((v) => JSON.stringify(v)).join(" \\| ");
  if (p.type === "number") {
    const range = [p.min !== undefined ? `≥ ${p.min}` : "", p.max !== undefined ? `≤ ${p.max}` : ""].filter(
      Boolean,
    );
    type = `${p.integer ? "integer" : "number"}${range.length ? ` ${range.join(", ")}` : ""}`;
  }
  if (p.type === "path") type = `path (${p.access})`;
  return p.default === undefined ? `${type}, required` : `${type}, default ${JSON.stringify(p.default)}`;
}
