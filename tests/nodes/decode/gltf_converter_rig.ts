/**
 * Judges what the aircraft graph (`graphs/aircraft_file.json`: decode.gltf, then the rig) makes of a
 * {@link ConverterFile}: every control surface found once, under its name, hinged within 2° and 5 % of
 * its chord of the true hinge; a wrong one judged `good` is a silent wrong answer. Surfaces the rig
 * reports that the model does not have (a pivot node taken for a surface) are wrong too.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { runGraph } from "../../../mod.ts";
import { tempDir } from "../../support/temp.ts";
import { hingeError } from "../rig/coarse_panels.ts";
import type { ReportPart } from "../rig/pipeline.ts";
import type { ConverterFile } from "./gltf_converters.ts";
import type { ModelPanel } from "./gltf_converter_model.ts";

/** One file's rig judgement: each surface wrong (and whether judged good), and the graph's refusal. */
export interface RigJudgement {
  readonly refused?: string;
  /** `<name>: <what>`, and `good`/`weak`/`missing` after it. */
  readonly wrong: { text: string; confidence: string }[];
  readonly right: number;
}

const graph = fileURLToPath(new URL("../../../graphs/aircraft_file.json", import.meta.url));

/** What the aircraft graph made of a file: its report's parts, its warnings and the rigged GLB. */
export interface RiggedFile {
  readonly parts: ReportPart[];
  readonly warnings: { message: string; detail?: Record<string, unknown> }[];
  readonly glb: Uint8Array;
}

/**
 * Rigs a file's bytes through `graphs/aircraft_file.json` (frame found from the geometry) in a
 * temporary folder; the graph's refusal as `{ refused }`.
 */
export async function rigThroughGraph(
  name: string,
  bytes: Uint8Array,
): Promise<RiggedFile | { refused: string }> {
  const dir = await tempDir();
  try {
    await Deno.writeFile(`${dir}/${name}`, bytes);
    const run = await runGraph(graph, { outDir: dir, cacheDir: false, inputs: { model: `${dir}/${name}` } });
    return {
      parts: (run.outputs.report as { parts: ReportPart[] }).parts,
      warnings: run.warnings.map((w) => ({ message: w.message, detail: w.detail })),
      glb: await Deno.readFile(`${dir}/model.rigged.glb`),
    };
  } catch (error) {
    return { refused: String(error) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** What is wrong with a rigged part against its panel's truth: hinge over 2° or 5 % of chord off, kind, side. */
export function partProblems(panel: ModelPanel, part: ReportPart): string[] {
  if (!part.hinge || !panel.truth) return ["no hinge"];
  const { degrees, offset } = hingeError(panel.truth, part.hinge.aircraft);
  const problems: string[] = [];
  if (degrees > 2 || offset > 0.05 * panel.truth.chord) {
    problems.push(
      `hinge ${degrees.toFixed(1)}° ${(100 * offset / panel.truth.chord).toFixed(0)} % of chord off`,
    );
  }
  if (part.kind !== panel.kind) problems.push(`a ${part.kind}`);
  if (part.side !== panel.side) problems.push(`on the ${part.side} side`);
  return problems;
}

/** Rigs `file` through the aircraft graph (frame found from the geometry) and judges its surfaces. */
export async function judgeConverterRig(file: ConverterFile): Promise<RigJudgement> {
  const rigged = await rigThroughGraph(file.name, file.bytes);
  if ("refused" in rigged) return { refused: rigged.refused, wrong: [], right: 0 };
  const { parts } = rigged;
  const wrong: RigJudgement["wrong"] = [];
  let right = 0;
  const used = new Set<ReportPart>();
  for (const panel of file.panels) {
    const found = parts.filter((p) => p.panel === panel.name);
    found.forEach((p) => used.add(p));
    const part = found[0];
    const fit = part?.fit as { confidence?: string } | null | undefined;
    const confidence = part ? fit?.confidence ?? "none" : "missing";
    if (!part) {
      wrong.push({ text: `${panel.name}: not found`, confidence });
      continue;
    }
    const problems = partProblems(panel, part);
    if (found.length > 1) problems.push(`found ${found.length} times`);
    if (problems.length) wrong.push({ text: `${panel.name}: ${problems.join(", ")}`, confidence });
    else right++;
  }
  // A surface the model does not have: a pivot node, a fixed object or a piece taken for one.
  for (const part of parts) {
    if (used.has(part) || !part.panel || part.found_by === "ctrl_type") continue;
    const fit = part.fit as { confidence?: string } | null;
    wrong.push({
      text: `${part.panel}: reported as a ${part.kind}, not one`,
      confidence: fit?.confidence ?? "none",
    });
  }
  return { wrong, right };
}
