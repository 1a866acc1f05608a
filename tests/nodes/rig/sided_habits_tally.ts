/**
 * Judges whole scenes renamed into the side habits of `sided_habits.ts`: a lone aircraft (`piecesAircraft`),
 * a showcase's copies laid out apart (`showcase_copies.ts`) and different aircraft in one file
 * (`hangar_scenes.ts`), each rigged with the frame given and found by `"auto"`. A panel is wrong when it is
 * not rigged, on the wrong side, more than 2° or 5 % of chord off, or not `good`; silently wrong when no
 * warning names it. The English scene is judged too: what only the renamed scene gets wrong is the
 * naming's doing.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";
import { addAircraftMesh, sheet } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { HANGAR_LAYOUTS, HANGAR_NAMINGS, hangarPart, hangarSample, LINE_UP } from "./hangar_scenes.ts";
import { rig } from "./pipeline.ts";
import {
  LAYOUTS,
  NAMINGS,
  panelFault,
  partFor,
  type ShowcasePanel,
  showcaseSample,
} from "./showcase_copies.ts";
import { renamingLabel, renamingOf, resided } from "./sided_habits.ts";
import { piecesAircraft } from "./surface_pieces.ts";
import type { Document } from "@gltf-transform/core";

/** What one scene came to, English and renamed. */
export interface SidedVerdict {
  readonly description: string;
  readonly panels: number;
  /** Faults of the renamed scene the English one has not. */
  readonly wrong: string[];
  /** Those no warning names. */
  readonly silent: string[];
}

interface Scene {
  readonly doc: () => Document;
  readonly panels: readonly ShowcasePanel[];
  readonly description: string;
  readonly find: typeof partFor;
}

/** A lone aircraft of `seed`, its panels as a showcase's one copy. */
function loneAircraft(seed: number): Scene {
  const aircraft = piecesAircraft(seed);
  const doc = () => {
    const d = newScene();
    for (const { name, mesh } of [...aircraft.fixed, ...aircraft.panels]) {
      addAircraftMesh(d, name, mesh.positions, mesh.triangles);
    }
    return d;
  };
  const panels = aircraft.panels.map((p) => ({ ...p, copy: 0, occurrence: 0, groups: [] }));
  return { doc, panels, description: `lone aircraft, seed ${seed}`, find: partFor };
}

/** The scene of file `seed`: a lone aircraft, a showcase or a hangar, cycled. */
function sceneOf(seed: number): Scene {
  const next = prng(seed * 41 + 3);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const family = seed % 3;
  if (family === 0) return loneAircraft(seed);
  if (family === 1) {
    const naming = pick(NAMINGS), layout = pick(LAYOUTS);
    const sample = () => showcaseSample(seed, naming, layout);
    const first = sample();
    return { doc: () => sample().doc, panels: first.panels, description: first.description, find: partFor };
  }
  const naming = pick(HANGAR_NAMINGS), layout = pick([...HANGAR_LAYOUTS, LINE_UP] as const);
  const sample = () => hangarSample(seed, naming, layout);
  const first = sample();
  return {
    doc: () => sample().doc,
    panels: first.panels,
    description: first.description,
    find: (parts, panel) => hangarPart(parts, panel as ShowcasePanel),
  };
}

/** Rigs `doc` in `frame`; each panel's fault (renamed by `rename`) and the warnings. */
async function faults(
  scene: Scene,
  doc: Document,
  frame: Record<string, string>,
  rename: (name: string) => string,
): Promise<{ panel: ShowcasePanel; fault?: string; named: boolean }[]> {
  const { report, ctx } = await rig(doc, frame);
  const label = `${"forward" in frame ? "auto" : "given"} frame`;
  return scene.panels.map((english) => {
    const panel = { ...english, name: rename(english.name) };
    const fault = panelFault(label, panel, scene.find(report.parts, panel));
    return { panel, fault, named: ctx.warnings.some((w) => w.message.includes(`'${panel.name}'`)) };
  });
}

/** How a file renames names (one habit, or a kit-bashed file's two: `sided_habits.ts`), and its label. */
export interface FileRenaming {
  readonly rename: (name: string) => string;
  readonly label: string;
}

/** Judges file `seed` (see the module doc), renamed by its own habit or by `renaming`. */
export async function judgeSided(seed: number, renaming?: FileRenaming): Promise<SidedVerdict> {
  const scene = sceneOf(seed), own = renamingOf(seed);
  const rename = renaming?.rename ?? ((name: string) => resided(name, own));
  const description = `${scene.description}; ${renaming?.label ?? renamingLabel(own)}`;
  const wrong: string[] = [], silent: string[] = [];
  let panels = 0;
  for (const frame of [{}, { forward: "auto", up: "auto" }] as Record<string, string>[]) {
    const english = await faults(scene, scene.doc(), frame, (n) => n);
    const renamed = await faults(scene, renamedScene(scene.doc(), rename), frame, rename);
    renamed.forEach(({ fault, named }, k) => {
      panels++;
      if (!fault || english[k].fault) return;
      wrong.push(`${description}: ${fault}`);
      if (!named) silent.push(`${description}: ${fault}`);
    });
  }
  return { description, panels, wrong, silent };
}

/** Every node and mesh of `doc` renamed by `rename` (in place); returns `doc`. */
function renamedScene(doc: Document, rename: (name: string) => string): Document {
  for (const node of doc.getRoot().listNodes()) node.setName(rename(node.getName()));
  for (const mesh of doc.getRoot().listMeshes()) mesh.setName(rename(mesh.getName()));
  return doc;
}

/** The warnings saying a model faces the other way (`frame_checks.ts`). */
const FACING = /faces the other way/;

/**
 * A low-poly aircraft of `seed` (flat one-triangle-strip surfaces, as a quick model or a game's
 * collision mesh draws them: no thickness tells its leading edge) rigged facing the other way (forward
 * `+Z` given, drawn `−Z`), English and renamed: whether a warning says it faces the other way. Every
 * hinge of such a rig is on the wrong edge; unwarned, silently.
 */
export async function judgeFacing(
  seed: number,
): Promise<{ description: string; english: boolean; renamed: boolean }> {
  const next = prng(seed * 53 + 11), renaming = renamingOf(seed);
  const surfaces: [string, number, number, number][] = [
    ["Aileron", 1.5 + next(), 0.3 + 0.2 * next(), 0.2 * next()],
    ["Elevator", 0.6 + 0.3 * next(), 0.2 + 0.1 * next(), 4 + next()],
  ];
  if (next() < 0.5) surfaces.push(["Flap", 0.5 + 0.5 * next(), 0.3 + 0.2 * next(), 0.3 + 0.2 * next()]);
  // Each surface's root off the centre line and its tip's sweep, mirrored left and right.
  const shapes = surfaces.map(([word, span, chord, lead]) => {
    const root = 0.5 + 0.5 * next(), sweep = 0.2 * next();
    return { word, chord, lead, root, span, sweep };
  });
  const build = (rename: (n: string) => string) => {
    const doc = newScene();
    for (const { word, chord, lead, root, span, sweep } of shapes) {
      for (const [side, sign] of [["L", 1], ["R", -1]] as const) {
        const s = sheet([0, sign * span], [lead, lead + sweep], chord, { z0: sign * root });
        addAircraftMesh(doc, rename(`${word}_${side}`), s.positions, s.triangles);
      }
    }
    addAircraftMesh(doc, "Rudder", [5, 1, 0, 5.6, 1, 0, 5.3, 2.2, 0, 5.7, 2.2, 0], [0, 2, 1, 1, 2, 3]);
    return doc;
  };
  const warned = async (doc: Document) =>
    (await rig(doc, { forward: "+Z" })).ctx.warnings.some((w) => FACING.test(w.message));
  return {
    description: `facing the other way, ${surfaces.map((s) => s[0]).join("+")}; ${renamingLabel(renaming)}`,
    english: await warned(build((n) => n)),
    renamed: await warned(build((n) => resided(n, renaming))),
  };
}
