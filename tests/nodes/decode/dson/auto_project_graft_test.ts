/**
 * Auto-follow projection beyond a dialled morph on a separate garment: a body morph a controller
 * drives (its own dial 0) is projected too, at the driven value, and a preset dialling the
 * controller re-drives the projection; a geograft lacking the body's morph takes it by projection
 * and, merged into the body, moves its welded vertices once (as the body's), its own vertices by
 * the swell at their nearest body point. Every expected delta is worked out from the swell's formula.
 */
import assert from "node:assert/strict";
import { halfController, shapePreset } from "./generate.ts";
import { applyPreset, decodeJson, withContentFiles } from "./dson_runs.ts";
import {
  BODY,
  body,
  BODY_FILE,
  facetTolerance,
  figureFile,
  fileOf,
  instance,
  MORPH,
  R,
  ROWS,
  SEGMENTS,
  swell,
  tube,
  worstError,
} from "./swell_body.ts";

const CTRL = "CTRLBodyShape";

function sceneOf(nodes: unknown[], modifiers: unknown[]) {
  return {
    file_version: "0.6.1.0",
    asset_info: { id: "/scenes/projected.duf", type: "scene" },
    scene: { nodes, modifiers },
  };
}

const dial = (id: string, value: number) => ({
  id: `${id}-1`,
  url: `${encodeURI(BODY_FILE)}#${id}`,
  parent: `#${BODY}_geo-1`,
  channel: { id: "value", current_value: value },
});

Deno.test("dson auto_project: a body morph driven by a controller is projected at its driven value and re-driven by a preset", async () => {
  const ys = Array.from({ length: 15 }, (_, j) => 4 + j * 2.3);
  const shirt = tube(R + 1.5, 64, ys, 0.21);
  const expect = shirt.vertices.map((rest, v) => ({ rest, delta: swell(shirt.angles[v], shirt.heights[v]) }));
  const files = [
    [BODY_FILE, body([halfController(BODY, BODY_FILE, CTRL, MORPH)])] as const,
    [fileOf("Shirt"), figureFile("Shirt", shirt, [])] as const,
  ];
  const scene = sceneOf([instance(BODY), instance("Shirt", BODY)], [dial(CTRL, 1)]);
  const { decoded, shaped } = await withContentFiles(files, async (root) => {
    const decoded = await decodeJson(scene, "projected.duf", [root]);
    return { decoded, shaped: await applyPreset(decoded.scene, shapePreset([[CTRL, 0.4]])) };
  });
  // FBMHeavy at 0 + 0.5 · 1 = 0.5; after the preset 0.5 · 0.4 = 0.2.
  const errors = {
    decoded: worstError(decoded.scene, "Shirt", expect, 0.5),
    preset: worstError(shaped.scene, "Shirt", expect, 0.2),
  };
  console.log(`controller-driven projection, worst error (cm): ${JSON.stringify(errors)}`);
  assert.ok(errors.decoded < facetTolerance(1.5, 1, 0.5), `decoded: ${errors.decoded}`);
  assert.ok(errors.preset < facetTolerance(1.5, 1, 0.2), `preset: ${errors.preset}`);
  // Left unmoved the shirt would be off by the swell, 0.5 · 2 cm at mid-height.
  assert.ok(worstError(decoded.scene, "Shirt", expect.map((e) => ({ ...e, delta: [0, 0, 0] })), 0.5) > 0.9);
  assert.ok(
    decoded.warnings.some((w) => /projected from the body.*: FBMHeavy 0\.5 \(960 vertices\)$/.test(w)),
    decoded.warnings.join("\n"),
  );
});

Deno.test("dson auto_project: a geograft lacking the body's morph takes it by projection; merged, its welded vertices move once", async () => {
  // A pyramid over the body's quad at row 20, segments 0-1: four corners welded to the quad's, the
  // apex 1 cm out from the quad's centre; the quad is hidden.
  const bodyTube = tube(R, SEGMENTS, Array.from({ length: ROWS }, (_, j) => (j * 40) / (ROWS - 1)));
  const row = 20, a = row * SEGMENTS, b = a + 1;
  const corners = [a, b, b + SEGMENTS, a + SEGMENTS];
  const centre = [0, 1, 2].map((c) => corners.reduce((sum, v) => sum + bodyTube.vertices[v][c], 0) / 4);
  const angle = Math.atan2(centre[2], centre[0]), out = Math.hypot(centre[0], centre[2]) + 1;
  const apex = [out * Math.cos(angle), centre[1], out * Math.sin(angle)];
  const graft = figureFile("Graft", {
    vertices: [...corners.map((v) => bodyTube.vertices[v]), apex],
    polys: [[0, 0, 0, 1, 4], [0, 0, 1, 2, 4], [0, 0, 2, 3, 4], [0, 0, 3, 0, 4]],
  }, []);
  const geometry = (graft.geometry_library as Record<string, unknown>[])[0];
  geometry.graft = {
    vertex_count: bodyTube.vertices.length,
    poly_count: bodyTube.polys.length,
    vertex_pairs: { count: 4, values: corners.map((v, k) => [k, v]) },
    hidden_polys: { count: 1, values: [row * SEGMENTS] },
  };
  const scene = sceneOf([instance(BODY), instance("Graft", BODY)], [dial(MORPH, 0.7)]);
  const decoded = await withContentFiles(
    [[BODY_FILE, body()], [fileOf("Graft"), graft]],
    (root) => decodeJson(scene, "grafted.duf", [root]),
  );
  assert.equal(decoded.scene.getRoot().listMeshes().length, 1, "the graft is merged into the body");
  // Every body vertex (the welded corners among them) by the body's own delta; the apex by the swell
  // at its nearest point, the quad's centre.
  const expected = [
    ...bodyTube.vertices.map((rest, v) => ({ rest, delta: swell(bodyTube.angles[v], bodyTube.heights[v]) })),
    { rest: apex, delta: swell(angle, centre[1]) },
  ];
  const error = worstError(decoded.scene, BODY, expected, 0.7, false);
  console.log(`merged graft, worst error (cm): ${error}`);
  assert.ok(error < facetTolerance(1, 1, 0.7), `${error} cm`);
  assert.ok(
    decoded.warnings.some((w) =>
      /Graft\.dsf .*projected from the body.*: FBMHeavy 0\.7 \(5 vertices\)$/.test(w)
    ),
    decoded.warnings.join("\n"),
  );
});
