/**
 * Judges what `graphs/aircraft_file.json` makes of a {@link LodFile}: each control surface rigged once
 * in every level it is drawn in, every level's part on the first level's true hinge (within 2° and 5 %
 * of chord), of its kind and side — a viewer switching levels must see the surface turn alike. A
 * wrong part judged `good` is a silent wrong answer.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { runGraph } from "../../../mod.ts";
import { tempDir } from "../../support/temp.ts";
import { hingeError } from "../rig/coarse_panels.ts";
import type { ReportPart } from "../rig/pipeline.ts";
import type { LodFile } from "./lod_files.ts";

/** Per surface and level: wrong (with its confidence) or right; and the graph's refusal. */
export interface LodJudgement {
  readonly refused?: string;
  readonly wrong: { text: string; confidence: string }[];
  readonly right: number;
  readonly warnings: string[];
}

const graph = fileURLToPath(new URL("../../../graphs/aircraft_file.json", import.meta.url));

/** Rigs `file` (frame found from the geometry) and judges every level's surfaces. */
export async function judgeLodRig(file: LodFile): Promise<LodJudgement> {
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
      if (!part.hinge || !panel.truth) {
        wrong.push({ text: `${part.panel}: no hinge`, confidence });
        continue;
      }
      const { degrees, offset } = hingeError(panel.truth, part.hinge.aircraft);
      const problems: string[] = [];
      if (degrees > 2 || offset > 0.05 * panel.truth.chord) {
        problems.push(
          `hinge ${degrees.toFixed(1)}° ${(100 * offset / panel.truth.chord).toFixed(0)} % of chord off`,
        );
      }
      if (part.kind !== panel.kind) problems.push(`a ${part.kind}`);
      if (part.side !== panel.side) problems.push(`on the ${part.side} side`);
      if (problems.length) wrong.push({ text: `${part.path}: ${problems.join(", ")}`, confidence });
      else right++;
    }
  }
  return { wrong, right, warnings };
}
