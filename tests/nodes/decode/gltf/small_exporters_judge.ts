/**
 * Reads small exporters' files (`small_exporters.ts`) with decode.gltf and judges each against its clean
 * twin: a case whose habit changed some node's reading must be named by a warning the twin does not give
 * (else it is read silently wrong); a clean file must be read with no warning at all. Run directly, it
 * counts both over a range of seeds: `deno run -A small_exporters_judge.ts 501 530`.
 *
 * @module
 */
import { decodeGltf } from "../../../../nodes/decode/gltf/decode_gltf.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { SMALL_EXPORT_HABITS, type SmallExport, smallExport } from "./small_exporters.ts";

async function warningsOf(name: string, bytes: Uint8Array): Promise<string[]> {
  const ctx = testContext();
  await runNode(decodeGltf, { bytes: { bytes, name } }, {}, ctx);
  return ctx.warnings.map((w) => w.message);
}

/** A judged case: the warnings its clean twin does not give, and whether it was read silently wrong. */
export interface Judged {
  readonly said: readonly string[];
  readonly silentWrong: boolean;
  readonly falsePositive: boolean;
}

/** Decodes `c` and its clean twin and judges the case. */
export async function judge(c: SmallExport): Promise<Judged> {
  const known = new Set(await warningsOf(c.name, c.clean));
  const all = await warningsOf(c.name, c.bytes);
  const said = all.filter((w) => !known.has(w));
  return {
    said,
    silentWrong: c.changed.length > 0 && said.length === 0,
    falsePositive: c.expect === "quiet" ? all.length > 0 : false,
  };
}

if (import.meta.main) {
  const [from, to] = Deno.args.map(Number);
  for (const kind of Object.keys(SMALL_EXPORT_HABITS)) {
    let cases = 0, changed = 0, silent = 0, falsePositives = 0;
    for (let seed = from; seed <= to; seed++) {
      const c = smallExport(kind, seed);
      const j = await judge(c);
      cases++;
      if (c.changed.length) changed++;
      if (j.silentWrong) silent++;
      if (j.falsePositive) {
        falsePositives++;
        if (Deno.args[2]) console.log(kind, seed, j.said);
      }
    }
    console.log(
      `${kind}: ${cases} cases, ${changed} read differently, ${silent} silent wrong, ${falsePositives} false positives`,
    );
  }
}
