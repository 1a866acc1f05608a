/**
 * Warnings that repeat one template (the same text but for names and numbers) thousands of times —
 * a CAD conversion with 3,000 meshes whose normals all need the same repair — are summarised, so
 * the one warning that differs is not lost among them.
 *
 * @module
 */

/** How many warnings of one template are given in full before the rest are counted. */
const SHOWN_PER_TEMPLATE = 3;
/** Up to this many of one template are all given: a summary line would save too little. */
const ALL_SHOWN_UP_TO = 5;
/** How many of the rest the summary line names (by their quoted name or JSON path), so each can be found. */
const NAMED_IN_SUMMARY = 8;
/** What a warning is about: the first quoted name or JSON path (`/nodes/3/rotation`) in it. */
const SUBJECT = /'[^']*'|(?<![\w.])\/[\w./-]*\w/;

/**
 * `messages` in order; of a template given more than {@link ALL_SHOWN_UP_TO} times, the first
 * {@link SHOWN_PER_TEMPLATE} in full and after them one line counting the rest and naming the first
 * {@link NAMED_IN_SUMMARY} of them (a warning should say which part it is about, even summarised). A
 * template is the text with every quoted name and number masked.
 *
 * @example
 * ```ts
 * summariseRepeats(["mesh 'a': 2 normals fixed", "mesh 'b': 9 normals fixed", "camera 'c' fixed"]);
 * // all three: no template repeats more than three times
 * ```
 */
export function summariseRepeats(messages: readonly string[]): string[] {
  const templates = messages.map((message) => message.replace(/'[^']*'|-?\d+(\.\d+)?(e[+-]?\d+)?/g, "#"));
  const totals = new Map<string, number>();
  for (const template of templates) totals.set(template, (totals.get(template) ?? 0) + 1);
  const seen = new Map<string, number>();
  const out: string[] = [];
  messages.forEach((message, i) => {
    const template = templates[i];
    const count = (seen.get(template) ?? 0) + 1;
    seen.set(template, count);
    const total = totals.get(template)!;
    if (total <= ALL_SHOWN_UP_TO || count <= SHOWN_PER_TEMPLATE) out.push(message);
    if (total > ALL_SHOWN_UP_TO && count === SHOWN_PER_TEMPLATE) {
      out.push(`… and ${total - SHOWN_PER_TEMPLATE} more like the last${restNamed(messages, templates, i)}`);
    }
  });
  return out;
}

/** `: a, b, …` naming the messages of `templates[last]`'s template after `last`, or "" when none has a subject. */
function restNamed(messages: readonly string[], templates: readonly string[], last: number): string {
  const subjects: string[] = [];
  let more = false;
  for (let i = last + 1; i < messages.length; i++) {
    if (templates[i] !== templates[last]) continue;
    const subject = SUBJECT.exec(messages[i])?.[0];
    if (subject === undefined) continue;
    if (subjects.length === NAMED_IN_SUMMARY) {
      more = true;
      break;
    }
    subjects.push(subject);
  }
  return subjects.length ? `: ${subjects.join(", ")}${more ? ", …" : ""}` : "";
}
