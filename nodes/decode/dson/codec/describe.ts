/**
 * A plain JSON summary of a decoded DSON scene — figures, bones, geometries, rigidity groups, rigid
 * followers (the joint each goes under) and unresolved references — read back from the scene's
 * extras, for `inspect` and for people.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { JsonValue } from "../../../../runtime/node.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";

type Json = { [key: string]: JsonValue };

/**
 * Summarises a scene decoded by `decode.dson` (undefined fields when it was not).
 *
 * @example
 * ```ts
 * const summary = describeDson(scene);
 * summary.bones; // ["hip", "pelvis", …]
 * ```
 */
export function describeDson(scene: Document): Json {
  const root = scene.getRoot();
  const sceneDson = dsonExtras(root.getDefaultScene() ?? root.listScenes()[0]);
  const figures: JsonValue[] = [];
  const bones: JsonValue[] = [];
  const followers: JsonValue[] = [];
  for (const node of root.listNodes()) {
    const dson = dsonExtras(node);
    if (dson?.type === "figure") {
      figures.push({ id: dson.id ?? null, name: node.getName(), label: dson.label ?? null });
    }
    if (dson?.type === "bone") bones.push(String(dson.id));
    const follow = dson?.rigid_follow as Json | undefined;
    if (follow) {
      followers.push({
        name: node.getName(),
        joint: follow.joint ?? null,
        target: follow.target ?? null,
        share: follow.share ?? null,
        parent: follow.parent ?? null,
        // Only on a blend of joints, whose meshes are skinned with it (`follow_skin.ts`).
        ...(follow.blend ? { blend: follow.blend } : {}),
        // The nodes its warning names: on the blend, they ride `joint` alone (no mesh to skin).
        ...(follow.unblended ? { unblended: follow.unblended } : {}),
      });
    }
  }
  const geometries: JsonValue[] = [];
  const rigidityGroups: JsonValue[] = [];
  for (const mesh of root.listMeshes()) {
    const dson = dsonExtras(mesh);
    if (!dson) continue;
    let vertices = 0;
    let triangles = 0;
    for (const primitive of mesh.listPrimitives()) {
      vertices += primitive.getAttribute("POSITION")?.getCount() ?? 0;
      triangles += (primitive.getIndices()?.getCount() ?? 0) / 3;
    }
    const skinned = root.listNodes().some((n) => n.getMesh() === mesh && n.getSkin() !== null);
    const rigidity = dson.rigidity as { groups?: Json[] } | undefined;
    const graft = dson.graft as Json | undefined;
    geometries.push({
      name: mesh.getName(),
      geometry: dson.geometry ?? null,
      dson_vertices: dson.vertex_count ?? null,
      gltf_vertices: vertices,
      triangles,
      primitives: mesh.listPrimitives().length,
      surfaces: dson.surfaces ?? [],
      skinned,
      morphs: (mesh.getExtras() as { targetNames?: JsonValue }).targetNames ?? [],
      graft: graft
        ? {
          merged: graft.merged ?? false,
          // Counts (decode.dson v33 packs the lists), else the lists' lengths (a scene decoded before).
          vertex_pairs: graft.vertex_pair_count ??
            (Array.isArray(graft.vertex_pairs) ? graft.vertex_pairs.length : 0),
          hidden_polys: graft.hidden_poly_count ??
            (Array.isArray(graft.hidden_polys) ? graft.hidden_polys.length : 0),
        }
        : null,
      merged_grafts: dson.merged_grafts ?? [],
    });
    for (const group of rigidity?.groups ?? []) {
      rigidityGroups.push({
        geometry: mesh.getName(),
        id: group.id,
        rotation_mode: group.rotation_mode,
        scale_modes: group.scale_modes,
        reference_vertices: Array.isArray(group.reference_vertices) ? group.reference_vertices.length : 0,
        mask_vertices: Array.isArray(group.mask_vertices) ? group.mask_vertices.length : 0,
        reference: group.reference ?? null,
        transform_nodes: group.transform_nodes ?? [],
      });
    }
  }
  return {
    asset_id: sceneDson?.asset_id ?? null,
    asset_type: sceneDson?.asset_type ?? null,
    figures,
    bones,
    geometries,
    rigidity_groups: rigidityGroups,
    rigid_followers: followers,
    unresolved: sceneDson?.unresolved ?? [],
  };
}

function dsonExtras(prop: Parameters<typeof getPartgraphExtras>[0] | null | undefined): Json | undefined {
  if (!prop) return undefined;
  const dson = getPartgraphExtras(prop).dson;
  return dson && typeof dson === "object" && !Array.isArray(dson) ? dson : undefined;
}
