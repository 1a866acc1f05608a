/**
 * A name from a file (a node, part, group, clip, material) as the page shows it: the file's text,
 * except characters that would change how the page reads rather than what the name says. Bidi
 * embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069; the marks U+200E, U+200F,
 * U+061C) are shown as `[U+202E]`, so `abc\u202Egnp.exe` cannot pass for `abcexe.png`; control
 * characters (a NUL, a newline in a name) as `[U+0000]`, in ASCII, which every font draws. Letters of
 * any script, emoji and markup-like text are left as they are (they are always set as text).
 *
 * @module
 */

/** Characters that steer layout or are not printable: they are shown by name. */
// deno-lint-ignore no-control-regex -- the control characters are what it finds
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `name` with its bidi controls and control characters made visible. */
export function shownName(name: string): string {
  return name.replace(HIDDEN, visible);
}

/**
 * A message (an issue, a warning, the status bar, a run log line, a tooltip) that may quote names:
 * as {@link shownName}, but its own line breaks and tabs are kept.
 */
export function shownText(message: string): string {
  return message.replace(HIDDEN, (c) => c === "\n" || c === "\t" ? c : visible(c));
}

/** One hidden character as a visible symbol. */
function visible(c: string): string {
  return `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}]`;
}

/** The most characters of a message the page lists (an issue, a run log line, the status bar). */
export const MESSAGE_CHARS = 600;

/**
 * A message as {@link shownText}, cut to {@link MESSAGE_CHARS} saying how long it was: an issue that
 * quotes a 10 KB node id twice would otherwise fill the panel with hundreds of wrapped lines.
 */
export function shownMessage(message: string): string {
  const shown = shownText(message);
  return shown.length <= MESSAGE_CHARS
    ? shown
    : `${shown.slice(0, MESSAGE_CHARS)}… (${shown.length} characters)`;
}
