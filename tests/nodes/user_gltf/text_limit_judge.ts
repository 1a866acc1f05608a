/**
 * Judges what `graphs/aircraft_file.json` reports of a {@link TextLimitFile}'s declared parts: each part
 * found by its `ctrl_type` with the limits the file declares. A part whose limits are wrong, with no
 * warning naming them, is a silent wrong answer.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { runGraph } from "../../../mod.ts";
import { tempDir } from "../../support/temp.ts";
import type { ReportPart } from "../rig/pipeline.ts";
import type { TextLimitFile } from "./text_limit_files.ts";

/** Each part's limits wrong (`silent` when no warning names them), and the warnings. */
export interface TextLimitJudgement {
  readonly refused?: string;
  readonly wrong: { text: string; silent: boolean }[];
  readonly right: number;
  readonly warnings: string[];
}

const graph = fileURLToPath(new URL("../../../graphs/aircraft_file.json", import.meta.url));

/** Rigs `file` and judges its declared parts' limits. */
export async function judgeTextLimits(file: TextLimitFile): Promise<TextLimitJudgement> {
  const dir = await tempDir();
  let parts: ReportPart[], warnings: string[];
  try {
    await Deno.writeFile(`${dir}/${file.name}`, file.bytes);
    const run = await runGraph(graph, {
      outDir: dir,
      cacheDir: false,
      inputs: { model: `${dir}/${file.name}` },
    });
    parts = (run.outputs.report as { parts: ReportPart[] }).parts;
    warnings = run.warnings.map((w) => w.message);
  } catch (error) {
    return { refused: String(error), wrong: [], right: 0, warnings: [] };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const wrong: TextLimitJudgement["wrong"] = [];
  let right = 0;
  for (const [name, { min, max }] of file.limits) {
    const part = parts.find((p) => p.name === name && p.found_by === "extras");
    if (!part) {
      wrong.push({ text: `${name}: not a declared part`, silent: true });
      continue;
    }
    if (part.min === min && part.max === max) {
      right++;
      continue;
    }
    const named = warnings.some((w) => w.includes(`'${name}'`) && /limit/.test(w));
    wrong.push({ text: `${name}: limits ${part.min}…${part.max}, declared ${min}…${max}`, silent: !named });
  }
  return { wrong, right, warnings };
}
