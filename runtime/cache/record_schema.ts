/**
 * The shape of a disk-cache action record, checked on every read: a record that is valid JSON but
 * of the wrong shape (written by a buggy or foreign tool, or damaged into other valid JSON) must be
 * a cache miss, never a crash of every later run.
 *
 * @module
 */
import { isAbsolute, normalize } from "node:path";
import { SOCKET_TYPES } from "../node.ts";
import { isObject } from "../json_shape.ts";

/** What the reading node expects of its record: its type and its output sockets' types. */
export interface RecordExpectation {
  /** Node type id. */
  readonly type: string;
  /** Output sockets by name, with their types. */
  readonly outputs: Readonly<Record<string, { readonly type: string }>>;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** How many other variants' read paths a record keeps at most (`ActionRecord.readSets` in disk.ts). */
export const READ_SETS = 8;

/**
 * Why `value` is not a well-formed action record (`ActionRecord` in disk.ts), or undefined when it is.
 *
 * @example
 * ```ts
 * import { recordProblem } from "./record_schema.ts";
 *
 * recordProblem({ version: 1, outputs: {} }); // "type: expected a string"
 * const record = { version: 1, type: "io.read", outputs: {}, warnings: [], reads: [], writes: [] };
 * recordProblem(record, { type: "io.read", outputs: { bytes: { type: "bytes" } } }); // "outputs: expected bytes"
 * ```
 */
export function recordProblem(value: unknown, expect?: RecordExpectation): string | undefined {
  if (!isObject(value)) return "expected an object";
  if (value.version !== 1) return "version: expected 1";
  if (typeof value.type !== "string") return "type: expected a string";
  if (expect && value.type !== expect.type) return `type: expected '${expect.type}'`;
  if (!isObject(value.outputs)) return "outputs: expected an object";
  if (value.recompute !== undefined) {
    if (value.recompute !== true) return "recompute: expected true";
    if (Object.keys(value.outputs).length) return "outputs: expected none (the values are recomputed)";
  } else if (expect) {
    const names = Object.keys(expect.outputs);
    const stored = value.outputs;
    if (Object.keys(stored).length !== names.length || names.some((n) => !isObject(stored[n]))) {
      return `outputs: expected ${names.join(", ") || "none"}`;
    }
    const wrong = names.find((n) => (stored[n] as Record<string, unknown>).type !== expect.outputs[n].type);
    if (wrong) return `outputs.${wrong}.type: expected '${expect.outputs[wrong].type}'`;
  }
  for (const [name, out] of Object.entries(value.outputs)) {
    if (!isObject(out)) return `outputs.${name}: expected an object`;
    if (!SOCKET_TYPES.includes(out.type as never)) return `outputs.${name}.type: expected a socket type`;
    if (typeof out.digest !== "string" || !SHA256.test(out.digest)) {
      return `outputs.${name}.digest: expected a SHA-256`;
    }
    if (!Number.isSafeInteger(out.size) || (out.size as number) < 0) {
      return `outputs.${name}.size: expected a size`;
    }
    if (out.inline !== undefined && typeof out.inline !== "string") {
      return `outputs.${name}.inline: expected base64`;
    }
    if (out.file !== undefined && !(typeof out.file === "string" && isAbsolute(out.file))) {
      return `outputs.${name}.file: expected an absolute path`;
    }
    if (out.file !== undefined && out.inline !== undefined) return `outputs.${name}: both inline and a file`;
  }
  if (!Array.isArray(value.warnings)) return "warnings: expected an array";
  for (const w of value.warnings) {
    if (!isObject(w) || typeof w.message !== "string" || (w.detail !== undefined && !isObject(w.detail))) {
      return "warnings: expected {message, detail?} entries";
    }
  }
  for (const list of ["reads", "writes"] as const) {
    const files = value[list];
    if (!Array.isArray(files)) return `${list}: expected an array`;
    for (const f of files) {
      // A read that failed is recorded as "absent" (see ABSENT in execute/files.ts).
      const digest = isObject(f) && typeof f.sha256 === "string" ? f.sha256 : "";
      if (
        !isObject(f) || typeof f.path !== "string" ||
        !(SHA256.test(digest) || list === "reads" && digest === "absent")
      ) {
        return `${list}: expected {path, sha256} entries`;
      }
      // A written path is relative to the output directory and stays inside it.
      if (list === "writes" && (isAbsolute(f.path) || normalize(f.path).startsWith(".."))) {
        return `writes: path '${f.path}' leaves the output directory`;
      }
    }
  }
  if (value.readSets !== undefined) {
    const sets = value.readSets;
    if (
      !Array.isArray(sets) || sets.length > READ_SETS ||
      !sets.every((set) => Array.isArray(set) && set.every((path) => typeof path === "string"))
    ) {
      return `readSets: expected at most ${READ_SETS} lists of paths`;
    }
  }
  return undefined;
}
