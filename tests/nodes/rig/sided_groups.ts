/**
 * A lone aircraft whose left and right surfaces hang under one group named for the surface, as Blender
 * collections, 3ds Max groups and game rips gather them (`Aileron` holding `Aileron_L` and `Aileron_R`,
 * `Elevators`, `Lotka` holding `Lotka_L` and `Lotka_P`, `GRP_Volet`), renamed into a side habit only the
 * file's other names explain (`sided_habits.ts`). The group is no panel: its pieces are. Judged as
 * `sided_habits_tally.ts` judges (not rigged, wrong side, over 2° or 5 % of chord off, not `good`), with
 * the frame given and found by `"auto"`; silently wrong when no warning names the panel. Deterministic
 * from a seed.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { prng } from "../../support/prng.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { rig } from "./pipeline.ts";
import { panelFault, partFor, type ShowcasePanel } from "./showcase_copies.ts";
import { renamingLabel, renamingOf, resided } from "./sided_habits.ts";
import { piecesAircraft } from "./surface_pieces.ts";

/** How a file names the group holding a surface's left and right pieces (`word` its kind word). */
const GROUP_NAMES: readonly ((word: string) => string)[] = [
  (word) => word,
  (word) => word.toLowerCase(),
  (word) => `${word}s`,
  (word) => `GRP_${word}`,
  (word) => `${word}_Group`,
];

/** One file's scene and what it should rig. */
export interface GroupedScene {
  readonly doc: Document;
  readonly panels: ShowcasePanel[];
  readonly description: string;
}

/** The file of `seed` (see the module doc). */
export function groupedAircraft(seed: number): GroupedScene {
  const aircraft = piecesAircraft(seed), renaming = renamingOf(seed);
  const next = prng(seed * 61 + 7);
  const groupName = GROUP_NAMES[Math.floor(next() * GROUP_NAMES.length)];
  const rename = (name: string) => resided(name, renaming);
  const doc = newScene();
  for (const { name, mesh } of aircraft.fixed) {
    addAircraftMesh(doc, rename(name), mesh.positions, mesh.triangles);
  }
  const groups = new Map<string, Node>();
  for (const { name, mesh, side } of aircraft.panels) {
    let parent: Node | undefined;
    if (side !== "centre") {
      // The kind word as the file spells it: `Aileron_L` renamed, its side letter and separator taken off.
      const word = rename(name.split("_")[0]);
      parent = groups.get(word);
      if (!parent) {
        parent = doc.createNode(groupName(word));
        doc.getRoot().getDefaultScene()!.addChild(parent);
        groups.set(word, parent);
      }
    }
    addAircraftMesh(doc, rename(name), mesh.positions, mesh.triangles, parent);
  }
  const panels = aircraft.panels.map((p) => ({
    ...p,
    name: rename(p.name),
    copy: 0,
    occurrence: 0,
    groups: [],
  }));
  const description = `grouped as '${groupName("Word")}', seed ${seed}; ${renamingLabel(renaming)}`;
  return { doc, panels, description };
}

/** Panels of file `seed` wrong, and those no warning names, in both frames. */
export async function judgeGrouped(
  seed: number,
): Promise<{ description: string; panels: number; wrong: string[]; silent: string[] }> {
  const wrong: string[] = [], silent: string[] = [];
  let panels = 0, description = "";
  for (const frame of [{}, { forward: "auto", up: "auto" }] as Record<string, string>[]) {
    const scene = groupedAircraft(seed);
    description = scene.description;
    const { report, ctx } = await rig(scene.doc, frame);
    const label = `${"forward" in frame ? "auto" : "given"} frame`;
    for (const panel of scene.panels) {
      panels++;
      const fault = panelFault(label, panel, partFor(report.parts, panel));
      if (!fault) continue;
      wrong.push(`${description}: ${fault}`);
      if (!ctx.warnings.some((w) => w.message.includes(`'${panel.name}'`))) {
        silent.push(`${description}: ${fault}`);
      }
    }
  }
  return { description, panels, wrong, silent };
}
