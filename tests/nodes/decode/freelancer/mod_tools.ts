/**
 * Freelancer models as the mod tools write them, from a seed: a small compound (or a `.3db`) whose
 * layout follows one tool's habits — the MilkShape/3ds Max CMP exporter (`Level<k>` without a
 * `Level0`, 8-byte `Min`/`Max`/`Index` leaves, empty `Fixed`/`Revolute` directories), exporters
 * that store a group's vertex end one past its last vertex or leave it 0, a stray index after a
 * group's triangles, LancerEdit's null `VMeshRef`, refs selecting no group, a `.3db` with several
 * `VMeshLibrary` directories, a second copy of a mesh in a library, utf-xml round trips (regions
 * in another order, no shared payloads, unpadded sizes, no "uncompressed" size), odd vertex formats,
 * mirrored turret hardpoints whose limits were negated but not swapped, `File name`s spelt with
 * another case or separator than their fragment directory, a damaged `Switch2`, and a hardpoint
 * editor's own `hardpoints` directory beside the exporter's `Hardpoints`, a `Cons` record that
 * attaches the root to itself, and damage past LOD 0 (a 56-byte `VMeshRef` on `Level1`, a wireframe
 * whose header size is 0 or whose index list has a stray index), and materials in a `.mat` beside the
 * model with their textures in a shared `.txm` (one named in another case, one missing), and vertices
 * a converter left at NaN or infinity, textures named with the other path separator, a leading `.\`
 * or another case than their library entry (in the model or a shared `.txm`), and entries misspelt
 * by hand (`VMeshPart ` with a trailing space, `VMeshLib`, `Hardpoint`, `VmeshPart`).
 *
 * The habits are written by kind in `mod_tools_mesh.ts` (mesh data), `mod_tools_fragment.ts` (a part's
 * fragment), `mod_tools_materials.ts` (libraries and texture names) and `mod_tools_container.ts` (the
 * UTF layout); this module plans the parts and lays out the compound.
 *
 * Each file comes with its truth, worked out here from what was written (not from the decoder):
 * the triangles each part draws at LOD 0, the world position of every hardpoint, and a turret's
 * range in degrees.
 *
 * @module
 */
import { prng } from "../../../support/prng.ts";
import { encodeConstraints } from "../../../support/freelancer/encode_model.ts";
import {
  encodeI32,
  encodeString,
  encodeUtf,
  utfDir,
  utfLeaf,
  type UtfNode,
} from "../../../support/freelancer/encode_utf.ts";
import { utfXmlLayout } from "./mod_tools_container.ts";
import { fragment } from "./mod_tools_fragment.ts";
import { materialHabits } from "./mod_tools_materials.ts";
import { meshData } from "./mod_tools_mesh.ts";

/** The habits a file is written with. */
export const QUIRKS = [
  "retail",
  "exclusive_vertex_end",
  "vertex_end_unfilled",
  "stray_index",
  "milkshape_levels",
  "null_ref",
  "no_groups",
  "several_libraries",
  "duplicate_mesh",
  "utf_xml",
  "odd_fvf",
  "mirrored_limits",
  "file_name_spelling",
  "switch2",
  "split_hardpoints",
  "self_constraint",
  "fragment_damage",
  "separate_libraries",
  "non_finite_vertices",
  "texture_spelling",
  "misspelt_entry",
] as const;

/** One habit of {@link QUIRKS}. */
export type Quirk = typeof QUIRKS[number];

/** What a file is meant to show, worked out from what was written. */
export interface ModToolTruth {
  /** Triangles drawn at LOD 0, by part name. */
  readonly triangles: Record<string, number>;
  /** World position of each hardpoint, by name. */
  readonly hardpoints: Record<string, readonly number[]>;
  /** How far a hardpoint may sit from its position (default 1e-4). */
  readonly hardpointTolerance?: number;
  /** A turret's range in degrees, by hardpoint name. */
  readonly limits: Record<string, readonly [number, number]>;
  /** Whether each material is drawn with a texture (only for files whose materials are judged). */
  readonly textured?: Record<string, boolean>;
  /** Hardpoints the file holds where the game does not read them: absent from the output. */
  readonly absent?: readonly string[];
  /** A joint pivot's range (degrees for turns, units for slides), by pivot node name. */
  readonly joints?: Record<string, readonly [number, number]>;
  /**
   * Patterns (regular expression sources) some warning must match: what a file whose geometry cannot
   * tell what was meant must name (the part, both libraries). Unnamed, the output is judged wrong.
   */
  readonly named?: readonly string[];
}

/** A generated file. */
export interface ModToolFile {
  /** The habit, or for a file written with several, their names joined by `+`. */
  readonly quirk: string;
  /** Every habit the file was written with. */
  readonly habits: readonly Quirk[];
  readonly seed: number;
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly truth: ModToolTruth;
  /** Files written beside the model (a ship family's `.mat`, a shared `.txm`). */
  readonly siblings?: readonly { readonly name: string; readonly bytes: Uint8Array }[];
}

const FVFS = [0x112, 0x212, 0x102, 0x142, 0x012, 0x152, 0x252, 0x002];
const ODD_FVFS = [0x1d2, 0x312, 0x412, 0x0b2, 0x132, 0x002, 0x512];

/** One part of a file as planned, before it is written. */
export interface PartPlan {
  name: string;
  fileName: string;
  translation: number[];
  mesh: string;
  fvf: number;
  groups: number[]; // triangles per group
  hardpoints: { name: string; position: number[]; rev?: { min: number; max: number } }[];
  /** The name its `VMeshPart` directory is written with. */
  meshPart: string;
  /** The name its `Hardpoints` directory is written with. */
  hardpointsDir: string;
}

/**
 * How `misspelt_entry` misspells, by seed: the last part's `VMeshPart` with a trailing space (the
 * game reads no mesh for it), in another case (the game reads it), `VMeshLibrary` cut to
 * `VMeshLib` (the game reads no mesh at all), or the last part's `Hardpoints` cut to `Hardpoint` (the
 * game reads none of its hardpoints; beside a hardpoint editor's own `hardpoints`, a trailing space).
 */
const MISSPELLINGS = ["trailing_space", "case", "short_library", "hardpoints_cut"] as const;

/** Whether a file is written with a habit. */
export type Has = (habit: Quirk) => boolean;

/**
 * Writes the file of `quirk` (or of several habits at once, as a file passed through several tools
 * is) for `seed`.
 */
export function modToolFile(quirk: Quirk | readonly Quirk[], seed: number): ModToolFile {
  const habits: readonly Quirk[] = typeof quirk === "string" ? [quirk as Quirk] : quirk as readonly Quirk[];
  const has: Has = (habit) => habits.includes(habit);
  const random = prng(seed * 7919 + habits.reduce((sum, h, i) => sum + QUIRKS.indexOf(h) * 31 ** i, 0));
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const coord = () => Math.round((random() * 20 - 10) * 64) / 64;
  const single = has("milkshape_levels") || has("several_libraries");
  const misspelt = has("misspelt_entry") ? MISSPELLINGS[seed % MISSPELLINGS.length] : undefined;
  // Judged materials are drawn by every part, with UVs to place their textures.
  const judgedMaterials = has("separate_libraries") || has("texture_spelling");
  const partCount = single ? 1 : int(1, 4);
  const parts: PartPlan[] = [];
  for (let p = 0; p < partCount; p++) {
    const name = p === 0 ? "Root" : `Part${p}${pick(["Wing", "Turret", "Hatch", "Gear"])}`;
    parts.push({
      name,
      fileName: `${name.toLowerCase()}_lod${seed % 10}${p}.3db`,
      translation: p === 0 ? [0, 0, 0] : [coord(), coord(), coord()],
      mesh: `${name.toLowerCase()}.lod0.${seed}.vms`,
      fvf: judgedMaterials ? 0x112 : has("odd_fvf") ? pick(ODD_FVFS) : pick(FVFS),
      groups: Array.from({ length: judgedMaterials ? 3 : int(1, 3) }, () => int(1, 5)),
      hardpoints: Array.from({ length: int(0, 2) }, (_, h) => ({
        name: `Hp${name}${h}`,
        position: [coord(), coord(), coord()],
      })),
      meshPart: "VMeshPart",
      hardpointsDir: "Hardpoints",
    });
  }
  const lastPart = parts[parts.length - 1];
  if (misspelt === "trailing_space" || misspelt === "hardpoints_cut" && has("split_hardpoints")) {
    lastPart.meshPart = "VMeshPart ";
  } else if (misspelt === "hardpoints_cut") lastPart.hardpointsDir = "Hardpoint";
  if (misspelt === "case") lastPart.meshPart = "VmeshPart";
  // Every file has a turret somewhere, so limits are judged on every kind.
  const turretMin = -int(10, 90), turretMax = int(10, 120);
  parts[parts.length - 1].hardpoints.push({
    name: "HpTurret01",
    position: [coord(), coord(), coord()],
    rev: has("mirrored_limits")
      ? { min: -turretMin * Math.PI / 180, max: -turretMax * Math.PI / 180 }
      : { min: turretMin * Math.PI / 180, max: turretMax * Math.PI / 180 },
  });
  const limits: Record<string, readonly [number, number]> = {
    HpTurret01: has("mirrored_limits") ? [-turretMax, -turretMin] : [turretMin, turretMax],
  };
  if (has("mirrored_limits") && seed % 2) {
    // Half the files keep the turret it was mirrored from (the other side of the ship).
    parts[0].hardpoints.push({
      name: "HpTurret02",
      position: [coord(), coord(), coord()],
      rev: { min: turretMin * Math.PI / 180, max: turretMax * Math.PI / 180 },
    });
    limits.HpTurret02 = [turretMin, turretMax];
  }

  const materials = ["hull", "glass", "trim"];
  const triangles: Record<string, number> = {};
  const hardpoints: Record<string, readonly number[]> = {};
  const absent: string[] = [];
  /** Materials some part draws a triangle of (a glTF material exists only for those). */
  const drawnMaterials = new Set<string>();
  for (const part of parts) {
    // The game reads no mesh through a misspelt VMeshPart or from a misspelt VMeshLibrary.
    const blank = has("null_ref") && part !== parts[0] || has("no_groups") && part === parts[0] ||
      part.meshPart === "VMeshPart " || misspelt === "short_library";
    // A vertex at NaN is no point: the game draws no triangle through it (its last triangle here).
    const lost = has("non_finite_vertices") ? 1 : 0;
    triangles[part.name] = blank ? 0 : part.groups.reduce((a, b) => a + b, 0) - lost;
    part.groups.forEach((count, g) => {
      if (!blank && count - (g === part.groups.length - 1 ? lost : 0) > 0) {
        drawnMaterials.add(materials[g % materials.length]);
      }
    });
    for (const hp of part.hardpoints) {
      if (part.hardpointsDir !== "Hardpoints") {
        absent.push(hp.name);
        delete limits[hp.name];
        continue;
      }
      hardpoints[hp.name] = hp.position.map((v, i) => v + part.translation[i]);
    }
  }

  const meshes = parts.map((part) => ({ name: part.mesh, data: meshData(part, has, materials) }));
  if (has("duplicate_mesh")) {
    // A merge that kept both copies: the second, under the same name, draws one more triangle.
    const part = parts[0];
    meshes.push({
      name: part.mesh,
      data: meshData({ ...part, groups: [...part.groups, 1] }, () => false, materials),
    });
  }
  const library = (list: typeof meshes) =>
    utfDir(
      misspelt === "short_library" ? "VMeshLib" : "VMeshLibrary",
      list.map((m) => utfDir(m.name, [utfLeaf("VMeshData", m.data)])),
    );
  const fragments = parts.map((part) => utfDir(part.fileName, fragment(part, has)));
  const { extra, siblings, textured } = materialHabits(has, seed, pick, materials, drawnMaterials);

  let root: UtfNode;
  let name: string;
  if (single) {
    name = `${parts[0].name.toLowerCase()}.3db`;
    const libraries = has("several_libraries")
      ? [utfDir("VMeshLibrary", []), library([]), library(meshes)]
      : [library(meshes)];
    root = utfDir("\\", [...libraries, ...extra, ...fragment(parts[0], has)]);
    if (has("milkshape_levels")) {
      root = utfDir("\\", [
        library(meshes),
        ...extra,
        utfDir("Cmpnd", [utfDir("Root", [
          utfLeaf("File name", encodeString(parts[0].fileName)),
          utfLeaf("Index", encodeI32(0, 0)),
          utfLeaf("Object name", encodeString("Root")),
        ])]),
        fragments[0],
      ]);
      name = "milkshape.cmp";
    }
  } else {
    name = `ship${seed}.cmp`;
    const entries = parts.map((part, i) => {
      let fileName = part.fileName;
      if (has("file_name_spelling") && i > 0) {
        fileName = i % 2 ? fileName.toUpperCase() : `models\\${fileName}`;
      }
      return utfDir(i === 0 ? "Root" : `Part_${part.name}`, [
        utfLeaf("Object name", encodeString(part.name)),
        utfLeaf("Index", encodeI32(i)),
        utfLeaf("File name", encodeString(fileName)),
      ]);
    });
    const fragmentDirs = has("file_name_spelling")
      ? parts.map((part, i) =>
        utfDir(i > 0 && i % 2 === 0 ? `models/${part.fileName}` : part.fileName, fragment(part, has))
      )
      : fragments;
    const fix = parts.slice(1).map((part) => ({
      kind: "fix" as const,
      parent: "Root",
      child: part.name,
      translation: part.translation,
      rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1],
    }));
    if (has("self_constraint")) {
      // An exporter that writes a record for every part, the root's naming the root as its parent.
      fix.unshift({
        ...fix[0] ?? { kind: "fix", rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1] },
        parent: "Root",
        child: "Root",
        translation: [0, 0, 0],
      });
    }
    const cons = fix.length ? [utfDir("Cons", [utfLeaf("Fix", encodeConstraints("fix", fix))])] : [];
    root = utfDir("\\", [library(meshes), ...extra, utfDir("Cmpnd", [...entries, ...cons]), ...fragmentDirs]);
  }
  let bytes = encodeUtf(root, { shareData: !has("utf_xml") });
  if (has("utf_xml")) bytes = utfXmlLayout(bytes);
  const label = habits.join("+");
  return {
    quirk: label,
    habits,
    seed,
    name,
    bytes,
    truth: { triangles, hardpoints, limits, textured, ...(absent.length ? { absent } : {}) },
    siblings,
  };
}
