/**
 * Judges what `graphs/aircraft_file.json` makes of a {@link LodFile}: each control surface rigged once
 * in every level it is drawn in, every level's part on the first level's true hinge (within 2° and 5 %
 * of chord), of its kind and side — a viewer switching levels must see the surface turn alike. A
 * wrong part judged `good` is a silent wrong answer.
 *
 * @module
 */
import { partProblems, rigThroughGraph } from "../decode/gltf_converter_rig.ts";
import type { LodFile } from "./lod_files.ts";

/** Per surface and level: wrong (with its confidence) or right; and the graph's refusal. */
export interface LodJudgement {
  readonly refused?: string;
  readonly wrong: { text: string; confidence: string }[];
  readonly right: number;
  readonly warnings: string[];
}

/** Rigs `file` (frame found from the geometry) and judges every level's surfaces. */
export async function judgeLodRig(file: LodFile): Promise<LodJudgement> {
  const rigged = await rigThroughGraph(file.name, file.bytes);
  if ("refused" in rigged) return { refused: rigged.refused, wrong: [], right: 0, warnings: [] };
  const { parts } = rigged, warnings = rigged.warnings.map((w) => w.message);
  const wrong: LodJudgement["wrong"] = [];
  let right = 0;
  for (const panel of file.panels) {
    const found = parts.filter((p) => p.panel !== null && file.truthName(p.panel) === panel.name);
    if (found.length !== file.levels) {
      wrong.push({
        text: `${panel.name}: found ${found.length} times in ${file.levels} levels`,
        confidence: "none",
      });
    }
    for (const part of found) {
      const confidence = (part.fit as { confidence?: string } | null)?.confidence ?? "none";
      const problems = partProblems(panel, part);
      if (problems.length) wrong.push({ text: `${part.path}: ${problems.join(", ")}`, confidence });
      else right++;
    }
  }
  return { wrong, right, warnings };
}
