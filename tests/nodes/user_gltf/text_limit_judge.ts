/**
 * Judges what `graphs/aircraft_file.json` makes of a {@link TextLimitFile}'s declared parts: each part
 * found by its `ctrl_type` with the limits the file declares, in the report and in the rigged file's
 * extras as a runtime reads them (`ctrl_type` the word, limits numbers). A part whose limits are wrong,
 * with no warning naming them, is a silent wrong answer.
 *
 * @module
 */
import { glbJson } from "../../support/shapes.ts";
import { rigThroughGraph } from "../decode/gltf_converter_rig.ts";
import type { TextLimitFile } from "./text_limit_files.ts";

/** Each part's limits wrong (`silent` when no warning names them), and the warnings. */
export interface TextLimitJudgement {
  readonly refused?: string;
  readonly wrong: { text: string; silent: boolean }[];
  readonly right: number;
  readonly warnings: string[];
}

/** Rigs `file` and judges its declared parts' limits. */
export async function judgeTextLimits(file: TextLimitFile): Promise<TextLimitJudgement> {
  const rigged = await rigThroughGraph(file.name, file.bytes);
  if ("refused" in rigged) return { refused: rigged.refused, wrong: [], right: 0, warnings: [] };
  const { parts } = rigged, warnings = rigged.warnings.map((w) => w.message);
  const written = glbJson(rigged.glb).nodes as { name?: string; extras?: Record<string, unknown> }[];
  const wrong: TextLimitJudgement["wrong"] = [];
  let right = 0;
  for (const [name, { min, max }] of file.limits) {
    const part = parts.find((p) => p.name === name && p.found_by === "extras");
    if (!part) {
      wrong.push({
        text: `${name}: not a declared part`,
        silent: !warnings.some((w) => w.includes(`'${name}'`)),
      });
      continue;
    }
    const extras = written.find((n) => n.name === name)?.extras ?? {};
    if (extras.ctrl_type !== "rotation" || extras.min !== min || extras.max !== max) {
      const named = warnings.some((w) => w.includes(`'${name}'`));
      const what = `${JSON.stringify(extras.ctrl_type)} ${JSON.stringify(extras.min)}…${
        JSON.stringify(extras.max)
      }`;
      wrong.push({ text: `${name}: written ${what} for a runtime`, silent: !named });
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
