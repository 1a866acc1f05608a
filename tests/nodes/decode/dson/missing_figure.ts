/**
 * Scenes as Daz Studio saves them, opened where their base figure is not installed, made by code.
 * Daz writes a node instance for the figure and one for each of its bones (`url` into the figure's
 * `.dsf`, the bones' `parent` the figure's instance), a modifier instance for each morph dialled or
 * installed (`url` into a file of the figure's `Morphs` folder, `parent` the figure's instance), and
 * every prop or item of clothing on it as a node instance parented to the figure or one of its bones,
 * fitted ones with a `conform_target`. Each seed draws:
 *
 * - which figure, how many of its bones the scene lists (6–30) and how many morphs (0–24);
 * - 1–40 props, present in the content root, each on the figure or a bone, some fitted to it;
 * - whether the figure is missing (most seeds), installed with a few of its morph files missing (a
 *   half-installed product), or the scene is opened with no content roots at all.
 *
 * What a correct decode says is worked out here: one warning per missing file (the first reference,
 * and how many there are with their first ids when several), and one for the morphs of a figure that
 * did not load; with no content roots, one for all; every prop drawn.
 *
 * @module
 */
import { generateFigure, type Json } from "./generate.ts";
import { prng } from "../../../support/prng.ts";

/** One generated case. */
export interface MissingCase {
  readonly seed: number;
  /** What was drawn, for the report. */
  readonly habits: readonly string[];
  /** Content files `[path, json]` (none when `noRoots`). */
  readonly files: readonly (readonly [string, Json])[];
  /** Open with no content roots. */
  readonly noRoots: boolean;
  readonly scene: Json;
  readonly expected: {
    /** The props' figure names, each of which must be drawn. */
    readonly props: readonly string[];
    /** Missing files (decoded content paths), each to be named by exactly one warning. */
    readonly missingFiles: readonly string[];
    /** References into each missing file (same order), which its warning must count when over 1. */
    readonly references: readonly number[];
    /** Most warnings a correct decode gives. */
    readonly maxWarnings: number;
  };
}

const FIGURES = [
  ["/data/Daz 3D/Genesis 9/Base/Genesis9.dsf", "Genesis9"],
  ["/data/DAZ 3D/Genesis 8/Female/Genesis8Female.dsf", "Genesis8Female"],
  ["/data/DAZ 3D/Genesis 8/Male/Genesis8_1Male.dsf", "Genesis8_1Male"],
] as const;
const MORPHS = ["FBMHeavy", "FBMPearFigure", "PBMNavel", "CTRLBreathe", "body_bs_Fit", "head_bs_Smile"];

const encodeDaz = (path: string) => path.split("/").map(encodeURIComponent).join("/");

/** The case of `seed`. */
export function missingCase(seed: number): MissingCase {
  const r = prng(seed);
  const pick = (n: number) => Math.floor(r() * n);
  const [figurePath, figureId] = FIGURES[pick(FIGURES.length)];
  const bones = 6 + pick(25), morphs = pick(25), props = 1 + pick(40);
  const mode = r();
  const noRoots = mode < 0.15;
  const installed = !noRoots && mode > 0.8;
  const habits = [`${figureId}, ${bones} bones, ${morphs} morphs, ${props} props`];
  habits.push(
    noRoots
      ? "no content roots"
      : installed
      ? "figure installed, some morph files missing"
      : "figure missing",
  );
  const files: [string, Json][] = [];
  const figureRef = encodeDaz(figurePath);
  if (installed) {
    const figure = generateFigure({ side: 3, bones, figureId, assetId: figureRef });
    delete figure.scene;
    files.push([figurePath, figure]);
  }
  const boneIds = Array.from({ length: bones }, (_, k) => `${figureId}_bone${k}`);
  const nodes: Json[] = [{
    id: figureId,
    url: `${figureRef}#${figureId}`,
    name: figureId,
    label: figureId,
    geometries: [{ id: `${figureId}_geo-1`, url: `${figureRef}#${figureId}_geo` }],
  }];
  boneIds.forEach((id, k) =>
    nodes.push({ id, url: `${figureRef}#${id}`, parent: `#${k ? boneIds[k - 1] : figureId}` })
  );
  const modifiers: Json[] = [];
  const morphFiles: string[] = [];
  const morphFolder = figurePath.replace(/[^/]+\.dsf$/, "Morphs/Daz 3D/Base/");
  for (let m = 0; m < morphs; m++) {
    const name = `${MORPHS[m % MORPHS.length]}${m >= MORPHS.length ? m : ""}`;
    const path = `${morphFolder}${name}.dsf`;
    morphFiles.push(path);
    modifiers.push({ id: name, url: `${encodeDaz(path)}#${name}`, parent: `#${figureId}` });
  }
  // With the figure installed, some of its morph files are missing (a half-installed add-on).
  const missingMorphs = installed ? morphFiles.filter(() => r() < 0.3) : [];
  if (installed) {
    for (const path of morphFiles) {
      if (missingMorphs.includes(path)) continue;
      const name = path.replace(/^.*\/|\.dsf$/g, "");
      files.push([path, {
        file_version: "0.6.0.0",
        asset_info: { id: encodeDaz(path), type: "modifier" },
        modifier_library: [{
          id: name,
          name,
          parent: `${figureRef}#${figureId}_geo`,
          channel: { id: "value", type: "float", value: 0, min: 0, max: 1 },
          morph: { vertex_count: 9, deltas: { count: 1, values: [[4, 0, 0.5, 0]] } },
        }],
      }]);
    }
  }
  const propNames: string[] = [];
  for (let p = 0; p < props; p++) {
    const id = `Prop${p}`;
    const path = `/data/Vendor ${p % 3}/Props/${id}.dsf`;
    const prop = generateFigure({ side: 2, bones: 1, figureId: id, assetId: encodeDaz(path) });
    delete prop.scene;
    files.push([path, prop]);
    propNames.push(id);
    const on = r() < 0.5 ? figureId : boneIds[pick(bones)];
    nodes.push({
      id: `${id}-1`,
      url: `${encodeDaz(path)}#${id}`,
      name: id,
      parent: `#${on}`,
      ...(r() < 0.5 ? { conform_target: `#${figureId}` } : {}),
      geometries: [{ id: `${id}_geo-1`, url: `${encodeDaz(path)}#${id}_geo` }],
    });
  }
  const scene = {
    file_version: "0.6.0.0",
    asset_info: { id: "/Scenes/Saved.duf", type: "scene" },
    scene: { nodes, modifiers },
  };
  // The figure's file is named by its instance, its geometry and each bone.
  const missingFiles = installed ? missingMorphs : noRoots ? [] : [figurePath];
  const references = installed ? missingMorphs.map(() => 1) : noRoots ? [] : [2 + bones];
  // One per missing file and one for the morphs of the figure that did not load; with no roots, one
  // for every file and one for the morphs.
  const maxWarnings = noRoots ? 2 : missingFiles.length + (!installed && morphs ? 1 : 0);
  return {
    seed,
    habits,
    files: noRoots ? [] : files,
    noRoots,
    scene,
    expected: { props: noRoots ? [] : propNames, missingFiles, references, maxWarnings },
  };
}
