/**
 * Typed errors. Every error partgraph raises on bad input is one of these, so callers (and the CLI's
 * `--json` events) can tell a graph mistake from a corrupt file from a failing node without parsing
 * messages.
 *
 * @module
 */

/** Base class: `kind` is machine-readable, `message` is for people. */
export class PartgraphError extends Error {
  /** Machine-readable kind, stable across versions (e.g. `"decode"`, `"graph"`). */
  readonly kind: string;
  /** `options.cause` keeps the underlying error; `name` becomes the subclass's name. */
  constructor(kind: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.kind = kind;
    this.name = new.target.name;
  }
  /** A JSON-safe description for NDJSON events and reports. */
  toJSON(): Record<string, unknown> {
    return { kind: this.kind, message: this.message };
  }
}

/** Where in a file a decode problem sits: a byte offset for binary formats, a JSON path for text ones. */
export type DecodeLocation = { offset: number } | { jsonPath: string };

/** Fields of a {@link DecodeError}. */
export interface DecodeErrorInit {
  /** Format name, e.g. `"utf"`, `"3df"`, `"dson"`. */
  format: string;
  /** Byte offset or JSON path of the problem. */
  at: DecodeLocation;
  /** What the decoder expected there, e.g. `"signature 'UTF '"`. */
  expected: string;
  /** What it found instead, e.g. `"'ABCD'"`. */
  found: string;
  /** The file being decoded, when known. */
  file?: string;
}

/**
 * A file could not be decoded: carries the format, where (byte offset or JSON path), what was
 * expected and what was found.
 *
 * @example
 * ```ts
 * throw new DecodeError({ format: "utf", at: { offset: 0 }, expected: "signature 'UTF '", found: "'RIFF'" });
 * ```
 */
export class DecodeError extends PartgraphError {
  /** Format name, e.g. `"utf"`, `"3df"`, `"dson"`. */
  readonly format: string;
  /** Byte offset (binary formats) or JSON path (text formats) of the problem. */
  readonly at: DecodeLocation;
  /** What the decoder expected there, e.g. `"signature 'UTF '"`. */
  readonly expected: string;
  /** What it found instead, e.g. `"'ABCD'"`. */
  readonly found: string;
  /** The file being decoded; undefined when unknown (e.g. bytes built in memory). */
  readonly file?: string;
  /** Builds the message `<format> in <file> at <where>: expected …, found …` from the fields. */
  constructor(init: DecodeErrorInit, options?: ErrorOptions) {
    const where = "offset" in init.at ? `byte ${init.at.offset}` : init.at.jsonPath;
    const file = init.file ? ` in ${init.file}` : "";
    super(
      "decode",
      `${init.format}${file} at ${where}: expected ${init.expected}, found ${init.found}`,
      options,
    );
    this.format = init.format;
    this.at = init.at;
    this.expected = init.expected;
    this.found = init.found;
    this.file = init.file;
  }
  /** Adds `format`, `at`, `expected`, `found` and `file` to the base description. */
  override toJSON(): Record<string, unknown> {
    return {
      kind: this.kind,
      message: this.message,
      format: this.format,
      at: this.at,
      expected: this.expected,
      found: this.found,
      file: this.file,
    };
  }
}

/** One problem found in a graph file, located by JSON path. */
export interface GraphIssue {
  /** Machine-readable kind, see {@link GraphIssueKind}. */
  kind: GraphIssueKind;
  /** JSON path of the offending value, e.g. `/nodes/fit/params/bins`. */
  path: string;
  /** Human explanation. */
  message: string;
  /** The graph file the path refers to (differs from the top file inside node groups). */
  file?: string;
}

/** Every kind of graph problem validation reports. */
export type GraphIssueKind =
  | "invalid_graph"
  | "unknown_node_type"
  | "unknown_socket"
  | "missing_socket"
  | "type_mismatch"
  | "cycle"
  | "bad_param"
  | "unknown_param"
  | "missing_param"
  | "missing_graph_input"
  | "unknown_graph_input"
  | "unknown_node"
  | "unreadable_subgraph"
  | "invalid_subgraph"
  | "unreadable_module";

/** A graph failed validation; `issues` lists every problem found. */
export class GraphError extends PartgraphError {
  /** Every problem found, in the order validation met them. */
  readonly issues: GraphIssue[];
  /** The message lists one issue per line, with file, JSON path and kind. */
  constructor(issues: GraphIssue[]) {
    super(
      "graph",
      `graph has ${issues.length} problem(s):\n` +
        issues.map((i) => `  ${i.file ? i.file + " " : ""}${i.path}: [${i.kind}] ${i.message}`)
          .join("\n"),
    );
    this.issues = issues;
  }
  /** Adds the `issues` list to the base description. */
  override toJSON(): Record<string, unknown> {
    return { kind: this.kind, message: this.message, issues: this.issues };
  }
}

/** A node's run function failed; wraps the cause with the node id and type. */
export class NodeFailure extends PartgraphError {
  /** Flattened id of the failed node (`group/inner` inside node groups). */
  readonly nodeId: string;
  /** Type id of the failed node, e.g. `decode.cmp`. */
  readonly nodeType: string;
  /** `cause` is whatever the node threw; it stays available as `error.cause`. */
  constructor(nodeId: string, nodeType: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super("node", `node '${nodeId}' (${nodeType}) failed: ${reason}`, { cause });
    this.nodeId = nodeId;
    this.nodeType = nodeType;
  }
  /** Adds `node`, `type` and the cause (its own `toJSON()` when it is a {@link PartgraphError}). */
  override toJSON(): Record<string, unknown> {
    const cause = this.cause instanceof PartgraphError
      ? this.cause.toJSON()
      : { message: this.cause instanceof Error ? this.cause.message : String(this.cause) };
    return { kind: this.kind, message: this.message, node: this.nodeId, type: this.nodeType, cause };
  }
}

/** A run finished with failed nodes; `failures` has one entry per failed node. */
export class RunError extends PartgraphError {
  /** One entry per failed node; nodes skipped because of a failure upstream are not listed. */
  readonly failures: NodeFailure[];
  /** The message joins the failures' messages, one per line. */
  constructor(failures: NodeFailure[]) {
    super("run", failures.map((f) => f.message).join("\n"));
    this.failures = failures;
  }
  /** Adds `failures`, each as its own `toJSON()`. */
  override toJSON(): Record<string, unknown> {
    return { kind: this.kind, message: this.message, failures: this.failures.map((f) => f.toJSON()) };
  }
}
