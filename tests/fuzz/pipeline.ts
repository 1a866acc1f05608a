/**
 * One fuzz case through the full pipeline (`decode.auto → constraints.resolve → textures.to_png →
 * scene.uninstance →` the rig's six nodes, frame `auto` `→ export.gltf`; the two compatibility steps
 * pass scenes without KTX2/WebP/AVIF textures or GPU instancing through, and the rig warns about a
 * scene it finds nothing to rig in), each step owning the scene it is given as in `partgraph run`,
 * classified: a validated output, a typed error, or something that must never happen (an untyped
 * exception, an output the Khronos validator rejects, a game-format decoder's scene that the export
 * refuses, or a verdict of `export.gltf`'s fast output check that the Khronos validator — its
 * oracle — contradicts).
 *
 * @module
 */
import { decodeAuto } from "../../nodes/decode/auto.ts";
import { constraintsResolve } from "../../nodes/constraints/resolve.ts";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { texturesToPng } from "../../nodes/textures/to_png.ts";
import { sceneUninstance } from "../../nodes/scene/uninstance.ts";
import { rig } from "../nodes/rig/pipeline.ts";
import { DecodeError, PartgraphError } from "../../runtime/errors.ts";
import { runNode, type TestContext, testContext } from "../support/context.ts";
import { runHandedOver } from "../support/hand_over.ts";
import { crossCheck, describeCrossCheck, exportBytes } from "../support/output_check.ts";
import type { Document } from "@gltf-transform/core";
import { prng } from "../support/prng.ts";
import { mutate } from "./mutate.ts";
import { type CorpusFormat, corpusSeeds, type FuzzFormat, fuzzSeeds } from "./seeds.ts";
import { type HostileFormat, hostileInput } from "./hostile.ts";

/**
 * How a fuzz case ended. `crash`, `invalid` and `disagree` (the fast output check and the Khronos
 * validator differ on an output) are failures; the others are acceptable.
 */
export type FuzzOutcome = "ok" | "typed" | "crash" | "invalid" | "disagree";

/** The scene in `chain`, taken out of it (see `runFuzzCase`). */
function handOver(chain: { scene?: Document }): Document {
  const scene = chain.scene!;
  chain.scene = undefined;
  return scene;
}

/** Files whose scene a partgraph decoder builds from scratch rather than reading it as glTF. */
const BUILT_BY_DECODER = /\.(cmp|3db|vms|3df|car|duf|dsf)$/i;

/** A case's outcome and, for failures, what went wrong. */
export interface FuzzResult {
  readonly outcome: FuzzOutcome;
  readonly detail?: string;
  /** The fast output check's verdict on the written output (or on the refused one), when there was one. */
  readonly check?: "valid" | "invalid" | "outside";
}

/**
 * The input of case `index` of a seeded run: the same (format, seed, index) always gives the same
 * bytes. A `real-<format>` set mutates the corpus files of that format in turn; a `hostile-<kind>` set
 * is made by the structure-aware families of tests/fuzz/hostile.ts.
 */
export async function fuzzInput(
  format: FuzzFormat | CorpusFormat | HostileFormat,
  seed: number,
  index: number,
): Promise<{ name: string; bytes: Uint8Array }> {
  if (format.startsWith("hostile-")) return await hostileInput(format as HostileFormat, seed, index);
  const seeds = format.startsWith("real-")
    ? await corpusSeeds(format as CorpusFormat)
    : [(await fuzzSeeds())[format as FuzzFormat]];
  if (!seeds.length) throw new Error(`no corpus files for ${format} (shared corpus absent)`);
  const base = seeds[index % seeds.length];
  // In 32-bit arithmetic: `seed * 0x9e3779b1` in doubles loses its low bits past 2⁵³ (seeds above
  // about 3.4 million, such as a date), and runs of consecutive cases then mutated alike. Below that
  // this gives the same streams as before, so recorded cases still reproduce.
  return { name: base.name, bytes: mutate(base, prng((Math.imul(seed, 0x9e3779b1) + index) >>> 0)) };
}

/**
 * Runs bytes through the pipeline and validates what it writes with the Khronos validator; an
 * output the fast check refused is validated too, so a needless refusal counts as a disagreement.
 * The nodes before the rig warn into `ctx` (the structure sweep reads their warnings). `decoded`:
 * the scene `decode.auto` already made of these bytes into `ctx` (the structure sweep decodes once,
 * tracking its allocations), which the pipeline then starts from instead of decoding again — handed
 * over as a run hands it (`constraints.resolve` may change it in place): the caller does not use it again.
 */
export async function runFuzzCase(
  bytes: Uint8Array,
  name: string,
  ctx: TestContext = testContext(),
  decoded?: Document,
): Promise<FuzzResult> {
  let resolved: Document | undefined;
  let glb: Uint8Array;
  try {
    // One holder through the chain, emptied as the scene is handed to the rig: an async function keeps
    // every local and argument across its awaits, and a step's scene left in one was held to the end —
    // on the hostile set's million bare nodes, a whole decoded scene beside each rig node's two.
    const chain: { scene?: Document } = { scene: decoded };
    decoded = undefined;
    chain.scene ??= (await runNode(decodeAuto, { bytes: { bytes, name } }, {}, ctx)).scene;
    // Each step owns the scene it is given, as `partgraph run` hands a step's scene to its one consumer:
    // changed in place, not copied (a copy of a million-node scene is 1.2–1.7 GB and 16–25 CPU-s).
    chain.scene = (await runHandedOver(constraintsResolve, handOver(chain), {}, ctx)).scene;
    chain.scene = (await runHandedOver(texturesToPng, handOver(chain), {}, ctx)).scene;
    chain.scene = (await runHandedOver(sceneUninstance, handOver(chain), {}, ctx)).scene;
    resolved = (await rig(handOver(chain), { forward: "auto", up: "auto" }, {}, {}, true)).scene;
    // Not handed over: in a run the rig's scene goes to its report and to the export, so neither owns
    // it; and a refused output is cross-checked from `resolved` below.
    glb = (await runNode(exportGltf, { scene: resolved }, {}, ctx)).bytes.bytes;
  } catch (error) {
    if (error instanceof DecodeError && error.format === "glb output" && resolved) {
      const result = await crossCheck(await exportBytes(resolved));
      if (result.needless) {
        return { outcome: "disagree", detail: describeCrossCheck(result), check: "invalid" };
      }
      // A game-format decoder builds its scene itself: one the export must refuse is its own mistake
      // (a glTF input's invalid content may pass through to the export's check, named there).
      if (BUILT_BY_DECODER.test(name)) {
        return {
          outcome: "invalid",
          detail: `the decoder built a scene the export refused: ${error.message}`,
        };
      }
      return { outcome: "typed", detail: error.message, check: result.fast.kind };
    }
    if (error instanceof DecodeError && !/^(Range|Type|Syntax)Error\b/.test(error.found)) {
      return { outcome: "typed", detail: error.message };
    }
    if (error instanceof PartgraphError && !(error instanceof DecodeError)) {
      return { outcome: "typed", detail: error.message };
    }
    return {
      outcome: "crash",
      detail: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
  const result = await crossCheck(glb);
  if (result.unsafe) {
    return { outcome: "disagree", detail: `UNSAFE ${describeCrossCheck(result)}`, check: "valid" };
  }
  if (result.khronosErrors) return { outcome: "invalid", detail: result.messages.join("\n") };
  return { outcome: "ok", check: result.fast.kind };
}
