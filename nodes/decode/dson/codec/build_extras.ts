/**
 * The DSON records `decode.dson` keeps in a decoded scene's extras (`extras.partgraph.dson`) for
 * each node and mesh: what later nodes (`dson.apply_preset`, `dson.bake_morph`, the rig) read back.
 *
 * @module
 */
import type { JsonValue } from "../../../../runtime/node.ts";
import { formulaGraphJson, rigCentresJson } from "./formula_json.ts";
import type { SceneMesh, SceneNode } from "./model.ts";
import { packIndices } from "./packed_ints.ts";
import { rigidityGroupToJson } from "./rigidity.ts";

type Json = { [key: string]: JsonValue };

/** A node's DSON record for `extras.partgraph.dson`. */
export function nodeExtras(node: SceneNode): Json {
  const out: Json = {
    id: node.id,
    key: node.key,
    type: node.type,
    label: node.label,
    center_point: [...node.centerPoint],
    end_point: [...node.endPoint],
    orientation: [...node.orientation],
    rotation_order: node.rotationOrder,
    inherits_scale: node.inheritsScale,
  };
  if (node.definition) out.definition = node.definition;
  if (node.conformTarget) out.conform_target = node.conformTarget;
  // For dson.apply_preset, which clamps a preset's values and the formulas' as the decode does.
  if (node.limits && Object.keys(node.limits).length) out.limits = { ...node.limits } as Json;
  return out;
}

/** A mesh's DSON record for `extras.partgraph.dson`. */
export function meshExtras(mesh: SceneMesh): Json {
  const out: Json = {
    geometry: mesh.geometryId,
    geometry_type: mesh.geometryType,
    ...(mesh.subdivision ? { subdivision: { ...mesh.subdivision } } : {}),
    vertex_count: mesh.vertexCount,
    poly_count: mesh.polyCount,
    surfaces: [...mesh.surfaces],
    // A clamped morph's range, for dson.apply_preset, which keeps a preset's dial in it.
    morphs: mesh.morphs.map((m) => ({
      id: m.id,
      name: m.name,
      label: m.label,
      vertices: m.index.length,
      ...(m.limit ? { ...m.limit } : {}),
      // A merged graft's morph of the body's name that follows nothing: dson.apply_preset's formulas
      // leave it its own value.
      ...(m.graftOwn ? { graft_own: true } : {}),
      // For dson.apply_preset, which projects a body's auto_follow morph it dials onto fitted items.
      ...(m.autoFollow ? { auto_follow: true } : {}),
      // Projected from its body: dson.apply_preset fits the item's rigidity into it at its dial.
      ...(m.projected ? { projected: true } : {}),
      // Its item's rigidity fitted in at the scene's dial: the plain deltas, for a preset or bake to refit.
      ...(m.rigid
        ? { rigid: { weight: m.rigid.weight, vertices: [...m.rigid.vertices], plain: [...m.rigid.plain] } }
        : {}),
      // A merged graft's: which grafts brought it (dson.apply_preset projects onto the others).
      ...(m.grafts ? { grafts: [...m.grafts] } : {}),
      // Its alias channels' ids: dson.apply_preset sets it when a preset dials one.
      ...(m.aliases ? { aliases: [...m.aliases] } : {}),
    })),
  };
  // For dson.apply_preset, which poses the bone when a preset dials one of these aliases.
  if (mesh.boneAliases) {
    out.bone_aliases = Object.fromEntries(
      Object.entries(mesh.boneAliases).map((
        [id, alias],
      ) => [id, { node: alias.node, channel: alias.channel }]),
    );
  }
  if (mesh.uv) out.uv_set = mesh.uv.name;
  // Only when surfaces use several sets (each material names its own): surface name → set name.
  if (mesh.uv?.surfaceSets) {
    out.uv_sets = Object.fromEntries(mesh.surfaces.map((surface, k) => [surface, mesh.uv!.surfaceSets![k]]));
  }
  if (mesh.rigidity) {
    out.rigidity = {
      has_weights: mesh.rigidity.weights !== undefined,
      groups: mesh.rigidity.groups.map(rigidityGroupToJson),
    };
  }
  if (mesh.graft) {
    // Packed (`packed_ints.ts`), as `graft_body`'s: a graft hides hundreds to thousands of body
    // polygons, mostly in runs, and welds a seam of tens to hundreds of vertices. The pairs are
    // packed as two columns, the graft's vertices then the body's, each running on (decode.dson
    // v33; before, JSON lists: the corpus mouth graft's 770 hidden polygons took 3,571 bytes, now
    // 1,048).
    const pairs = mesh.graft.vertexPairs, count = pairs.length / 2;
    const columns = new Int32Array(pairs.length);
    for (let k = 0; k < count; k++) columns[k] = pairs[2 * k], columns[count + k] = pairs[2 * k + 1];
    out.graft = {
      merged: mesh.graft.merged,
      target_vertex_count: mesh.graft.vertexCount,
      target_poly_count: mesh.graft.polyCount,
      vertex_pair_count: count,
      vertex_pairs_packed: packIndices(columns),
      hidden_poly_count: mesh.graft.hiddenPolys.length,
      hidden_polys_packed: packIndices(mesh.graft.hiddenPolys),
    };
  }
  if (mesh.mergedGrafts.length) out.merged_grafts = [...mesh.mergedGrafts];
  if (mesh.graftBody) {
    // For dson.apply_preset, which projects a body morph it dials onto the grafts' own vertices.
    // Packed (`packed_ints.ts`): a Genesis geograft hides thousands of body polygons.
    out.graft_body = {
      vertex_count: mesh.graftBody.vertexCount,
      graft_ends: [...mesh.graftBody.graftEnds],
      hidden_poly_verts_packed: packIndices(mesh.graftBody.hiddenPolyVerts),
      body_triangles: bodyTriangles(mesh, mesh.graftBody.bodyPolys),
    };
  }
  // The ERC formulas driving its morphs, which dson.apply_preset evaluates again.
  if (mesh.formulas) out.formulas = formulaGraphJson(mesh.formulas);
  if (mesh.rigDials) out.rig_dials = { ...mesh.rigDials };
  if (mesh.rigCentres) out.rig_centres = rigCentresJson(mesh.rigCentres);
  return out;
}

/**
 * How many triangles of each primitive (one per surface that draws a polygon, in order) lead with
 * the body's own polygons, which come first in a merged mesh: a graft's triangle between welded
 * vertices only is not the body's surface, though every corner is a body vertex.
 */
function bodyTriangles(mesh: SceneMesh, bodyPolys: number): number[] {
  const drawn = new Uint8Array(mesh.surfaces.length), body = new Array<number>(mesh.surfaces.length).fill(0);
  for (let p = 0; p < mesh.polyCount; p++) {
    const s = mesh.polyMaterial[p];
    drawn[s] = 1;
    if (p < bodyPolys) body[s] += mesh.polyVerts[p * 4 + 3] >= 0 ? 2 : 1;
  }
  return body.filter((_, s) => drawn[s]);
}
