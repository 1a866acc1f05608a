/**
 * `polylist` entries of two corners (`line_habits.ts`: hair guides, wires, edge-only cages): each
 * face drawn covering exactly its own area, wound as written, on its surface, with its seam
 * override's UV on the right corner (the override counts the lines before its polygon); no line
 * drawn; one warning per geometry naming how many lines were dropped. Before decode.dson v42 every
 * such file was refused (a DecodeError for the whole scene).
 */
import assert from "node:assert/strict";
import { decodeJson, sweepSeeds, type Verdict } from "./dson_runs.ts";
import { type LineCase, lineCase } from "./line_habits.ts";

/** What is wrong with the decode of `c` (and whether a warning names it), or undefined. */
async function judge(c: LineCase): Promise<Verdict> {
  let run;
  try {
    run = await decodeJson(c.json, "Prop.dsf");
  } catch (error) {
    return { wrong: `refused: ${(error as Error).message.slice(0, 120)}`, warned: true };
  }
  const { scene, warnings } = run;
  const owner = new Map<number, number>();
  for (const [p, face] of c.faces) for (const v of face.corners) owner.set(v, p);
  const area = new Map<number, number>();
  const surfaces = ["Scalp", "Hair"];
  for (const primitive of scene.getRoot().listMeshes().flatMap((m) => m.listPrimitives())) {
    const surface = surfaces.indexOf(primitive.getMaterial()?.getName() ?? "");
    const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
    const uv = primitive.getAttribute("TEXCOORD_0")!.getArray()!;
    const indices = primitive.getIndices()!.getArray()!;
    for (let t = 0; t < indices.length; t += 3) {
      const corners = [indices[t], indices[t + 1], indices[t + 2]];
      const vs = corners.map((i) => ids[i]);
      if (vs.some((v) => c.lineVertices.has(v) && !owner.has(v))) {
        return { wrong: "a triangle drawn from a line's vertices", warned: false };
      }
      const p = owner.get(vs[0])!;
      if (vs.some((v) => owner.get(v) !== p)) return { wrong: "a triangle joins two faces", warned: false };
      const face = c.faces.get(p)!;
      if (face.surface !== surface) return { wrong: `face ${p} on another surface`, warned: false };
      const [a, b, d] = vs.map((v) => c.vertices[v]);
      const e1 = [0, 1, 2].map((k) => b[k] - a[k]), e2 = [0, 1, 2].map((k) => d[k] - a[k]);
      const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      if (n.reduce((sum, x, k) => sum + x * face.normal[k], 0) <= 0) {
        return { wrong: `face ${p} has a triangle wound backwards`, warned: false };
      }
      area.set(p, (area.get(p) ?? 0) + Math.hypot(...n) / 2);
      for (const i of corners) {
        const want = face.seam?.vertex === ids[i] ? face.seam.uv : undefined;
        if (want && (Math.abs(uv[i * 2] - want[0]) > 1e-6 || Math.abs(1 - uv[i * 2 + 1] - want[1]) > 1e-6)) {
          return { wrong: `face ${p}: its seam override is not on vertex ${ids[i]}`, warned: false };
        }
      }
    }
  }
  for (const [p, face] of c.faces) {
    const drawn = area.get(p) ?? 0;
    if (Math.abs(drawn - face.area) > 1e-6 * Math.max(1, face.area)) {
      return { wrong: `face ${p} covers ${drawn} cm², not ${face.area}`, warned: false };
    }
  }
  const named = warnings.filter((w) =>
    w.includes(`${c.lines} polylist entries of geometry 'Prop_geo' have two`)
  );
  if (named.length !== 1) return { wrong: `no one warning counts the ${c.lines} lines`, warned: false };
  const others = warnings.filter((w) => !named.includes(w));
  // Guides alone leave a geometry of no face: one more warning may say so, nothing else.
  if (others.length > (c.guidesOnly ? 1 : 0)) {
    return { wrong: `warnings past the lines': ${others.join(" | ")}`, warned: true };
  }
  return undefined;
}

Deno.test("dson lines, seeds 1-40: two-corner entries dropped with one warning per geometry; every face drawn", async () => {
  await sweepSeeds(1, 40, "dson lines, seeds 1-40", lineCase, judge);
});

Deno.test("dson lines, held-out seeds 6001-6040: the same", async () => {
  await sweepSeeds(6001, 6040, "dson lines, held-out seeds 6001-6040", lineCase, judge);
});

Deno.test("dson lines: the warning names the geometry, the count and the first line; an entry of one corner is refused", async () => {
  const c = lineCase(3);
  const { warnings } = await decodeJson(c.json, "Prop.dsf");
  const polys = ((c.json.geometry_library as Record<string, unknown>[])[0].polylist as { values: number[][] })
    .values;
  const first = polys.findIndex((p) => p.length === 4);
  assert.ok(
    warnings.some((w) =>
      w.includes(
        `/polylist/values/${first}: ${c.lines} polylist entries of geometry 'Prop_geo' have two corners`,
      ) &&
      w.includes(`the first, entry ${first}: [${polys[first].slice(2).join(", ")}]`)
    ),
    warnings.join("\n"),
  );
  // One corner is no line a tool writes: still a clear error naming the entry.
  polys.push([0, 0, 1]);
  await assert.rejects(() => decodeJson(c.json, "Prop.dsf"), /polylist\/values\/\d+/);
});
