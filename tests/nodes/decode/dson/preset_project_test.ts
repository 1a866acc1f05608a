/**
 * Projection by a preset: a body's auto_follow morph at 0 when decoded, then dialled by
 * `dson.apply_preset`, is projected onto the fitted items lacking it, as Daz's auto-follow does.
 * The truth is the decode's own projection of the same morph dialled in the scene (decode at 0.7 vs
 * decode at 0 then a preset at 0.7), and the swell's formula at each garment vertex's nearest point
 * of the ideal cylinder (`swell_body.ts`), not the code under test.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import type { JsonValue } from "../../../../runtime/node.ts";
import { copyScene } from "../../../../runtime/scene/copy.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { halfController, shapePreset } from "./generate.ts";
import { applyPreset, decodeJson, withContentFiles } from "./dson_runs.ts";
import {
  BODY,
  body,
  BODY_FILE,
  drawn,
  facetTolerance,
  figureFile,
  fileOf,
  H,
  instance,
  MORPH,
  R,
  ROWS,
  SEGMENTS,
  swell,
  tube,
  worstError,
} from "./swell_body.ts";

/** A second auto_follow body morph: lifts the body by 1 cm, more at the top (y / H). */
const TALL = "FBMTall";
const lift = (y: number) => [0, y / H, 0];

function tallMorph() {
  const t = tube(R, SEGMENTS, Array.from({ length: ROWS }, (_, j) => (j * H) / (ROWS - 1)));
  const deltas = t.vertices.map((_, v) => [v, ...lift(t.heights[v])]);
  return {
    id: TALL,
    name: TALL,
    parent: `#${BODY}_geo`,
    channel: { id: "value", type: "float", value: 0, min: 0, max: 1, clamped: true, auto_follow: true },
    morph: { vertex_count: t.vertices.length, deltas: { count: deltas.length, values: deltas } },
  };
}

function sceneOf(nodes: unknown[], dials: [string, number][]) {
  return {
    file_version: "0.6.1.0",
    asset_info: { id: "/scenes/dressed.duf", type: "scene" },
    scene: {
      nodes,
      modifiers: dials.map(([id, value]) => ({
        id: `${id}-1`,
        url: `${encodeURI(BODY_FILE)}#${id}`,
        parent: `#${BODY}_geo-1`,
        channel: { id: "value", current_value: value },
      })),
    },
  };
}

/** The largest distance (cm) between where two scenes draw `figure`'s vertices. */
function gap(a: Document, b: Document, figure: string): number {
  const [x, y] = [drawn(a, figure), drawn(b, figure)];
  assert.equal(x.length, y.length, `${figure}: the same vertices`);
  let worst = 0;
  x.forEach((v, i) => {
    for (let c = 0; c < 3; c++) {
      assert.ok(Math.abs(v.base[c] - y[i].base[c]) < 1e-9, `${figure}: the same rest vertex`);
      worst = Math.max(worst, Math.abs(v.moved[c] - y[i].moved[c]) * 100);
    }
  });
  return worst;
}

const ys = Array.from({ length: 21 }, (_, j) => 2.3 + j * 1.7);
const shirt = tube(R + 1.5, 70, ys, 0.37);
const cape = tube(R + 7.5, 50, ys, 0.11);
const coat = tube(R + 1.5, SEGMENTS, ys, 0.2);
const belt = tube(R + 2.5, 40, ys.slice(8, 13), 0.05);
const files = [
  [BODY_FILE, body([tallMorph()])] as const,
  [fileOf("Shirt"), figureFile("Shirt", shirt, [])] as const,
  [fileOf("Cape"), figureFile("Cape", cape, [])] as const,
  [fileOf("Coat"), figureFile("Coat", coat, [])] as const,
  [fileOf("Belt"), figureFile("Belt", belt, [])] as const,
];
/** A belt fitted to the coat (a chain), both over the body, beside a shirt and a cape. */
const nodes = [
  instance(BODY),
  instance("Shirt", BODY),
  instance("Cape", BODY),
  instance("Coat", BODY),
  instance("Belt", "Coat"),
];
const items = ["Shirt", "Cape", "Coat", "Belt"];

Deno.test("dson preset projection: a preset dialling a body morph at 0 when decoded moves the fitted items as decoding it dialled does", async () => {
  const runs = await withContentFiles(files, async (root) => {
    const dialled = await decodeJson(sceneOf(nodes, [[MORPH, 0.7]]), "dressed.duf", [root]);
    const still = await decodeJson(sceneOf(nodes, []), "dressed.duf", [root]);
    await applyPreset(still.scene, shapePreset([[TALL, 0]])); // loads the node's code: not timed
    const start = performance.now();
    const shaped = await applyPreset(still.scene, shapePreset([[MORPH, 0.7]]));
    const ms = performance.now() - start;
    const second = performance.now();
    const repeat = await applyPreset(still.scene, shapePreset([[MORPH, 0.7]]));
    const repeatMs = performance.now() - second;
    const undone = await applyPreset(shaped.scene, shapePreset([[MORPH, 0]]));
    const again = await applyPreset(undone.scene, shapePreset([[MORPH, 0.3]]));
    const both = await decodeJson(sceneOf(nodes, [[MORPH, 0.7], [TALL, 0.5]]), "dressed.duf", [root]);
    const bothPreset = await applyPreset(still.scene, shapePreset([[MORPH, 0.7], [TALL, 0.5]]));
    return { dialled, still, shaped, repeat, undone, again, both, bothPreset, ms, repeatMs };
  });
  const { dialled, still, shaped, repeat, undone, again, both, bothPreset } = runs;
  // Decoded at 0 nothing is projected; the record is the morphs' auto_follow flag, no more.
  for (const item of items) assert.equal(meshOf(still.scene, item).getWeights().length, 0, item);
  const agree = Object.fromEntries(items.map((item) => [item, gap(dialled.scene, shaped.scene, item)]));
  const agreeBoth = Object.fromEntries(items.map((item) => [item, gap(both.scene, bothPreset.scene, item)]));
  console.log(
    `preset vs decode-time projection, worst gap (cm): ${JSON.stringify(agree)}; ` +
      `two morphs: ${JSON.stringify(agreeBoth)}; preset run ${
        runs.ms.toFixed(0)
      } ms, again on the same scene ` +
      `(searches reused) ${runs.repeatMs.toFixed(0)} ms`,
  );
  // The same preset on the same scene again gives the same scene.
  for (const item of items) assert.equal(gap(repeat.scene, shaped.scene, item), 0, item);
  for (const [item, g] of [...Object.entries(agree), ...Object.entries(agreeBoth)]) {
    assert.ok(g < 1e-4, `${item}: ${g} cm`);
  }
  // Against the swell's formula too (the decode's own bound), and the belt moves with the coat.
  const expect = (t: ReturnType<typeof tube>, follow: number) =>
    t.vertices.map((rest, v) => ({ rest, delta: swell(t.angles[v], t.heights[v]).map((c) => follow * c) }));
  const formula = {
    shirt: worstError(shaped.scene, "Shirt", expect(shirt, 1), 0.7),
    cape: worstError(shaped.scene, "Cape", expect(cape, 0.5), 0.7),
    // Two projections: the coat's facets on the body's, then the belt's on the coat's.
    belt: worstError(shaped.scene, "Belt", expect(belt, 1), 0.7),
  };
  console.log(`preset projection vs the swell's formula (cm): ${JSON.stringify(formula)}`);
  assert.ok(formula.shirt < facetTolerance(1.5, 1, 0.7), `shirt ${formula.shirt}`);
  assert.ok(formula.cape < facetTolerance(7.5, 0.5, 0.7), `cape ${formula.cape}`);
  assert.ok(formula.belt < facetTolerance(1.5, 1, 0.7) + facetTolerance(1, 1, 0.7), `belt ${formula.belt}`);
  // Left unprojected the shirt would be off by the swell, 0.7 · 2 cm at mid-height.
  assert.ok(worstError(shaped.scene, "Shirt", expect(shirt, 0), 0.7) > 1.3);
  // One warning per item, naming the morph and vertices; the record counts them.
  const said = shaped.warnings.filter((w) => /projected from the body/.test(w));
  assert.equal(said.length, 4, shaped.warnings.join("\n"));
  assert.ok(said.some((w) => /'Shirt.*FBMHeavy 0\.7 \(1470 vertices\)$/.test(w)), said.join("\n"));
  assert.ok(said.some((w) => /'Belt.*'Coat-1'.*FBMHeavy 0\.7 \(200 vertices\)$/.test(w)), said.join("\n"));
  assert.equal(shaped.warnings.length, 4, shaped.warnings.join("\n"));
  assert.equal(presets(shaped.scene).at(-1)!.projected_morphs, 4);
  // A preset at 0 undoes it: every item at rest, the targets kept (driven to 0), none added.
  for (const item of items) {
    const t = item === "Shirt" ? shirt : item === "Cape" ? cape : item === "Coat" ? coat : belt;
    // Float32 positions (metres) read back in cm: 1e-5 cm is their noise.
    assert.ok(worstError(undone.scene, item, expect(t, 0), 0) < 1e-5, item);
    assert.deepEqual(meshOf(undone.scene, item).getWeights(), [0], item);
  }
  assert.deepEqual(undone.warnings, []);
  // Dialled again, the same targets are re-driven, not projected twice.
  assert.ok(gap(again.scene, shaped.scene, "Shirt") > 0.5);
  assert.ok(worstError(again.scene, "Shirt", expect(shirt, 1), 0.3) < facetTolerance(1.5, 1, 0.3));
  assert.deepEqual(meshOf(again.scene, "Belt").getWeights(), [0.3]);
  assert.deepEqual(again.warnings, []);
  // Two morphs: each a target of its own on each item.
  assert.deepEqual(meshOf(bothPreset.scene, "Shirt").getWeights(), [0.7, 0.5]);
  assert.ok(gap(bothPreset.scene, shaped.scene, "Shirt") > 0.3, "the lift moves the shirt");
  // The input scene is left as it was.
  assert.equal(meshOf(still.scene, "Shirt").getWeights().length, 0);
  assert.equal(meshOf(still.scene, "Shirt").listPrimitives()[0].listTargets().length, 0);
});

Deno.test("dson preset projection: a controller the preset dials drives a body morph at 0 when decoded: projected at the driven value", async () => {
  const CTRL = "CTRLBodyShape";
  const dressed = [instance(BODY), instance("Shirt", BODY)];
  const withCtrl = [
    [BODY_FILE, body([halfController(BODY, BODY_FILE, CTRL, MORPH)])] as const,
    [fileOf("Shirt"), figureFile("Shirt", shirt, [])] as const,
  ];
  const { dialled, shaped } = await withContentFiles(withCtrl, async (root) => {
    const dialled = await decodeJson(sceneOf(dressed, [[CTRL, 1]]), "dressed.duf", [root]);
    const still = await decodeJson(sceneOf(dressed, []), "dressed.duf", [root]);
    return { dialled, shaped: await applyPreset(still.scene, shapePreset([[CTRL, 1]])) };
  });
  // FBMHeavy at 0 + 0.5 · 1 = 0.5 on the body; the shirt follows it.
  const g = gap(dialled.scene, shaped.scene, "Shirt");
  console.log(`controller-driven, preset vs decode-time projection: worst gap ${g} cm`);
  assert.ok(g < 1e-4, `${g} cm`);
  const expect = shirt.vertices.map((rest, v) => ({ rest, delta: swell(shirt.angles[v], shirt.heights[v]) }));
  assert.ok(worstError(shaped.scene, "Shirt", expect, 0.5) < facetTolerance(1.5, 1, 0.5));
  assert.ok(
    shaped.warnings.some((w) => /'Shirt.*: FBMHeavy 0\.5 \(1470 vertices\)$/.test(w)),
    shaped.warnings.join("\n"),
  );
});

Deno.test("dson preset projection: a merged geograft lacking the morph takes it from a preset as decoding it dialled does; re-driven; an older record warned", async () => {
  // A pyramid over the body's quad at row 20, segments 0-1 (as auto_project_graft_test.ts): four
  // corners welded to the quad's, the apex 1 cm out from the quad's centre; the quad is hidden.
  const bodyTube = tube(R, SEGMENTS, Array.from({ length: ROWS }, (_, j) => (j * H) / (ROWS - 1)));
  const row = 20, a = row * SEGMENTS, b = a + 1;
  const corners = [a, b, b + SEGMENTS, a + SEGMENTS];
  const centre = [0, 1, 2].map((c) => corners.reduce((sum, v) => sum + bodyTube.vertices[v][c], 0) / 4);
  const angle = Math.atan2(centre[2], centre[0]), out = Math.hypot(centre[0], centre[2]) + 1;
  const apex = [out * Math.cos(angle), centre[1], out * Math.sin(angle)];
  const graft = figureFile("Graft", {
    vertices: [...corners.map((v) => bodyTube.vertices[v]), apex],
    polys: [[0, 0, 0, 1, 4], [0, 0, 1, 2, 4], [0, 0, 2, 3, 4], [0, 0, 3, 0, 4]],
  }, []);
  (graft.geometry_library as Record<string, unknown>[])[0].graft = {
    vertex_count: bodyTube.vertices.length,
    poly_count: bodyTube.polys.length,
    vertex_pairs: { count: 4, values: corners.map((v, k) => [k, v]) },
    hidden_polys: { count: 1, values: [row * SEGMENTS] },
  };
  const grafted = [instance(BODY), instance("Graft", BODY)];
  const runs = await withContentFiles([[BODY_FILE, body()], [fileOf("Graft"), graft]], async (root) => {
    const still = await decodeJson(sceneOf(grafted, []), "grafted.duf", [root]);
    const dialled = await decodeJson(sceneOf(grafted, [[MORPH, 0.7]]), "grafted.duf", [root]);
    const low = await decodeJson(sceneOf(grafted, [[MORPH, 0.3]]), "grafted.duf", [root]);
    // A scene decoded before decode.dson v30: no record of the body's surface under the graft.
    const older = copyScene(still.scene);
    const mesh = older.getRoot().listMeshes()[0];
    const { graft_body: _, ...rest } = getPartgraphExtras(mesh).dson as Record<string, JsonValue>;
    mesh.setExtras({ ...mesh.getExtras(), partgraph: { dson: rest } });
    return {
      still,
      dialled,
      low,
      shaped: await applyPreset(still.scene, shapePreset([[MORPH, 0.7]])),
      redriven: await applyPreset(dialled.scene, shapePreset([[MORPH, 0.3]])),
      olderShaped: await applyPreset(older, shapePreset([[MORPH, 0.7]])),
    };
  });
  const { shaped, dialled, redriven, low, olderShaped } = runs;
  const expected = (apexFollows: number) => [
    ...bodyTube.vertices.map((rest, v) => ({ rest, delta: swell(bodyTube.angles[v], bodyTube.heights[v]) })),
    { rest: apex, delta: swell(angle, centre[1]).map((c) => c * apexFollows) },
  ];
  // The body, the welded corners and the apex as decoding it dialled: the apex by the swell at its
  // nearest point (the hidden quad's centre).
  const agree = gap(dialled.scene, shaped.scene, BODY);
  const formula = worstError(shaped.scene, BODY, expected(1), 0.7, false);
  console.log(
    `merged graft, preset vs decode-time projection: worst gap ${agree} cm; vs the formula ${formula} cm`,
  );
  assert.ok(agree < 1e-4, `${agree} cm`);
  assert.ok(formula < facetTolerance(1, 1, 0.7), `${formula} cm`);
  assert.ok(worstError(shaped.scene, BODY, expected(0), 0.7, false) > 1, "the apex moves");
  assert.equal(shaped.warnings.length, 1, shaped.warnings.join("\n"));
  assert.match(shaped.warnings[0], /geografts merged into 'Genesis9.*: FBMHeavy 0\.7 \(1 vertices\)$/);
  // Decoded dialled, the graft's projected morph is re-driven by the preset, as decoding at 0.3.
  const g = gap(redriven.scene, low.scene, BODY);
  console.log(`merged graft re-driven vs decoded at 0.3: worst gap ${g} cm`);
  assert.ok(g < 1e-4, `${g} cm`);
  assert.deepEqual(redriven.warnings, []);
  // Without the record: the apex stays, said.
  assert.ok(worstError(olderShaped.scene, BODY, expected(0), 0.7, false) < facetTolerance(1, 1, 0.7));
  assert.equal(olderShaped.warnings.length, 1, olderShaped.warnings.join("\n"));
  assert.match(olderShaped.warnings[0], /decoded before decode\.dson v31.*: Genesis9[^ ]*\/FBMHeavy$/);
});

function meshOf(scene: Document, figure: string) {
  const mesh = scene.getRoot().listMeshes().find((m) => m.getName().startsWith(figure));
  assert.ok(mesh, `a mesh of ${figure}`);
  return mesh;
}

function presets(scene: Document): Record<string, unknown>[] {
  const extras = scene.getRoot().listScenes()[0].getExtras() as {
    partgraph?: { dson?: { presets?: Record<string, unknown>[] } };
  };
  return extras.partgraph?.dson?.presets ?? [];
}

Deno.test("dson preset projection: a Genesis-sized body and garment agree with the decode's projection, the search reused", async () => {
  // ~20k body vertices (200 around, 100 rows over 170 cm, radius 15) and a 10k-vertex garment 1 cm out.
  const [r, h] = [15, 170];
  const big = tube(r, 200, Array.from({ length: 100 }, (_, j) => (j * h) / 99));
  const garment = tube(r + 1, 125, Array.from({ length: 80 }, (_, j) => 3 + j * 2), 0.013);
  const radial = (v: number) => Math.sin((Math.PI * big.heights[v]) / h);
  const deltas = big.vertices.map((_, v) => [
    v,
    Math.cos(big.angles[v]) * radial(v),
    0,
    Math.sin(big.angles[v]) * radial(v),
  ]);
  const bodyJson = figureFile(BODY, big, [{
    id: MORPH,
    name: MORPH,
    parent: `#${BODY}_geo`,
    channel: { id: "value", type: "float", value: 0, min: 0, max: 1, clamped: true, auto_follow: true },
    morph: { vertex_count: big.vertices.length, deltas: { count: deltas.length, values: deltas } },
  }]);
  const dressed = [instance(BODY), instance("Shirt", BODY)];
  const files = [
    [BODY_FILE, bodyJson] as const,
    [fileOf("Shirt"), figureFile("Shirt", garment, [])] as const,
  ];
  const t = await withContentFiles(files, async (root) => {
    let start = performance.now();
    const dialled = await decodeJson(sceneOf(dressed, [[MORPH, 0.8]]), "big.duf", [root]);
    const decodeMs = performance.now() - start;
    const still = await decodeJson(sceneOf(dressed, []), "big.duf", [root]);
    await applyPreset(still.scene, shapePreset([[MORPH, 0]])); // loads the node's code: not timed
    start = performance.now();
    const shaped = await applyPreset(still.scene, shapePreset([[MORPH, 0.8]]));
    const presetMs = performance.now() - start;
    start = performance.now();
    const again = await applyPreset(still.scene, shapePreset([[MORPH, 0.8]]));
    const againMs = performance.now() - start;
    return { dialled, shaped, again, decodeMs, presetMs, againMs };
  });
  const g = gap(t.dialled.scene, t.shaped.scene, "Shirt");
  console.log(
    `${big.vertices.length}-vertex body, ${garment.vertices.length}-vertex garment: decoded dialled ` +
      `${t.decodeMs.toFixed(0)} ms; preset ${t.presetMs.toFixed(0)} ms, again ${t.againMs.toFixed(0)} ms; ` +
      `worst gap to the decode's projection ${g} cm`,
  );
  assert.ok(g < 1e-4, `${g} cm`);
  assert.equal(gap(t.again.scene, t.shaped.scene, "Shirt"), 0);
  assert.ok(
    t.shaped.warnings.some((w) => /FBMHeavy 0\.8 \(10000 vertices\)$/.test(w)),
    t.shaped.warnings.join("\n"),
  );
});
