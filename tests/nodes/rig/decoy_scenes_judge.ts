/**
 * Judges how `rig.detect_panels` reads {@link decoyScene} scenes: every part found on a prop is a false
 * panel, every aircraft panel left unfound is missed, and a panel left unrigged should be named in a
 * warning (so nothing is dropped silently).
 *
 * @module
 */
import { rigDetectPanels } from "../../../nodes/rig/detect_panels.ts";
import { getPart } from "../../../nodes/rig/part_extras.ts";
import { runNode, testContext } from "../../support/context.ts";
import { DECOY_KINDS, type DecoyKind, decoyScene } from "./decoy_scenes.ts";

/** What searching one scene came to. */
export interface DecoyJudgement {
  readonly kind: DecoyKind;
  readonly description: string;
  /** Props found as parts (`name: kind`). */
  readonly falsePanels: string[];
  /** Aircraft panels not found or found as another kind. */
  readonly missed: string[];
  /** The warnings the search gave. */
  readonly warnings: string[];
}

/** Searches the scene of `kind` drawn from `seed` for panels and judges what was found. */
export async function judgeDecoyScene(seed: number, kind: DecoyKind): Promise<DecoyJudgement> {
  const { doc, panels, description } = decoyScene(seed, kind);
  const ctx = testContext();
  const out = (await runNode(rigDetectPanels, { scene: doc }, {}, ctx)).scene;
  const falsePanels: string[] = [], missed: string[] = [];
  const found = new Map<string, string>();
  for (const node of out.getRoot().listNodes()) {
    const part = getPart(node);
    if (part?.kind) found.set(node.getName(), part.kind);
    if (part?.kind && !panels.has(node.getName())) falsePanels.push(`${node.getName()}: ${part.kind}`);
  }
  for (const [name, kind] of panels) {
    if (found.get(name) !== kind) missed.push(`${name} (${kind}): ${found.get(name) ?? "not found"}`);
  }
  const warnings = ctx.warnings.map((w) => w.message);
  return { kind, description, falsePanels, missed, warnings };
}

/** Tallies of {@link judgeDecoyScene} over `count` scenes of every kind from `seed` on. */
export async function tallyDecoys(seed: number, count: number): Promise<{
  scenes: number;
  falsePanels: string[];
  missed: string[];
  silentlyDropped: string[];
}> {
  const falsePanels: string[] = [], missed: string[] = [], silentlyDropped: string[] = [];
  let scenes = 0;
  for (const kind of DECOY_KINDS) {
    for (let k = 0; k < count; k++) {
      const judged = await judgeDecoyScene(seed * 1000 + k, kind);
      scenes++;
      const label = `seed ${seed * 1000 + k} ${judged.description}`;
      falsePanels.push(...judged.falsePanels.map((f) => `${label}: ${f}`));
      missed.push(...judged.missed.map((f) => `${label}: ${f}`));
      if (judged.falsePanels.length === 0 && kind !== "airport" && kind !== "carrier") {
        if (!judged.warnings.some((w) => /not rigged|nothing to rig/.test(w))) silentlyDropped.push(label);
      }
    }
  }
  return { scenes, falsePanels, missed, silentlyDropped };
}
