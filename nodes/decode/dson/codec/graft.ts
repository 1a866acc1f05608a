/**
 * Geograft merging. A graft mesh (a mouth, say) replaces some polygons of the figure it conforms
 * to: its `vertex_pairs` weld graft vertices onto target vertices and its `hidden_polys` are target
 * polygons it covers. When the target figure is in the scene the graft is merged into the target
 * mesh (vertices welded, hidden polygons removed, skin, morphs and rigidity carried over); when it is
 * not, the graft stays a separate mesh with its graft record in extras, and a warning says so.
 *
 * @module
 */
import { authoredPieces } from "./polygons.ts";
import type { FormulaGraph } from "./formula_graph.ts";
import { mergeFormulaGraphs } from "./formula_graph_read.ts";
import type { BoneAlias, Morph, SceneMesh, SceneNode, Surface } from "./model.ts";
import type { RigidityGroup } from "./rigidity.ts";
import { INFLUENCES } from "./skin.ts";
import { parseDsonUri } from "./uri.ts";

/**
 * Reports a graft whose target is not loaded: the URI (or a description), why, and where: the JSON
 * pointer `path` in the file `source` (the graft's geometry file, which is often not the scene's).
 */
export type MissReporter = (uri: string, reason: string, path: string, source: string) => void;

/**
 * Merges every graft whose target figure mesh is loaded; returns the new mesh list (grafts that
 * were merged are gone, their targets replaced). `sceneSource` is the decoded file's source: a
 * graft record elsewhere (its figure's `.dsf`) is named in the warning, one in the scene is not.
 * `onMerged` hears of each graft merged, with the mesh it went into and its vertex → merged vertex
 * (a rigid follower of the graft follows those vertices).
 *
 * @example
 * ```ts
 * const meshes = mergeGrafts(scene.nodes, scene.meshes, (uri, reason) => console.warn(uri, reason));
 * ```
 */
export function mergeGrafts(
  nodes: readonly SceneNode[],
  meshes: SceneMesh[],
  miss: MissReporter,
  sceneSource?: string,
  onMerged?: (graft: SceneMesh, into: SceneMesh, remap: Int32Array) => void,
): SceneMesh[] {
  const graftsByTarget = new Map<number, SceneMesh[]>();
  const merged = new Set<SceneMesh>();
  for (const mesh of meshes) {
    if (!mesh.graft) continue;
    const owner = nodes[mesh.owner];
    if (mesh.graft.damaged) {
      // Welding by indices past the counts would weld onto the wrong vertices (or none): not merged.
      const { path, what } = mesh.graft.damaged;
      miss(
        owner?.conformTarget ?? `graft target of '${mesh.geometryId}'`,
        `the graft record of '${mesh.geometryId}' in ${mesh.geometrySource} is damaged at ${path} (${what}); ` +
          "the graft is not merged and is kept as a separate mesh",
        path,
        mesh.geometrySource,
      );
      continue;
    }
    const targetUri = owner?.conformTarget;
    const targetNode = targetUri === undefined
      ? -1
      : nodes.findIndex((n) => n.key === parseDsonUri(targetUri).id);
    const target = meshes.findIndex((m) =>
      m.owner === targetNode && m !== mesh && m.vertexCount === mesh.graft!.vertexCount &&
      (m.authored?.count ?? m.polyCount) === mesh.graft!.polyCount
    );
    if (target < 0) {
      const base = owner?.preferredBase ? ` '${owner.preferredBase}'` : "";
      const wanted =
        `figure${base} with ${mesh.graft.vertexCount} vertices and ${mesh.graft.polyCount} polygons`;
      const record = mesh.geometrySource === sceneSource
        ? ""
        : ` (its record: ${mesh.geometrySource} at ${mesh.geometryPath}/graft)`;
      miss(
        targetUri ?? `graft target of '${mesh.geometryId}'`,
        `the graft's target ${wanted} is not loaded; the graft is not merged and is kept as a separate ` +
          `mesh${record}`,
        `${mesh.geometryPath}/graft`,
        mesh.geometrySource,
      );
      continue;
    }
    const list = graftsByTarget.get(target) ?? [];
    list.push(mesh);
    graftsByTarget.set(target, list);
    merged.add(mesh);
  }
  return meshes.flatMap((mesh, index) => {
    if (merged.has(mesh)) return [];
    const grafts = graftsByTarget.get(index);
    if (!grafts) return [mesh];
    const remaps: Int32Array[] = [];
    const into = mergeInto(mesh, grafts, nodes, remaps);
    grafts.forEach((graft, g) => onMerged?.(graft, into, remaps[g]));
    return [into];
  });
}

/**
 * One target mesh with all its grafts merged in a single pass (hidden polygon indices are the
 * target's); `remaps` receives each graft's vertex → merged vertex.
 */
function mergeInto(
  target: SceneMesh,
  grafts: readonly SceneMesh[],
  nodes: readonly SceneNode[],
  remaps: Int32Array[],
): SceneMesh {
  // Hidden polygons are the target file's: all the pieces of one cut into triangles.
  const hidden = new Uint8Array(target.polyCount);
  const piecesOf = authoredPieces(target.authored);
  for (const graft of grafts) {
    for (const p of graft.graft!.hiddenPolys) for (const q of piecesOf(p)) hidden[q] = 1;
  }
  const graftEnds: number[] = [];
  let vertexCount = target.vertexCount;
  for (const graft of grafts) {
    const remap = new Int32Array(graft.vertexCount).fill(-1);
    const pairs = graft.graft!.vertexPairs;
    for (let k = 0; k < pairs.length; k += 2) remap[pairs[k]] = pairs[k + 1];
    for (let v = 0; v < graft.vertexCount; v++) if (remap[v] < 0) remap[v] = vertexCount++;
    remaps.push(remap);
    graftEnds.push(vertexCount);
  }
  const positions = new Float64Array(vertexCount * 3);
  positions.set(target.positions);
  const surfaces = [...target.surfaces];
  const materials = new Map<string, Surface>(target.materials);
  let polyCount = 0;
  for (let p = 0; p < target.polyCount; p++) if (!hidden[p]) polyCount++;
  for (const graft of grafts) polyCount += graft.polyCount;
  const polyVerts = new Int32Array(polyCount * 4);
  const polyMaterial = new Int32Array(polyCount);
  const withUv = target.uv !== undefined || grafts.some((g) => g.uv !== undefined);
  const cornerUv = withUv ? new Int32Array(polyCount * 4).fill(-1) : undefined;
  const uvChunks: Float64Array[] = [];
  let uvCount = 0;
  // A mesh without UVs gets one (0, 0) coordinate for all its corners.
  const uvOf = (mesh: SceneMesh) => {
    const base = uvCount;
    const coords = mesh.uv?.coords ?? new Float64Array(2);
    uvChunks.push(coords);
    uvCount += coords.length / 2;
    return (corner: number) => (mesh.uv ? base + mesh.uv.cornerUv[corner] : base);
  };
  let out = 0;
  const targetUv = withUv ? uvOf(target) : undefined;
  for (let p = 0; p < target.polyCount; p++) {
    if (hidden[p]) continue;
    for (let k = 0; k < 4; k++) {
      polyVerts[out * 4 + k] = target.polyVerts[p * 4 + k];
      if (cornerUv && targetUv) {
        cornerUv[out * 4 + k] = target.polyVerts[p * 4 + k] < 0 ? -1 : targetUv(p * 4 + k);
      }
    }
    polyMaterial[out++] = target.polyMaterial[p];
  }
  grafts.forEach((graft, g) => {
    const remap = remaps[g];
    for (let v = 0; v < graft.vertexCount; v++) {
      if (remap[v] >= target.vertexCount) {
        positions.set(graft.positions.subarray(v * 3, v * 3 + 3), remap[v] * 3);
      }
    }
    const surfaceIndex = graft.surfaces.map((name) => {
      const existing = surfaces.indexOf(name);
      return existing >= 0 ? existing : surfaces.push(name) - 1;
    });
    for (const [name, surface] of graft.materials) if (!materials.has(name)) materials.set(name, surface);
    const graftUv = withUv ? uvOf(graft) : undefined;
    for (let p = 0; p < graft.polyCount; p++) {
      for (let k = 0; k < 4; k++) {
        const v = graft.polyVerts[p * 4 + k];
        polyVerts[out * 4 + k] = v < 0 ? -1 : remap[v];
        if (cornerUv && graftUv) cornerUv[out * 4 + k] = v < 0 ? -1 : graftUv(p * 4 + k);
      }
      polyMaterial[out++] = surfaceIndex[graft.polyMaterial[p]];
    }
  });
  let uv: SceneMesh["uv"];
  if (cornerUv) {
    const coords = new Float64Array(uvCount * 2);
    let offset = 0;
    for (const chunk of uvChunks) {
      coords.set(chunk, offset);
      offset += chunk.length;
    }
    uv = { ...mergedUvNames(target, grafts, surfaces), coords, cornerUv };
  }
  // The merged graph keeps one channel per id, the body's: a graft morph of a body morph's id is
  // driven by it only when it followed that channel in the graft's own graph.
  const bodyIds = new Set(target.morphs.map((m) => m.id));
  return {
    ...target,
    // The merged polygons are not the file's: nothing indexes them by the file's numbers any more.
    authored: undefined,
    positions,
    vertexCount,
    polyVerts,
    polyMaterial,
    polyCount,
    surfaces,
    uv,
    skin: mergeSkin(target, grafts, remaps, vertexCount, nodes),
    morphs: [
      ...target.morphs,
      ...grafts.flatMap((graft, g) =>
        graft.morphs.map((m) => ({
          ...remapMorph(m, remaps[g], bodyIds.has(m.id) ? target.vertexCount : undefined),
          grafts: [target.mergedGrafts.length + g],
          ...(bodyIds.has(m.id) && !followsBody(graft.formulas, m.id) ? { graftOwn: true as const } : {}),
        }))
      ),
    ],
    formulas: mergeFormulaGraphs([target.formulas, ...grafts.map((graft) => graft.formulas)]),
    // A graft's aliases of the body's bones dial them as the body's own do.
    ...mergedBoneAliases([target, ...grafts]),
    rigidity: mergeRigidity(target, grafts, remaps, vertexCount),
    mergedGrafts: [...target.mergedGrafts, ...grafts.map((g) => g.geometryId)],
    materials,
    graftBody: target.graftBody ?? {
      vertexCount: target.vertexCount,
      graftEnds,
      bodyPolys: polyCount - grafts.reduce((sum, g) => sum + g.polyCount, 0),
      hiddenPolyVerts: Int32Array.from(
        [...hidden.keys()].filter((p) => hidden[p]).flatMap((
          p,
        ) => [...target.polyVerts.subarray(p * 4, p * 4 + 4)]),
      ),
    },
  };
}

/**
 * The merged mesh's UV set names: each surface keeps the set it was drawn with (a target surface its
 * own, a graft's surface the graft's set; `(none)` for a mesh without UVs, drawn at (0, 0)). The
 * mesh's set is the one every surface uses, else the target's; before, the target's name stood for
 * the graft's surfaces too.
 */
function mergedUvNames(
  target: SceneMesh,
  grafts: readonly SceneMesh[],
  surfaces: readonly string[],
): { name: string; surfaceSets?: readonly string[] } {
  const setOf = (mesh: SceneMesh, k: number) => mesh.uv?.surfaceSets?.[k] ?? mesh.uv?.name ?? "(none)";
  const names = new Map<string, string>();
  target.surfaces.forEach((surface, k) => names.set(surface, setOf(target, k)));
  for (const graft of grafts) {
    graft.surfaces.forEach((surface, k) => {
      if (!names.has(surface)) names.set(surface, setOf(graft, k));
    });
  }
  const perSurface = surfaces.map((surface) => names.get(surface) ?? "(none)");
  const used = new Set(perSurface);
  if (used.size === 1) return { name: perSurface[0] };
  return { name: target.uv?.name ?? grafts.find((g) => g.uv)!.uv!.name, surfaceSets: perSurface };
}

/** Graft vertices keep their weights, moved from the graft figure's bones to the target's bones of the same id. */
function mergeSkin(
  target: SceneMesh,
  grafts: readonly SceneMesh[],
  remaps: readonly Int32Array[],
  vertexCount: number,
  nodes: readonly SceneNode[],
): SceneMesh["skin"] {
  if (!target.skin) return undefined;
  const slotNode = new Int32Array(vertexCount * INFLUENCES).fill(-1);
  const slotWeight = new Float32Array(vertexCount * INFLUENCES);
  slotNode.set(target.skin.slotNode);
  slotWeight.set(target.skin.slotWeight);
  const targetBones = new Map<string, number>();
  nodes.forEach((node, i) => {
    if (target.skin!.slotNode.includes(i) || isAncestor(nodes, target.owner, i)) targetBones.set(node.id, i);
  });
  grafts.forEach((graft, g) => {
    for (let v = 0; v < graft.vertexCount; v++) {
      const to = remaps[g][v];
      if (to < target.vertexCount) continue;
      if (!graft.skin) {
        slotNode[to * INFLUENCES] = target.owner;
        slotWeight[to * INFLUENCES] = 1;
        continue;
      }
      for (let s = 0; s < INFLUENCES; s++) {
        const from = graft.skin.slotNode[v * INFLUENCES + s];
        slotNode[to * INFLUENCES + s] = from < 0 ? -1 : targetBones.get(nodes[from].id) ?? target.owner;
        slotWeight[to * INFLUENCES + s] = graft.skin.slotWeight[v * INFLUENCES + s];
      }
    }
  });
  return { slotNode, slotWeight };
}

function isAncestor(nodes: readonly SceneNode[], ancestor: number, node: number): boolean {
  for (let n = node, steps = 0; n >= 0 && steps <= nodes.length; n = nodes[n].parent, steps++) {
    if (n === ancestor) return true;
  }
  return false;
}

/**
 * Whether a graft's morph `id` follows its body in the graft's own graph: driven by formulas that
 * read a channel of the body (`of`), directly (an auto-follow follower, a formula naming the body's
 * morph) or through the graft's own controllers. Daz drives a fitted figure's morph by its body's only
 * so: one merely sharing the name keeps its own value.
 */
function followsBody(graph: FormulaGraph | undefined, id: string): boolean {
  if (!graph) return false;
  // Own keys only: an id such as `constructor` is a key like any other.
  const channelOf = (key: string) => (Object.hasOwn(graph.channels, key) ? graph.channels[key] : undefined);
  const seen = new Set<string>();
  // A stack, not recursion: a chain of controllers is as deep as the file is long.
  const pending = [id];
  while (pending.length) {
    const channel = channelOf(pending.pop()!);
    for (const formula of channel?.formulas ?? []) {
      for (const op of formula.ops) {
        if (typeof op !== "object" || Array.isArray(op) || !("value" in op) || seen.has(op.value)) continue;
        if (channelOf(op.value)?.of !== undefined) return true;
        seen.add(op.value), pending.push(op.value);
      }
    }
  }
  return false;
}

/**
 * A graft morph in the merged mesh's vertex indices. With `targetVertices`, its deltas on welded
 * vertices (those remapped below it: the target's) are left out: a welded vertex is the body's, and
 * the body's morph of the same id moves it already (before, it moved twice as far: a graft's
 * projected FBMHeavy doubled the body's at the seam).
 */
function remapMorph(morph: Morph, remap: Int32Array, targetVertices?: number): Morph {
  const rigid = morph.rigid && remapRigid(morph.rigid, remap, targetVertices);
  const fit = rigid ? { rigid } : {};
  if (targetVertices === undefined) {
    return { ...morph, index: Int32Array.from(morph.index, (v) => remap[v]), ...fit };
  }
  const keep = [...morph.index.keys()].filter((k) => remap[morph.index[k]] >= targetVertices);
  const delta = new Float64Array(keep.length * 3);
  keep.forEach((k, j) => delta.set(morph.delta.subarray(k * 3, k * 3 + 3), j * 3));
  return { ...morph, index: Int32Array.from(keep, (k) => remap[morph.index[k]]), delta, ...fit };
}

/** A projected morph's rigidity fit (decode.dson v72) in the merged mesh's vertices, welded ones left out as above. */
function remapRigid(
  rigid: NonNullable<Morph["rigid"]>,
  remap: Int32Array,
  targetVertices = -1,
): Morph["rigid"] {
  const keep = [...rigid.vertices.keys()].filter((k) => remap[rigid.vertices[k]] >= targetVertices);
  return {
    weight: rigid.weight,
    vertices: keep.map((k) => remap[rigid.vertices[k]]),
    plain: keep.flatMap((k) => rigid.plain.slice(k * 3, k * 3 + 3)),
  };
}

function mergeRigidity(
  target: SceneMesh,
  grafts: readonly SceneMesh[],
  remaps: readonly Int32Array[],
  vertexCount: number,
): SceneMesh["rigidity"] {
  const all = [target, ...grafts];
  if (!all.some((m) => m.rigidity)) return undefined;
  const hasWeights = all.some((m) => m.rigidity?.weights);
  const weights = hasWeights ? new Float64Array(vertexCount) : undefined;
  const groups: RigidityGroup[] = [...(target.rigidity?.groups ?? [])];
  if (weights && target.rigidity) {
    weights.set(target.rigidity.weights ?? new Float64Array(target.vertexCount).fill(1));
  }
  grafts.forEach((graft, g) => {
    const remap = remaps[g];
    if (!graft.rigidity) return;
    if (weights) {
      for (let v = 0; v < graft.vertexCount; v++) {
        if (remap[v] >= target.vertexCount) weights[remap[v]] = graft.rigidity.weights?.[v] ?? 1;
      }
    }
    for (const group of graft.rigidity.groups) {
      groups.push({
        ...group,
        referenceVertices: Int32Array.from(group.referenceVertices, (v) => remap[v]),
        maskVertices: Int32Array.from(group.maskVertices, (v) => remap[v]),
      });
    }
  });
  return { weights, groups };
}

/** The bone aliases of `meshes` together (the first mesh's of an id wins), when any has one. */
function mergedBoneAliases(meshes: readonly SceneMesh[]): { boneAliases?: Record<string, BoneAlias> } {
  const all = meshes.flatMap((mesh) => Object.entries(mesh.boneAliases ?? {})).reverse();
  return all.length ? { boneAliases: Object.fromEntries(all) } : {};
}
