/**
 * Polygons of more than four corners and degenerate ones (`ngon_habits.ts`): each polygon is drawn
 * covering exactly its own area (summed triangle areas against the shoelace area of its outline;
 * a fan over a notch would cover more), wound as written, on its surface, with its seam override's UV
 * on the right corners; a polygon with fewer than three distinct vertices is not drawn; each kind of
 * repair is one warning per geometry naming the count. Before decode.dson v41 every file with a
 * polygon of more than four corners was refused (a DecodeError: 40 of 40 generated files, seeds 1-40,
 * and 40 of 40 held out, 3001-3040) and degenerate polygons were drawn as zero-area slivers without a
 * word; now 0 of 40 and 0 of 40.
 */
import assert from "node:assert/strict";
import { decodeJson, sweepSeeds, type Verdict, withContentFiles } from "./dson_runs.ts";
import { type NgonCase, ngonCase } from "./ngon_habits.ts";
import { BODY, body, BODY_FILE, fileOf, graftPatch, instance } from "./swell_body.ts";
import { generateFigure, type Json } from "./generate.ts";
import type { Document } from "@gltf-transform/core";

/** What is wrong with the decode of `c` (and whether a warning names it), or undefined. */
async function judge(c: NgonCase): Promise<Verdict> {
  let run;
  try {
    run = await decodeJson(c.json, "Prop.dsf");
  } catch (error) {
    return { wrong: `refused: ${(error as Error).message.slice(0, 120)}`, warned: true };
  }
  const { scene, warnings } = run;
  const owner = new Int32Array(c.vertexCount).fill(-1);
  c.polygons.forEach((polygon, p) => polygon.corners.forEach((v) => (owner[v] = p)));
  const area = new Float64Array(c.polygons.length);
  const surfaces = ["Wood", "Metal"];
  const said = (pattern: string) => warnings.some((w) => w.includes(pattern));
  const degenerateSaid = said(`${c.degenerate} polygon(s) of geometry 'Prop_geo' have fewer than three`);
  for (const primitive of scene.getRoot().listMeshes().flatMap((m) => m.listPrimitives())) {
    const surface = surfaces.indexOf(primitive.getMaterial()?.getName() ?? "");
    const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
    const uv = primitive.getAttribute("TEXCOORD_0")!.getArray()!;
    const indices = primitive.getIndices()!.getArray()!;
    for (let t = 0; t < indices.length; t += 3) {
      const corners = [indices[t], indices[t + 1], indices[t + 2]];
      const p = owner[ids[corners[0]]];
      if (corners.some((i) => owner[ids[i]] !== p)) {
        return { wrong: "a triangle joins two polygons", warned: false };
      }
      const polygon = c.polygons[p];
      if (polygon.surface !== surface) return { wrong: `polygon ${p} on another surface`, warned: false };
      // The file's own positions (float64): the glTF's are float32.
      const [a, b, d] = corners.map((i) => c.vertices[ids[i]]);
      const e1 = [0, 1, 2].map((k) => b[k] - a[k]), e2 = [0, 1, 2].map((k) => d[k] - a[k]);
      const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      const twice = Math.hypot(...n);
      if (polygon.area === 0 || twice < 1e-9) {
        return { wrong: `polygon ${p} (${polygon.kind}) drawn as a sliver`, warned: degenerateSaid };
      }
      if (n.reduce((sum, x, k) => sum + x * polygon.normal[k], 0) <= 0) {
        return { wrong: `polygon ${p} (${polygon.kind}) has a triangle wound backwards`, warned: false };
      }
      area[p] += twice / 2;
      for (const i of corners) {
        const v = ids[i];
        const want = polygon.seam?.vertex === v ? polygon.seam.uv : undefined;
        if (want && (Math.abs(uv[i * 2] - want[0]) > 1e-6 || Math.abs(1 - uv[i * 2 + 1] - want[1]) > 1e-6)) {
          return {
            wrong: `polygon ${p} (${polygon.kind}): its seam override is not on vertex ${v}`,
            warned: false,
          };
        }
      }
    }
  }
  for (const [p, polygon] of c.polygons.entries()) {
    if (Math.abs(area[p] - polygon.area) > 1e-6 * Math.max(1, polygon.area)) {
      return {
        wrong: `polygon ${p} (${polygon.kind}) covers ${area[p]} cm², not ${polygon.area}`,
        warned: false,
      };
    }
  }
  if (c.ngons && !said(`${c.ngons} polygon(s) of geometry 'Prop_geo' have more than the four corners`)) {
    return { wrong: `no warning counts the ${c.ngons} polygons cut into triangles`, warned: false };
  }
  if (c.degenerate && !degenerateSaid) {
    return { wrong: `no warning counts the ${c.degenerate} degenerate polygons`, warned: false };
  }
  if (warnings.length > (c.ngons ? 1 : 0) + (c.degenerate ? 1 : 0)) {
    return { wrong: `warnings past the two kinds: ${warnings.join(" | ")}`, warned: true };
  }
  return undefined;
}

Deno.test("dson n-gons, seeds 1-40: cut into triangles covering each polygon exactly; degenerate ones dropped; warned once each", async () => {
  await sweepSeeds(1, 40, "dson n-gons, seeds 1-40", ngonCase, judge);
});

Deno.test("dson n-gons, held-out seeds 3001-3040: the same", async () => {
  await sweepSeeds(3001, 3040, "dson n-gons, held-out seeds 3001-3040", ngonCase, judge);
});

/** How often each triangle of the mesh named `name…` is drawn, keyed by its sorted DSON vertices `a,b,c`. */
function triangles(scene: Document, name: string): Map<string, number> {
  const out = new Map<string, number>();
  const mesh = scene.getRoot().listMeshes().find((m) => m.getName().startsWith(name))!;
  for (const primitive of mesh.listPrimitives()) {
    const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
    const indices = primitive.getIndices()!.getArray()!;
    for (let t = 0; t < indices.length; t += 3) {
      const key = [ids[indices[t]], ids[indices[t + 1]], ids[indices[t + 2]]].sort((a, b) => a - b).join();
      out.set(key, (out.get(key) ?? 0) + 1);
    }
  }
  return out;
}

Deno.test("dson n-gons: a graft's hidden polygons are the target file's, past a polygon cut into triangles", async () => {
  // The body's first two quads written as one hexagon (the file's polygons after it shift by one);
  // the patch hides four quads further on by the file's numbers. Against the same scene with the
  // body as Daz writes it: the same triangles drawn, but for the hexagon's.
  const decodePatched = async (hexagon: boolean) => {
    const figure = body();
    const geometry = (figure.geometry_library as Json[])[0];
    const polys = (geometry.polylist as Json).values as number[][];
    const [q0, q1] = polys;
    const outline = [q0[2], q0[3], q1[3], q1[4], q0[4], q0[5]];
    if (hexagon) polys.splice(0, 2, [0, 0, ...outline]);
    (geometry.polylist as Json).count = polys.length;
    const { file } = graftPatch(18, 30, 2, (g) => {
      if (hexagon) g.hidden.splice(0, g.hidden.length, ...g.hidden.map((h) => h - 1));
    });
    ((file.geometry_library as Json[])[0].graft as Json).poly_count = polys.length;
    const scene = {
      file_version: "0.6.1.0",
      asset_info: { id: "/scenes/patched.duf", type: "scene" },
      scene: { nodes: [instance(BODY), instance("Patch", BODY)] },
    };
    const run = await withContentFiles(
      [[BODY_FILE, figure], [fileOf("Patch"), file]],
      (root) => decodeJson(scene, "patched.duf", [root]),
    );
    const drawn = triangles(run.scene, BODY);
    const inHexagon = [...drawn.keys()].filter((t) => t.split(",").every((v) => outline.includes(+v)));
    for (const t of inHexagon) drawn.delete(t);
    return { run, drawn, inHexagon };
  };
  const plain = await decodePatched(false), cut = await decodePatched(true);
  assert.deepEqual(plain.run.warnings, []);
  assert.equal(cut.run.warnings.length, 1, cut.run.warnings.join("\n"));
  assert.match(
    cut.run.warnings[0],
    /1 polygon\(s\) of geometry 'Genesis9_geo' have more than the four corners/,
  );
  assert.ok(!cut.run.scene.getRoot().listMeshes().some((m) => m.getName().startsWith("Patch")), "merged");
  assert.deepEqual(cut.drawn, plain.drawn);
  assert.equal(cut.inHexagon.length, 4, "the hexagon drawn whole: 4 triangles");
  assert.ok(cut.drawn.size > 7000, `${cut.drawn.size} triangles compared`);
});

Deno.test("dson n-gons: a figure's degenerate polygon is dropped with one warning naming it (was drawn as a sliver, silently)", async () => {
  const json = generateFigure({ side: 4, bones: 1 });
  const geometry = (json.geometry_library as Json[])[0];
  const polys = (geometry.polylist as Json).values as number[][];
  polys.push([0, 0, 5, 5, 6], [0, 0, 1, 2, 2, 1]);
  (geometry.polylist as Json).count = polys.length;
  const { scene, warnings } = await decodeJson(json, "gen.duf");
  assert.deepEqual(warnings, [
    `dson: gen.duf at /geometry_library/0/polylist/values/${polys.length - 2}: 2 polygon(s) of geometry ` +
    "'gen_figure_geo' have fewer than three distinct vertices (the first, polygon 12: [5, 5, 6]); they cover nothing and are dropped",
  ]);
  // 9 cells: 6 quads and 3 pairs of triangles, 18 triangles; none of the two slivers.
  assert.equal([...triangles(scene, "gen_figure").values()].reduce((a, b) => a + b, 0), 18);
});
