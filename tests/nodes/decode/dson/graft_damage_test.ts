/**
 * Geograft records with an index past the counts they must stay under, as damaged or hand-edited
 * files have them: a hidden polygon past the target's `poly_count`, a weld onto a target vertex past
 * its `vertex_count`, a weld of a graft vertex past the graft's own mesh. The graft is not merged
 * (welding by such an index would weld onto the wrong vertices), it stays a separate mesh with one
 * warning at the index, and the rest of the scene decodes as without it: the body whole.
 */
import assert from "node:assert/strict";
import { decodeJson, withContentFiles } from "./dson_runs.ts";
import { BODY, body, BODY_FILE, bodyTube, drawn, fileOf, graftPatch, instance } from "./swell_body.ts";
import type { Json } from "./generate.ts";
import type { Document } from "@gltf-transform/core";

/** The scene's unresolved references: [file, whether the path starts at its geometry library]. */
function unresolvedAt(scene: Document): [string, boolean][] {
  const dson = (scene.getRoot().listScenes()[0].getExtras().partgraph as Json).dson as Json;
  return (dson.unresolved as Json[]).map((u) => [
    String(u.file).endsWith(fileOf("Patch")) ? fileOf("Patch") : String(u.file),
    String(u.path).startsWith("/geometry_library/"),
  ]);
}

const SCENE = {
  file_version: "0.6.1.0",
  asset_info: { id: "/scenes/patched.duf", type: "scene" },
  scene: { nodes: [instance(BODY), instance("Patch", BODY)] },
};

Deno.test("dson grafts: a graft record with an index past its counts is not merged, warned at the index; the scene decodes", async () => {
  const cases: [string, (g: { pairs: number[][]; hidden: number[] }) => void, RegExp][] = [
    [
      "a hidden polygon past poly_count",
      (g) => g.hidden.push(bodyTube.polys.length + 3),
      /hidden_polys\/values\/4 \(its hidden_polys name polygon 3843, but the target's poly_count is 3840/,
    ],
    [
      "a weld onto a target vertex past vertex_count",
      (g) => (g.pairs[2][1] = bodyTube.vertices.length),
      /vertex_pairs\/values\/2\/1 \(its vertex_pairs weld onto target vertex 3936, but the target's vertex_count is 3936/,
    ],
    [
      "a weld of a graft vertex past the graft's mesh",
      (g) => g.pairs.push([9, 0]),
      /vertex_pairs\/values\/8\/0 \(its vertex_pairs weld graft vertex 9, but the graft's mesh has 9 vertices/,
    ],
  ];
  for (const [what, damage, said] of cases) {
    const { file, vertices } = graftPatch(18, 30, 2, damage);
    const run = await withContentFiles(
      [[BODY_FILE, body()], [fileOf("Patch"), file]],
      (root) => decodeJson(SCENE, "patched.duf", [root]),
    );
    assert.equal(run.warnings.length, 1, `${what}: ${run.warnings.join("\n")}`);
    assert.match(run.warnings[0], said, `${what}: ${run.warnings[0]}`);
    assert.match(
      run.warnings[0],
      /^dson: unresolved reference '#Genesis9-1': the graft record of 'Patch_geo' in \S*\/data\/Items\/Patch\.dsf is damaged at \/geometry_library\/0\/graft\/.* kept as a separate mesh$/,
      what,
    );
    // The path is in the graft's own figure file, so that is the file named (before v37: the scene).
    assert.deepEqual(unresolvedAt(run.scene), [[fileOf("Patch"), true]], what);
    // The body whole (every vertex drawn once, none hidden), the graft beside it with its own vertices.
    assert.equal(drawn(run.scene, BODY).length, bodyTube.vertices.length, what);
    assert.equal(drawn(run.scene, "Patch").length, vertices, what);
  }
});

Deno.test("dson grafts: a graft whose target is not loaded is warned at its own figure file's record, beside the target's warning", async () => {
  const { file } = graftPatch(18, 30, 2);
  // The graft fitted to a body the scene does not load (the user deleted it, or saved the item alone).
  const scene = { ...SCENE, scene: { nodes: [{ ...instance("Patch"), conform_target: "#Genesis9-1" }] } };
  const run = await withContentFiles(
    [[fileOf("Patch"), file]],
    (root) => decodeJson(scene, "patched.duf", [root]),
  );
  // Two warnings for one URI: the target's ('#Genesis9-1', which no node is) and the graft's, which
  // says what it costs (before v39 the second was swallowed by the first).
  assert.equal(run.warnings.length, 2, run.warnings.join("\n"));
  assert.match(run.warnings[0], /'#Genesis9-1': names no node of this scene/);
  assert.match(
    run.warnings[1],
    /'#Genesis9-1': the graft's target .* is not loaded; the graft is not merged/,
  );
  const dson = (run.scene.getRoot().listScenes()[0].getExtras().partgraph as Json).dson as Json;
  const graft = (dson.unresolved as Json[]).filter((u) => /graft/.test(String(u.reason)));
  assert.equal(graft.length, 1, JSON.stringify(dson.unresolved));
  assert.ok(String(graft[0].file).endsWith(fileOf("Patch")), String(graft[0].file));
  assert.equal(graft[0].path, "/geometry_library/0/graft");
  assert.match(
    String(graft[0].reason),
    new RegExp(`\\(its record: \\S*${fileOf("Patch")} at /geometry_library/0/graft\\)$`),
  );
});

Deno.test("dson grafts: a graft record in the scene file itself is not named again in its warning", async () => {
  const { file } = graftPatch(18, 30, 2);
  // The item's definitions saved into the scene (as Daz does for a scene-only asset), fitted to a missing body.
  const scene: Json = {
    ...file,
    asset_info: { id: "/scenes/patched.duf", type: "scene" },
    scene: {
      nodes: [{
        id: "Patch-1",
        url: "#Patch",
        conform_target: "#Genesis9-1",
        geometries: [{ id: "Patch_geo-1", url: "#Patch_geo" }],
      }],
    },
  };
  const run = await decodeJson(scene, "patched.duf");
  assert.equal(run.warnings.length, 2, run.warnings.join("\n"));
  assert.match(run.warnings[1], /the graft is not merged and is kept as a separate mesh$/);
  assert.doesNotMatch(run.warnings[1], /its record/);
});
