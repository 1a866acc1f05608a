/**
 * Daz subdivision surfaces (`codec/subdivision.ts`): drawn as their cage, the levels kept in
 * `extras.partgraph.dson.subdivision` as Daz Studio writes them in `studio_geometry_channels`, and the
 * meshes Daz shows subdivided named in one warning. Before decode.dson v51 the levels were dropped
 * and nothing said.
 */
import assert from "node:assert/strict";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { decodeJson } from "./dson_runs.ts";
import { generateFigure, type Json } from "./generate.ts";

/** Daz Studio's mesh-resolution channels (as in the DazToRoblox graft), view level `view`. */
function resolutionChannels(view: number): Json[] {
  const channel = (id: string, type: string, value: number, extra: Json = {}) => ({
    channel: { id, type, visible: false, value, current_value: value, ...extra },
    group: "/General/Mesh Resolution",
  });
  return [{
    type: "studio_geometry_channels",
    channels: [
      channel("SubDIALevel", "int", view, { label: "View SubD Level", min: 0, max: 2, clamped: true }),
      channel("SubDRenderLevel", "int", 2),
      channel("SubDAlgorithmControl", "enum", 0, {
        enum_values: ["Catmark", "Bilinear", "Loop", "Catmull-Clark (Legacy)"],
      }),
      channel("SubDEdgeInterpolateLevel", "enum", 1, {
        enum_values: ["Soft Corners And Edges", "Sharp Edges and Corners", "Sharp Edges"],
      }),
    ],
  }];
}

function figure(type: string, view: number): Json {
  const json = generateFigure({ side: 3, bones: 2 });
  const geometry = (json.geometry_library as Json[])[0];
  geometry.type = type;
  geometry.extra = resolutionChannels(view);
  return json;
}

const meshRecord = (scene: Awaited<ReturnType<typeof decodeJson>>["scene"]) =>
  getPartgraphExtras(scene.getRoot().listMeshes()[0]).dson as Json;

Deno.test("dson subdivision: a subdivision surface is drawn as its cage, its levels kept, and named in one warning", async () => {
  const { scene, warnings } = await decodeJson(figure("subdivision_surface", 2), "subd.duf");
  assert.deepEqual(meshRecord(scene).subdivision, {
    view_level: 2,
    render_level: 2,
    algorithm: "Catmark",
    edge_interpolation: "Sharp Edges and Corners",
  });
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(
    warnings[0],
    /1 mesh\(es\) Daz Studio shows subdivided are drawn at base resolution.*'gen_figure_geo-1' \(level 2\)/,
  );
  // The cage: the generated grid's 9 vertices, as written.
  assert.equal(scene.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute("POSITION")!.getCount(), 9);
});

Deno.test("dson subdivision: view level 0 keeps the record without a warning; a polygon mesh's channels mean nothing", async () => {
  const level0 = await decodeJson(figure("subdivision_surface", 0), "subd.duf");
  assert.deepEqual(level0.warnings, []);
  assert.equal((meshRecord(level0.scene).subdivision as Json).view_level, 0);
  const polygons = await decodeJson(figure("polygon_mesh", 2), "subd.duf");
  assert.deepEqual(polygons.warnings, []);
  assert.equal(meshRecord(polygons.scene).subdivision, undefined);
});
