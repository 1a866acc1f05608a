/**
 * Daz's auto-follow by projection: a body's dialled auto_follow morph that a fitted item has no morph
 * of is projected onto the item, each item vertex following the body's surface nearest it. The body
 * is a code-made open cylinder whose FBMHeavy swells it radially by a known amount; the garments
 * are coaxial tubes around it (or one far off), with other vertex counts and angles than the body's.
 * Every expected delta is worked out here from the swell's formula at the garment vertex's nearest
 * point of the ideal cylinder, not from the decoder.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { generateFigure, type Json, shapePreset } from "./generate.ts";
import { applyPreset, decodeJson, withContentFiles } from "./dson_runs.ts";
import { nearestSurface, projectDeltas } from "../../../../nodes/decode/dson/codec/nearest_surface.ts";

const BODY = "Genesis9";
const BODY_FILE = "/data/DAZ 3D/Genesis 9/Base/Genesis9.dsf";
const MORPH = "FBMHeavy";
const METRES_PER_CM = 0.01;
/** The body cylinder: radius and height (cm), segments around and rows of vertices. */
const R = 10, H = 40, SEGMENTS = 96, ROWS = 41;
/** The swell's largest radial push (cm), at mid-height. */
const SWELL = 2;

/** FBMHeavy's delta (cm) at angle `a` and height `y` of the body's surface. */
const swell = (a: number, y: number) => {
  const s = SWELL * Math.sin((Math.PI * y) / H);
  return [s * Math.cos(a), 0, s * Math.sin(a)];
};

/**
 * How far (cm) the faceted body's projection may be from the ideal cylinder's, for an item `offset`
 * cm out following `follow` of the swell at `weight`: the nearest point on a flat facet (96 around,
 * half-angle π/96) lies up to offset·π/96 along it from the radial one, where the swell's direction
 * turns by 1/R per cm; a facet's corners' blend falls short of the unit direction by up to
 * 1 - cos(π/96) ≈ (π/96)²/2; the sine's linear blend between rows errs by up to step²/8 times its
 * curvature (π/H)²; the fade (5 → 10 cm) sees the facet up to R(1 - cos(π/96)) nearer; plus float32.
 */
function facetTolerance(offset: number, follow: number, weight: number): number {
  const half = Math.PI / SEGMENTS, step = H / (ROWS - 1);
  const swellError = (offset * half) / R + half * half / 2 + (step * step / 8) * (Math.PI / H) ** 2;
  const fadeError = follow < 1 ? (R * (1 - Math.cos(half))) / 5 : 0;
  return weight * SWELL * (follow * swellError + fadeError) + 1e-4;
}

/** A tube's vertices (cm): `segments` around at radius `r` from `phase`, rows at `ys`, centred on `cx`. */
function tube(r: number, segments: number, ys: readonly number[], phase = 0, cx = 0) {
  const vertices: number[][] = [], angles: number[] = [], heights: number[] = [];
  for (const y of ys) {
    for (let s = 0; s < segments; s++) {
      const a = phase + (2 * Math.PI * s) / segments;
      vertices.push([cx + r * Math.cos(a), y, r * Math.sin(a)]);
      angles.push(a), heights.push(y);
    }
  }
  const polys: number[][] = [];
  for (let j = 0; j + 1 < ys.length; j++) {
    for (let s = 0; s < segments; s++) {
      const [a, b] = [j * segments + s, j * segments + ((s + 1) % segments)];
      polys.push([0, 0, a, b, b + segments, a + segments]);
    }
  }
  return { vertices, polys, angles, heights };
}

const fileOf = (figure: string) => (figure === BODY ? BODY_FILE : `/data/Items/${figure}.dsf`);

/** A figure file (no scene, skin or UVs) whose geometry is `mesh`, with `modifiers`. */
function figureFile(
  figure: string,
  mesh: { vertices: number[][]; polys: number[][] },
  modifiers: Json[],
): Json {
  const json = generateFigure({ side: 2, bones: 1, figureId: figure, assetId: fileOf(figure) });
  delete json.scene;
  delete json.uv_set_library;
  const geometry = (json.geometry_library as Json[])[0];
  delete geometry.default_uv_set;
  geometry.vertices = { count: mesh.vertices.length, values: mesh.vertices };
  geometry.polylist = { count: mesh.polys.length, values: mesh.polys };
  json.modifier_library = modifiers;
  return json;
}

/** The body tube with FBMHeavy (auto_follow) swelling every vertex. */
function body(): Json {
  const t = tube(R, SEGMENTS, Array.from({ length: ROWS }, (_, j) => (j * H) / (ROWS - 1)));
  const deltas = t.vertices.map((_, v) => [v, ...swell(t.angles[v], t.heights[v])]);
  return figureFile(BODY, t, [{
    id: MORPH,
    name: MORPH,
    parent: `#${BODY}_geo`,
    channel: { id: "value", type: "float", value: 0, min: 0, max: 1, clamped: true, auto_follow: true },
    morph: { vertex_count: t.vertices.length, deltas: { count: deltas.length, values: deltas } },
  }]);
}

function instance(figure: string, target?: string): Json {
  const url = encodeURI(fileOf(figure));
  return {
    id: `${figure}-1`,
    url: `${url}#${figure}`,
    ...(target ? { parent: `#${BODY}-1`, conform_target: `#${target}-1` } : {}),
    geometries: [{ id: `${figure}_geo-1`, url: `${url}#${figure}_geo` }],
  };
}

/** The mesh-space positions the viewer draws for `figure` (metres): base and each drawn base with its morphed one. */
function drawn(scene: Document, figure: string): { base: number[]; moved: number[] }[] {
  const mesh = scene.getRoot().listMeshes().find((m) => m.getName().startsWith(figure));
  assert.ok(mesh, `a mesh of ${figure}`);
  const weights = mesh.getWeights();
  return mesh.listPrimitives().flatMap((primitive) => {
    const position = primitive.getAttribute("POSITION")!;
    return Array.from({ length: position.getCount() }, (_, i) => {
      const base = position.getElement(i, [] as number[]);
      const moved = [...base];
      primitive.listTargets().forEach((target, t) => {
        const d = target.getAttribute("POSITION")!.getElement(i, [] as number[]);
        for (let c = 0; c < 3; c++) moved[c] += weights[t] * d[c];
      });
      return { base, moved };
    });
  });
}

/**
 * The largest distance (cm) between where `figure`'s vertices are drawn and where `expected` (each
 * of its vertices' rest position and delta, cm) puts them at `weight`; each drawn vertex is matched
 * to its rest position.
 */
function worstError(
  scene: Document,
  figure: string,
  expected: { rest: number[]; delta: number[] }[],
  weight: number,
) {
  let worst = 0;
  const got = drawn(scene, figure);
  assert.equal(got.length, expected.length, `${figure} draws each vertex once`);
  for (const { base, moved } of got) {
    const gap = (e: { rest: number[] }) =>
      Math.max(...e.rest.map((c, k) => Math.abs(c - base[k] / METRES_PER_CM)));
    const e = expected.reduce((a, b) => (gap(b) < gap(a) ? b : a));
    assert.ok(gap(e) < 1e-4, `${figure}: a drawn vertex ${base} is one of its rest vertices`);
    for (let c = 0; c < 3; c++) {
      worst = Math.max(worst, Math.abs(moved[c] / METRES_PER_CM - (e.rest[c] + weight * e.delta[c])));
    }
  }
  return worst;
}

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
