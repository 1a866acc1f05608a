/**
 * One fuzz case through the full pipeline (`decode.auto → constraints.resolve → export.gltf`),
 * classified: a validated output, a typed error, or something that must never happen (an untyped
 * exception, an output the Khronos validator rejects).
 *
 * @module
 */
import { decodeAuto } from "../../nodes/decode/auto.ts";
import { constraintsResolve } from "../../nodes/constraints/resolve.ts";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { DecodeError, PartgraphError } from "../../runtime/errors.ts";
import { runNode, testContext } from "../support/context.ts";
import { validateGltf } from "../support/validator.ts";
import { prng } from "../support/prng.ts";
import { mutate } from "./mutate.ts";
import { type CorpusFormat, corpusSeeds, type FuzzFormat, fuzzSeeds } from "./seeds.ts";

/** How a fuzz case ended. `crash` and `invalid` are failures; the others are acceptable. */
export type FuzzOutcome = "ok" | "typed" | "crash" | "invalid";

/** A case's outcome and, for failures, what went wrong. */
export interface FuzzResult {
  readonly outcome: FuzzOutcome;
  readonly detail?: string;
}

/**
 * The input of case `index` of a seeded run: the same (format, seed, index) always gives the same
 * bytes. A `real-<format>` set mutates the corpus files of that format in turn.
 */
export async function fuzzInput(
  format: FuzzFormat | CorpusFormat,
  seed: number,
  index: number,
): Promise<{ name: string; bytes: Uint8Array }> {
  const seeds = format.startsWith("real-")
    ? await corpusSeeds(format as CorpusFormat)
    : [(await fuzzSeeds())[format as FuzzFormat]];
  if (!seeds.length) throw new Error(`no corpus files for ${format} (shared corpus absent)`);
  const base = seeds[index % seeds.length];
  return { name: base.name, bytes: mutate(base, prng((seed * 0x9e3779b1 + index) >>> 0)) };
}

/** Runs bytes through the pipeline and validates what it writes. */
export async function runFuzzCase(bytes: Uint8Array, name: string): Promise<FuzzResult> {
  const ctx = testContext();
  let glb: Uint8Array;
  try {
    const { scene } = await runNode(decodeAuto, { bytes: { bytes, name } }, {}, ctx);
    const resolved = await runNode(constraintsResolve, { scene }, {}, ctx);
    glb = (await runNode(exportGltf, { scene: resolved.scene }, {}, ctx)).bytes.bytes;
  } catch (error) {
    if (error instanceof DecodeError && !/^(Range|Type|Syntax)Error\b/.test(error.found)) {
      return { outcome: "typed" };
    }
    if (error instanceof PartgraphError && !(error instanceof DecodeError)) return { outcome: "typed" };
    return {
      outcome: "crash",
      detail: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
  const report = await validateGltf(glb);
  if (report.errors) return { outcome: "invalid", detail: report.messages.join("\n") };
  return { outcome: "ok" };
}
