/**
 * Daz's auto-follow by projection: a body's dialled auto_follow morph that a fitted item has no morph
 * of is projected onto the item, each item vertex following the body's surface nearest it. The body
 * is a code-made open cylinder whose FBMHeavy swells it radially by a known amount; the garments
 * are coaxial tubes around it (or one far off), with other vertex counts and angles than the body's.
 * Every expected delta is worked out here from the swell's formula at the garment vertex's nearest
 * point of the ideal cylinder, not from the decoder.
 */
import assert from "node:assert/strict";
import { shapePreset } from "./generate.ts";
import { applyPreset, decodeJson, withContentFiles } from "./dson_runs.ts";
import {
  BODY,
  body,
  BODY_FILE,
  facetTolerance,
  figureFile,
  fileOf,
  H,
  instance,
  MORPH,
  R,
  SEGMENTS,
  swell,
  tube,
  worstError,
} from "./swell_body.ts";
import {
  nearestSurface,
  projectDeltas,
  SMOOTH_RATIO,
} from "../../../../nodes/decode/dson/codec/nearest_surface.ts";

Deno.test("dson auto_project: a body's swell the garments lack moves them by the swell at their nearest body point", async () => {
  // A shirt 1.5 cm out (full follow), a cape 7.5 cm out (half: the fade runs 5 → 10 cm), a prop tube
  // 40 cm off the axis (19 cm or more from the body: does not move). Rows stay off the body's open ends.
  const ys = Array.from({ length: 21 }, (_, j) => 2.3 + j * 1.7);
  const shirt = tube(R + 1.5, 70, ys, 0.37);
  const cape = tube(R + 7.5, 50, ys, 0.11);
  const prop = tube(11, 24, ys, 0, 40);
  // The ideal cylinder's nearest point to a coaxial vertex is at its angle and height.
  const expect = (t: ReturnType<typeof tube>, follow: number) =>
    t.vertices.map((rest, v) => ({ rest, delta: swell(t.angles[v], t.heights[v]).map((c) => follow * c) }));
  const scene = {
    file_version: "0.6.1.0",
    asset_info: { id: "/scenes/dressed.duf", type: "scene" },
    scene: {
      nodes: [instance(BODY), instance("Shirt", BODY), instance("Cape", BODY), instance("Prop", BODY)],
      modifiers: [{
        id: `${MORPH}-1`,
        url: `${encodeURI(BODY_FILE)}#${MORPH}`,
        parent: `#${BODY}_geo-1`,
        channel: { id: "value", current_value: 0.7 },
      }],
    },
  };
  const files = [
    [BODY_FILE, body()] as const,
    [fileOf("Shirt"), figureFile("Shirt", shirt, [])] as const,
    [fileOf("Cape"), figureFile("Cape", cape, [])] as const,
    [fileOf("Prop"), figureFile("Prop", prop, [])] as const,
  ];
  const { decoded, shaped } = await withContentFiles(files, async (root) => {
    const decoded = await decodeJson(scene, "dressed.duf", [root]);
    return { decoded, shaped: await applyPreset(decoded.scene, shapePreset([[MORPH, 0.3]])) };
  });
  const errors = {
    shirt: worstError(decoded.scene, "Shirt", expect(shirt, 1), 0.7),
    cape: worstError(decoded.scene, "Cape", expect(cape, 0.5), 0.7),
    prop: worstError(decoded.scene, "Prop", expect(prop, 0), 0.7),
    shirtPreset: worstError(shaped.scene, "Shirt", expect(shirt, 1), 0.3),
  };
  console.log(`worst error (cm) vs the swell's formula: ${JSON.stringify(errors)}`);
  // The body's facets against the ideal cylinder bound the error: see facetTolerance.
  const tolerance = {
    shirt: facetTolerance(1.5, 1, 0.7),
    cape: facetTolerance(7.5, 0.5, 0.7),
    prop: 1e-4,
    shirtPreset: facetTolerance(1.5, 1, 0.3),
  };
  console.log(`tolerances (cm): ${JSON.stringify(tolerance)}`);
  for (const [what, error] of Object.entries(errors)) {
    assert.ok(error < tolerance[what as keyof typeof tolerance], `${what}: ${error} cm`);
  }
  // The swell is 0.7 · 2 cm at mid-height: an item left unmoved would be off by 1.4 cm.
  assert.ok(worstError(decoded.scene, "Shirt", expect(shirt, 0), 0.7) > 1.3);
  // One warning per item, naming the morph and how many vertices it moves.
  const said = decoded.warnings.filter((w) => /projected from the body/.test(w));
  assert.equal(said.length, 3, decoded.warnings.join("\n"));
  assert.ok(
    said.some((w) => /Shirt\.dsf .*'Genesis9-1'.*: FBMHeavy 0\.7 \(1470 vertices\)$/.test(w)),
    said.join("\n"),
  );
  assert.ok(said.some((w) => /Cape\.dsf .*: FBMHeavy 0\.7 \(1050 vertices\)$/.test(w)), said.join("\n"));
  assert.ok(said.some((w) => /Prop\.dsf .*: FBMHeavy 0\.7 \(0 vertices\)$/.test(w)), said.join("\n"));
  assert.equal(decoded.warnings.length, 3, decoded.warnings.join("\n"));
});

Deno.test("dson auto_project: not dialled, nothing is projected or said; the grid search scales to a Genesis-sized body", async () => {
  const t = tube(R + 1, 30, [5, 10, 15]);
  const quiet = await withContentFiles(
    [[BODY_FILE, body()], [fileOf("Shirt"), figureFile("Shirt", t, [])]],
    (root) =>
      decodeJson(
        {
          file_version: "0.6.1.0",
          asset_info: { id: "/scenes/still.duf", type: "scene" },
          scene: { nodes: [instance(BODY), instance("Shirt", BODY)] },
        },
        "still.duf",
        [root],
      ),
  );
  assert.deepEqual(quiet.warnings, []);
  assert.equal(
    quiet.scene.getRoot().listMeshes().find((m) => m.getName().startsWith("Shirt"))!.getWeights().length,
    0,
  );
  // ~20k body vertices (200 around, 100 rows over 170 cm, radius 15) and a 10k-vertex garment 1 cm out.
  const [r, h] = [15, 170];
  const big = tube(r, 200, Array.from({ length: 100 }, (_, j) => (j * h) / 99));
  const garment = tube(r + 1, 125, Array.from({ length: 80 }, (_, j) => 3 + j * 2), 0.013);
  const flat = (v: number[][]) => Float64Array.from(v.flat());
  const bodyDelta = big.vertices.map((_, v) =>
    [0, 1, 2].map((c) =>
      (c === 1 ? 0 : 1) * (c === 0 ? Math.cos(big.angles[v]) : Math.sin(big.angles[v])) *
      Math.sin(Math.PI * big.heights[v] / h)
    )
  );
  const start = performance.now();
  const hits = nearestSurface(
    {
      positions: flat(big.vertices),
      vertexCount: big.vertices.length,
      polyVerts: Int32Array.from(big.polys.flatMap((p) => p.slice(2))),
      polyCount: big.polys.length,
    },
    flat(garment.vertices),
  );
  assert.ok(hits);
  const projected = projectDeltas(hits, {
    index: Int32Array.from(big.vertices.keys()),
    delta: flat(bodyDelta),
  }, big.vertices.length);
  const ms = performance.now() - start;
  let worst = 0;
  projected.index.forEach((v, k) => {
    const a = garment.angles[v], y = garment.heights[v];
    const e = [Math.cos(a), 0, Math.sin(a)].map((c) => c * Math.sin(Math.PI * y / h));
    for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(projected.delta[k * 3 + c] - e[c]));
  });
  console.log(
    `${big.vertices.length}-vertex body, ${garment.vertices.length}-vertex garment: ${
      ms.toFixed(0)
    } ms, ${hits.tests} triangle tests, worst error ${worst.toExponential(2)} of a unit swell`,
  );
  assert.equal(projected.index.length, garment.vertices.length);
  assert.ok(worst < 0.005, `worst ${worst}`);
  // A tight budget stops the search (the caller then warns and projects nothing).
  assert.equal(
    nearestSurface(
      {
        positions: flat(big.vertices),
        vertexCount: big.vertices.length,
        polyVerts: Int32Array.from(big.polys.flatMap((p) => p.slice(2))),
        polyCount: big.polys.length,
      },
      flat(garment.vertices),
      1000,
    ),
    undefined,
  );
});

Deno.test("dson auto_project: the projection smooths the skin's fine detail a garment off the skin does not take", () => {
  // A body morph of the smooth swell plus a skin-scale ripple (0.15 cm, 1 cm wavelength along the
  // height; rows 0.25 cm apart to carry it); the truth for garments 1.5 and 7.5 cm out is the swell
  // alone at their nearest point (times the fade), as a garment modelled off the skin does not
  // follow its wrinkles. One 0.3 cm out may follow them: it is checked only to stay near the truth.
  const body = tube(R, SEGMENTS, Array.from({ length: 161 }, (_, j) => (j * H) / 160));
  const flat = (v: number[][]) => Float64Array.from(v.flat());
  const surface = {
    positions: flat(body.vertices),
    vertexCount: body.vertices.length,
    polyVerts: Int32Array.from(body.polys.flatMap((p) => p.slice(2))),
    polyCount: body.polys.length,
  };
  const ripple = (y: number) => 0.15 * Math.sin(2 * Math.PI * y);
  const morph = {
    index: Int32Array.from(body.vertices.keys()),
    delta: Float64Array.from(body.vertices.flatMap((_, v) => {
      const [a, y] = [body.angles[v], body.heights[v]];
      return swell(a, y).map((c, k) => c + [Math.cos(a), 0, Math.sin(a)][k] * ripple(y));
    })),
  };
  const worst = (offset: number, smooth: number) => {
    const garment = tube(R + offset, 36, Array.from({ length: 30 }, (_, j) => 9.13 + j * 0.73), 0.37);
    const fade = offset <= 5 ? 1 : (10 - offset) / 5;
    const hits = nearestSurface(surface, flat(garment.vertices), undefined, smooth)!;
    const projected = projectDeltas(hits, morph, body.vertices.length);
    let error = 0;
    projected.index.forEach((v, k) => {
      const truth = swell(garment.angles[v], garment.heights[v]);
      for (let c = 0; c < 3; c++) {
        error = Math.max(error, Math.abs(projected.delta[k * 3 + c] - fade * truth[c]));
      }
    });
    return error;
  };
  const errors = Object.fromEntries([0.3, 1.5, 7.5].map((offset) => [offset, {
    nearest: worst(offset, 0),
    smoothed: worst(offset, SMOOTH_RATIO),
  }]));
  console.log(`rippled skin vs the smooth truth, worst error (cm): ${JSON.stringify(errors)}`);
  // The nearest point alone carries the ripple (0.15 cm) onto the shirt; smoothing takes most of it out.
  assert.ok(errors[1.5].nearest > 0.1, `${errors[1.5].nearest}`);
  assert.ok(errors[1.5].smoothed < errors[1.5].nearest / 5, `${errors[1.5].smoothed}`);
  assert.ok(errors[7.5].smoothed < errors[7.5].nearest / 2, `${errors[7.5].smoothed}`);
  assert.ok(errors[0.3].smoothed <= errors[0.3].nearest + 0.01, `${errors[0.3].smoothed}`);
});
