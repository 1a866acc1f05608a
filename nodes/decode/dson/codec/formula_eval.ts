/**
 * ERC formulas that drive a morph's value from other modifiers' values on the same mesh (a
 * controller dialled to 1 moving its morphs) are evaluated at the decoded dials. The DSON spec's
 * `formula`: operations in Reverse Polish Notation, the top of the stack the result; formulas of
 * stage `sum` (the default) add up and those of stage `multiply` (`mult` in files Daz writes) scale
 * the sum. The property's own value joins the sum, as a Daz slider keeps its own dial beside what
 * drives it. A `clamped` channel is kept within its `min`/`max`.
 *
 * Only what is well defined here is evaluated: pushes of numbers and of other modifiers' `?value`
 * on the same mesh, `add`, `sub`, `mult` and `div`. A morph with any formula beyond that (splines,
 * a bone's rotation, another mesh's modifier, a loop) keeps its written value and stays in the
 * "not evaluated" warning.
 *
 * @module
 */
import type { DsonEntry } from "./dson_file.ts";
import type { Morph } from "./model.ts";
import type { JsonRecord } from "./read_json.ts";
import { parseDsonUri } from "./uri.ts";

/** A modifier applied to a mesh and its value there (the scene's dial, else the authored value). */
export interface ModifierValue {
  readonly entry: DsonEntry;
  readonly value: number;
}

/** One operation compiled: a number, another modifier's value, or an arithmetic operator. */
type Operation = { push: number } | { read: string } | { op: "add" | "sub" | "mult" | "div" };

interface Formula {
  readonly stage: "sum" | "mult";
  readonly operations: readonly Operation[];
  /** `file\0path` of the formula, to leave it out of the not-evaluated warning. */
  readonly key: string;
}

const OPERATORS = new Set(["add", "sub", "mult", "div"]);

/** The key {@link evaluateMorphFormulas} returns for formula `k` of `entry`. */
export function formulaKey(entry: DsonEntry, k: number): string {
  return `${entry.file.source}\u0000${entry.path}/formulas/${k}`;
}

/**
 * Sets the weight of each morph of `morphs` that formulas of `values` (the modifiers applied to
 * that mesh, by id) drive, where all of them can be evaluated and no formula of `others` drives it;
 * returns the keys ({@link formulaKey}) of the formulas evaluated.
 *
 * @example
 * ```ts
 * const evaluated = evaluateMorphFormulas(parts.morphs, valuesOfMesh);
 * ```
 */
export function evaluateMorphFormulas(
  morphs: Morph[],
  values: ReadonlyMap<string, ModifierValue>,
  others: Iterable<DsonEntry> = [],
): Set<string> {
  const driven = new Map<string, Formula[] | undefined>(); // undefined: a formula not evaluable
  // Formulas of `others` (the scene's node definitions) driving these values are not evaluated
  // here, so what they drive is left as written rather than driven by half its formulas.
  for (const entry of others) {
    if (!Array.isArray(entry.value.formulas)) continue;
    for (const formula of entry.value.formulas) {
      const output = formula && typeof formula === "object" ? (formula as JsonRecord).output : undefined;
      if (typeof output === "string") driven.set(parseDsonUri(output).id.replace(/:$/, ""), undefined);
    }
  }
  for (const { entry } of values.values()) {
    const formulas = entry.value.formulas;
    if (!Array.isArray(formulas)) continue;
    formulas.forEach((formula, k) => {
      const output = formula && typeof formula === "object" ? (formula as JsonRecord).output : undefined;
      if (typeof output !== "string") return;
      const uri = parseDsonUri(output);
      const id = uri.id.replace(/:$/, "");
      if (!values.has(id) || uri.propertyPath.replace(/\/value$/, "") !== "value") {
        // A formula on another property of a modified value (`?value/min`) makes it unknowable.
        if (values.has(id)) driven.set(id, undefined);
        return;
      }
      const compiled = compile(formula as JsonRecord, values, formulaKey(entry, k));
      const list = driven.has(id) ? driven.get(id) : [];
      driven.set(id, compiled && list ? [...list, compiled] : undefined);
    });
  }
  const evaluated = new Set<string>();
  const memo = new Map<string, number | undefined>();
  const visiting = new Set<string>();
  // The value of modifier `id` with its formulas, or undefined when it cannot be known.
  const valueOf = (id: string): number | undefined => {
    if (memo.has(id)) return memo.get(id);
    const own = values.get(id);
    if (!own || visiting.has(id)) return undefined; // a loop: Daz breaks it somewhere we cannot tell
    const formulas = driven.has(id) ? driven.get(id) : [];
    if (!formulas) return remember(id, undefined);
    visiting.add(id);
    let sum = own.value;
    let product = 1;
    let known = true;
    for (const formula of formulas) {
      const result = run(formula.operations, valueOf);
      if (result === undefined) known = false;
      else if (formula.stage === "sum") sum += result;
      else product *= result;
    }
    visiting.delete(id);
    if (!known) return remember(id, undefined);
    return remember(id, clamp(sum * product, own.entry.value.channel));
  };
  const remember = (id: string, value: number | undefined) => (memo.set(id, value), value);
  morphs.forEach((morph, m) => {
    const formulas = driven.get(morph.id);
    if (!formulas?.length) return;
    const weight = valueOf(morph.id);
    if (weight === undefined || !Number.isFinite(weight)) return;
    morphs[m] = { ...morph, weight };
    for (const formula of formulas) evaluated.add(formula.key);
  });
  return evaluated;
}

/** Compiles a formula whose every operation is evaluable here; undefined otherwise. */
function compile(
  formula: JsonRecord,
  values: ReadonlyMap<string, ModifierValue>,
  key: string,
): Formula | undefined {
  const stage = formula.stage === undefined || formula.stage === "sum"
    ? "sum"
    : formula.stage === "mult" || formula.stage === "multiply"
    ? "mult"
    : undefined;
  if (!stage || !Array.isArray(formula.operations)) return undefined;
  const operations: Operation[] = [];
  for (const raw of formula.operations) {
    const op = raw && typeof raw === "object" ? raw as JsonRecord : undefined;
    if (op?.op === "push" && typeof op.val === "number" && Number.isFinite(op.val)) {
      operations.push({ push: op.val });
    } else if (op?.op === "push" && typeof op.url === "string") {
      const uri = parseDsonUri(op.url);
      const id = uri.id.replace(/:$/, "");
      if (!values.has(id) || uri.propertyPath.replace(/\/value$/, "") !== "value") return undefined;
      operations.push({ read: id });
    } else if (typeof op?.op === "string" && OPERATORS.has(op.op)) {
      operations.push({ op: op.op as "add" | "sub" | "mult" | "div" });
    } else return undefined;
  }
  return { stage, operations, key };
}

/** Runs RPN `operations`; undefined when an input is unknown or the stack runs short (undefined by the spec). */
function run(
  operations: readonly Operation[],
  valueOf: (id: string) => number | undefined,
): number | undefined {
  const stack: number[] = [];
  for (const operation of operations) {
    if ("push" in operation) stack.push(operation.push);
    else if ("read" in operation) {
      const value = valueOf(operation.read);
      if (value === undefined) return undefined;
      stack.push(value);
    } else {
      if (stack.length < 2) return undefined;
      const b = stack.pop()!, a = stack.pop()!;
      stack.push(
        operation.op === "add"
          ? a + b
          : operation.op === "sub"
          ? a - b
          : operation.op === "mult"
          ? a * b
          : a / b,
      );
    }
  }
  return stack.length ? stack[stack.length - 1] : undefined;
}

/** `value` within the channel's `min`/`max` when it is `clamped`. */
function clamp(value: number, channel: unknown): number {
  if (!channel || typeof channel !== "object") return value;
  const { clamped, min, max } = channel as JsonRecord;
  if (clamped !== true) return value;
  const low = typeof min === "number" ? min : -Infinity;
  const high = typeof max === "number" ? max : Infinity;
  return Math.min(high, Math.max(low, value));
}
