/**
 * glTF JSON as a person typed it: where its syntax breaks (JSON.parse's message names no position for
 * most faults in V8 today: "Unexpected token ']', …") and which keys it gives twice. `JSON.parse` keeps
 * a repeated key's last value silently, as three.js and Blender do; glTF forbids repeated keys (2.7,
 * "JSON Encoding"), and readers looking a key up by its first match (RapidJSON's `FindMember`, as
 * Assimp reads glTF) read the first. A hand edit that adds a `"translation"` above the old one, or a
 * second `"nodes"` block pasted in, is read one way here and another there.
 *
 * @module
 */

/** Where JSON text breaks: the character index, and what was expected there and found. */
export interface SyntaxFault {
  readonly at: number;
  readonly expected: string;
  readonly found: string;
}

/** A key given more than once in one object, with different values. */
export interface RepeatedKey {
  /** The JSON path of the key (`/nodes/3/translation`). */
  readonly path: string;
  /** How many times the object gives it. */
  readonly times: number;
  /** The character index of each. */
  readonly at: readonly number[];
}

/**
 * Keys `text` gives more than once in an object with values that differ (one value repeated reads the
 * same whichever a reader keeps). `json` is `JSON.parse(text)`: when its keys and the colons in its
 * strings account for every colon of the text, no key is repeated, and the text is not scanned — the
 * common case costs two native searches and a walk of the parsed values.
 *
 * @example
 * ```ts
 * const text = '{"a":1,"a":2}';
 * repeatedKeys(text, JSON.parse(text)); // [{ path: "/a", times: 2, at: [1, 7] }]
 * ```
 */
export function repeatedKeys(text: string, json: unknown): RepeatedKey[] {
  // An escaped colon (`\u003a`) is a colon in the value, not in the text: scan to be sure.
  const escapedColon = text.includes("\\u003a") || text.includes("\\u003A");
  if (!escapedColon && colons(text) === keysAndColons(json)) return [];
  const found: RepeatedKey[] = [];
  try {
    scanJson(text, found);
  } catch (fault) {
    // Text JSON.parse read: a fault here is the scanner's own, and costs only the note.
    if (!(fault instanceof Fault)) throw fault;
  }
  return found;
}

/**
 * The first syntax fault of `text` (which JSON.parse refused), or undefined when it finds none. Names
 * the habits of hand edits: a trailing comma, a single-quoted or unquoted name, a comment, NaN.
 */
export function syntaxFault(text: string): SyntaxFault | undefined {
  try {
    scanJson(text, undefined);
  } catch (fault) {
    if (fault instanceof Fault) return fault.fault;
    throw fault;
  }
  return undefined;
}

class Fault extends Error {
  constructor(readonly fault: SyntaxFault) {
    super(fault.expected);
  }
}

function colons(text: string): number {
  let n = 0;
  for (let at = text.indexOf(":"); at >= 0; at = text.indexOf(":", at + 1)) n++;
  return n;
}

/** Keys in `value`, plus the colons in its keys and strings. Iterative: any depth. */
function keysAndColons(value: unknown): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const item = stack.pop();
    if (typeof item === "string") n += item.includes(":") ? colons(item) : 0;
    else if (Array.isArray(item)) {
      for (const v of item) if (v !== null && typeof v !== "number") stack.push(v);
    } else if (item && typeof item === "object") {
      for (const key in item) {
        n += key.includes(":") ? colons(key) + 1 : 1;
        const v = (item as Record<string, unknown>)[key];
        if (v !== null && typeof v !== "number" && typeof v !== "boolean") stack.push(v);
      }
    }
  }
  return n;
}

/** An object or array being read: its place in its parent, and for an object the keys seen. */
interface Frame {
  readonly object: boolean;
  readonly segment: string;
  /** Each key's first value (its start and end) and where the key is given, each time. */
  readonly keys?: Map<string, { start: number; end: number; at: number[] }>;
  key: string;
  index: number;
  valueStart: number;
}

const enum Want {
  Value,
  ValueOrEnd,
  Key,
  KeyOrEnd,
  Colon,
  CommaOrEnd,
  Nothing,
}

const LITERAL = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;

/**
 * Reads `text` as JSON, throwing a {@link Fault} at its first syntax fault; with `repeats`, collects
 * the keys an object gives more than once with different values.
 */
function scanJson(text: string, repeats: RepeatedKey[] | undefined): void {
  const stack: Frame[] = [];
  const n = text.length;
  let want = Want.Value as Want;
  let i = 0;
  const fail = (at: number, expected: string, found?: string): never => {
    throw new Fault({ at, expected, found: found ?? shown(text, at) });
  };
  const lastComma = (at: number) => {
    let k = at - 1;
    while (k >= 0 && isSpace(text.charCodeAt(k))) k--;
    return text[k] === "," ? k : -1;
  };
  const stringEnd = (start: number): number => {
    for (let j = start + 1;;) {
      const k = text.indexOf('"', j);
      if (k < 0) fail(start, "a string closed by '\"'", "a string running to the end of the text");
      let slashes = 0;
      while (text.charCodeAt(k - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) {
        // Only when the text failed to parse: where a string holds a line break or a bad escape.
        if (!repeats) {
          try {
            JSON.parse(text.slice(start, k + 1));
          } catch {
            fail(
              start,
              'a JSON string (no line breaks or tabs, escapes \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)',
            );
          }
        }
        return k + 1;
      }
      j = k + 1;
    }
  };
  // A value (or a closing bracket) has ended at i: back to the frame that holds it.
  const ended = () => {
    const frame = stack[stack.length - 1];
    if (!frame) return void (want = Want.Nothing);
    want = Want.CommaOrEnd;
    if (!frame.object || !repeats) return;
    const seen = frame.keys!.get(frame.key)!;
    if (seen.start < 0) {
      seen.start = frame.valueStart;
      seen.end = i;
      return;
    }
    const first = text.slice(seen.start, seen.end), again = text.slice(frame.valueStart, i);
    if (first === again || JSON.stringify(JSON.parse(first)) === JSON.stringify(JSON.parse(again))) return;
    const path = `${stack.map((f) => f.segment).join("/")}/${escapePointer(frame.key)}`;
    const known = repeats.find((r) => r.path === path && r.at[0] === seen.at[0]);
    if (known) (known as { times: number }).times = seen.at.length;
    else repeats.push({ path, times: seen.at.length, at: seen.at });
  };
  for (;;) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) {
      if (want === Want.Nothing) return;
      fail(
        n,
        stack.length ? `more JSON: ${stack.length} unclosed '{' or '['` : "a JSON value",
        "the end of the text",
      );
    }
    const c = text[i];
    const frame = stack[stack.length - 1];
    if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      fail(i, "JSON text", `a comment ('${text.slice(i, i + 2)}'), which JSON does not allow`);
    }
    switch (want) {
      case Want.Value:
      case Want.ValueOrEnd:
        if (frame?.object) frame.valueStart = i;
        if (c === "]" && want === Want.ValueOrEnd) {
          stack.pop();
          i++;
          ended();
        } else if (c === "{" || c === "[") {
          const segment = !frame ? "" : frame.object ? escapePointer(frame.key) : String(frame.index);
          stack.push({
            object: c === "{",
            segment,
            keys: c === "{" ? new Map() : undefined,
            key: "",
            index: 0,
            valueStart: 0,
          });
          want = c === "{" ? Want.KeyOrEnd : Want.ValueOrEnd;
          i++;
        } else if (c === '"') {
          i = stringEnd(i);
          ended();
        } else if (c === "]" || c === "}") {
          const comma = lastComma(i);
          if (comma >= 0) {
            fail(comma, `a value after ',' (JSON allows no comma before '${c}')`, "a trailing comma");
          }
          fail(i, "a value", shown(text, i));
        } else {
          let end = i;
          while (end < n && /[-+.\w]/.test(text[end])) end++;
          const literal = text.slice(i, end);
          if (!LITERAL.test(literal)) {
            fail(
              i,
              "a JSON value (a number, a string in double quotes, true, false, null, an object or an array)",
            );
          }
          i = end;
          ended();
        }
        break;
      case Want.Key:
      case Want.KeyOrEnd: {
        if (c === "}" && want === Want.KeyOrEnd) {
          stack.pop();
          i++;
          ended();
          break;
        }
        if (c === "}") {
          fail(
            lastComma(i),
            "a property name after ',' (JSON allows no comma before '}')",
            "a trailing comma",
          );
        }
        if (c !== '"') {
          fail(i, "a property name in double quotes", c === "'" ? "a name in single quotes" : shown(text, i));
        }
        const end = stringEnd(i);
        const raw = text.slice(i + 1, end - 1);
        const key = raw.includes("\\") ? JSON.parse(text.slice(i, end)) as string : raw;
        frame.key = key;
        if (repeats) {
          const seen = frame.keys!.get(key);
          if (seen) seen.at.push(i);
          else frame.keys!.set(key, { start: -1, end: -1, at: [i] });
        }
        i = end;
        want = Want.Colon;
        break;
      }
      case Want.Colon:
        if (c !== ":") fail(i, "':' after a property name");
        i++;
        want = Want.Value;
        break;
      case Want.CommaOrEnd:
        if (c === ",") {
          if (frame.object) want = Want.Key;
          else (frame.index++, want = Want.Value);
          i++;
        } else if (c === (frame.object ? "}" : "]")) {
          stack.pop();
          i++;
          ended();
        } else fail(i, `',' or '${frame.object ? "}" : "]"}'`);
        break;
      case Want.Nothing:
        fail(i, "the end of the JSON text (one object)");
    }
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** A key as a JSON pointer segment (RFC 6901). */
function escapePointer(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The text at `at`, briefly, for a "found" message. */
function shown(text: string, at: number): string {
  if (at >= text.length) return "the end of the text";
  const part = text.slice(at, at + 12);
  return `'${part}${text.length > at + 12 ? "…" : ""}'`;
}

/** Line and column (1-based) of character index `at` in `text`, as editors show them. */
export function lineColumn(text: string, at: number): { line: number; column: number } {
  let line = 1, start = 0;
  for (let k = text.indexOf("\n"); k >= 0 && k < at; k = text.indexOf("\n", k + 1)) line++, start = k + 1;
  return { line, column: at - start + 1 };
}
