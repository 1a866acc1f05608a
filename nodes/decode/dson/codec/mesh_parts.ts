/**
 * What a mesh is gathered from while loading (geometry, UV set, skin, morphs, materials) and how it
 * becomes a {@link SceneMesh}: polygon corners get their UV indices (seam overrides applied),
 * unweighted vertices are bound to the figure root, and the sparse rigidity map becomes per-vertex.
 *
 * @module
 */
import type { DsonFile } from "./dson_file.ts";
import type { DsonGeometry, DsonUvSet } from "./geometry.ts";
import { figureRoot, type Morph, type SceneMesh, type SceneNode, type Surface } from "./model.ts";
import { INFLUENCES } from "./skin.ts";

/** What a mesh is built from, gathered while loading. */
export interface MeshParts {
  key: string;
  owner: number;
  geometry: DsonGeometry;
  file: DsonFile;
  uvSet?: DsonUvSet;
  skin?: { slotNode: Int32Array; slotWeight: Float32Array };
  morphs: Morph[];
  materials: Map<string, Surface>;
}

/** Turns gathered parts into a {@link SceneMesh} (see the module doc). */
export function finishMesh(parts: MeshParts, nodes: readonly SceneNode[]): SceneMesh {
  const { geometry } = parts;
  let uv: SceneMesh["uv"];
  const uvSet = parts.uvSet;
  if (uvSet && uvSet.uvs.length / 2 >= geometry.vertexCount) {
    const cornerUv = new Int32Array(geometry.polyCount * 4).fill(-1);
    for (let p = 0; p < geometry.polyCount; p++) {
      for (let k = 0; k < 4; k++) cornerUv[p * 4 + k] = geometry.polyVerts[p * 4 + k];
    }
    // The middle value of an override is a vertex index: find the polygon corner holding it.
    for (let o = 0; o < uvSet.overrides.length; o += 3) {
      const p = uvSet.overrides[o];
      for (let k = 0; k < 4; k++) {
        if (geometry.polyVerts[p * 4 + k] === uvSet.overrides[o + 1]) {
          cornerUv[p * 4 + k] = uvSet.overrides[o + 2];
        }
      }
    }
    uv = { name: uvSet.name, coords: uvSet.uvs, cornerUv };
  }
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
    geometryPath: geometry.path,
    positions: geometry.positions,
    vertexCount: geometry.vertexCount,
    polyVerts: geometry.polyVerts,
    polyMaterial: geometry.polyMaterial,
    polyCount: geometry.polyCount,
    surfaces: geometry.materialNames,
    uv,
    skin,
    morphs: parts.morphs,
    rigidity,
    graft: geometry.graft ? { ...geometry.graft, merged: false } : undefined,
    mergedGrafts: [],
    materials: parts.materials,
  };
}
