/**
 * What a mesh is gathered from while loading (geometry, UV set, skin, morphs, materials) and how it
 * becomes a {@link SceneMesh}: polygon corners get their UV indices (seam overrides applied),
 * unweighted vertices are bound to the figure root, and the sparse rigidity map becomes per-vertex.
 *
 * @module
 */
import type { DsonFile } from "./dson_file.ts";
import type { FormulaGraph, StoredChannel } from "./formula_graph.ts";
import type { DsonGeometry, DsonUvSet } from "./geometry.ts";
import {
  type BoneAlias,
  figureRoot,
  type Morph,
  type SceneMesh,
  type SceneNode,
  type Surface,
} from "./model.ts";
import { INFLUENCES } from "./skin.ts";
import { authoredPieces } from "./polygons.ts";

/** What a mesh is built from, gathered while loading. */
export interface MeshParts {
  key: string;
  owner: number;
  geometry: DsonGeometry;
  file: DsonFile;
  /** The geometry's default UV set (`default_uv_set`), when it resolves and fits. */
  uvSet?: DsonUvSet;
  /** The UV set each surface's material instance names (by surface name), where one does. */
  surfaceUvSets: Map<string, DsonUvSet>;
  skin?: { slotNode: Int32Array; slotWeight: Float32Array };
  morphs: Morph[];
  /** The ERC formulas driving its morphs (see `formula_graph.ts`), when any does. */
  formulas?: FormulaGraph;
  /** Modifier values the joint centres its formulas moved were worked out at (`rig_formulas.ts`). */
  rigDials?: Record<string, number>;
  /** The joint rest-frame channels its formulas moved, as stored formulas (`rig_formulas.ts`). */
  rigCentres?: Record<string, StoredChannel>;
  /** Its alias channels standing for a bone channel (alias id → the bone's id and channel), for presets. */
  boneAliases?: Record<string, BoneAlias>;
  materials: Map<string, Surface>;
}

/** Turns gathered parts into a {@link SceneMesh} (see the module doc). */
export function finishMesh(parts: MeshParts, nodes: readonly SceneNode[]): SceneMesh {
  const { geometry } = parts;
  const uv = meshUv(parts);
  const skin = parts.skin;
  if (skin) {
    // A vertex the binding left unweighted follows the figure root, so weights always sum to 1.
    const root = figureRoot(nodes, parts.owner);
    for (let v = 0; v < geometry.vertexCount; v++) {
      let sum = 0;
      for (let s = 0; s < INFLUENCES; s++) {
        if (skin.slotNode[v * INFLUENCES + s] < 0) skin.slotWeight[v * INFLUENCES + s] = 0;
        sum += skin.slotWeight[v * INFLUENCES + s];
      }
      if (sum > 0) {
        for (let s = 0; s < INFLUENCES; s++) skin.slotWeight[v * INFLUENCES + s] /= sum;
      } else {
        skin.slotNode[v * INFLUENCES] = root;
        skin.slotWeight[v * INFLUENCES] = 1;
      }
    }
  }
  let rigidity: SceneMesh["rigidity"];
  if (geometry.rigidity) {
    let weights: Float64Array | undefined;
    if (geometry.rigidity.weights) {
      weights = new Float64Array(geometry.vertexCount);
      const { index, value } = geometry.rigidity.weights;
      for (let k = 0; k < index.length; k++) weights[index[k]] = value[k];
    }
    rigidity = { weights, groups: geometry.rigidity.groups };
  }
  return {
    key: parts.key,
    name: parts.key,
    owner: parts.owner,
    geometryId: geometry.id,
    geometryType: geometry.type,
    ...(geometry.subdivision ? { subdivision: geometry.subdivision } : {}),
    geometryPath: geometry.path,
    geometrySource: parts.file.source,
    positions: geometry.positions,
    vertexCount: geometry.vertexCount,
    polyVerts: geometry.polyVerts,
    polyMaterial: geometry.polyMaterial,
    polyCount: geometry.polyCount,
    ...(geometry.authored ? { authored: geometry.authored } : {}),
    surfaces: geometry.materialNames,
    uv,
    skin,
    morphs: parts.morphs,
    formulas: parts.formulas,
    ...(parts.rigDials ? { rigDials: parts.rigDials } : {}),
    ...(parts.rigCentres ? { rigCentres: parts.rigCentres } : {}),
    ...(parts.boneAliases ? { boneAliases: parts.boneAliases } : {}),
    rigidity,
    graft: geometry.graft ? { ...geometry.graft, merged: false } : undefined,
    mergedGrafts: [],
    materials: parts.materials,
  };
}

/**
 * The UVs of a mesh: each polygon takes its surface's UV set (its material instance's), else the
 * default set; without a default, the first set a material names (what the whole mesh took
 * before surfaces had sets of their own). The mesh's set (`name`) is the one every surface uses,
 * else the default. Several sets are concatenated, so one glTF
 * `TEXCOORD_0` per primitive carries each surface's own UVs; seam overrides apply to the polygons
 * of the surfaces using their set.
 */
function meshUv(parts: MeshParts): SceneMesh["uv"] {
  const { geometry } = parts;
  const fallback = parts.uvSet ?? parts.surfaceUvSets.values().next().value;
  if (!fallback) return undefined;
  const setOf = geometry.materialNames.map((name) => parts.surfaceUvSets.get(name) ?? fallback);
  // Surfaces that all use one set make it the mesh's (as the whole mesh took it before).
  const used = new Set(setOf);
  const base = used.size === 1 ? [...used][0] : fallback;
  const sets = [...new Set([base, ...setOf])];
  const offsets = new Map<DsonUvSet, number>();
  let total = 0;
  for (const set of sets) {
    offsets.set(set, total);
    total += set.uvs.length / 2;
  }
  const coords = new Float64Array(total * 2);
  for (const set of sets) coords.set(set.uvs, offsets.get(set)! * 2);
  // A polygon on a surface past the named ones ("no surface") takes the base set.
  const polySet = (p: number) => setOf[geometry.polyMaterial[p]] ?? base;
  const cornerUv = new Int32Array(geometry.polyCount * 4).fill(-1);
  for (let p = 0; p < geometry.polyCount; p++) {
    const offset = offsets.get(polySet(p))!;
    for (let k = 0; k < 4; k++) {
      const v = geometry.polyVerts[p * 4 + k];
      cornerUv[p * 4 + k] = v < 0 ? -1 : v + offset;
    }
  }
  // The middle value of an override is a vertex index: find the polygon corner holding it. The
  // polygon is the file's: its pieces, when it was cut into triangles.
  const piecesOf = authoredPieces(geometry.authored);
  for (const set of sets) {
    const offset = offsets.get(set)!;
    for (let o = 0; o < set.overrides.length; o += 3) {
      for (const p of piecesOf(set.overrides[o])) {
        if (polySet(p) !== set) continue;
        for (let k = 0; k < 4; k++) {
          if (geometry.polyVerts[p * 4 + k] === set.overrides[o + 1]) {
            cornerUv[p * 4 + k] = set.overrides[o + 2] + offset;
          }
        }
      }
    }
  }
  const names = setOf.map((set) => set.name);
  return sets.length > 1
    ? { name: base.name, coords, cornerUv, surfaceSets: names }
    : { name: base.name, coords, cornerUv };
}
