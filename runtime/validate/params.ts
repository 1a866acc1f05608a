/**
 * Parameter checks of graph validation: a node's parameters against its declaration, a node
 * group's parameters against its signature, and values that reach a parameter through a graph
 * input. Plug-in parameter specs (`JsonParam.members`, e.g. `decode.auto`'s decoder options) are
 * checked here by the same code as nodes' own parameters.
 *
 * @module
 */
import { isInputRef, isLiteral } from "../graph.ts";
import type { AnyNodeDef, JsonValue, ParamSpec, PluginTables } from "../node.ts";
import { checkParam, checkSocketLiteral, paramSocketType } from "../params.ts";
import type { Signature } from "../validate.ts";
import { checkInputRef } from "./refs.ts";
import { esc, isObject, type ScopeFacts } from "./report.ts";
import { suggestName } from "./suggest.ts";

/** A problem with a parameter value, at a JSON Pointer below the parameter ("" for the value). */
export interface ValueProblem {
  /** Path below the parameter's own path, e.g. `/scale` for a decoder option. */
  readonly at: string;
  /** What is wrong. */
  readonly message: string;
}

/**
 * Every problem with a value for a parameter: the spec's own check, then — for a JSON object of
 * plug-in parameters — each member against the specs of every plug-in that declares it.
 *
 * @example
 * ```ts
 * import { paramValueProblems } from "./params.ts";
 * import { createRegistry } from "../registry.ts";
 *
 * const spec = { type: "number", min: 0, doc: "" } as const;
 * console.log(paramValueProblems(spec, -1, createRegistry())); // [{ at: "", message: "must be >= 0, found -1" }]
 * ```
 */
export function paramValueProblems(spec: ParamSpec, value: JsonValue, plugins: PluginTables): ValueProblem[] {
  const problem = checkParam(spec, value);
  if (problem) return [{ at: "", message: problem }];
  if (spec.type !== "json" || !spec.members || !isObject(value)) return [];
  // One problem per member and message, naming every plug-in that finds it (decoders share specs).
  const owners = new Map<string, { at: string; problem: string; owners: string[] }>();
  for (const { owner, params } of spec.members(plugins)) {
    for (const [name, member] of Object.entries(value)) {
      const memberSpec = params[name];
      const problem = memberSpec && checkParam(memberSpec, member as JsonValue);
      if (!problem) continue;
      const at = `/${esc(name)}`;
      const key = `${at}\0${problem}`;
      const entry = owners.get(key) ?? owners.set(key, { at, problem, owners: [] }).get(key)!;
      entry.owners.push(owner);
    }
  }
  return [...owners.values()].map((e) => ({ at: e.at, message: `for ${e.owners.join(", ")}: ${e.problem}` }));
}

/** Checks a node's `params` against its declaration; records the graph inputs that feed them. */
export function checkNodeParams(
  def: AnyNodeDef,
  raw: unknown,
  at: string,
  facts: ScopeFacts,
  paramInputs: Set<string>,
): void {
  const { issue } = facts;
  if (raw !== undefined && !isObject(raw)) {
    issue("invalid_graph", `${at}/params`, "expected an object of parameters");
    return;
  }
  const given = (raw ?? {}) as Record<string, JsonValue>;
  for (const [name, value] of Object.entries(given)) {
    const spec = def.params[name];
    const path = `${at}/params/${esc(name)}`;
    if (!spec) {
      issue(
        "unknown_param",
        path,
        `'${def.type}' has no parameter '${name}'${suggestName(name, Object.keys(def.params))}`,
      );
      continue;
    }
    if (!isInputRef(value)) {
      const literal = isLiteral(value) ? value.$literal : value;
      for (const p of paramValueProblems(spec, literal, facts.plugins)) {
        issue("bad_param", path + p.at, p.message);
      }
      continue;
    }
    const ref = value.$input;
    const decl = checkInputRef(ref, path, { type: paramSocketType(spec), what: "the parameter" }, facts);
    if (!decl) continue;
    paramInputs.add(ref);
    // A value known for the input (given from outside or by the using group) is checked where its
    // parameter is known; else the input's own default is.
    if (ref in facts.known) {
      const known = facts.known[ref];
      for (const p of paramValueProblems(spec, known, facts.plugins)) {
        issue("bad_param", path + p.at, `graph input '${ref}' gives ${JSON.stringify(known)}: ${p.message}`);
      }
    } else if (decl.default !== undefined) {
      for (const p of paramValueProblems(spec, decl.default, facts.plugins)) {
        issue("bad_param", `/inputs/${esc(ref)}/default${p.at}`, `for ${path}: ${p.message}`);
      }
    }
  }
  for (const [name, spec] of Object.entries(def.params)) {
    if (spec.default === undefined && !(name in given)) {
      issue("missing_param", `${at}/params`, `required parameter '${name}' (${spec.type}) is not set`);
    }
  }
}

/** Checks a node group's `params` (literal values of its inputs) against its signature. */
export function checkGroupParams(raw: unknown, signature: Signature, at: string, facts: ScopeFacts): void {
  const { issue } = facts;
  if (raw === undefined) return;
  if (!isObject(raw)) {
    issue("invalid_graph", `${at}/params`, "expected an object of parameters");
    return;
  }
  for (const [name, value] of Object.entries(raw)) {
    const decl = signature.inputs[name];
    const path = `${at}/params/${esc(name)}`;
    if (!decl) {
      issue(
        "unknown_param",
        path,
        `the group has no input '${name}'${suggestName(name, Object.keys(signature.inputs))}`,
      );
      continue;
    }
    if (isInputRef(value)) {
      checkInputRef(value.$input, path, { type: decl.type, what: `the group's '${name}'` }, facts);
      continue;
    }
    const problem = checkSocketLiteral(decl.type, value as JsonValue);
    if (problem) issue("bad_param", path, problem);
  }
}
