/**
 * Judges `damage_hidden.ts` scenes, with the frame given and found by `"auto"`: an intact surface is wrong
 * when not rigged, over 5° or 2 % of its span off, or on the wrong side; a hidden copy when not rigged on
 * its intact surface's hinge or no longer hidden; a debris piece lying apart when rigged off its own hinge
 * where it lies (left out with a warning naming it is right). Silently wrong: wrong, judged good (or, for
 * a copy no longer hidden, unwarned) and no warning naming it. Faults the same scene with its copies
 * neither hidden nor moved has too are the aircraft's, not the habit's, and are not counted (a debris
 * piece's are: at its place it was right). `deno run -A damage_hidden_judge.ts 1 40` prints the tally.
 *
 * @module
 */
import { hingeError } from "./coarse_panels.ts";
import { type ReportPart, rig } from "./pipeline.ts";
import { type Concealment, hiddenSample, plainSample, stillHidden } from "./damage_hidden.ts";
import type { RoughTruth } from "./rough_surfaces.ts";
import type { Document, Node } from "@gltf-transform/core";

/** One scene's verdict. */
export interface HiddenVerdict {
  readonly description: string;
  readonly judged: number;
  readonly wrong: string[];
  readonly silent: string[];
}

/** A hinge in the world, as a rig report gives it. */
export type Hinge = NonNullable<ReportPart["hinge"]>["world"];

/** A truth judged here: how its copy was put away, if it was (`"apart"`: debris). */
type Concealed = RoughTruth & { readonly concealed?: string };

/**
 * Each truth's fault in `doc` rigged in `frame` (none when right), and whether a warning names it; a
 * concealed copy must be still hidden by `hidden` (by default as `damage_hidden.ts` hid it).
 */
export async function faultsOf<T extends Concealed>(
  doc: Document,
  truths: readonly T[],
  frame: Record<string, string>,
  hidden: (node: Node, truth: T) => boolean = (node, truth) =>
    stillHidden(node, truth.concealed as Concealment),
  hingeOf: (scene: Document, part: ReportPart, truth: T) => Hinge | undefined = (_, part) =>
    part.hinge?.world,
): Promise<Map<string, { said: string; silent: boolean }>> {
  const label = "forward" in frame ? "auto" : "given";
  const { report, ctx, scene } = await rig(doc, frame);
  const out = new Map<string, { said: string; silent: boolean }>();
  for (const truth of truths) {
    const part = report.parts.find((p) => p.panel === truth.name);
    const warned = ctx.warnings.some((w) => w.message.includes(`'${truth.name}'`));
    const good = (part?.fit as { confidence?: string } | null | undefined)?.confidence === "good";
    if (truth.concealed === "apart" && !part && warned) continue;
    const hinge = part && hingeOf(scene, part, truth);
    const error = hinge ? hingeError(truth, hinge) : undefined;
    const onHinge = !!error && error.degrees <= 5 && error.offset <= 0.02 * truth.span;
    const sided = truth.concealed === "apart" || part?.side === truth.side;
    const node = scene.getRoot().listNodes().find((n) => n.getName() === truth.name);
    const kept = !truth.concealed || (node !== undefined && hidden(node, truth));
    if (onHinge && sided && kept) continue;
    const said = `${label}: ${truth.name}${truth.concealed ? ` (${truth.concealed})` : ""}: ${
      error
        ? `${error.degrees.toFixed(1)}°, ${(100 * error.offset / truth.span).toFixed(1)} % of span`
        : "no hinge"
    }, ${part?.side} (${truth.side}), ${good ? "good" : part ? "not good" : "unrigged"}${
      kept ? "" : ", shown"
    }${warned ? ", warned" : ""}`;
    out.set(truth.name, { said, silent: !warned && (good || !kept) });
  }
  return out;
}

/**
 * Rigs the scene of `seed` in both frames and judges each surface and copy; a surface the same scene
 * with its copies neither hidden nor moved (`plainSample`) gets wrong too is no fault of the habit's.
 */
export async function judgeHidden(seed: number): Promise<HiddenVerdict> {
  const wrong: string[] = [], silent: string[] = [];
  let judged = 0, description = "";
  for (const frame of [{}, { forward: "auto", up: "auto" }] as Record<string, string>[]) {
    const sample = hiddenSample(seed), plain = plainSample(seed);
    description = sample.description;
    judged += sample.truths.length;
    const faults = await faultsOf(sample.doc, sample.truths, frame);
    const before = await faultsOf(plain.doc, plain.truths, frame);
    for (const [name, { said, silent: unsaid }] of faults) {
      const truth = sample.truths.find((t) => t.name === name)!;
      if (!truth.concealed && before.has(name)) continue;
      if (truth.concealed && truth.concealed !== "apart" && before.has(name)) continue;
      wrong.push(said);
      if (unsaid) silent.push(said);
    }
  }
  return { description, judged, wrong, silent };
}

if (import.meta.main) {
  const [from, to] = Deno.args.map(Number);
  const rows: Record<string, { scenes: number; judged: number; wrong: number; silent: number }> = {};
  for (let seed = from; seed <= to; seed++) {
    const v = await judgeHidden(seed);
    const key = v.description.replace(/.*copies (\S+), seed.*/, "$1");
    const row = rows[key] ??= { scenes: 0, judged: 0, wrong: 0, silent: 0 };
    row.scenes++, row.judged += v.judged, row.wrong += v.wrong.length, row.silent += v.silent.length;
    if (v.wrong.length) console.log(`${v.description}\n  ${v.wrong.slice(0, 6).join("\n  ")}`);
  }
  console.table(rows);
}
