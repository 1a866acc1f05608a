import assert from "node:assert/strict";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { describeDson } from "../../../../nodes/decode/dson/codec/describe.ts";
import { jsonPathAt } from "../../../../nodes/decode/dson/codec/text.ts";
import { INSTANCED_VERTEX_SLACK } from "../../../../nodes/decode/dson/codec/load_meshes.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { MAX_HIERARCHY_DEPTH } from "../../../../runtime/depth.ts";
import { runNode } from "../../../support/context.ts";
import { dsonBytes, generateFigure, type Json } from "./generate.ts";

async function decodeBytes(bytes: Uint8Array, name = "x.dsf") {
  return (await runNode(decodeDson, { bytes: { bytes, name } })).scene;
}

async function decodeError(json: unknown): Promise<DecodeError> {
  const error = await decodeBytes(typeof json === "string" ? new TextEncoder().encode(json) : dsonBytes(json))
    .catch((e) => e);
  assert.ok(error instanceof DecodeError, `expected a DecodeError, got ${error}`);
  return error;
}

Deno.test("dson errors: malformed JSON names the JSON path where parsing stopped", async () => {
  const text = JSON.stringify(generateFigure({ side: 3, bones: 1 }), null, 1);
  // Break the third vertex: "[2, 0, 0]" loses its closing bracket.
  const broken = text.replace(/\[\s*2,\s*0,\s*0\s*\]/, "[2, 0, 0");
  assert.notEqual(broken, text);
  const error = await decodeError(broken);
  assert.equal(error.format, "dson");
  assert.match((error.at as { jsonPath: string }).jsonPath, /^\/geometry_library\/0\/vertices\/values\//);
  assert.match(error.found, /character \d+/);
});

Deno.test("dson errors: jsonPathAt tracks keys, indices and strings with brackets", () => {
  const text = '{"a": {"b]": [1, {"c": "x{y"}, 3]}}';
  assert.equal(jsonPathAt(text, text.indexOf("3")), "/a/b]/2");
  assert.equal(jsonPathAt(text, text.indexOf('"x')), "/a/b]/1/c");
});

Deno.test("dson errors: wrong types are DecodeErrors at their JSON path", async () => {
  const cases: [(json: Json) => void, string][] = [
    [(j) => ((j.geometry_library as Json[])[0].vertices = "many"), "/geometry_library/0/vertices"],
    [
      (j) => (((j.geometry_library as Json[])[0].vertices as Json).values = [[0, 0, "z"]]),
      "/geometry_library/0/vertices/values/0/2",
    ],
    [
      (j) => (((j.geometry_library as Json[])[0].polylist as Json).values = [[0, 0, 0, 1, 99]]),
      "/geometry_library/0/polylist/values/0/4",
    ],
    [
      // One corner (two is a line, dropped with a warning since decode.dson v42).
      (j) => (((j.geometry_library as Json[])[0].polylist as Json).values = [[0, 0, 0]]),
      "/geometry_library/0/polylist/values/0",
    ],
    [(j) => ((j.node_library as Json[])[1].id = 7), "/node_library/1/id"],
    [
      (j) => (((j.modifier_library as Json[])[0].skin as Json).joints = {}),
      "/modifier_library/0/skin/joints",
    ],
    [
      (j) => (((j.node_library as Json[])[1].center_point as Json[])[1].current_value = "tall"),
      "/node_library/1/center_point/1/current_value",
    ],
    [(j) => (j.scene = []), "/scene"],
    [(j) => (((j.scene as Json).nodes as Json[])[0].url = 3), "/scene/nodes/0/url"],
  ];
  for (const [mutate, path] of cases) {
    const json = generateFigure({ side: 3, bones: 2 });
    mutate(json);
    const error = await decodeError(json).catch((e) => {
      throw new Error(`case ${path}: ${e.message}`);
    });
    assert.deepEqual(error.at, { jsonPath: path }, error.message);
  }
  assert.deepEqual((await decodeError("[1, 2]")).at, { jsonPath: "/" });
});

/** The value at JSON pointer `path` of `json` (`"/"`: the whole), or `ABSENT`. */
const ABSENT = Symbol("absent");
function pointerValue(json: unknown, path: string): unknown {
  let value = json;
  for (const key of path === "/" ? [] : path.split("/").slice(1)) {
    if (!value || typeof value !== "object" || !(key in value)) return ABSENT;
    value = (value as Json)[key];
  }
  return value;
}

Deno.test("dson errors: every error path points at the value it names (or at a required key absent from its object)", async () => {
  /** A figure with a material (definition and instance colours), a morph dial and a scene. */
  const make = () => {
    const json = generateFigure({ side: 3, bones: 2 });
    json.material_library = [{ id: "M", diffuse: { channel: { id: "diffuse", value: [0, 0.5, 1] } } }];
    (json.scene as Json).materials = [{
      id: "M-1",
      url: "#M",
      geometry: "#gen_figure_geo-1",
      groups: ["Skin"],
      diffuse: { channel: { id: "diffuse", type: "color", value: [1, 0, 0], current_value: [1, 0, 0] } },
    }];
    return json;
  };
  const slots: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (!value || typeof value !== "object") return;
    for (const [key, child] of Object.entries(value)) {
      slots.push(`${path}/${key}`);
      walk(child, `${path}/${key}`);
    }
  };
  walk(make(), "");
  let errors = 0;
  const wrong: string[] = [];
  for (const slot of slots) {
    for (const bad of ["x", 0.5, true, {}, [1, "x", 0]]) {
      const json = make();
      const keys = slot.split("/").slice(1);
      const holder = pointerValue(json, "/" + keys.slice(0, -1).join("/")) as Json;
      holder[keys.at(-1)!] = structuredClone(bad);
      const error = await decodeBytes(dsonBytes(json), "x.duf").then(() => undefined, (e) => e);
      if (!(error instanceof DecodeError)) continue;
      const path = (error.at as { jsonPath?: string }).jsonPath;
      if (path === undefined) continue;
      errors++;
      const found = pointerValue(json, path);
      const absentKeyOf = pointerValue(json, path.slice(0, path.lastIndexOf("/")) || "/");
      const ok = found !== ABSENT ||
        (error.found.startsWith("nothing") && absentKeyOf !== ABSENT && typeof absentKeyOf === "object");
      if (!ok) wrong.push(`${slot} = ${JSON.stringify(bad)}: ${error.message}`);
    }
  }
  assert.ok(errors > 300, `only ${errors} errors: the sweep no longer reaches the decoder`);
  // Before: a colour's component was named '/current_value/0/1', a path that is not in the file.
  assert.deepEqual(wrong, []);
});

Deno.test("dson errors: cyclic parents are DecodeErrors (library and scene instances)", async () => {
  const library = generateFigure({ side: 3, bones: 3 });
  (library.node_library as Json[])[1].parent = "#gen_figure_bone2";
  const libraryError = await decodeError(library);
  assert.deepEqual(libraryError.at, { jsonPath: "/node_library/1/parent" });
  assert.match(libraryError.message, /cycle/);

  const scene = generateFigure({ side: 3, bones: 1 });
  const nodes = (scene.scene as Json).nodes as Json[];
  nodes.push({ id: "a", url: "#gen_figure_bone0", parent: "#b" }, {
    id: "b",
    url: "#gen_figure_bone0",
    parent: "#a",
  });
  const sceneError = await decodeError(scene);
  assert.deepEqual(sceneError.at, { jsonPath: "/scene/nodes/1/parent" });
});

Deno.test("dson errors: counted arrays are trusted by their values, not their count", async () => {
  const json = generateFigure({ side: 3, bones: 1 });
  const geometry = (json.geometry_library as Json[])[0];
  (geometry.vertices as Json).count = 1_000_000_000;
  (geometry.polylist as Json).count = 0;
  const doc = await decodeBytes(dsonBytes(json));
  const summary = describeDson(doc).geometries as Json[];
  assert.equal(summary[0].dson_vertices, 9);
  assert.equal(summary[0].triangles, 8);
});

Deno.test("dson text: a UTF-8 BOM and UTF-16 (LE with BOM, BE without) are read", async () => {
  const text = JSON.stringify(generateFigure({ side: 3, bones: 1 }));
  const utf8 = new TextEncoder().encode(text);
  const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]);
  const le = new Uint8Array(2 + text.length * 2);
  le.set([0xff, 0xfe]);
  const be = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    le[2 + i * 2] = text.charCodeAt(i);
    be[i * 2 + 1] = text.charCodeAt(i);
  }
  for (const bytes of [withBom, le, be]) {
    const summary = describeDson(await decodeBytes(bytes));
    assert.equal((summary.bones as string[]).length, 1);
  }
});

Deno.test("dson text: a corrupt gzip stream is a DecodeError at offset 0", async () => {
  const error = await decodeBytes(new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3])).catch((e) =>
    e
  );
  assert.ok(error instanceof DecodeError);
  assert.deepEqual(error.at, { offset: 0 });
});

Deno.test("dson errors: a bone chain deeper than the bound is refused at the deepest bone (was 65 s for 20,000)", async () => {
  const error = await decodeError(generateFigure({ side: 3, bones: MAX_HIERARCHY_DEPTH }));
  assert.equal((error.at as { jsonPath: string }).jsonPath, `/node_library/${MAX_HIERARCHY_DEPTH}/parent`);
  assert.match(error.expected, new RegExp(`at most ${MAX_HIERARCHY_DEPTH} levels deep`));
  assert.equal(error.found, `${MAX_HIERARCHY_DEPTH + 1} levels`);
  // At the bound the figure decodes: its root and bones are the skin's joints.
  const scene = await decodeBytes(dsonBytes(generateFigure({ side: 3, bones: MAX_HIERARCHY_DEPTH - 1 })));
  assert.equal(scene.getRoot().listSkins()[0].listJoints().length, MAX_HIERARCHY_DEPTH);
});

Deno.test("dson errors: scene instances and the figure's bones together deeper than the bound are refused", async () => {
  const figure = generateFigure({ side: 3, bones: 100 }) as Json & {
    node_library: Json[];
    scene: { nodes: Json[] };
  };
  // The figure's instance hangs under a chain of 500 scene instances of one plain node.
  figure.node_library.push({ id: "holder", name: "holder", type: "node" });
  const holders = Array.from({ length: 500 }, (_, k) => ({
    id: `holder-${k}`,
    url: "#holder",
    ...(k ? { parent: `#holder-${k - 1}` } : {}),
  }));
  figure.scene.nodes[0].parent = "#holder-499";
  figure.scene.nodes.unshift(...holders);
  const error = await decodeError(figure);
  assert.match(error.expected, new RegExp(`a node hierarchy at most ${MAX_HIERARCHY_DEPTH} levels deep`));
  assert.match(error.found, /^601 levels, .* down to node 'gen_figure_bone99'$/);
  assert.equal((error.at as { jsonPath: string }).jsonPath, "/node_library/100");
});

Deno.test("dson errors: instances of one geometry may not draw out of proportion to it (300 made a 1.4 MB scene a 156 MB GLB; 1,000 would make one of 520 MB)", async () => {
  const side = 60, vertices = side * side;
  const figure = generateFigure({ side, bones: 2 }) as Json & { scene: { nodes: Json[] } };
  const instance = figure.scene.nodes[0];
  const allowed = Math.floor((16 * vertices + INSTANCED_VERTEX_SLACK) / vertices);
  for (let k = 1; k <= allowed; k++) {
    figure.scene.nodes.push({
      ...instance,
      id: `copy-${k}`,
      geometries: [{ id: `geo-${k}`, url: "#gen_figure_geo" }],
    });
  }
  const error = await decodeError(figure);
  assert.equal((error.at as { jsonPath: string }).jsonPath, `/scene/nodes/${allowed}/geometries/0`);
  assert.match(error.expected, /geometry instances drawing at most \d+ vertices in all/);
  // One instance fewer is decoded.
  figure.scene.nodes.pop();
  const scene = await decodeBytes(dsonBytes(figure));
  assert.equal(scene.getRoot().listMeshes().length, allowed);
});
