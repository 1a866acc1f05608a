/**
 * The material and texture habits of `mod_tools.ts`'s files: libraries beside the model and textures
 * spelt otherwise than their library entries.
 *
 * @module
 */
import { materialLibrary, textureLibrary } from "../../../support/freelancer/encode_model.ts";
import { encodeUtf, utfDir, type UtfNode } from "../../../support/freelancer/encode_utf.ts";
import { dxt1Dds } from "./fixtures.ts";
import type { Has, ModToolFile } from "./mod_tools.ts";

/**
 * The material and texture libraries of a file, as two habits leave them: `separate_libraries` (the
 * materials in a ship family's `.mat` beside the model, their textures in a shared `.txm`: one named in
 * another case than its entry, one missing) and `texture_spelling` (textures named with the other path
 * separator, a leading `.\\` or another case than their entry, in the model or a shared `.txm`).
 * `materials` are the three material names, `drawnMaterials` those some part draws. Returns the
 * library directories the model holds, the files beside it and whether each drawn material is textured.
 */
export function materialHabits(
  has: Has,
  seed: number,
  pick: <T>(list: readonly T[]) => T,
  materials: readonly string[],
  drawnMaterials: ReadonlySet<string>,
): { extra: UtfNode[]; siblings: ModToolFile["siblings"]; textured?: Record<string, boolean> } {
  const separate = has("separate_libraries");
  // The materials in a .mat beside the model, their textures in a shared .txm: one named in another
  // case than its entry, one the .txm lacks (the material is drawn untextured, with a warning).
  const textureNames: Record<string, string> = {
    hull: "Hull_Plates.DDS",
    glass: "glass.dds",
    trim: "trim_gone.dds",
  };
  // Textures named as a hand edit or another tool spells them: with the other path separator and with
  // a leading `.\` (other names to the game, which keys textures by the name folded to lower case
  // only: drawn untextured), and in another case (the same texture to the game). Half the files have
  // the textures in the model, half in a shared .txm beside it.
  // (With separate_libraries, whose .mat and .txm it would replace, that habit's textures are kept.)
  const spelling = has("texture_spelling") && !has("separate_libraries");
  const sharedTxm = spelling && seed % 2 === 1;
  const spelledNames: Record<string, readonly string[]> = {
    // Each pair differs in its separators (and case), never in case alone.
    hull: pick([["textures\\hull.dds", "textures/hull.dds"], ["Textures/Hull.dds", "TEXTURES\\hull.dds"]]),
    glass: [pick([".\\glass.tga", "./glass.tga"]), "glass.tga"],
    trim: ["Trim_A.DDS", "trim_a.dds"],
  };
  const spelledSpecs = materials.map((name) => ({
    name,
    type: "DcDt",
    dc: [0.5, 0.5, 0.5],
    dtName: spelledNames[name][0],
  }));
  const spelledTextures = materials.map((name, i) => ({
    name: spelledNames[name][1],
    dds: dxt1Dds([0xf800, 0x07e0, 0x001f][i]),
  }));
  const materialSpecs = materials.map((name) => ({
    name,
    type: "DcDt",
    dc: [0.5, 0.5, 0.5],
    ...(separate ? { dtName: textureNames[name] } : {}),
  }));
  const extra = separate ? [] : [materialLibrary(spelling ? spelledSpecs : materialSpecs)];
  if (spelling && !sharedTxm) extra.push(textureLibrary(spelledTextures));
  const siblings = spelling && sharedTxm
    ? [{ name: "shared.txm", bytes: encodeUtf(utfDir("\\", [textureLibrary(spelledTextures)])) }]
    : separate
    ? [
      { name: `family${seed}.mat`, bytes: encodeUtf(utfDir("\\", [materialLibrary(materialSpecs)])) },
      {
        name: "shared.txm",
        bytes: encodeUtf(utfDir("\\", [
          textureLibrary([{ name: "hull_plates.dds", dds: dxt1Dds(0xf800) }, {
            name: "glass.dds",
            dds: dxt1Dds(0x07e0),
          }]),
        ])),
      },
    ]
    : undefined;
  const textured = separate || spelling
    ? Object.fromEntries(
      materials.filter((m) => drawnMaterials.has(m)).map((m) => [m, spelling ? m === "trim" : m !== "trim"]),
    )
    : undefined;
  return { extra, siblings, textured };
}
