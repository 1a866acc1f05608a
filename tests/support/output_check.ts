/**
 * The fast output check against its oracle, the Khronos validator, for tests and fuzzing: the
 * bytes `export.gltf` would write for a scene (before its check), and both verdicts on them.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { repairForExport } from "../../nodes/export/repair.ts";
import { checkOutput, type Verdict } from "../../nodes/export/check/mod.ts";
import { writeGlb, writeGltfJson, writtenJson } from "../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { validateGltf } from "./validator.ts";

/** Both verdicts on one output. */
export interface CrossCheck {
  readonly fast: Verdict;
  /** Errors the Khronos validator reports, and the first few. */
  readonly khronosErrors: number;
  readonly messages: string[];
  /** The distinct codes of the errors Khronos reports. */
  readonly codes: string[];
  /** The fast check said valid and Khronos found errors: the failure that must never happen. */
  readonly unsafe: boolean;
  /** The fast check said invalid and Khronos found none: a needless refusal. */
  readonly needless: boolean;
}

/** The bytes `export.gltf` writes for `scene` (repaired, unique names), before its output check. */
export async function exportBytes(scene: Document, format: "glb" | "gltf" = "glb"): Promise<Uint8Array> {
  const options = { generator: GENERATOR, uniqueNames: true };
  const repaired = repairForExport(scene, () => {});
  return format === "glb" ? await writeGlb(repaired, options) : await writeGltfJson(repaired, options);
}

/**
 * Runs the fast check and the Khronos validator on `bytes` and compares their verdicts. For bytes
 * partgraph's writer made, the fast check also judges the JSON value in hand (as `export.gltf` does),
 * which must give the verdict the parsed text gives, to the letter; a difference throws.
 */
export async function crossCheck(bytes: Uint8Array, format: "glb" | "gltf" = "glb"): Promise<CrossCheck> {
  const fast = checkOutput(bytes, format);
  const written = writtenJson(bytes);
  if (written !== undefined) {
    const inHand = checkOutput(bytes, format, written);
    if (JSON.stringify(inHand) !== JSON.stringify(fast)) {
      throw new Error(
        `fast check on the JSON in hand: ${JSON.stringify(inHand)}, on the text: ${JSON.stringify(fast)}`,
      );
    }
  }
  const report = await validateGltf(bytes);
  return {
    fast,
    khronosErrors: report.errors,
    messages: report.messages,
    codes: report.codes,
    unsafe: fast.kind === "valid" && report.errors > 0,
    needless: fast.kind === "invalid" && report.errors === 0,
  };
}

/** A one-line account of a cross-check, for assertion messages. */
export function describeCrossCheck(result: CrossCheck): string {
  const fast = result.fast.kind === "invalid"
    ? `invalid ${result.fast.code} at ${result.fast.pointer}`
    : result.fast.kind === "outside"
    ? `outside (${result.fast.reason} at ${result.fast.pointer})`
    : "valid";
  return `fast check: ${fast}; Khronos: ${result.khronosErrors} error(s) ${
    result.messages.slice(0, 3).join("; ")
  }`;
}
