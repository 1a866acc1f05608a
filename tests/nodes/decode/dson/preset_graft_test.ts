/**
 * Projection by a preset onto several geografts merged into one body, some of which bring their
 * own morph of the body morph's name: each graft lacking it takes it by projection, each having it
 * keeps its own. The truth is decoding the morph dialled (the decode projects onto each graft before
 * merging) and the morphs' formulas: the body's swell at the apex's nearest body point for the
 * graft lacking it, its own lift for the other (`swell_body.ts`).
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Document } from "@gltf-transform/core";
import type { JsonValue } from "../../../../runtime/node.ts";
import { copyScene } from "../../../../runtime/scene/copy.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { nearestSurface, projectDeltas } from "../../../../nodes/decode/dson/codec/nearest_surface.ts";
import { packIndices, unpackIndices } from "../../../../nodes/decode/dson/codec/packed_ints.ts";
import { shapePreset } from "./generate.ts";
import { applyPreset, decodeJson, withContentFiles } from "./dson_runs.ts";
import {
  BODY,
  body,
  BODY_FILE,
  bodyTube,
  drawn,
  facetTolerance,
  figureFile,
  fileOf,
  graftPatch,
  instance,
  MORPH,
  R,
  SEGMENTS,
  swell,
  tube,
  worstError,
} from "./swell_body.ts";

/** The graft's own FBMHeavy lifts its apex 0.5 cm (not the body's swell). */
const LIFT = [0, 0.5, 0];

/** A pyramid over the body's quad at `row`, `segment`: corners welded, apex 1 cm out, quad hidden. */
function pyramid(figure: string, row: number, segment: number, ownMorph: boolean) {
  const a = row * SEGMENTS + segment, b = a + 1;
  const corners = [a, b, b + SEGMENTS, a + SEGMENTS];
  const centre = [0, 1, 2].map((c) => corners.reduce((sum, v) => sum + bodyTube.vertices[v][c], 0) / 4);
  const angle = Math.atan2(centre[2], centre[0]), out = Math.hypot(centre[0], centre[2]) + 1;
  const apex = [out * Math.cos(angle), centre[1], out * Math.sin(angle)];
  const morphs = ownMorph
    ? [{
      id: MORPH,
      name: MORPH,
      parent: `#${figure}_geo`,
      channel: { id: "value", type: "float", value: 0, min: 0, max: 1, clamped: true, auto_follow: true },
      morph: { vertex_count: 5, deltas: { count: 1, values: [[4, ...LIFT]] } },
    }]
    : [];
  const file = figureFile(figure, {
    vertices: [...corners.map((v) => bodyTube.vertices[v]), apex],
    polys: [[0, 0, 0, 1, 4], [0, 0, 1, 2, 4], [0, 0, 2, 3, 4], [0, 0, 3, 0, 4]],
  }, morphs);
  (file.geometry_library as Record<string, unknown>[])[0].graft = {
    vertex_count: bodyTube.vertices.length,
    poly_count: bodyTube.polys.length,
    vertex_pairs: { count: 4, values: corners.map((v, k) => [k, v]) },
    hidden_polys: { count: 1, values: [row * SEGMENTS + segment] },
  };
  return { file, apex, delta: ownMorph ? LIFT : swell(angle, centre[1]) };
}

function sceneOf(nodes: unknown[], dial: number) {
  return {
    file_version: "0.6.1.0",
    asset_info: { id: "/scenes/grafted.duf", type: "scene" },
    scene: {
      nodes,
      modifiers: dial
        ? [{
          id: `${MORPH}-1`,
          url: `${encodeURI(BODY_FILE)}#${MORPH}`,
          parent: `#${BODY}_geo-1`,
          channel: { id: "value", current_value: dial },
        }]
        : [],
    },
  };
}

/** The largest distance (cm) between where two scenes draw `figure`'s vertices. */
function gap(a: Document, b: Document, figure: string): number {
  const [x, y] = [drawn(a, figure), drawn(b, figure)];
  assert.equal(x.length, y.length, `${figure}: the same vertices`);
  let worst = 0;
  x.forEach((v, i) => {
    for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(v.moved[c] - y[i].moved[c]) * 100);
  });
  return worst;
}

Deno.test("dson preset projection: of two merged geografts only the one lacking the body's morph takes it; the other keeps its own", async () => {
  const own = pyramid("GraftA", 20, 0, true);
  const lacking = pyramid("GraftB", 10, 40, false);
  const nodes = [instance(BODY), instance("GraftA", BODY), instance("GraftB", BODY)];
  const files = [
    [BODY_FILE, body()] as const,
    [fileOf("GraftA"), own.file] as const,
    [fileOf("GraftB"), lacking.file] as const,
  ];
  const runs = await withContentFiles(files, async (root) => {
    const still = await decodeJson(sceneOf(nodes, 0), "grafted.duf", [root]);
    const dialled = await decodeJson(sceneOf(nodes, 0.7), "grafted.duf", [root]);
    // As decode.dson v30 wrote it: no graft ranges, no `grafts` on the morph records.
    const older = copyScene(still.scene);
    const mesh = older.getRoot().listMeshes()[0];
    const dson = getPartgraphExtras(mesh).dson as Record<string, JsonValue> & { morphs: JsonValue[] };
    mesh.setExtras({
      ...mesh.getExtras(),
      partgraph: {
        dson: {
          ...dson,
          graft_body: { vertex_count: bodyTube.vertices.length, hidden_poly_verts: [] },
          morphs: dson.morphs.map((m) => {
            const { grafts: _, ...rest } = m as Record<string, JsonValue>;
            return rest;
          }),
        },
      },
    });
    return {
      still,
      dialled,
      shaped: await applyPreset(still.scene, shapePreset([[MORPH, 0.7]])),
      olderShaped: await applyPreset(older, shapePreset([[MORPH, 0.7]])),
    };
  });
  const { still, dialled, shaped, olderShaped } = runs;
  const records = getPartgraphExtras(still.scene.getRoot().listMeshes()[0]).dson as {
    morphs: { id: string; grafts?: number[] }[];
    graft_body: { graft_ends: number[]; hidden_poly_verts_packed: string };
  };
  assert.deepEqual(records.morphs.map((m) => [m.id, m.grafts]), [[MORPH, undefined], [MORPH, [0]]]);
  const n = bodyTube.vertices.length;
  assert.deepEqual(records.graft_body.graft_ends, [n + 1, n + 2], "each graft brings its apex");
  assert.equal(typeof records.graft_body.hidden_poly_verts_packed, "string");
  const expected = [
    ...bodyTube.vertices.map((rest, v) => ({ rest, delta: swell(bodyTube.angles[v], bodyTube.heights[v]) })),
    { rest: own.apex, delta: own.delta },
    { rest: lacking.apex, delta: lacking.delta },
  ];
  const agree = gap(dialled.scene, shaped.scene, BODY);
  const formula = worstError(shaped.scene, BODY, expected, 0.7, false);
  console.log(
    `two grafts, one with its own morph: preset vs decode-time ${agree} cm; vs the formulas ${formula} cm`,
  );
  assert.ok(worstError(dialled.scene, BODY, expected, 0.7, false) < facetTolerance(1, 1, 0.7), "the decode");
  assert.ok(agree < 1e-4, `${agree} cm`);
  assert.ok(formula < facetTolerance(1, 1, 0.7), `${formula} cm`);
  assert.equal(shaped.warnings.length, 1, shaped.warnings.join("\n"));
  assert.match(shaped.warnings[0], /geografts merged into 'Genesis9.*: FBMHeavy 0\.7 \(1 vertices\)$/);
  const added = (getPartgraphExtras(shaped.scene.getRoot().listMeshes()[0]).dson as {
    morphs: { id: string; grafts?: number[] }[];
  }).morphs;
  assert.deepEqual(added.map((m) => m.grafts), [undefined, [0], [1]], "projected onto graft 1 only");
  // A second preset on the result adds nothing more (graft 1 has it now) and re-drives it.
  const again = await applyPreset(shaped.scene, shapePreset([[MORPH, 0.7]]));
  assert.deepEqual(again.warnings, []);
  assert.ok(gap(again.scene, dialled.scene, BODY) < 1e-4);
  // Decoded before v31: which graft has it is unknown; said, not projected onto the one with its own.
  assert.equal(olderShaped.warnings.length, 1, olderShaped.warnings.join("\n"));
  assert.match(olderShaped.warnings[0], /decoded before decode\.dson v31.*: Genesis9[^ ]*\/FBMHeavy$/);
});

Deno.test("dson packed indices: polygon lists round-trip, large jumps and -1 included; malformed text is refused", () => {
  // A patch of quads on a 300-wide grid, triangles among them, and jumps up and down past 2^24.
  const list: number[] = [];
  for (let r = 0; r < 30; r++) {
    for (let c = 0; c < 40; c++) {
      const a = 5000 + r * 300 + c;
      list.push(a, a + 1, a + 301, (r + c) % 7 ? a + 300 : -1);
    }
  }
  list.push(2 ** 31 - 1, 0, -1, 2 ** 24 + 3, 7);
  const packed = packIndices(list);
  assert.deepEqual([...unpackIndices(packed)!], list);
  const asJson = JSON.stringify(list).length;
  console.log(`${list.length / 4} polygons: ${asJson} characters as a JSON list, ${packed.length} packed`);
  assert.ok(packed.length * 3 < asJson, `${packed.length} vs ${asJson}`); // 3.9 times measured
  assert.deepEqual([...unpackIndices("")!], []);
  assert.equal(unpackIndices("not base64!"), undefined);
  assert.equal(unpackIndices(Buffer.from([0x81]).toString("base64")), undefined, "a varint cut short");
  assert.equal(unpackIndices(Buffer.from([0x04]).toString("base64")), undefined, "below 0");
});

Deno.test("dson preset projection: a geograft over body vertices only the hidden polygons use follows as decoding it dialled", async () => {
  // A 3 x 3 patch of the body's quads replaced by a graft bulging 1 cm: its 12 border vertices
  // welded, its 4 inner ones over body vertices that no drawn polygon uses once the patch is hidden.
  const { file } = graftPatch(18, 30, 3);
  const nodes = [instance(BODY), instance("Patch", BODY)];
  const { dialled, shaped } = await withContentFiles(
    [[BODY_FILE, body()], [fileOf("Patch"), file]],
    async (root) => {
      const still = await decodeJson(sceneOf(nodes, 0), "patched.duf", [root]);
      const dialled = await decodeJson(sceneOf(nodes, 0.7), "patched.duf", [root]);
      return { dialled, shaped: await applyPreset(still.scene, shapePreset([[MORPH, 0.7]])) };
    },
  );
  const agree = gap(dialled.scene, shaped.scene, BODY);
  console.log(`a graft over hidden-only body vertices: preset vs decode-time ${agree} cm`);
  assert.ok(agree < 1e-4, `${agree} cm`);
  assert.match(shaped.warnings.join("\n"), /FBMHeavy 0\.7 \(4 vertices\)$/);
});

Deno.test("dson nearest surface: a vertex far off the skin lists each body corner once, the blend unchanged", () => {
  // A cape 7.5 cm out blends the triangles of a 1.9 cm band around its nearest point: each body
  // corner, which six triangles share, is one entry with their weights summed.
  const body = {
    positions: Float64Array.from(bodyTube.vertices.flat()),
    vertexCount: bodyTube.vertices.length,
    polyVerts: Int32Array.from(bodyTube.polys.flatMap((p) => p.slice(2))),
    polyCount: bodyTube.polys.length,
  };
  const cape = tube(R + 7.5, 50, [12, 20, 28], 0.11);
  const hits = nearestSurface(body, Float64Array.from(cape.vertices.flat()))!;
  let most = 0;
  for (let i = 0; i + 1 < hits.offsets.length; i++) {
    const list = [...hits.corners.subarray(hits.offsets[i], hits.offsets[i + 1])];
    assert.equal(new Set(list).size, list.length, `vertex ${i}: each corner once`);
    most = Math.max(most, list.length);
    const sum = [...hits.weights.subarray(hits.offsets[i], hits.offsets[i + 1])].reduce((a, b) => a + b, 0);
    // The fade at 7.5 cm, the faceted tube's flats up to R (1 − cos(π / 96)) = 0.0054 cm farther.
    assert.ok(
      Math.abs(sum - (10 - 7.5) / 5) < 0.0054 / 5 + 1e-9,
      `vertex ${i}: weights sum to the fade, ${sum}`,
    );
  }
  console.log(`cape vertex blends up to ${most} body corners; ${hits.corners.length} entries in all`);
  // The blend itself: the swell at the cape's height, as the projection tests check it.
  const morph = {
    index: Int32Array.from(bodyTube.vertices.keys()),
    delta: Float64Array.from(
      bodyTube.vertices.flatMap((_, v) => swell(bodyTube.angles[v], bodyTube.heights[v])),
    ),
  };
  const { delta } = projectDeltas(hits, morph, body.vertexCount);
  const expected = swell(cape.angles[0], cape.heights[0]).map((c) => c * 0.5);
  assert.ok(Math.hypot(...[0, 1, 2].map((c) => delta[c] - expected[c])) < 0.05, `${delta.slice(0, 3)}`);
});
