/**
 * `deno task shapes` — hostile *shapes*, where the fuzzer damages bytes: valid files built by code
 * whose structure costs out of proportion to their size (a hierarchy 100,000 deep, one mesh drawn by
 * thousands of nodes, accessors aliasing one view, a meshopt view declaring 2³³ elements, …), each
 * run through its graph with the CLI (`run --no-cache`) in a process of its own under a time limit,
 * with its wall time and peak memory (GNU `/usr/bin/time`; without it, the wall time alone).
 *
 * Usage: `deno task shapes [--only 'text|text…'] [--timeout 120]` (`--only`: the shapes whose names
 * contain one of the texts). Prints a Markdown table: shape, file size, graph, outcome (`ok`, the
 * typed error's first words, `timeout`, or the crash), seconds, CPU seconds (user + sys) and peak MB;
 * exits 1 when any run timed out or crashed. The figures of the session that added it are in
 * docs/benchmarks.md.
 *
 * @module
 */
import { join } from "node:path";
import { Document, NodeIO, type TypedArray } from "@gltf-transform/core";
import { parseArgs } from "node:util";
import { dsonBytes, generateFigure } from "../tests/nodes/decode/dson/generate.ts";
import { fighterWithAileronAt } from "../tests/support/deep_fighter.ts";
import { glbOf, meshoptGlb, sharedMeshCompound } from "../tests/support/shapes.ts";
import { dracoGlb, dracoGrid, sharedDracoView, withCounts } from "../tests/support/draco.ts";
import { encode3df } from "../tests/support/carnivores/encode.ts";
import { limbModel } from "../tests/nodes/decode/carnivores/fixtures.ts";
import type { Bone } from "../nodes/decode/carnivores/codec/model.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** A shape: files to write (the first is the model) and the graph inputs beyond `model`. */
interface Shape {
  readonly name: string;
  readonly graph: string;
  readonly files: () => Promise<Record<string, Uint8Array>> | Record<string, Uint8Array>;
  readonly inputs?: (dir: string) => Record<string, string>;
}

/** One 65,535-vertex point cloud and a triangle list over it, as GLB binary and accessor JSON. */
function bigMesh(): { bin: Uint8Array; accessors: Json[]; views: Json[] } {
  const vertices = 65535;
  const positions = new Float32Array(3 * vertices).map((_, i) => ((i * 7919) % 1000) / 100);
  const indices = new Uint16Array(3 * 21845).map((_, i) => i % vertices);
  const bin = new Uint8Array(positions.byteLength + indices.byteLength);
  bin.set(new Uint8Array(positions.buffer));
  bin.set(new Uint8Array(indices.buffer), positions.byteLength);
  return {
    bin,
    views: [{ buffer: 0, byteLength: positions.byteLength }, {
      buffer: 0,
      byteOffset: positions.byteLength,
      byteLength: indices.byteLength,
    }],
    accessors: [
      {
        bufferView: 0,
        componentType: 5126,
        count: vertices,
        type: "VEC3",
        min: [0, 0, 0],
        max: [9.99, 9.99, 9.99],
      },
      { bufferView: 1, componentType: 5123, count: indices.length, type: "SCALAR" },
    ],
  };
}

/** A GLB around `bigMesh` with the meshes and nodes given. */
function bigMeshGlb(meshes: Json[], nodes: Json[], roots = nodes.map((_, i) => i)): Uint8Array {
  const { bin, accessors, views } = bigMesh();
  return glbOf({
    asset: { version: "2.0" },
    buffers: [{ byteLength: bin.byteLength }],
    bufferViews: views,
    accessors,
    meshes,
    nodes,
    scenes: [{ nodes: roots }],
  }, bin);
}

/**
 * One skinned mesh: a body on a root joint and `count` small quads, each weighted (0.9) to a bone of
 * its own named like an aileron — a skin of thousands of panel bones.
 */
async function panelBones(count: number): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const armature = doc.createNode("Armature");
  doc.createScene().addChild(armature);
  const root = doc.createNode("Root");
  armature.addChild(root);
  const skin = doc.createSkin().addJoint(root);
  const positions: number[] = [], joints: number[] = [], weights: number[] = [];
  const indices = [0, 1, 2, 1, 3, 2];
  for (let c = 0; c < 4; c++) {
    positions.push(-3 + (c & 1) * 2 * count, -0.5, (c >> 1) & 1);
    joints.push(0, 0, 0, 0);
    weights.push(1, 0, 0, 0);
  }
  for (let i = 0; i < count; i++) {
    const bone = doc.createNode(`aileron_${i}`).setTranslation([i * 2, 0, 0]);
    root.addChild(bone);
    skin.addJoint(bone);
    const base = positions.length / 3;
    for (const [x, z] of [[0, 0], [1, 0], [0, 0.3], [1, 0.3]]) {
      positions.push(i * 2 + x, 1, z);
      joints.push(i + 1, 0, 0, 0);
      weights.push(0.9, 0.1, 0, 0);
    }
    indices.push(base, base + 1, base + 2, base + 1, base + 3, base + 2);
  }
  const accessor = (type: "VEC3" | "VEC4" | "SCALAR", array: TypedArray) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const primitive = doc.createPrimitive()
    .setAttribute("POSITION", accessor("VEC3", new Float32Array(positions)))
    .setAttribute("JOINTS_0", accessor("VEC4", new Uint16Array(joints)))
    .setAttribute("WEIGHTS_0", accessor("VEC4", new Float32Array(weights)))
    .setIndices(accessor("SCALAR", new Uint32Array(indices)));
  armature.addChild(doc.createNode("body").setMesh(doc.createMesh().addPrimitive(primitive)).setSkin(skin));
  return await new NodeIO().writeBinary(doc);
}

/** `count` small quads at a scene's top, named like every kind of panel. */
function manyPanels(count: number): Uint8Array {
  const kinds = [
    "aileron_L",
    "aileron_R",
    "elevator_L",
    "rudder",
    "drag_rudder_L_upper",
    "flap_R",
    "spoiler_L",
  ];
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 0, 0.3, 1, 0, 0.3]);
  const indices = new Uint16Array([0, 1, 2, 1, 3, 2]);
  const bin = new Uint8Array(48 + 12 + 4);
  bin.set(new Uint8Array(positions.buffer));
  bin.set(new Uint8Array(indices.buffer), 48);
  const nodes = Array.from({ length: count }, (_, i) => ({
    name: `${kinds[i % kinds.length]}_${i}`,
    mesh: 0,
    translation: [(i % 100) * 2, Math.floor(i / 100) * 0.5, (i % 7) * 0.1],
  }));
  return glbOf({
    asset: { version: "2.0" },
    buffers: [{ byteLength: bin.byteLength }],
    bufferViews: [{ buffer: 0, byteLength: 48 }, { buffer: 0, byteOffset: 48, byteLength: 12 }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 4, type: "VEC3", min: [0, 0, 0], max: [1, 0, 0.3] },
      { bufferView: 1, componentType: 5123, count: 6, type: "SCALAR" },
    ],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
    nodes,
    scenes: [{ nodes: nodes.map((_, i) => i) }],
  }, bin);
}

const SHAPES: readonly Shape[] = [
  {
    name: "glTF chain 100,000 deep",
    graph: "aircraft_file.json",
    files: async () => ({ "deep.gltf": (await fighterWithAileronAt(100_000)).bytes }),
  },
  {
    name: "glTF chain at the bound, a panel at its bottom",
    graph: "aircraft_file.json",
    files: async () => ({ "bound.gltf": (await fighterWithAileronAt(512)).bytes }),
  },
  {
    name: "Freelancer part chain of 20,000",
    graph: "freelancer.json",
    files: () => ({
      "chain.cmp": sharedMeshCompound({
        parts: 20_000,
        vertices: 3,
        used: 3,
        start: () => 0,
        parent: (p) => p - 1,
      }),
    }),
  },
  {
    name: "Freelancer: 2,000 parts drawing one mesh from 97 starts",
    graph: "gltf.json",
    files: () => ({
      "overlap.cmp": sharedMeshCompound({
        parts: 2_000,
        vertices: 65535,
        used: 65335,
        start: (p) => p % 97,
        parent: () => 0,
      }),
    }),
  },
  {
    name: "DSON bone chain of 20,000",
    graph: "dson.json",
    files: () => ({ "chain.duf": dsonBytes(generateFigure({ side: 4, bones: 20_000 })) }),
  },
  {
    name: "DSON 2,000 instances of a 500-bone library figure",
    graph: "dson.json",
    files: () => {
      const figure = generateFigure({ side: 3, bones: 500, assetId: "/data/fig.dsf" }) as Json;
      delete figure.scene;
      for (let k = 1; k < figure.node_library.length; k++) figure.node_library[k].parent = "#gen_figure";
      const nodes = Array.from(
        { length: 2000 },
        (_, k) => ({ id: `f-${k}`, url: "/data/fig.dsf#gen_figure" }),
      );
      return {
        "crowd.duf": dsonBytes({
          file_version: "0.6.1.0",
          asset_info: { id: "/x.duf", type: "scene" },
          scene: { nodes },
        }),
        "root/data/fig.dsf": dsonBytes(figure),
      };
    },
    inputs: (dir) => ({ content_roots: JSON.stringify([join(dir, "root")]) }),
  },
  {
    name: "DSON 1,000 instances of one 14,400-vertex figure",
    graph: "dson.json",
    files: () => {
      const figure = generateFigure({ side: 120, bones: 3 }) as Json;
      const instance = figure.scene.nodes[0];
      for (let k = 1; k < 1000; k++) {
        figure.scene.nodes.push({
          ...instance,
          id: `copy-${k}`,
          geometries: [{ id: `g-${k}`, url: "#gen_figure_geo" }],
        });
      }
      return { "copies.duf": dsonBytes(figure) };
    },
  },
  {
    name: "DSON .dsf whose node parents loop, instanced under another node",
    graph: "dson.json",
    files: () => ({
      "loop.duf": dsonBytes({
        file_version: "0.6.1.0",
        asset_info: { id: "/x.duf", type: "scene" },
        node_library: [{ id: "holder", name: "holder", type: "node" }],
        scene: {
          nodes: [{ id: "h-1", url: "#holder" }, { id: "a-1", url: "/data/loop.dsf#A", parent: "#h-1" }],
        },
      }),
      "root/data/loop.dsf": dsonBytes({
        file_version: "0.6.1.0",
        asset_info: { id: "/data/loop.dsf", type: "figure" },
        node_library: [{ id: "A", name: "A", type: "node", parent: "#B" }, {
          id: "B",
          name: "B",
          type: "node",
          parent: "#A",
        }],
      }),
    }),
    inputs: (dir) => ({ content_roots: JSON.stringify([join(dir, "root")]) }),
  },
  {
    name: "Carnivores 5,000-bone chain",
    graph: "carnivores.json",
    files: () => {
      const bones: Bone[] = Array.from(
        { length: 5000 },
        (_, b) => ({ name: `b${b}`, pivot: [b * 0.5, 0, 0], parent: b - 1, hide: 0 }),
      );
      return { "chain.3df": encode3df(limbModel(bones)) };
    },
  },
  {
    name: "glTF: 2,000 panel nodes drawing one 65,535-vertex mesh",
    graph: "aircraft_file.json",
    files: () => {
      const kinds = ["left_aileron", "right_aileron", "elevator_l", "rudder", "flap_r"];
      const nodes = Array.from(
        { length: 2000 },
        (_, i) => ({ name: `${kinds[i % 5]}_${i}`, mesh: 0, translation: [i, 0, 0] }),
      );
      return {
        "instanced.glb": bigMeshGlb([{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }], nodes),
      };
    },
  },
  {
    name: "glTF: 500 primitives over one 65,535-vertex accessor",
    graph: "aircraft_file.json",
    files: () => {
      const primitives = Array.from({ length: 500 }, () => ({ attributes: { POSITION: 0 }, indices: 1 }));
      const nodes = [{ name: "left_aileron", mesh: 0 }, { name: "fuselage", mesh: 1 }];
      return { "primitives.glb": bigMeshGlb([{ primitives }, { primitives }], nodes) };
    },
  },
  {
    name: "glTF: 1,000 accessors over one buffer view",
    graph: "gltf.json",
    files: () => {
      const { bin, accessors, views } = bigMesh();
      const aliases = Array.from({ length: 1000 }, () => accessors[0]);
      return {
        "aliased.glb": glbOf({
          asset: { version: "2.0" },
          buffers: [{ byteLength: bin.byteLength }],
          bufferViews: views,
          accessors: aliases,
          meshes: aliases.map((_, i) => ({ primitives: [{ attributes: { POSITION: i }, mode: 0 }] })),
          nodes: aliases.map((_, i) => ({ mesh: i })),
          scenes: [{ nodes: aliases.map((_, i) => i) }],
        }, bin),
      };
    },
  },
  {
    name: "glTF: a meshopt view declaring 2²⁸ elements",
    graph: "gltf.json",
    files: () => ({ "m.glb": meshoptGlb(2 ** 28) }),
  },
  {
    name: "glTF: a meshopt view declaring 2³³ elements",
    graph: "gltf.json",
    files: () => ({ "m.glb": meshoptGlb(2 ** 33) }),
  },
  {
    name: "glTF: a Draco header declaring 100 million faces",
    graph: "gltf.json",
    files: async () => {
      const mesh = await dracoGrid(12, "edgebreaker");
      return { "d.glb": dracoGlb(mesh.json, withCounts(mesh, 1e8, 5e7)) };
    },
  },
  {
    name: "glTF: 2,000 primitives decoding one Draco view",
    graph: "gltf.json",
    files: async () => ({ "d.glb": sharedDracoView(await dracoGrid(100, "edgebreaker"), 2000) }),
  },
  {
    name: "glTF: a flat Draco grid of a million vertices",
    graph: "gltf.json",
    files: async () => {
      const mesh = await dracoGrid(1000, "edgebreaker");
      return { "d.glb": dracoGlb(mesh.json, mesh.stream) };
    },
  },
  {
    name: "glTF: 2,000 small panels at the top",
    graph: "aircraft_file.json",
    files: () => ({ "p.glb": manyPanels(2000) }),
  },
  {
    name: "glTF: 20,000 small panels at the top",
    graph: "aircraft_file.json",
    files: () => ({ "p.glb": manyPanels(20000) }),
  },
  {
    name: "glTF: one skin of 2,000 panel bones",
    graph: "aircraft_file.json",
    files: async () => ({ "b.glb": await panelBones(2000) }),
  },
];

const { values } = parseArgs({
  args: Deno.args,
  options: { only: { type: "string" }, timeout: { type: "string", default: "120" } },
});
const only = values.only?.split("|");
const timeoutSeconds = Number(values.timeout);
const main = new URL("../cli/main.ts", import.meta.url).pathname;
const graphs = new URL("../graphs/", import.meta.url).pathname;
const TIME = await Deno.stat("/usr/bin/time").then(
  (s) => (s.isFile ? "/usr/bin/time" : undefined),
  () => undefined,
);

console.log(
  "| shape | file | graph | outcome | seconds | CPU s | peak MB |\n| --- | ---: | --- | --- | ---: | ---: | ---: |",
);
let failed = 0;
for (const shape of SHAPES.filter((s) => !only || only.some((o) => s.name.includes(o)))) {
  const dir = await Deno.makeTempDir();
  try {
    const files = await shape.files();
    for (const [name, bytes] of Object.entries(files)) {
      await Deno.mkdir(join(dir, name, ".."), { recursive: true });
      await Deno.writeFile(join(dir, name), bytes);
    }
    const [model, bytes] = Object.entries(files)[0];
    const sets = Object.entries({ model: join(dir, model), ...shape.inputs?.(dir) })
      .flatMap(([k, v]) => ["--set", `${k}=${v}`]);
    const cli = [Deno.execPath(), "run", "--frozen", "-A", main, "run", join(graphs, shape.graph), ...sets];
    const run = [
      "timeout",
      String(timeoutSeconds),
      ...cli,
      "--out",
      join(dir, "out"),
      "--no-cache",
      "--quiet",
    ];
    // GNU time gives the peak memory and the CPU time (user + sys, which a loaded host does not
    // inflate as it does the wall clock); without it (Debian's `time` package) only the wall clock.
    const started = performance.now();
    const command = TIME
      ? new Deno.Command(TIME, { args: ["-f", "%e %M %U %S", ...run], stdout: "null", stderr: "piped" })
      : new Deno.Command(run[0], { args: run.slice(1), stdout: "null", stderr: "piped" });
    const { code, stderr } = await command.output();
    const lines = new TextDecoder().decode(stderr).trim().split("\n");
    const [seconds, kb, user, sys] = TIME
      ? (lines.pop() ?? "").split(" ").map(Number)
      : [Number(((performance.now() - started) / 1000).toFixed(2)), NaN, NaN, NaN];
    const message = lines.find((l) => l.startsWith("error:")) ?? lines.find((l) => l.trim()) ?? "";
    const outcome = code === 0
      ? "ok"
      : code === 124
      ? "timeout"
      : /DecodeError|expected .*, found/.test(message)
      ? message.replace(/^error: node '[^']+' \([^)]+\) failed: /, "").slice(0, 90) + "…"
      : `exit ${code}: ${message.slice(0, 90)}`;
    if (code === 124 || (code !== 0 && !/expected .*, found/.test(message))) failed++;
    const size = bytes.length < 2 ** 20
      ? `${Math.ceil(bytes.length / 1024)} KB`
      : `${(bytes.length / 2 ** 20).toFixed(1)} MB`;
    const peak = Number.isNaN(kb) ? "–" : Math.round(kb / 1024);
    const cpu = Number.isNaN(user + sys) ? "–" : (user + sys).toFixed(2);
    console.log(`| ${shape.name} | ${size} | ${shape.graph} | ${outcome} | ${seconds} | ${cpu} | ${peak} |`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
Deno.exit(failed ? 1 : 0);
