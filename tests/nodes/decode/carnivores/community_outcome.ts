/**
 * Grading of the community-tool generator's cases (`community_tools.ts`): each runs through
 * `decode.<format>` → `constraints.resolve` → `export.gltf` and comes out right, silent, wrong,
 * refused or crashed.
 *
 * @module
 */
import { join } from "node:path";
import type { Document } from "@gltf-transform/core";
import { runNode, testContext } from "../../../support/context.ts";
import { tempDir } from "../../../support/temp.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { decodeCar } from "../../../../nodes/decode/carnivores/decode_car.ts";
import { decodeRsc } from "../../../../nodes/decode/carnivores/decode_rsc.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import type { JsonValue } from "../../../../runtime/node.ts";
import type { ToolCase } from "./community_tools.ts";

/** `decode.<format>` → `constraints.resolve`, warnings into `ctx`. */
async function decodeAndResolve(
  format: "3df" | "car" | "rsc",
  input: { bytes: { bytes: Uint8Array; name: string } },
  params: Record<string, JsonValue>,
  ctx: ReturnType<typeof testContext>,
): Promise<Document> {
  const node = format === "3df" ? decode3df : format === "car" ? decodeCar : decodeRsc;
  const decoded = (await runNode(node, input, params, ctx)).scene as Document;
  return (await runNode(constraintsResolve, { scene: decoded }, {}, ctx)).scene as Document;
}

/**
 * How a decode of a case came out: the grade, why, and for a scene the check's complaint (`misread`:
 * the scene misses what it must hold, whatever the warnings) and how many warnings it gave.
 */
export interface CaseOutcome {
  readonly outcome: Outcome;
  readonly detail: string;
  readonly misread?: string;
  readonly warnings?: number;
}

/** How a decode of a case came out. */
export type Outcome = "right" | "silent" | "wrong" | "refused" | "crash";

/**
 * Runs a case through `decode.3df`/`decode.car` → `constraints.resolve` → `export.gltf` and grades
 * it: `crash` (an error that is not a `DecodeError`), `refused` (a `DecodeError` where a scene was
 * due, or a scene where an error was), `silent` (a scene without the due warning, or with warnings
 * where none was due), `wrong` (a scene that misses what it must hold), `right`.
 */
export async function outcomeOf(c: ToolCase): Promise<CaseOutcome> {
  const ctx = testContext();
  try {
    let input = { bytes: { bytes: c.bytes, name: `model.${c.format}` } };
    let params = {};
    if (c.vtls) {
      const dir = await tempDir();
      await Deno.writeFile(join(dir, input.bytes.name), c.bytes);
      for (const [name, bytes] of Object.entries(c.vtls)) await Deno.writeFile(join(dir, name), bytes);
      params = { animations: [join(dir, "*.vtl")] };
      input = { bytes: { bytes: c.bytes, name: join(dir, input.bytes.name) } };
    }
    const resolved = await decodeAndResolve(c.format, input, params, ctx);
    const warnings = ctx.warnings.map((w) => w.message);
    // Export runs for crashes only: its own notes (viewer compatibility) are not the decoder's.
    await runNode(exportGltf, { scene: resolved }, {}, testContext());
    if (!c.expect.scene) return { outcome: "refused", detail: "a scene where an error was due" };
    const { control } = c.expect;
    const controlDoc = control
      ? await decodeAndResolve(
        control.format,
        { bytes: { bytes: control.bytes, name: `control.${control.format}` } },
        {},
        testContext(),
      )
      : undefined;
    const problem = c.expect.check(resolved, controlDoc);
    const { warning } = c.expect;
    if (warning ? !warnings.some((w) => warning.test(w)) : warnings.length) {
      return {
        outcome: "silent",
        detail: `${warning ?? "no warning"} in: ${warnings.join(" | ")}`,
        misread: problem,
        warnings: warnings.length,
      };
    }
    return problem
      ? { outcome: "wrong", detail: problem, misread: problem, warnings: warnings.length }
      : { outcome: "right", detail: "", warnings: warnings.length };
  } catch (error) {
    if (!(error instanceof DecodeError)) return { outcome: "crash", detail: String(error) };
    if (c.expect.scene) return { outcome: "refused", detail: error.message };
    return c.expect.error.test(error.message)
      ? { outcome: "right", detail: "" }
      : { outcome: "wrong", detail: error.message };
  }
}
