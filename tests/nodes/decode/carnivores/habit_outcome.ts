/**
 * Grading shared by the seeded habit generators (`c3dit_habits.ts`, `converter_habits.ts`,
 * `car_edits.ts`): a case is right, refused (a `DecodeError`), or wrong — warned when the decode said
 * anything, silent when it said nothing.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { DecodeError } from "../../../../runtime/errors.ts";

/** How a habit case came out. */
export type HabitOutcome = "right" | "wrong_warned" | "wrong_silent" | "refused";

/** A graded case: its outcome and why. */
export interface Graded {
  readonly outcome: HabitOutcome;
  readonly detail: string;
}

/** `decode()`'s scene, or the case refused when it throws a `DecodeError` (any other error is thrown). */
export async function decodedOrRefused(decode: () => Promise<Document>): Promise<Document | Graded> {
  try {
    return await decode();
  } catch (error) {
    if (error instanceof DecodeError) return { outcome: "refused", detail: error.message };
    throw error;
  }
}

/** The grade of a misreading, given the decode's warning messages: warned if there were any. */
export function misreading(warnings: readonly string[]): (detail: string) => Graded {
  return (detail) => ({
    outcome: warnings.length ? "wrong_warned" : "wrong_silent",
    detail: `${detail} | ${warnings.join(" / ")}`,
  });
}

/** `doc` through `export.gltf`: the GLB, and the Khronos validator's first complaints when it has errors. */
export async function exportedGlb(doc: Document): Promise<{ glb: Uint8Array; invalid?: string }> {
  const glb = (await runNode(exportGltf, { scene: doc }, {}, testContext())).bytes.bytes as Uint8Array;
  const report = await validateGltf(glb);
  return report.errors ? { glb, invalid: `validator: ${report.messages.slice(0, 2).join("; ")}` } : { glb };
}
