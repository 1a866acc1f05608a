/**
 * Why a graph file on disk cannot be read as JSON, in the words a user acts on: a merge left half
 * done (git's `<<<<<<<`, `=======`, `>>>>>>>` conflict markers, with their lines), a file another
 * editor was writing when it was read (empty, or cut short), or plain bad JSON (the parser's message,
 * with its position). The studio opens no such file, and Save writes over one only when the user
 * confirms it by the digest of the bytes they were told about (`save_file.ts`).
 *
 * @module
 */

/** What is wrong with a graph file's text, when it is not JSON. */
export interface Unreadable {
  /** One sentence naming the problem and where (lines, byte offset); starts lower case. */
  readonly reason: string;
  /** True when the text holds merge-conflict markers. */
  readonly conflict: boolean;
}

/** A conflict marker line: seven `<`, `=`, `|` (diff3) or `>` at a line's start. */
const MARKER = /^(<{7}|={7}|\|{7}|>{7})(?: |$)/;

/**
 * Why `bytes` are not JSON, or undefined when they are (whatever JSON: a graph or not).
 *
 * @example
 * ```ts
 * unreadable(new TextEncoder().encode("<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> b\n"))?.conflict; // true
 * ```
 */
export function unreadable(bytes: Uint8Array): Unreadable | undefined {
  const text = new TextDecoder().decode(bytes);
  let parseError: string;
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    parseError = (error as Error).message;
  }
  const markers: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const mark = MARKER.exec(line)?.[1];
    if (mark) markers.push(`${mark} at line ${i + 1}`);
  });
  const starts = markers.filter((m) => m.startsWith("<")).length;
  if (starts > 0) {
    const shown = markers.length > 6 ? [...markers.slice(0, 6), `${markers.length - 6} more`] : markers;
    return {
      reason: `has merge-conflict markers (a merge is half done: ${starts} conflict${
        starts > 1 ? "s" : ""
      }; ${shown.join(", ")})`,
      conflict: true,
    };
  }
  if (!text.trim()) {
    return { reason: `is empty (${bytes.length} bytes; another program may be writing it)`, conflict: false };
  }
  const cut = /end of JSON input|Unterminated string|Unexpected end/i.test(parseError);
  return {
    reason: cut
      ? `is cut short at byte ${bytes.length} (${parseError}; another editor may have been saving it)`
      : `is not valid JSON (${parseError})`,
    conflict: false,
  };
}
