/**
 * Per-clip warnings of one kind gathered into one line. A `.car` of 64 clips whose headers share a
 * fault (empty names, KPS 0, no frames — zeros a tool wrote, or a repair reading every clip alike)
 * said so once per clip: 150 lines in which the one that mattered was lost. A kind met at most
 * {@link MAX_EACH} times is still warned clip by clip, as before; more is one warning: the first
 * clip's message, then how many more clips share it and which.
 *
 * @module
 */
import type { JsonValue, WarningSink } from "../../../../runtime/node.ts";

/** At most this many warnings of one kind are given one by one. */
export const MAX_EACH = 3;

/** Gathers warnings by kind; {@link ClipWarnings.flush} gives them, in the order each kind was first met. */
export class ClipWarnings {
  readonly #kinds = new Map<
    string,
    { clips: string[]; messages: [string, Record<string, JsonValue> | undefined][] }
  >();

  constructor(private readonly warn: WarningSink) {}

  /**
   * A sink for clip `clip` (its label in a summary). A warning's kind is its message without its
   * numbers and quoted names: the same fault in another clip.
   */
  sink(clip: string): WarningSink {
    return (message, detail) => {
      const kind = message.replace(/'[^']*'/g, "''").replace(/-?\d+/g, "#");
      const entry = this.#kinds.get(kind) ?? { clips: [], messages: [] };
      this.#kinds.set(kind, entry);
      entry.clips.push(clip);
      entry.messages.push([message, detail]);
    };
  }

  /** Drops what was gathered for `clips` (clips the caller then leaves out, naming them itself). */
  forget(clips: readonly string[]): void {
    for (const [kind, entry] of this.#kinds) {
      const keep = entry.clips.map((c) => !clips.includes(c));
      entry.clips = entry.clips.filter((_, i) => keep[i]);
      entry.messages = entry.messages.filter((_, i) => keep[i]);
      if (entry.clips.length === 0) this.#kinds.delete(kind);
    }
  }

  /** Gives the gathered warnings: each one when a kind was met at most {@link MAX_EACH} times, else one line. */
  flush(): void {
    for (const { clips, messages } of this.#kinds.values()) {
      if (messages.length <= MAX_EACH) {
        for (const [message, detail] of messages) this.warn(message, detail);
        continue;
      }
      const [first, detail] = messages[0];
      const named = clips.slice(1, 9).join(", ") + (clips.length > 9 ? ", …" : "");
      this.warn(
        `${first} — the same for ${clips.length - 1} more animation(s) (${named}); ${clips.length} in all`,
        { ...detail, count: clips.length },
      );
    }
    this.#kinds.clear();
  }
}
