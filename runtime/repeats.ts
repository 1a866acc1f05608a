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

/**
 * `messages` in order; of a template given more than {@link ALL_SHOWN_UP_TO} times, the first
 * {@link SHOWN_PER_TEMPLATE} in full and after them one line counting the rest. A template is the
 * text with every quoted name and number masked.
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
      out.push(`… and ${total - SHOWN_PER_TEMPLATE} more like the last`);
    }
  });
  return out;
}
