/**
 * Reads hand-edited cases (`hand_edits.ts`) with decode.gltf and says what it did with each: refused
 * it (a typed error), warned (a warning the unedited file does not give), or read it silently.
 *
 * @module
 */
import { decodeGltf } from "../../../../nodes/decode/gltf/decode_gltf.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { type HandEdit, handEdited } from "./hand_edits.ts";

/** What decode.gltf did with a case. */
export type Outcome = "refused" | "warned" | "silent" | "crashed";

/** A judged case: its outcome, and the new warnings or the error. */
export interface Judged {
  readonly outcome: Outcome;
  readonly said: readonly string[];
}

const baseline = new Map<string, Promise<Set<string>>>();

async function warningsOf(edit: HandEdit): Promise<string[]> {
  const ctx = testContext();
  await runNode(decodeGltf, { bytes: { bytes: edit.bytes, name: edit.name } }, {}, ctx);
  return ctx.warnings.map((w) => w.message.replaceAll(edit.name, "FILE"));
}

/** Decodes `edit` and judges it against the unedited file of the same container. */
export async function judge(edit: HandEdit): Promise<Judged> {
  const format = edit.name.endsWith(".glb") ? "glb" : "gltf";
  if (!baseline.has(format)) {
    // The "bom" edit of a .gltf, and a GLB of it, read as the unedited file does.
    baseline.set(
      format,
      (async () => {
        for (let seed = 0;; seed++) {
          const base = await handEdited("bom", seed);
          if (base.name.endsWith(format)) {
            const text = new TextDecoder().decode(base.bytes);
            const bytes = format === "gltf"
              ? new TextEncoder().encode(text.replace(/^\uFEFF/, ""))
              : base.bytes;
            return new Set(await warningsOf({ ...base, bytes }));
          }
        }
      })(),
    );
  }
  const known = await baseline.get(format)!;
  try {
    const said = (await warningsOf(edit)).filter((w) => !known.has(w));
    return { outcome: said.length ? "warned" : "silent", said };
  } catch (error) {
    if (error instanceof DecodeError) return { outcome: "refused", said: [error.message] };
    return { outcome: "crashed", said: [String(error)] };
  }
}
