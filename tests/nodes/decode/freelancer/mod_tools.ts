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
 * Each file comes with its truth, worked out here from what was written (not from the decoder):
 * the triangles each part draws at LOD 0, the world position of every hardpoint, and a turret's
 * range in degrees.
 *
 * @module
 */
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import { vertexLayout } from "../../../../nodes/decode/freelancer/codec/vmesh.ts";
import { ByteWriter } from "../../../support/byte_writer.ts";
import { prng } from "../../../support/prng.ts";
import {
  encodeConstraints,
  encodeVMeshRef,
  encodeVWireData,
  materialLibrary,
  packVertices,
  textureLibrary,
} from "../../../support/freelancer/encode_model.ts";
import { dxt1Dds } from "./fixtures.ts";
import {
  encodeFloats,
  encodeI32,
  encodeString,
  encodeUtf,
  utfDir,
  utfLeaf,
  type UtfNode,
} from "../../../support/freelancer/encode_utf.ts";

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

interface PartPlan {
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
type Has = (habit: Quirk) => boolean;

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

/** The mesh of one part: one group per entry of `groups`, each its own triangles and vertices. */
function meshData(part: PartPlan, has: Has, materials: readonly string[]): Uint8Array {
  const layout = vertexLayout(part.fvf);
  if (typeof layout === "string") throw new Error(layout);
  const groupCount = part.groups.length;
  const vertexCount = part.groups.reduce((a, t) => a + 3 * t, 0);
  const stray = has("stray_index") ? 1 : 0;
  const indexCount = 3 * vertexCount / 3 + stray;
  const positions: number[] = [], normals: number[] = [], uvs: number[] = [];
  for (let v = 0; v < vertexCount; v++) {
    const t = Math.floor(v / 3), k = v % 3;
    positions.push(k === 1 ? 1 : 0, k === 2 ? 1 : 0, t);
    normals.push(0, 0, 1);
    uvs.push(k === 1 ? 1 : 0, k === 2 ? 1 : 0);
  }
  if (has("non_finite_vertices")) {
    // A converter's division by zero: the last vertex's position is NaN, the first's UVs infinite.
    positions[3 * vertexCount - 2] = Number.NaN;
    uvs[0] = Number.POSITIVE_INFINITY;
  }
  const vertices = packVertices(part.fvf, vertexCount, {
    positions,
    normals,
    diffuse: Array.from({ length: vertexCount }, () => 0xff808080),
    uvs: Array.from({ length: layout.uvCount }, () => uvs),
  });
  const indexAt = 16 + 12 * groupCount;
  const out = new Uint8Array(indexAt + 2 * indexCount + vertices.length);
  const w = new ByteWriter(out);
  w.u32(1, 0);
  w.u32(4, 4);
  w.u16(groupCount, 8);
  w.u16(indexCount, 10);
  w.u16(part.fvf, 12);
  w.u16(vertexCount, 14);
  let vertexStart = 0, at = indexAt;
  part.groups.forEach((count, g) => {
    const span = 3 * count;
    const end = has("exclusive_vertex_end")
      ? vertexStart + span
      : has("vertex_end_unfilled")
      ? 0
      : vertexStart + span - 1;
    const extra = g === 0 ? stray : 0;
    w.u32(flCrc32(materials[g % materials.length]), 16 + 12 * g);
    w.u16(vertexStart, 16 + 12 * g + 4);
    w.u16(end, 16 + 12 * g + 6);
    w.u16(span + extra, 16 + 12 * g + 8);
    w.u16(0xcc, 16 + 12 * g + 10);
    for (let i = 0; i < span; i++, at += 2) w.u16(i, at);
    // The stray index repeats the group's first vertex: in range, but no whole triangle.
    for (let i = 0; i < extra; i++, at += 2) w.u16(0, at);
    vertexStart += span;
  });
  out.set(vertices, at);
  return out;
}

/** The children of a part's fragment directory as `quirk`'s tool writes them. */
function fragment(part: PartPlan, has: Has): UtfNode[] {
  const triangles = part.groups.reduce((a, b) => a + b, 0);
  const ref = encodeVMeshRef({
    meshId: flCrc32(part.mesh),
    vertexStart: 0,
    vertexCount: 3 * triangles,
    indexStart: 0,
    indexCount: 3 * triangles + (has("stray_index") ? 1 : 0),
    groupStart: 0,
    groupCount: part.groups.length,
  });
  if (has("null_ref") && part.name !== "Root") ref.fill(0, 4);
  if (has("no_groups") && part.name === "Root") ref.fill(0, 16, 20);
  const milkshape = has("milkshape_levels");
  const limit = (value: number) => encodeFloats(milkshape ? [value, 0] : [value]);
  const hardpoint = (hp: PartPlan["hardpoints"][number]) =>
    utfDir(hp.name, [
      ...(hp.rev
        ? [
          utfLeaf("Axis", encodeFloats([0, 1, 0])),
          utfLeaf("Max", limit(hp.rev.max)),
          utfLeaf("Min", limit(hp.rev.min)),
        ]
        : []),
      utfLeaf("Orientation", encodeFloats([1, 0, 0, 0, 1, 0, 0, 0, 1])),
      utfLeaf("Position", encodeFloats(hp.position)),
    ]);
  const hardpoints = utfDir(part.hardpointsDir, [
    utfDir("Fixed", part.hardpoints.filter((hp) => !hp.rev).map(hardpoint)),
    utfDir("Revolute", part.hardpoints.filter((hp) => hp.rev).map(hardpoint)),
  ]);
  const vmeshPart = utfDir(part.meshPart, [utfLeaf("VMeshRef", ref)]);
  if (has("split_hardpoints")) {
    // A hardpoint editor that adds its hardpoints in a directory of its own beside the exporter's,
    // spelt in its own case, rather than merging them in.
    const added = utfDir("hardpoints", [
      utfDir("fixed", []),
      utfDir("revolute", part.hardpoints.filter((hp) => hp.rev).map(hardpoint)),
    ]);
    const first = utfDir("Hardpoints", [
      utfDir("Fixed", part.hardpoints.filter((hp) => !hp.rev).map(hardpoint)),
    ]);
    return [vmeshPart, first, added];
  }
  if (has("fragment_damage")) {
    // Damage past LOD 0: a later level's VMeshRef cut to 56 bytes, and a wireframe whose header size
    // was never filled in or whose index list has a stray index (a line list needs pairs).
    const lines = [0, 1, 1, 2, 2, 0];
    const wire = new Uint8Array(16 + 2 * (lines.length + 1));
    const w = new ByteWriter(wire);
    const odd = part.name.length % 2 === 0;
    w.u32(odd ? 16 : 0, 0);
    w.u32(flCrc32(part.mesh), 4);
    w.u16(0, 8);
    w.u16(3, 10);
    w.u16(lines.length + (odd ? 1 : 0), 12);
    w.u16(3, 14);
    [...lines, 0].forEach((v, i) => w.u16(v, 16 + 2 * i));
    return [
      utfDir("MultiLevel", [
        utfDir("Level0", [vmeshPart]),
        utfDir("Level1", [utfDir("VMeshPart", [utfLeaf("VMeshRef", ref.subarray(0, 56))])]),
      ]),
      utfDir("VMeshWire", [utfLeaf("VWireData", odd ? wire : wire.subarray(0, wire.length - 2))]),
      hardpoints,
    ];
  }
  if (has("switch2")) {
    const level = (n: number) => utfDir(`Level${n}`, [utfDir(part.meshPart, [utfLeaf("VMeshRef", ref)])]);
    // Two levels drawing the same mesh, and a Switch2 as hand edits and converters leave it.
    const junk = [
      utfLeaf("Switch2", encodeFloats([0, Number.NaN, 400])), // a float of garbage bytes
      utfDir("Switch2", []), // a directory where the leaf belongs
      utfLeaf("Switch2", encodeFloats([0, 250, 1000]).subarray(0, 10)), // cut inside a float
      utfLeaf("Switch2", encodeFloats([0, 1e-41, 1000])), // retail's denormal junk
      utfLeaf("Switch2", encodeFloats([0, Number.POSITIVE_INFINITY])),
    ][part.name.length % 5];
    return [
      utfDir("MultiLevel", [level(0), level(1), junk]),
      hardpoints,
    ];
  }
  if (milkshape) {
    // The exporter names the level by the LOD it was told to write: Level1, Level2 … with no Level0.
    const level = 1 + (part.name.length % 2);
    return [hardpoints, utfDir("MultiLevel", [utfDir(`Level${level}`, [vmeshPart])])];
  }
  if (has("non_finite_vertices")) {
    // A HUD wireframe round the last triangle, through its vertex at NaN: two of its three lines.
    const n = 3 * triangles;
    const wire = encodeVWireData(flCrc32(part.mesh), 0, [n - 3, n - 2, n - 2, n - 1, n - 1, n - 3]);
    return [vmeshPart, utfDir("VMeshWire", [utfLeaf("VWireData", wire)]), hardpoints];
  }
  return [vmeshPart, hardpoints];
}

/**
 * A UTF file laid out as a utf-xml round trip writes it: header, dictionary, data, tree (the
 * tree last), the dictionary's allocated size equal to its used size, and every leaf's allocated
 * size equal to its used size and its "uncompressed" size 0.
 */
function utfXmlLayout(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const treeOffset = view.getUint32(8, true), treeSize = view.getUint32(12, true);
  const namesOffset = view.getUint32(24, true), namesUsed = view.getUint32(32, true);
  const dataOffset = view.getUint32(36, true);
  const tree = bytes.slice(treeOffset, treeOffset + treeSize);
  const names = bytes.slice(namesOffset, namesOffset + namesUsed);
  const data = bytes.slice(dataOffset);
  const out = new Uint8Array(56 + names.length + data.length + tree.length);
  out.set(bytes.subarray(0, 56));
  out.set(names, 56);
  out.set(data, 56 + names.length);
  out.set(tree, 56 + names.length + data.length);
  const w = new DataView(out.buffer);
  w.setUint32(8, 56 + names.length + data.length, true);
  w.setUint32(24, 56, true);
  w.setUint32(28, names.length, true);
  w.setUint32(36, 56 + names.length, true);
  const treeAt = 56 + names.length + data.length;
  for (let at = treeAt; at < out.length; at += 44) {
    if (w.getUint32(at + 8, true) & 0x80) {
      w.setUint32(at + 20, w.getUint32(at + 24, true), true);
      w.setUint32(at + 28, 0, true);
    }
  }
  return out;
}
