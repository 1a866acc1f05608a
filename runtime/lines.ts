/**
 * Text split into lines, for line protocols over pipes (std's `TextLineStream` is on JSR, which this
 * project cannot resolve).
 *
 * @module
 */

/**
 * A stream that splits text into lines without their `\n`; a last line without one is kept too.
 *
 * @example
 * ```ts
 * const lines = new Blob(["a\nb"]).stream().pipeThrough(new TextDecoderStream()).pipeThrough(lineStream());
 * ```
 */
export function lineStream(): TransformStream<string, string> {
  let rest = "";
  return new TransformStream({
    transform(chunk, out) {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop()!;
      for (const line of parts) out.enqueue(line);
    },
    flush(out) {
      if (rest) out.enqueue(rest);
    },
  });
}
