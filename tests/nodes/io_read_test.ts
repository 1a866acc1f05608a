import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { Document } from "@gltf-transform/core";
import { runGraph } from "../../mod.ts";
import { gltfIO } from "../../runtime/scene/gltf_io.ts";
import { DecodeError, RunError } from "../../runtime/errors.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { tempDir } from "../support/temp.ts";
import { concat, ddsHeader } from "../support/freelancer/images.ts";
import { gltf1Of } from "../support/gltf1.ts";

/** Writes a .gltf with its buffer and a texture in separate files, as Blender's "glTF separate" does. */
async function separateGltf(dir: string): Promise<void> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const positions = doc.createAccessor("p", buffer).setType("VEC3").setArray(
    new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
  );
  const png = Uint8Array.fromBase64(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  );
  const texture = doc.createTexture("skin").setImage(png).setMimeType("image/png").setURI(
    "textures/skin.png",
  );
  const material = doc.createMaterial("m").setBaseColorTexture(texture);
  // The texture needs coordinates to be valid glTF (else decode.gltf rightly warns of the missing UV set).
  const uvs = doc.createAccessor("uv", buffer).setType("VEC2").setArray(new Float32Array([0, 0, 1, 0, 0, 1]));
  const mesh = doc.createMesh("tri").addPrimitive(
    doc.createPrimitive().setAttribute("POSITION", positions).setAttribute("TEXCOORD_0", uvs).setMaterial(
      material,
    ),
  );
  doc.createScene("s").addChild(doc.createNode("wing").setMesh(mesh));
  const { json, resources } = await (await gltfIO()).writeJSON(doc, { basename: "plane" });
  await Deno.mkdir(join(dir, "textures"), { recursive: true });
  for (const [uri, bytes] of Object.entries(resources)) await Deno.writeFile(join(dir, uri), bytes);
  await Deno.writeTextFile(join(dir, "plane.gltf"), JSON.stringify(json));
}

const graph: GraphFile = {
  version: 1,
  inputs: { model: { type: "string" } },
  nodes: {
    read: { type: "io.read", params: { path: { $input: "model" } } },
    decode: { type: "decode.auto", inputs: { bytes: "read.bytes" } },
  },
  outputs: { scene: "decode.scene" },
};

Deno.test("a .gltf with separate buffer and texture files is read whole, and keyed by every file", async () => {
  const dir = await tempDir();
  await separateGltf(dir);
  const model = join(dir, "plane.gltf");
  const cacheDir = join(dir, "cache");
  const run = await runGraph(graph, { inputs: { model }, cacheDir });
  const scene = run.outputs.scene as Document;
  assertEquals(scene.getRoot().listNodes().map((n) => n.getName()), ["wing"]);
  assertEquals(scene.getRoot().listTextures()[0].getImage()?.byteLength, 70);
  assert(run.reads.some((r) => r.path.endsWith("skin.png")), "the texture is a recorded input");
  // Editing a resource (not the .gltf) re-runs the read and everything after it.
  const texture = join(dir, "textures", "skin.png");
  const png = await Deno.readFile(texture);
  png[png.length - 20] ^= 1;
  await Deno.writeFile(texture, png);
  const again = await runGraph(graph, { inputs: { model }, cacheDir });
  assertEquals(again.nodes.read.state, "done");
  assertEquals(again.nodes.decode.state, "done");
});

Deno.test("a .gltf image named longer than the file system allows is left out like a missing one", async () => {
  const dir = await tempDir();
  await separateGltf(dir);
  const model = join(dir, "plane.gltf");
  const json = JSON.parse(await Deno.readTextFile(model));
  const uri = `textures/${"a".repeat(300)}.png`;
  json.images[0].uri = uri;
  await Deno.writeTextFile(model, JSON.stringify(json));
  const run = await runGraph(graph, { inputs: { model }, cacheDir: false });
  const scene = run.outputs.scene as Document;
  assertEquals(scene.getRoot().listTextures(), []);
  assertEquals(scene.getRoot().listNodes().map((n) => n.getName()), ["wing"]);
  assert(
    run.warnings.some((w) =>
      w.message.includes(`'${uri}' names no file (a name longer than the file system`)
    ),
    run.warnings.map((w) => w.message).join("\n"),
  );
});

Deno.test("a .gltf whose image is missing decodes without it, with a warning; missing_images: error refuses it", async () => {
  const dir = await tempDir();
  await separateGltf(dir);
  await Deno.remove(join(dir, "textures", "skin.png"));
  const model = join(dir, "plane.gltf");
  const run = await runGraph(graph, { inputs: { model }, cacheDir: false });
  const scene = run.outputs.scene as Document;
  assertEquals(scene.getRoot().listTextures(), []);
  assertEquals(scene.getRoot().listMaterials()[0].getBaseColorTexture(), null);
  assertEquals(run.warnings.map((w) => w.message), [
    `${model}: /images/0/uri 'textures/skin.png' not found; the textures that use it are left out`,
    "plane.gltf at /materials/0/pbrMetallicRoughness/baseColorTexture: texture 0 has no image; the material " +
    "is kept without it",
  ]);
  // The absence is an input like any file: once the image is back, a cached run reads it.
  const cacheDir = join(dir, "cache");
  await runGraph(graph, { inputs: { model }, cacheDir });
  await separateGltf(dir);
  const back = await runGraph(graph, { inputs: { model }, cacheDir });
  assertEquals(back.nodes.read.state, "done");
  assertEquals((back.outputs.scene as Document).getRoot().listTextures().length, 1);
  await Deno.remove(join(dir, "textures", "skin.png"));
  // As a build that must not go on without its textures asks.
  const strict: GraphFile = {
    ...graph,
    nodes: {
      ...graph.nodes,
      read: { ...graph.nodes.read, params: { ...graph.nodes.read.params, missing_images: "error" } },
    },
  };
  const error = await runGraph(strict, { inputs: { model }, cacheDir: false }).catch((e) => e);
  assert(error instanceof RunError);
  const cause = error.failures[0].cause;
  assert(cause instanceof DecodeError);
  assertEquals(cause.at, { jsonPath: "/images/0/uri" });
  assert(cause.found.includes("textures/skin.png"), cause.found);
});

Deno.test("a .gltf whose buffer is missing names it in a typed error", async () => {
  const dir = await tempDir();
  await separateGltf(dir);
  await Deno.remove(join(dir, "plane.bin"));
  const error = await runGraph(graph, { inputs: { model: join(dir, "plane.gltf") }, cacheDir: false }).catch((
    e,
  ) => e);
  assert(error instanceof RunError);
  const cause = error.failures[0].cause;
  assert(cause instanceof DecodeError);
  assertEquals(cause.at, { jsonPath: "/buffers/0/uri" });
});

Deno.test("a .gltf naming its files in another case (made on Windows) reads them, with a warning", async () => {
  const dir = await tempDir();
  await separateGltf(dir);
  // The files on disk keep their case; the .gltf names them otherwise, as a Windows export may.
  const gltf = join(dir, "plane.gltf");
  const json = JSON.parse(await Deno.readTextFile(gltf));
  json.images[0].uri = "Textures/Skin.PNG";
  json.buffers[0].uri = json.buffers[0].uri.toUpperCase();
  await Deno.writeTextFile(gltf, JSON.stringify(json));
  const run = await runGraph(graph, { inputs: { model: gltf }, cacheDir: false });
  const scene = run.outputs.scene as Document;
  assertEquals(scene.getRoot().listTextures()[0].getImage()?.byteLength, 70);
  assertEquals(run.warnings.map((w) => w.message), [
    `${gltf}: /buffers/0/uri '${json.buffers[0].uri}' is 'plane.bin' on disk (another case); read that file`,
    `${gltf}: /images/0/uri 'Textures/Skin.PNG' is 'textures/skin.png' on disk (another case); read that file`,
  ]);
  // The exact name wins where both exist.
  await Deno.mkdir(join(dir, "Textures"));
  await Deno.writeFile(
    join(dir, "Textures", "Skin.PNG"),
    new Uint8Array(await Deno.readFile(join(dir, "textures", "skin.png"))),
  );
  const exact = await runGraph(graph, { inputs: { model: gltf }, cacheDir: false });
  assertEquals(exact.warnings.length, 1);
  // A name no case matches is still missing: left out, with a warning naming it.
  json.images[0].uri = "textures/skin2.png";
  await Deno.writeTextFile(gltf, JSON.stringify(json));
  const missing = await runGraph(graph, { inputs: { model: gltf }, cacheDir: false });
  assert(missing.warnings.some((w) => w.message.includes("/images/0/uri 'textures/skin2.png' not found")));
});

Deno.test("a .gltf with separate files saved as UTF-16 (Windows PowerShell's Out-File) is read whole, with a warning", async () => {
  const dir = await tempDir();
  await separateGltf(dir);
  const gltf = join(dir, "plane.gltf");
  const utf8 = await runGraph(graph, { inputs: { model: gltf }, cacheDir: false });
  const text = "\uFEFF" + await Deno.readTextFile(gltf);
  const units = new Uint16Array(text.length).map((_, i) => text.charCodeAt(i)); // little-endian, as x86 stores it
  await Deno.writeFile(gltf, new Uint8Array(units.buffer));
  const run = await runGraph(graph, { inputs: { model: gltf }, cacheDir: false });
  assertEquals(run.warnings.map((w) => w.message), [
    `${gltf}: the JSON is UTF-16LE text, not the UTF-8 glTF requires; read as UTF-16LE`,
  ]);
  const scene = run.outputs.scene as Document, before = utf8.outputs.scene as Document;
  assertEquals(scene.getRoot().listTextures()[0].getImage(), before.getRoot().listTextures()[0].getImage());
  assertEquals(
    scene.getRoot().listAccessors()[0].getArray(),
    before.getRoot().listAccessors()[0].getArray(),
  );
});

Deno.test("a .gltf naming files with Windows separators or absolute paths of another machine reads them beside it", async () => {
  const dir = await tempDir();
  await separateGltf(dir);
  const gltf = join(dir, "plane.gltf");
  const json = JSON.parse(await Deno.readTextFile(gltf));
  const edit = async (image: string, buffer: string) => {
    json.images[0].uri = image;
    json.buffers[0].uri = buffer;
    await Deno.writeTextFile(gltf, JSON.stringify(json));
    const run = await runGraph(graph, { inputs: { model: gltf }, cacheDir: false });
    const scene = run.outputs.scene as Document;
    assertEquals(scene.getRoot().listTextures()[0].getImage()?.byteLength, 70);
    return run.warnings.map((w) => w.message);
  };
  assertEquals(await edit("textures\\skin.png", "plane.bin"), [
    `${gltf}: /images/0/uri 'textures\\skin.png' separates folders with \\; read as 'textures/skin.png'`,
  ]);
  // Exporters that kept the author's paths: only the file name is looked for, beside the model.
  await Deno.copyFile(join(dir, "textures", "skin.png"), join(dir, "skin.png"));
  const absolute = await edit("C:\\Users\\pilot\\Desktop\\skin.png", "file:///home/pilot/plane.bin");
  assertEquals(
    absolute,
    [
      `${gltf}: /images/0/uri 'C:\\Users\\pilot\\Desktop\\skin.png' is an absolute path (on the machine that made ` +
      "the model); read 'skin.png' beside it",
      `${gltf}: /buffers/0/uri 'file:///home/pilot/plane.bin' is an absolute path (on the machine that made the ` +
      "model); read 'plane.bin' beside it",
    ].sort(),
  );
});

Deno.test("a .gltf naming a file with a bare '%' (100%.png) reads that file as written, with a warning", async () => {
  const dir = await tempDir();
  await separateGltf(dir);
  const gltf = join(dir, "plane.gltf");
  const json = JSON.parse(await Deno.readTextFile(gltf));
  // A '%' that starts no escape, beside one that does (%C3%A9: é): decoded where it can be.
  await Deno.copyFile(join(dir, "textures", "skin.png"), join(dir, "textures", "100% é.png"));
  json.images[0].uri = "textures/100%%20%C3%A9.png";
  await Deno.writeTextFile(gltf, JSON.stringify(json));
  const run = await runGraph(graph, { inputs: { model: gltf }, cacheDir: false });
  assertEquals((run.outputs.scene as Document).getRoot().listTextures()[0].getImage()?.byteLength, 70);
  assertEquals(run.warnings.map((w) => w.message), [
    `${gltf}: /images/0/uri 'textures/100%%20%C3%A9.png' has a '%' that starts no valid escape; read as ` +
    "written there, as Blender's importer and browsers do",
  ]);
});

Deno.test("a .gltf naming files with a URL's query (a web app's cache-buster) reads the files, typed by their names", async () => {
  const dir = await tempDir();
  await separateGltf(dir);
  const gltf = join(dir, "plane.gltf");
  const json = JSON.parse(await Deno.readTextFile(gltf));
  json.images[0].uri = "textures/skin.png?v=3";
  delete json.images[0].mimeType;
  json.buffers[0].uri = `${json.buffers[0].uri}#data`;
  await Deno.writeTextFile(gltf, JSON.stringify(json));
  const run = await runGraph(graph, { inputs: { model: gltf }, cacheDir: false });
  const texture = (run.outputs.scene as Document).getRoot().listTextures()[0];
  assertEquals([texture.getImage()?.byteLength, texture.getMimeType()], [70, "image/png"]);
  assertEquals(run.warnings.map((w) => w.message).sort(), [
    `${gltf}: /buffers/0/uri 'plane.bin#data' read as 'plane.bin': a URL's query or fragment names no file`,
    `${gltf}: /images/0/uri 'textures/skin.png?v=3' read as 'textures/skin.png': a URL's query or fragment names no file`,
  ]);
  // A file named with the '?' itself is read as written, as Blender's importer reads it.
  await Deno.copyFile(join(dir, "textures", "skin.png"), join(dir, "textures", "skin.png?v=3"));
  const literal = await runGraph(graph, { inputs: { model: gltf }, cacheDir: false });
  assertEquals(literal.warnings.length, 1);
});

Deno.test("an embedded .gltf passes through io.read unchanged", async () => {
  const dir = await tempDir();
  const doc = new Document();
  doc.createScene("s").addChild(doc.createNode("only"));
  const { json } = await (await gltfIO()).writeJSON(doc);
  const text = JSON.stringify(json);
  await Deno.writeTextFile(join(dir, "a.gltf"), text);
  const graph: GraphFile = {
    version: 1,
    nodes: { read: { type: "io.read", params: { path: join(dir, "a.gltf") } } },
    outputs: { bytes: "read.bytes" },
  };
  const run = await runGraph(graph, { cacheDir: false });
  assertEquals(new TextDecoder().decode((run.outputs.bytes as { bytes: Uint8Array }).bytes), text);
});

Deno.test("a .gltf missing its first image keeps the second, renumbered, on the texture that uses it", async () => {
  const dir = await tempDir();
  await separateGltf(dir);
  const gltf = join(dir, "plane.gltf");
  const json = JSON.parse(await Deno.readTextFile(gltf));
  // A second texture over a second image (present), used as the emissive map; the first image goes missing.
  await Deno.copyFile(join(dir, "textures", "skin.png"), join(dir, "textures", "glow.png"));
  await Deno.remove(join(dir, "textures", "skin.png"));
  json.images.push({ uri: "textures/glow.png", mimeType: "image/png" });
  json.textures.push({ source: 1 });
  json.materials[0].emissiveTexture = { index: 1 };
  await Deno.writeTextFile(gltf, JSON.stringify(json));
  const run = await runGraph(graph, { inputs: { model: gltf }, cacheDir: false });
  const material = (run.outputs.scene as Document).getRoot().listMaterials()[0];
  assertEquals(material.getBaseColorTexture(), null);
  assertEquals(material.getEmissiveTexture()?.getImage()?.byteLength, 70);
});

Deno.test("a .gltf in a Flight Simulator package reads images from its texture folder, .DDS added where the name lacks it", async () => {
  const dir = await tempDir();
  const plane = join(dir, "SimObjects", "Airplanes", "Cub");
  const model = join(plane, "model.AAL");
  await Deno.mkdir(model, { recursive: true });
  await separateGltf(model);
  const gltf = join(model, "plane.gltf");
  const json = JSON.parse(await Deno.readTextFile(gltf));
  // As packages name them: the author's absolute path, and a .PNG whose packaged file is .PNG.DDS.
  json.images = [{ uri: "F:\\Build\\Cub\\TEXTURE\\CUB_ALBD.PNG" }, { uri: "cub_norm.png" }];
  json.textures = [{ source: 0 }, { source: 1 }];
  json.materials[0].normalTexture = { index: 1 };
  await Deno.writeTextFile(gltf, JSON.stringify(json));
  await Deno.remove(join(model, "textures"), { recursive: true });
  // A 2 × 2 uncompressed BGRA DDS, as the package's build writes textures.
  const dds = concat(
    ddsHeader(2, 2, { bits: 32, masks: [0xff0000, 0xff00, 0xff, 0xff000000], pfFlags: 0x41 }),
    new Uint8Array(16).fill(128),
  );
  for (const livery of ["texture.AAL", "TEXTURE.DAL", "texture"]) await Deno.mkdir(join(plane, livery));
  await Deno.writeFile(join(plane, "texture.AAL", "CUB_ALBD.PNG.DDS"), dds);
  await Deno.writeFile(join(plane, "texture", "CUB_NORM.PNG.DDS"), dds);
  await Deno.writeFile(join(plane, "TEXTURE.DAL", "CUB_NORM.PNG.DDS"), new Uint8Array(7)); // another livery's
  const run = await runGraph(graph, { inputs: { model: gltf }, cacheDir: false });
  const scene = run.outputs.scene as Document;
  const images = scene.getRoot().listTextures().map((t) => t.getImage()?.byteLength ?? 0);
  assertEquals(images.length, 2);
  assert(images.every((n) => n > 60), `both drawn from the DDS files (as PNG): ${images}`);
  const warnings = run.warnings.map((w) => w.message);
  for (
    const read of [join(plane, "texture.AAL", "CUB_ALBD.PNG.DDS"), join(plane, "texture", "CUB_NORM.PNG.DDS")]
  ) {
    assert(warnings.some((w) => w.includes(`is not beside the model; read '${read}'`)), warnings.join("\n"));
  }
  // A model folder beside several texture folders, none its own: nothing is guessed.
  await Deno.rename(model, join(plane, "model"));
  await Deno.remove(join(plane, "texture"), { recursive: true });
  const unclear = await runGraph(graph, {
    inputs: { model: join(plane, "model", "plane.gltf") },
    cacheDir: false,
  });
  const said = unclear.warnings.map((w) => w.message);
  assert(
    said.some((w) => /several texture folders beside it \(TEXTURE\.DAL, texture\.AAL\)/.test(w)),
    said.join("\n"),
  );
  assertEquals((unclear.outputs.scene as Document).getRoot().listTextures().length, 0);
  // Named as a resource root, the livery's folder is used.
  const named = await runGraph(
    {
      ...graph,
      nodes: {
        ...graph.nodes,
        read: {
          ...graph.nodes.read,
          params: { ...graph.nodes.read.params, resource_roots: [join(plane, "texture.AAL")] },
        },
      },
    },
    { inputs: { model: join(plane, "model", "plane.gltf") }, cacheDir: false },
  );
  assertEquals((named.outputs.scene as Document).getRoot().listTextures().length, 1);
});

Deno.test("a Flight Simulator texture folder's texture.cfg fallbacks are followed inside the package and the resource roots, never beyond", async () => {
  const dir = await tempDir();
  const plane = join(dir, "Cub", "SimObjects", "Airplanes", "Cub");
  const model = join(plane, "model");
  await Deno.mkdir(model, { recursive: true });
  await separateGltf(model);
  const gltf = join(model, "plane.gltf");
  const json = JSON.parse(await Deno.readTextFile(gltf));
  json.images = [{ uri: "CUB_ALBD.PNG" }, { uri: "CUB_COMP.PNG" }, { uri: "DETAIL_NORM.PNG" }];
  json.textures = [{ source: 0 }, { source: 1 }, { source: 2 }];
  json.materials[0].pbrMetallicRoughness.metallicRoughnessTexture = { index: 1 };
  json.materials[0].normalTexture = { index: 2 };
  await Deno.writeTextFile(gltf, JSON.stringify(json));
  await Deno.remove(join(model, "textures"), { recursive: true });
  const dds = concat(
    ddsHeader(2, 2, { bits: 32, masks: [0xff0000, 0xff00, 0xff, 0xff000000], pfFlags: 0x41 }),
    new Uint8Array(16).fill(128),
  );
  const put = async (folder: string, name: string) => {
    await Deno.mkdir(folder, { recursive: true });
    await Deno.writeFile(join(folder, name), dds);
  };
  await put(join(plane, "texture"), "CUB_ALBD.PNG.DDS");
  await put(join(plane, "texture.base"), "CUB_COMP.PNG.DDS");
  // Outside the package: a fallback pointing there is never followed.
  await put(join(dir, "outside"), "DETAIL_NORM.PNG.DDS");
  await Deno.writeTextFile(
    join(plane, "texture", "TEXTURE.CFG"),
    [
      "[fltsim]",
      "fallback.3=..\\..\\..\\..\\..\\outside",
      "fallback.1=..\\..\\..\\..\\texture\\DetailMap ; the base game's shared details",
      'fallback.2="..\\texture.base"',
    ].join("\r\n"),
  );
  const readWith = (roots: string[]) =>
    runGraph({
      ...graph,
      nodes: {
        ...graph.nodes,
        read: { ...graph.nodes.read, params: { ...graph.nodes.read.params, resource_roots: roots } },
      },
    }, { inputs: { model: gltf }, cacheDir: false });
  const drawn = (run: Awaited<ReturnType<typeof runGraph>>) => {
    const material = (run.outputs.scene as Document).getRoot().listMaterials()[0];
    return [
      material.getBaseColorTexture(),
      material.getMetallicRoughnessTexture(),
      material.getNormalTexture(),
    ]
      .map((texture) => texture !== null);
  };
  const alone = await readWith([]);
  assertEquals(
    drawn(alone),
    [true, true, false],
    "the sibling fallback is read; the detail map is nowhere to read",
  );
  const said = alone.warnings.map((w) => w.message);
  assert(
    said.some((w) =>
      w.includes("'DETAIL_NORM.PNG' not found") &&
      w.includes("fallback.1=..\\..\\..\\..\\texture\\DetailMap") &&
      w.includes("fallback.3=") && w.includes("resource_roots")
    ),
    said.join("\n"),
  );
  assert(!said.some((w) => w.includes(join(dir, "outside"))), said.join("\n"));
  // The base game's package named as a resource root: the fallback is read in it, as the sim's file system does.
  const fsBase = join(dir, "fs-base");
  await put(join(fsBase, "texture", "DetailMap"), "DETAIL_NORM.PNG.DDS");
  const withBase = await readWith([fsBase]);
  assertEquals(drawn(withBase), [true, true, true]);
  const read = join(fsBase, "texture", "DetailMap", "DETAIL_NORM.PNG.DDS");
  assert(
    withBase.warnings.some((w) => w.message.includes(`read '${read}'`)),
    withBase.warnings.map((w) => w.message).join("\n"),
  );
});

Deno.test("a glTF 1.0 .gltf with separate buffer and texture files (its items keyed by id) is read whole; a missing image is left out", async () => {
  const dir = await tempDir();
  await separateGltf(dir);
  const source = await gltfIO().then((io) => io.read(join(dir, "plane.gltf")));
  const files: Record<string, Uint8Array> = {};
  const external = (uri: string, name: string) => {
    files[name] = Uint8Array.fromBase64(uri.slice(uri.indexOf(",") + 1));
    return name;
  };
  const bytes = await gltf1Of(source, {
    edit: (json) => {
      for (const buffer of Object.values(json.buffers) as { uri: string }[]) {
        buffer.uri = external(buffer.uri, "plane.bin");
      }
      const [image] = Object.values(json.images) as { uri: string }[];
      image.uri = external(image.uri, "skin%20tex.png");
      json.images.lost = { uri: "lost.png" };
      json.textures.lost_texture = { source: "lost", sampler: Object.keys(json.samplers ?? {})[0] };
    },
  });
  const gltf = join(dir, "old", "plane.gltf");
  await Deno.mkdir(join(dir, "old"));
  await Deno.writeFile(gltf, bytes);
  for (const [name, data] of Object.entries(files)) {
    await Deno.writeFile(join(dir, "old", decodeURIComponent(name)), data);
  }
  const run = await runGraph(graph, { inputs: { model: gltf }, cacheDir: false });
  const scene = run.outputs.scene as Document;
  assertEquals(scene.getRoot().listMeshes().length, 1);
  const images = scene.getRoot().listTextures().filter((t) => t.getImage()).map((t) =>
    t.getImage()!.byteLength
  );
  assertEquals(images, [70], "the texture file is embedded");
  const said = run.warnings.map((w) => w.message);
  assert(said.some((w) => w.includes("/images/lost/uri 'lost.png' not found")), said.join("\n"));
});
