/**
 * Judges how the rig reads {@link wildName} names: by name alone (a scene of one small box per name,
 * through `rig.detect_panels`, and the side the name states), whole (a `piecesAircraft` whose panels
 * carry wild names, rigged and each panel judged for kind, side, hinge and confidence), and on decoys
 * (scenes that are no aircraft: every panel found there is false).
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { rigDetectPanels } from "../../../nodes/rig/detect_panels.ts";
import { getPart } from "../../../nodes/rig/part_extras.ts";
import { sideFromName } from "../../../nodes/rig/vocabulary.ts";
import { prng } from "../../support/prng.ts";
import { runNode, testContext } from "../../support/context.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { boxMesh } from "./surface_classes.ts";
import { piecesAircraft } from "./surface_pieces.ts";
import { hingeError } from "./coarse_panels.ts";
import { rig } from "./pipeline.ts";
import {
  decoyNames,
  WILD_KINDS,
  type WildFamily,
  type WildKind,
  type WildName,
  wildName,
} from "./wild_names.ts";

/** A box named as `wild` says: its node's name, its mesh's, its material's. */
function addNamed(doc: Document, wild: Pick<WildName, "name" | "mesh" | "material">, at: number): Node {
  const { positions, triangles } = boxMesh([at * 3, 0, 1], [at * 3 + 1, 0.1, 3]);
  const node = addAircraftMesh(doc, wild.name, positions, triangles);
  if (wild.mesh) node.getMesh()!.setName(wild.mesh);
  if (wild.material) {
    for (const p of node.getMesh()!.listPrimitives()) p.setMaterial(doc.createMaterial(wild.material));
  }
  return node;
}

/** The name a reader should take a side from: the mesh's where the node's is a placeholder. */
const shownName = (w: WildName) => w.mesh ?? w.name;

/** `count` wild names of `family` from `seed`: every kind, either side (a rudder sometimes centre). */
export function wildNames(seed: number, family: WildFamily, count: number): WildName[] {
  const next = prng(seed);
  return Array.from({ length: count }, () => {
    const kind: WildKind = WILD_KINDS[Math.floor(next() * WILD_KINDS.length)];
    const side = kind === "rudder" && next() < 0.4 ? undefined : next() < 0.5 ? "left" : "right";
    return wildName(next, kind, side, family);
  });
}

/** The faults of reading each name alone: missed, wrong kind, wrong side (one line each). */
export async function judgeNames(names: readonly WildName[]): Promise<string[]> {
  const doc = newScene();
  const nodes = names.map((w, i) => addNamed(doc, w, i));
  const ctx = testContext();
  const out = (await runNode(rigDetectPanels, { scene: doc }, {}, ctx)).scene;
  const outNodes = out.getRoot().listNodes();
  const faults: string[] = [];
  names.forEach((w, i) => {
    const node = outNodes[doc.getRoot().listNodes().indexOf(nodes[i])];
    const kind = getPart(node)?.kind;
    const side = sideFromName(shownName(w));
    const label = `${w.family}/${w.style} '${w.name}'${w.mesh ? ` (mesh '${w.mesh}')` : ""}`;
    if (!kind) faults.push(`${label}: missed (${w.kind})`);
    else if (kind !== w.kind) faults.push(`${label}: ${kind} (${w.kind})`);
    else if (side !== w.side) faults.push(`${label}: side ${side} (${w.side})`);
  });
  return faults;
}

/** What rigging a wild-named aircraft came to: each wrong panel, and how many of those were judged good. */
export interface WholeJudgement {
  readonly panels: number;
  readonly wrong: string[];
  readonly wrongGood: number;
}

/**
 * A `piecesAircraft(seed)` whose panels are named by `family` and whose fixed parts carry a modelling
 * tool's placeholder names (`pCube3`, `Object_7`), rigged in the drawn frame: every panel's kind,
 * side, hinge (within 2° and 5 % of the chord) and confidence judged.
 */
export async function judgeAircraft(seed: number, family: WildFamily): Promise<WholeJudgement> {
  const next = prng(seed * 7 + 3);
  const aircraft = piecesAircraft(seed);
  const doc = newScene();
  aircraft.fixed.forEach(({ mesh }, k) => {
    addAircraftMesh(
      doc,
      // Maya, Sketchfab, Blender, 3ds Max (`Box001`, `Line02`), SketchUp placeholders.
      ["pCube", "Object_", "Mesh.00", "Box00", "polySurface", "Line0", "Component#", "Group#"][k % 8] +
        (k + 3),
      mesh.positions,
      mesh.triangles,
    );
  });
  const convention = next();
  const wilds = aircraft.panels.map((panel) => {
    const side = panel.side === "centre" ? undefined : panel.side;
    const wild = wildName(next, panel.kind as WildKind, side, family, convention);
    const node = addAircraftMesh(doc, wild.name, panel.mesh.positions, panel.mesh.triangles);
    if (wild.mesh) node.getMesh()!.setName(wild.mesh);
    if (wild.material) {
      for (const p of node.getMesh()!.listPrimitives()) p.setMaterial(doc.createMaterial(wild.material));
    }
    return wild;
  });
  const { report } = await rig(doc);
  const wrong: string[] = [];
  let wrongGood = 0;
  aircraft.panels.forEach((panel, i) => {
    const wild = wilds[i];
    const part = report.parts.find((p) => p.panel === shownName(wild) || p.panel === wild.name);
    const label = `seed ${seed} ${family}/${wild.style} '${wild.name}'`;
    if (!part?.hinge) return void wrong.push(`${label}: not rigged`);
    const { degrees, offset } = hingeError(panel.truth!, part.hinge.aircraft);
    const confidence = (part.fit as unknown as { confidence: string }).confidence;
    const right = part.kind === panel.kind && part.side === panel.side && degrees <= 2 &&
      offset <= 0.05 * panel.truth!.chord && confidence === "good";
    if (right) return;
    wrong.push(
      `${label}: ${part.kind} ${part.side} (${panel.kind} ${panel.side}), ${
        degrees.toFixed(1)
      }°, ${confidence}`,
    );
    if (confidence === "good") wrongGood++;
  });
  return { panels: aircraft.panels.length, wrong, wrongGood };
}

/**
 * Decoy scenes (no aircraft): for each kind of scene, its decoys as boxes, searched for panels. Every
 * panel found is false; returns one line each.
 */
export async function judgeDecoys(seed: number): Promise<string[]> {
  const byScene = new Map<string, string[]>();
  for (const d of decoyNames(prng(seed))) byScene.set(d.scene, [...byScene.get(d.scene) ?? [], d.name]);
  const found: string[] = [];
  for (const [scene, names] of byScene) {
    const doc = newScene();
    names.forEach((name, i) => addNamed(doc, { name }, i));
    const out = (await runNode(rigDetectPanels, { scene: doc }, {}, testContext())).scene;
    for (const node of out.getRoot().listNodes()) {
      const kind = getPart(node)?.kind;
      if (kind) found.push(`${scene} '${node.getName()}': ${kind}`);
    }
  }
  return found;
}
