/**
 * Graph inputs: their declarations, and the values given for them from outside (the CLI's
 * `--set`, the API's `inputs`), checked with the rest of the graph so one `GraphError` lists
 * every problem.
 *
 * @module
 */
import { type GraphInputDecl, INPUT_FIELDS } from "../graph.ts";
import { type JsonValue, SOCKET_TYPES, type SocketType } from "../node.ts";
import { checkSocketLiteral } from "../params.ts";
import { esc, isObject, type Report } from "./report.ts";

const INPUT_KEYS = new Set(Object.keys(INPUT_FIELDS));
const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Checks a graph file's `inputs` declarations; returns the well-formed ones by name. */
export function validateInputDecls(raw: unknown, issue: Report): Record<string, GraphInputDecl> {
  const inputs: Record<string, GraphInputDecl> = {};
  if (raw === undefined) return inputs;
  if (!isObject(raw)) {
    issue("invalid_graph", "/inputs", "expected an object of input declarations");
    return inputs;
  }
  for (const [name, decl] of Object.entries(raw)) {
    const at = `/inputs/${esc(name)}`;
    if (!INPUT_NAME.test(name)) {
      issue("invalid_graph", at, `input name '${name}' may use letters, digits and _`);
    }
    if (!isObject(decl) || !SOCKET_TYPES.includes(decl.type as SocketType)) {
      issue("invalid_graph", `${at}/type`, `expected a type, one of ${SOCKET_TYPES.join(", ")}`);
      continue;
    }
    for (const key of Object.keys(decl)) {
      if (!INPUT_KEYS.has(key)) issue("invalid_graph", `${at}/${esc(key)}`, `unknown field '${key}'`);
    }
    if (decl.default !== undefined) {
      const problem = checkSocketLiteral(decl.type as SocketType, decl.default as JsonValue);
      if (problem) issue("bad_param", `${at}/default`, problem);
    }
    inputs[name] = decl as unknown as GraphInputDecl;
  }
  return inputs;
}

/**
 * Checks the values given for a top-level graph's inputs: each names a declared input, has its
 * type, and every input without a default gets one. Returns the given literal values that passed,
 * for the parameters they feed to be checked against.
 */
export function checkGivenValues(
  declared: Readonly<Record<string, GraphInputDecl>>,
  values: Readonly<Record<string, unknown>>,
  issue: Report,
): Record<string, JsonValue> {
  const known: Record<string, JsonValue> = {};
  for (const name of Object.keys(values)) {
    if (!(name in declared)) {
      issue(
        "unknown_graph_input",
        "/inputs",
        `a value was given for '${name}', which the graph does not declare`,
      );
    }
  }
  for (const [name, decl] of Object.entries(declared)) {
    const given = values[name] ?? undefined; // null, like absent, leaves the default in place
    if (given === undefined && decl.default === undefined) {
      issue(
        "missing_graph_input",
        `/inputs/${esc(name)}`,
        `graph input '${name}' (${decl.type}) has no default and no value was given` +
          (decl.description ? ` — ${decl.description}` : ""),
      );
    }
    if (given === undefined || decl.type === "bytes" || decl.type === "scene") continue;
    const problem = checkSocketLiteral(decl.type, given as JsonValue);
    if (problem) issue("bad_param", `/inputs/${esc(name)}`, problem);
    else known[name] = given as JsonValue;
  }
  return known;
}
