/**
 * What hand edits and non-Daz writers leave in DSON text that JSON does not allow, read the way
 * those writers meant it: `//` and `/* … *\/` comments (vendors annotate files they tweak; editors
 * for JSON with comments keep them), a stray comma before `]` or `}` (Diffeomorphic's loader repairs
 * it too), and the bare `NaN`, `Infinity` and `-Infinity` Python's `json.dump` writes by default
 * (Blender round trips, Poser→DSON converters), read as `null`, which every DSON reader here takes
 * as an absent value (an unlimited bound, an unset value). Strings are read as strings throughout,
 * so a URL's `//` or a quoted `NaN` is left alone.
 *
 * @module
 */

/** The repaired text and how many of each repair it took. */
export interface LenientText {
  readonly text: string;
  readonly comments: number;
  readonly commas: number;
  readonly nonFinite: number;
}

/**
 * Repairs the JSON-with-habits `text` (see the module doc); only called on text `JSON.parse` refused.
 *
 * @example
 * ```ts
 * repairJsonText('{"a": [1, NaN,], // note\n}'); // text '{"a": [1, null ], …}', 1 comment, 2 commas, 1 NaN
 * ```
 */
export function repairJsonText(text: string): LenientText {
  // Kept runs are copied as slices: the text can be tens of megabytes.
  const parts: string[] = [];
  let from = 0;
  let comments = 0, nonFinite = 0;
  let last = ""; // the last significant character outside strings and comments
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      last = '"';
    } else if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      const end = text[i + 1] === "/" ? text.indexOf("\n", i) : text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : text[i + 1] === "/" ? end : end + 2;
      // Blanked, not cut, so positions in later error messages still point into the file.
      parts.push(text.slice(from, i), text.slice(i, stop).replace(/[^\r\n]/g, " "));
      from = stop;
      comments++;
      i = stop - 1;
    } else if ((c === "N" || c === "I" || c === "-") && (last === ":" || last === "[" || last === ",")) {
      const word = /^(-?Infinity|NaN)(?![\w.])/.exec(text.slice(i, i + 10));
      last = c;
      if (!word) continue;
      parts.push(text.slice(from, i), "null");
      from = i + word[0].length;
      nonFinite++;
      i = from - 1;
      last = "l";
    } else if (c !== " " && c !== "\n" && c !== "\r" && c !== "\t") last = c;
  }
  parts.push(text.slice(from));
  const commas = withoutTrailingCommas(parts.join(""));
  return { text: commas.text, comments, commas: commas.removed, nonFinite };
}

/** The text with every comma that directly precedes `]` or `}` (outside strings) blanked out. */
function withoutTrailingCommas(text: string): { text: string; removed: number } {
  const blanked: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === ",") {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j])) j++;
      if (text[j] === "]" || text[j] === "}") blanked.push(i);
    }
  }
  if (!blanked.length) return { text, removed: 0 };
  let out = "";
  let from = 0;
  for (const at of blanked) {
    out += text.slice(from, at) + " ";
    from = at + 1;
  }
  return { text: out + text.slice(from), removed: blanked.length };
}
