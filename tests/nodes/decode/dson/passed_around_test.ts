/**
 * Files as Daz Studio 4.x saves them and users pass them around: gzip `.duf`/`.dsf` on every path
 * that reads DSON (the scene, a content file, a preset), percent-encoded URLs with spaces and
 * non-ASCII names, file names in either Unicode form (content copied from a Mac keeps HFS+'s
 * decomposed names), fragments with `#`, `?`, `:`, `%` and `/` in the id, a UTF-8 BOM with CRLF
 * line ends, morph deltas past the geometry's vertices, a morph id defined twice for one mesh, and
 * numbers written as strings. Every file is made here by code.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Document } from "@gltf-transform/core";
import { dsonApplyPreset } from "../../../../nodes/decode/dson/apply_preset.ts";
import { dsonBakeMorph } from "../../../../nodes/decode/dson/bake_morph.ts";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { tempDir } from "../../../support/temp.ts";
import { dsonBytes, generateFigure, gzipDsonBytes, type Json, libraryFigure } from "./generate.ts";

/** A morph of the generated 4 × 4 figure `F` (16 vertices) moving each `[vertex, x, y, z]` (cm). */
function morph(id: string, deltas: number[][], vertexCount: unknown = 16): Json {
  return {
    id,
    name: id,
    parent: "#F_geo",
    channel: { id: "value", type: "float", value: 0, current_value: 1 },
    morph: { vertex_count: vertexCount, deltas: { count: deltas.length, values: deltas } },
  };
}

/** A scene `.duf` instancing figure `F` of the file at `url` (written as given), with modifier instances. */
function sceneOf(url: string, modifiers: Json[] = []): Json {
  return {
    file_version: "0.6.1.0",
    asset_info: { id: "/C%3A/Users/Me/Documents/DAZ%203D/Studio/Scenes/passed.duf", type: "scene" },
    scene: {
      nodes: [{ id: "F-1", url: `${url}#F`, geometries: [{ id: "F_geo-1", url: `${url}#F_geo` }] }],
      modifiers,
    },
  };
}

/** Writes `files` (content path → bytes) into a fresh content root and runs `test` on it. */
async function withRoot(files: [string, Uint8Array][], test: (root: string) => Promise<void>): Promise<void> {
  const root = await tempDir();
  try {
    for (const [path, bytes] of files) {
      const full = join(root, ...path.split("/").filter(Boolean));
      await Deno.mkdir(join(full, ".."), { recursive: true });
      await Deno.writeFile(full, bytes);
    }
    await test(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function decode(bytes: Uint8Array, roots: string[] = []) {
  const ctx = testContext();
  const { scene } = await runNode(decodeDson, { bytes: { bytes, name: "passed.duf" } }, {
    content_roots: roots,
  }, ctx);
  return { doc: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

/** The one mesh's morphs: id, weight and the DSON vertices it moves (from its extras and weights). */
function morphsOf(doc: Document): { id: unknown; weight: number; vertices: unknown }[] {
  const [mesh] = doc.getRoot().listMeshes();
  const records = (getPartgraphExtras(mesh).dson as { morphs: Json[] }).morphs;
  return records.map((m, k) => ({ id: m.id, weight: mesh.getWeights()[k], vertices: m.vertices }));
}

/** The one mesh's morph target `k`: the largest Y delta (m). */
function deltaY(doc: Document, k: number): number {
  const target = doc.getRoot().listMeshes()[0].listPrimitives()[0].listTargets()[k];
  const array = target.getAttribute("POSITION")!.getArray()!;
  return Math.max(...Array.from(array).filter((_, i) => i % 3 === 1));
}

function unresolved(doc: Document): Json[] {
  return (getPartgraphExtras(doc.getRoot().listScenes()[0]).dson as { unresolved: Json[] }).unresolved;
}

const ENCODED = "/data/My%20Stuff/%C3%96lhaut.dsf";

/** The figure `F` with morph `Shape A`, as the library file `Ölhaut.dsf`. */
function oelhaut(): Json {
  const figure = libraryFigure("F");
  (figure.modifier_library as Json[]).push(morph("Shape A", [[5, 0, 1, 0]]));
  return figure;
}

Deno.test("dson passed around: gzip scene, gzip content file and gzip preset, through a %20 and %C3%96 URL", async () => {
  const files: [string, Uint8Array][] = [["/data/My Stuff/Ölhaut.dsf", await gzipDsonBytes(oelhaut())]];
  await withRoot(files, async (root) => {
    const modifiers = [{
      id: "Shape A-1",
      url: `${ENCODED}#Shape%20A`,
      parent: "#F_geo-1",
      channel: { id: "value", current_value: 0.5 },
    }];
    const { doc, warnings } = await decode(await gzipDsonBytes(sceneOf(ENCODED, modifiers)), [root]);
    assert.deepEqual(warnings, []);
    assert.deepEqual(morphsOf(doc), [{ id: "Shape A", weight: 0.5, vertices: 1 }]);
    const preset = await gzipDsonBytes({
      file_version: "0.6.1.0",
      asset_info: { id: "/People/Pose.duf", type: "preset_pose" },
      scene: { animations: [{ url: "name://@selection#Shape%20A:?value/value", keys: [[0, 0.8]] }] },
    });
    const ctx = testContext();
    const { scene } = await runNode(
      dsonApplyPreset,
      { scene: doc, preset: { bytes: preset, name: "p.duf" } },
      {},
      ctx,
    );
    assert.deepEqual(ctx.warnings, []);
    assert.deepEqual(morphsOf(scene).map((m) => m.weight), [0.8]);
  });
});

Deno.test("dson passed around: a UTF-8 BOM with CRLF line ends in a gzip content file and a preset", async () => {
  const crlf = (json: unknown) => "\uFEFF" + JSON.stringify(json, null, "\t").replaceAll("\n", "\r\n");
  const gzip = async (text: string) =>
    new Uint8Array(
      await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer(),
    );
  await withRoot([["/data/Bom.dsf", await gzip(crlf(oelhaut()))]], async (root) => {
    const { doc, warnings } = await decode(new TextEncoder().encode(crlf(sceneOf("/data/Bom.dsf"))), [root]);
    assert.deepEqual(warnings, []);
    assert.deepEqual(morphsOf(doc), [{ id: "Shape A", weight: 1, vertices: 1 }]);
    const preset = crlf({
      file_version: "0.6.1.0",
      asset_info: { id: "/p.duf", type: "preset_pose" },
      scene: { animations: [{ url: "name://@selection#Shape%20A:?value/value", keys: [[0, 0.25]] }] },
    });
    const { scene } = await runNode(dsonApplyPreset, {
      scene: doc,
      preset: { bytes: new TextEncoder().encode(preset), name: "p.duf" },
    });
    assert.deepEqual(morphsOf(scene).map((m) => m.weight), [0.25]);
  });
});

Deno.test("dson passed around: a file name in the other Unicode form (a Mac's decomposed Ö) is found, as one file", async () => {
  // On disk as HFS+ stores it: "O" + U+0308. The figure's URL writes Ö composed and encoded
  // (%C3%96), the morph's decomposed (O%CC%88): both name that file, and the morph's parent
  // (`#F_geo` of that file) is the figure's geometry. Before (decode.dson v12) the walk compared
  // names by case only: both 'not found in the content roots', and no figure at all.
  const onDisk = "/data/My Stuff/" + "Ölhaut".normalize("NFD") + ".dsf";
  await withRoot([[onDisk, dsonBytes(oelhaut())]], async (root) => {
    const modifiers = [{
      id: "Shape A-1",
      url: "/data/My%20Stuff/O%CC%88lhaut.dsf#Shape%20A",
      parent: "#F_geo-1",
      channel: { id: "value", current_value: 0.5 },
    }];
    const { doc, warnings } = await decode(dsonBytes(sceneOf(ENCODED, modifiers)), [root]);
    assert.deepEqual(warnings, []);
    assert.ok(doc.getRoot().listSkins()[0], "the figure is skinned");
    assert.deepEqual(morphsOf(doc), [{ id: "Shape A", weight: 0.5, vertices: 1 }]);
  });
});

Deno.test("dson passed around: ids with '#', '?', ':', '%', '/', non-ASCII and a literal %20 are addressed by their encoded fragment", async () => {
  const ids = ["Shape#2", "Shape?x", "Shape:L", "100%", "Shape/1", "Ölhaut", "a&b=c", "Shape%20B"];
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  ids.forEach((id, k) => (json.modifier_library as Json[]).push(morph(id, [[k, 0, k + 1, 0]])));
  const scene = json.scene as Json;
  // As Daz writes a fragment: percent-encoded (`#Shape%232`, `#Shape%2520B`); the dial 0.5 overrides 1.
  scene.modifiers = [
    ...(scene.modifiers as Json[]),
    ...ids.map((id, k) => ({
      id: `m${k}`,
      url: `#${encodeURIComponent(id)}`,
      parent: "#F_geo-1",
      channel: { id: "value", current_value: 0.5 },
    })),
  ];
  const { doc, warnings } = await decode(dsonBytes(json));
  assert.deepEqual(warnings, []);
  assert.deepEqual(morphsOf(doc), ids.map((id) => ({ id, weight: 0.5, vertices: 1 })));
  ids.forEach((_, k) =>
    assert.ok(Math.abs(deltaY(doc, k) - (k + 1) / 100) < 1e-7, `morph ${k} moves ${k + 1} cm`)
  );
  // A preset addresses each the same way. Before (dson.apply_preset v7) the id with a literal
  // "%20" was compared decoded ("Shape B") and reported missing.
  const animations = ids.map((id) => ({
    url: `name://@selection#${encodeURIComponent(id)}:?value/value`,
    keys: [[0, 0.75]],
  }));
  const preset = dsonBytes({
    file_version: "0.6.1.0",
    asset_info: { id: "/p.duf", type: "preset_pose" },
    scene: { animations },
  });
  const ctx = testContext();
  const posed =
    (await runNode(dsonApplyPreset, { scene: doc, preset: { bytes: preset, name: "p.duf" } }, {}, ctx))
      .scene;
  assert.deepEqual(ctx.warnings.map((w) => w.message), []);
  assert.deepEqual(morphsOf(posed).map((m) => m.weight), ids.map(() => 0.75));
  // And bake_morph finds each by its id as written.
  for (const id of ids) {
    const baked = (await runNode(dsonBakeMorph, { scene: doc }, { morph: id, weight: 1 })).scene;
    assert.equal(morphsOf(baked).length, ids.length - 1, id);
  }
});

Deno.test("dson passed around: a morph whose deltas name vertices past the geometry is left out with a warning; the scene decodes", async () => {
  // Before (decode.dson v12) one such delta was a DecodeError for the whole scene.
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  (json.modifier_library as Json[]).push(
    morph("Past", [[5, 0, 1, 0], [16, 0, 1, 0], [99, 1, 1, 1]]),
    morph("Fine", [[3, 0, 2, 0]]),
  );
  const { doc, warnings } = await decode(dsonBytes(json));
  assert.deepEqual(warnings, [
    "dson: passed.duf at /modifier_library/1/morph/deltas/values/1/0: morph 'Past' names vertex 16, but the " +
    "geometry has 16 vertices (2 of its 3 deltas lie past it); the morph is not applied",
  ]);
  assert.deepEqual(morphsOf(doc), [{ id: "Fine", weight: 1, vertices: 1 }]);
  assert.ok(Math.abs(deltaY(doc, 0) - 0.02) < 1e-7);
  assert.deepEqual(unresolved(doc).map((u) => [u.uri, u.path]), [
    ["/data/generated/figure.duf#Past", "/modifier_library/1/morph/deltas/values/1/0"],
  ]);
  // The same without a vertex_count to say it was made for another mesh.
  delete ((json.modifier_library as Json[])[1].morph as Json).vertex_count;
  const again = await decode(dsonBytes(json));
  assert.equal(again.warnings.length, 1);
  assert.deepEqual(morphsOf(again.doc).map((m) => m.id), ["Fine"]);
});

Deno.test("dson passed around: a morph id a scene applies and its figure file also defines is one morph, the scene's", async () => {
  // The scene .duf carries its own "Smile" (moving vertex 6 by 1 cm) and dials it to 0.3; the
  // figure's file defines another "Smile" (vertex 5 by 2 cm) for the same geometry. Daz keeps one
  // modifier per name on a node (Diffeomorphic replaces a shape key of the same name). Before
  // (decode.dson v12) both became targets named "Smile", the file's at its own weight 1.
  const figure = libraryFigure("F");
  (figure.modifier_library as Json[]).push(morph("Smile", [[5, 0, 2, 0]]));
  await withRoot([["/data/F.dsf", dsonBytes(figure)]], async (root) => {
    const scene = sceneOf("/data/F.dsf", [{
      id: "Smile",
      url: "#Smile",
      parent: "#F_geo-1",
      channel: { id: "value", current_value: 0.3 },
    }]);
    scene.modifier_library = [{ ...morph("Smile", [[6, 0, 1, 0]]), parent: "/data/F.dsf#F_geo" }];
    const { doc, warnings } = await decode(dsonBytes(scene), [root]);
    assert.deepEqual(morphsOf(doc), [{ id: "Smile", weight: 0.3, vertices: 1 }]);
    assert.ok(Math.abs(deltaY(doc, 0) - 0.01) < 1e-7, "the scene's own Smile (1 cm)");
    assert.deepEqual(warnings, [
      `dson: ${
        join(root, "data", "F.dsf")
      } at /modifier_library/1/id: the mesh has a morph 'Smile' already ` +
      "(passed.duf at /modifier_library/0); this one is not applied",
    ]);
  });
});

Deno.test("dson passed around: a morph's or skin's vertex_count written as a string is a DecodeError at its path", async () => {
  // Before (decode.dson v12) a string count was read as absent: "20" (another figure's) applied the
  // morph to this 16-vertex figure, silently.
  for (
    const [edit, path] of [
      [
        (json: Json) => (json.modifier_library as Json[]).push(morph("Other", [[5, 0, 1, 0]], "20")),
        "/modifier_library/1/morph/vertex_count",
      ],
      [
        (json: Json) => (((json.modifier_library as Json[])[0].skin as Json).vertex_count = "16"),
        "/modifier_library/0/skin/vertex_count",
      ],
    ] as const
  ) {
    const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
    edit(json);
    const error = await decode(dsonBytes(json)).then(() => undefined, (e) => e);
    assert.ok(error instanceof DecodeError, `${path}: ${error}`);
    assert.match(error.message, new RegExp(`at ${path}: expected an integer in \\[0, \\d+\\], found string`));
  }
  // A null count (how Qt writes NaN) still reads as absent.
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  (json.modifier_library as Json[]).push(morph("Nulled", [[5, 0, 1, 0]], null));
  assert.deepEqual(morphsOf((await decode(dsonBytes(json))).doc).map((m) => m.id), ["Nulled"]);
});
