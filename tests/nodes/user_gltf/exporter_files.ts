/**
 * Files from exporters the other generators leave out, written as those tools write them:
 *
 * - Blender's own exporter (glTF Separate: `.gltf` + `.bin`): materials with KHR_materials_volume,
 *   transmission, ior, specular, sheen, clearcoat and emissive_strength (Blender writes strength past 1
 *   as the extension), a shape-keyed mesh with `extras.targetNames`, a `CUBICSPLINE` scale animation
 *   (in-tangent, value, out-tangent per key) and a `STEP` weights one (Blender's Constant interpolation);
 * - 3ds Max's Babylon exporter (`.glb`): KHR_materials_pbrSpecularGlossiness materials with a diffuse
 *   texture, a default metal-rough block beside, node names like `Box001`, rotations as quaternions;
 * - photogrammetry (RealityCapture, Polycam): one mesh of more than 65,535 vertices with uint32 indices,
 *   split by texture tile into primitives, each tile's 8K texture referenced by URI (`model_u1_v1.jpg`,
 *   JPEG headers of 8192²), some tiles' files missing beside the model; Polycam's with KHR_texture_basisu
 *   required and `.ktx2` tiles;
 * - CAD converters (CAD Exchanger, Pixyz style, `.glb`): hundreds of tiny meshes, no materials,
 *   KHR_mesh_quantization (int16 normalized positions under a dequantizing node), names with `/` and `:`
 *   (`Assembly:1/Bracket:3`).
 *
 * Each file's truth lists what a client shows of it, for tests/nodes/user_gltf/exporter_judge.ts.
 *
 * @module
 */
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";
import { uastcKtx2 } from "../../support/ktx2.ts";
import { bounds, type Json, Writer } from "../decode/gltf_exporter_parts.ts";

/** The exporters imitated. */
export const EXPORTER_KINDS = [
  "blender-khr",
  "babylon-3dsmax",
  "photogrammetry",
  "polycam-basisu",
  "cad-converter",
] as const;
/** One of {@link EXPORTER_KINDS}. */
export type ExporterKind = typeof EXPORTER_KINDS[number];

/** What a client shows of the file. */
export interface ExporterTruth {
  /** Per material name, per extension, getter name → value. */
  readonly materials: Record<string, Record<string, Record<string, number | readonly number[] | "texture">>>;
  /** Animation channels: target node name, path, interpolation, key count, output element count. */
  readonly animations: readonly {
    node: string;
    path: string;
    interpolation: string;
    keys: number;
    outputs: number;
  }[];
  /** Node names kept exactly. */
  readonly nodes: readonly string[];
  /** Triangles drawn in all. */
  readonly triangles: number;
  /** World bounds of everything drawn. */
  readonly min: readonly number[];
  readonly max: readonly number[];
  /** Textures kept, and how many of them are KTX2. */
  readonly textures: number;
  readonly ktx2: number;
  /** Files the model references that are not beside it: each must be named in a warning. */
  readonly missing: readonly string[];
}

/** One generated file: its folder's files (the model is `main`) and the truth. */
export interface ExporterGltf {
  readonly kind: ExporterKind;
  readonly detail: string;
  readonly main: string;
  readonly files: Record<string, Uint8Array>;
  readonly truth: ExporterTruth;
}

/** A baseline JPEG's header for a `size`² image (SOI, JFIF, comment, DQT, SOF0, DHT, SOS) and a short scan. */
function jpegHeader(size: number, comment: string): Uint8Array {
  const segment = (
    marker: number,
    body: number[],
  ) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 255, ...body];
  return new Uint8Array([
    0xff,
    0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xfe, [...encoder.encode(comment)]),
    ...segment(0xdb, [0, ...Array(64).fill(1)]),
    ...segment(0xc0, [8, size >> 8, size & 255, size >> 8, size & 255, 1, 1, 0x11, 0]),
    ...segment(0xc4, [0, 0, 1, ...Array(15).fill(0), 0]),
    ...segment(0xda, [1, 1, 0, 0, 63, 0]),
    0,
    0,
    0,
    0,
    0xff,
    0xd9,
  ]);
}

/** The GLB's JSON and binary chunk (a Writer writes GLB; the separate-file tools write both apart). */
function split(glb: Uint8Array): { json: Json; bin: Uint8Array } {
  const view = new DataView(glb.buffer, glb.byteOffset);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const binLength = view.getUint32(20 + jsonLength, true);
  return { json, bin: glb.slice(28 + jsonLength, 28 + jsonLength + binLength) };
}

const encoder = new TextEncoder();

/** Makes the file of `kind` for `seed`. */
export async function exporterGltf(kind: ExporterKind, seed: number): Promise<ExporterGltf> {
  await loadPngEncoder();
  const rnd = prng(seed * 6151 + EXPORTER_KINDS.indexOf(kind) * 97);
  const round = (v: number) => Math.fround(Math.round(v * 1000) / 1000);
  if (kind === "blender-khr") return blender(rnd, round);
  if (kind === "babylon-3dsmax") return babylon(rnd, round);
  if (kind === "cad-converter") return cad(rnd);
  return photogrammetry(kind, rnd);
}

type Rnd = () => number;

/** A box of `size` about `centre`: 8 corners, 12 triangles. */
function box(
  w: Writer,
  centre: number[],
  size: number[],
): { position: number; indices: number; positions: Float32Array } {
  const positions = new Float32Array(24);
  for (let i = 0; i < 8; i++) {
    for (let k = 0; k < 3; k++) {
      positions[3 * i + k] = Math.fround(centre[k] + ((i >> k) & 1 ? 0.5 : -0.5) * size[k]);
    }
  }
  const faces = [
    0,
    2,
    1,
    1,
    2,
    3,
    4,
    5,
    6,
    5,
    7,
    6,
    0,
    1,
    4,
    1,
    5,
    4,
    2,
    6,
    3,
    3,
    6,
    7,
    0,
    4,
    2,
    2,
    4,
    6,
    1,
    3,
    5,
    3,
    7,
    5,
  ];
  return { position: w.floats(positions, "VEC3", undefined, true), indices: w.indices(faces), positions };
}

function blender(rnd: Rnd, round: (v: number) => number): ExporterGltf {
  const w = new Writer();
  const size = [1 + rnd(), 0.5 + rnd(), 2 + rnd()].map(round);
  const { position, indices, positions } = box(w, [0, 0, 0], size);
  const deltas = [0, 1].map(() => new Float32Array(24).map(() => round((rnd() - 0.5) * 0.2)));
  const targets = deltas.map((d) => ({ POSITION: w.floats(d, "VEC3", undefined, true) }));
  const materials: ExporterTruth["materials"] = {};
  // Blender's node-tree textures on the extensions' slots (its Principled BSDF's transmission, thickness, coat normal).
  const [t0, t1, t2] = [[40, 40, 40, 255], [90, 90, 90, 255], [128, 128, 255, 255]].map((c) =>
    w.texture(w.image(c as [number, number, number, number]))
  );
  const glass = {
    KHR_materials_transmission: {
      transmissionFactor: round(0.5 + rnd() / 2),
      transmissionTexture: { index: t0 },
    },
    KHR_materials_volume: {
      thicknessFactor: round(0.01 + rnd()),
      attenuationDistance: round(1 + rnd() * 5),
      attenuationColor: [round(rnd()), round(rnd()), 1],
      thicknessTexture: { index: t1, texCoord: 0 },
    },
    KHR_materials_ior: { ior: round(1.3 + rnd() * 0.4) },
    KHR_materials_specular: {
      specularFactor: round(rnd()),
      specularColorFactor: [1, round(rnd()), round(rnd())],
    },
  };
  const paint = {
    KHR_materials_clearcoat: {
      clearcoatFactor: round(rnd()),
      clearcoatRoughnessFactor: round(rnd()),
      clearcoatNormalTexture: { index: t2, scale: 0.5 },
    },
    KHR_materials_sheen: {
      sheenColorFactor: [round(rnd()), round(rnd()), round(rnd())],
      sheenRoughnessFactor: round(rnd()),
    },
    KHR_materials_emissive_strength: { emissiveStrength: round(1.5 + rnd() * 20) },
  };
  const getters: Record<string, string> = { ior: "getIOR" };
  const truthOf = (extensions: Record<string, Record<string, unknown>>) =>
    Object.fromEntries(
      Object.entries(extensions).map(([name, props]) => [
        name,
        Object.fromEntries(
          Object.entries(props).map((
            [k, v],
          ) => [
            getters[k] ?? `get${k[0].toUpperCase()}${k.slice(1)}`,
            k.endsWith("Texture") ? "texture" : v,
          ]),
        ),
      ]),
    ) as Record<string, Record<string, number | readonly number[] | "texture">>;
  const glassName = "Glass.001", paintName = "Car Paint";
  materials[glassName] = truthOf(glass);
  materials[paintName] = truthOf(paint);
  const glassIndex = w.material({
    name: glassName,
    pbrMetallicRoughness: { baseColorFactor: [1, 1, 1, 0.2], roughnessFactor: 0.05 },
    alphaMode: "BLEND",
    extensions: glass,
  });
  const paintIndex = w.material({
    name: paintName,
    emissiveFactor: [1, 0.2, 0],
    pbrMetallicRoughness: { metallicFactor: 0.9 },
    extensions: paint,
  });
  w.use(...Object.keys(glass), ...Object.keys(paint));
  const tri = [0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6];
  // UVs projected from above (x, z), as Blender's Project From View lays a box out.
  const projected = new Float32Array(16);
  for (let i = 0; i < 8; i++) {
    projected.set([positions[3 * i] / size[0] + 0.5, positions[3 * i + 2] / size[2] + 0.5], 2 * i);
  }
  const uv = w.floats(projected, "VEC2");
  // Blender writes normals always: the box's corners' own, outward.
  const normal = w.floats(positions.map((v) => Math.sign(v) / Math.sqrt(3)), "VEC3");
  w.json.meshes.push({
    name: "Cube.001",
    primitives: [
      {
        attributes: { POSITION: position, NORMAL: normal, TEXCOORD_0: uv },
        indices,
        material: paintIndex,
        targets,
      },
      {
        attributes: {
          POSITION: w.floats(positions, "VEC3", undefined, true),
          NORMAL: normal,
          TEXCOORD_0: uv,
        },
        indices: w.indices(tri),
        material: glassIndex,
        targets: deltas.map(() => ({ POSITION: w.floats(new Float32Array(24), "VEC3", undefined, true) })),
      },
    ],
    weights: [0, 0],
    extras: { targetNames: ["Key 1", "Key 2"] },
  });
  const node = w.node({ name: "Cube", mesh: 0, translation: [0, round(rnd()), 0] });
  const keys = 2 + Math.floor(rnd() * 4);
  let time = 0;
  const times = new Float32Array(keys).map(() =>
    time = Math.fround(time + 1 / 24 * (1 + Math.floor(rnd() * 10)))
  );
  const input = w.accessor({
    bufferView: w.view(new Uint8Array(times.buffer)),
    componentType: 5126,
    count: keys,
    type: "SCALAR",
    min: [times[0]],
    max: [times[keys - 1]],
  });
  // CUBICSPLINE: in-tangent, value, out-tangent per key; tangents of 0 as Blender writes Bezier keys' flat handles.
  const scale = new Float32Array(keys * 9);
  for (let k = 0; k < keys; k++) scale.set([1 + rnd(), 1 + rnd(), 1 + rnd()].map(round), 9 * k + 3);
  const stepWeights = new Float32Array(keys * 2).map(() => Math.round(rnd()));
  const scaleOut = w.accessor({
    bufferView: w.view(new Uint8Array(scale.buffer)),
    componentType: 5126,
    count: keys * 3,
    type: "VEC3",
  });
  const weightsOut = w.accessor({
    bufferView: w.view(new Uint8Array(stepWeights.buffer)),
    componentType: 5126,
    count: keys * 2,
    type: "SCALAR",
  });
  w.json.animations = [{
    name: "CubeAction",
    channels: [{ sampler: 0, target: { node, path: "scale" } }, {
      sampler: 1,
      target: { node, path: "weights" },
    }],
    samplers: [{ input, output: scaleOut, interpolation: "CUBICSPLINE" }, {
      input,
      output: weightsOut,
      interpolation: "STEP",
    }],
  }];
  const { json, bin } = split(w.glb("Khronos glTF Blender I/O v4.1.63"));
  json.buffers[0].uri = "Cube.bin";
  const y = (json.nodes[0].translation as number[])[1];
  return {
    kind: "blender-khr",
    detail: `${keys} keys`,
    main: "Cube.gltf",
    files: { "Cube.gltf": encoder.encode(JSON.stringify(json, null, 2)), "Cube.bin": bin },
    truth: {
      materials,
      animations: [
        { node: "Cube", path: "scale", interpolation: "CUBICSPLINE", keys, outputs: keys * 3 },
        { node: "Cube", path: "weights", interpolation: "STEP", keys, outputs: keys * 2 },
      ],
      nodes: ["Cube"],
      triangles: 16,
      min: [-size[0] / 2, y - size[1] / 2, -size[2] / 2].map(Math.fround),
      max: [size[0] / 2, y + size[1] / 2, size[2] / 2].map(Math.fround),
      textures: 3,
      ktx2: 0,
      missing: [],
    },
  };
}

function babylon(rnd: Rnd, round: (v: number) => number): ExporterGltf {
  const w = new Writer();
  const count = 2 + Math.floor(rnd() * 4);
  const materials: ExporterTruth["materials"] = {};
  const nodes: string[] = [];
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i++) {
    const name = `Box${String(i + 1).padStart(3, "0")}`;
    const centre = [i * 3, 0, 0];
    const { position, indices, positions } = box(w, centre, [1, 1 + round(rnd()), 1]);
    const b = bounds(positions);
    for (let k = 0; k < 3; k++) min[k] = Math.min(min[k], b.min[k]), max[k] = Math.max(max[k], b.max[k]);
    const sg = {
      diffuseFactor: [round(rnd()), round(rnd()), round(rnd()), 1],
      specularFactor: [round(rnd()), round(rnd()), round(rnd())],
      glossinessFactor: round(rnd()),
      diffuseTexture: { index: w.texture(w.image([200, 50 + i * 20, 30, 255])) },
    };
    const material = w.material({
      name: `${name}_Mat`,
      pbrMetallicRoughness: { metallicFactor: 0, roughnessFactor: round(1 - sg.glossinessFactor) },
      extensions: { KHR_materials_pbrSpecularGlossiness: sg },
    });
    materials[`${name}_Mat`] = {
      KHR_materials_pbrSpecularGlossiness: {
        getDiffuseFactor: sg.diffuseFactor,
        getGlossinessFactor: sg.glossinessFactor,
      },
    };
    const uvs = w.floats(new Float32Array(16).map(() => round(rnd())), "VEC2");
    w.json.meshes.push({
      name,
      primitives: [{ attributes: { POSITION: position, TEXCOORD_0: uvs }, indices, material }],
    });
    w.node({ name, mesh: i, rotation: [0, 0, 0, 1] });
    nodes.push(name);
  }
  w.use("KHR_materials_pbrSpecularGlossiness");
  return {
    kind: "babylon-3dsmax",
    detail: `${count} boxes`,
    main: "scene.glb",
    files: { "scene.glb": w.glb("babylon.js glTF exporter for 3ds max 2023 v20230314.1") },
    truth: {
      materials,
      animations: [],
      nodes,
      triangles: 12 * count,
      min,
      max,
      textures: count,
      ktx2: 0,
      missing: [],
    },
  };
}

function photogrammetry(kind: "photogrammetry" | "polycam-basisu", rnd: Rnd): ExporterGltf {
  const w = new Writer();
  const tiles = 1 + Math.floor(rnd() * 4);
  // A height field of side n: n² vertices, past 65,535 so indices are uint32.
  const n = 260 + Math.floor(rnd() * 40);
  const positions = new Float32Array(n * n * 3), uvs = new Float32Array(n * n * 2);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      positions.set(
        [x * 0.01, Math.fround(Math.sin(x / 9) * Math.cos(y / 7) * 0.05), y * 0.01],
        3 * (y * n + x),
      );
      uvs.set([x / (n - 1), y / (n - 1)], 2 * (y * n + x));
    }
  }
  const position = w.floats(positions, "VEC3", undefined, true), uv = w.floats(uvs, "VEC2");
  const rows = Math.floor((n - 1) / tiles);
  const basisu = kind === "polycam-basisu";
  const files: Record<string, Uint8Array> = {};
  const missing: string[] = [];
  const primitives: Json[] = [];
  let triangles = 0;
  w.json.images = [];
  w.json.textures = [];
  for (let t = 0; t < tiles; t++) {
    const last = t === tiles - 1 ? n - 1 : (t + 1) * rows;
    const list: number[] = [];
    for (let y = t * rows; y < last; y++) {
      for (let x = 0; x < n - 1; x++) {
        const a = y * n + x;
        list.push(a, a + n, a + 1, a + 1, a + n, a + n + 1);
      }
    }
    triangles += list.length / 3;
    const view = w.view(new Uint8Array(new Uint32Array(list).buffer), { target: 34963 });
    const indices = w.accessor({ bufferView: view, componentType: 5125, count: list.length, type: "SCALAR" });
    const file = basisu ? `texture_${t}.ktx2` : `model_u${t + 1}_v1.jpg`;
    // Some tiles' files were not copied with the model (a user moving the .gltf alone, a cut upload).
    if (tiles > 1 && rnd() < 0.35) missing.push(file);
    else files[file] = basisu ? uastcKtx2(8, 8, () => [120, 100 + t * 20, 80]) : jpegHeader(8192, file);
    const image = w.json.images.push({ uri: file, ...(basisu ? { mimeType: "image/ktx2" } : {}) }) - 1;
    const texture = w.json.textures.push(
      basisu ? { extensions: { KHR_texture_basisu: { source: image } } } : { source: image },
    ) - 1;
    const material = w.material({
      name: `Material_${t}`,
      pbrMetallicRoughness: { baseColorTexture: { index: texture }, metallicFactor: 0 },
    });
    primitives.push({ attributes: { POSITION: position, TEXCOORD_0: uv }, indices, material });
  }
  w.json.meshes.push({ name: basisu ? "mesh" : "Model", primitives });
  w.node({ name: basisu ? "Polycam Scan" : "Model" });
  w.json.nodes[0].mesh = 0;
  if (basisu) {
    w.use("KHR_texture_basisu");
    w.json.extensionsRequired = ["KHR_texture_basisu"];
  }
  const { json, bin } = split(w.glb(basisu ? "Polycam" : "RealityCapture 1.3"));
  json.buffers[0].uri = "model.bin";
  files["model.gltf"] = encoder.encode(JSON.stringify(json));
  files["model.bin"] = bin;
  const b = bounds(positions);
  return {
    kind,
    detail: `${n * n} vertices, ${tiles} tiles, missing ${missing.join(", ") || "none"}`,
    main: "model.gltf",
    files,
    truth: {
      materials: {},
      animations: [],
      nodes: [basisu ? "Polycam Scan" : "Model"],
      triangles,
      min: b.min,
      max: b.max,
      textures: tiles - missing.length,
      ktx2: basisu ? tiles - missing.length : 0,
      missing,
    },
  };
}

function cad(rnd: Rnd): ExporterGltf {
  const w = new Writer();
  const parts = 150 + Math.floor(rnd() * 250);
  const nodes: string[] = [];
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  const assemblies = 1 + Math.floor(rnd() * 5);
  const roots = Array.from({ length: assemblies }, (_, a) => {
    const name = `Assembly:${a + 1}`;
    nodes.push(name);
    return w.node({ name });
  });
  // One quantized box shared by all: int16 normalized corners in [-1, 1], each node scaling it to its size.
  const corners = new Int16Array(24);
  for (let i = 0; i < 8; i++) for (let k = 0; k < 3; k++) corners[3 * i + k] = (i >> k) & 1 ? 32767 : -32767;
  // A stride of 8: int16 VEC3 padded to 4-byte alignment, as gltfpack and meshoptimizer write it.
  const padded = new Int16Array(32);
  for (let i = 0; i < 8; i++) padded.set(corners.subarray(3 * i, 3 * i + 3), 4 * i);
  const view = w.view(new Uint8Array(padded.buffer), { target: 34962, byteStride: 8 });
  const position = w.accessor({
    bufferView: view,
    componentType: 5122,
    normalized: true,
    count: 8,
    type: "VEC3",
    min: [-1, -1, -1],
    max: [1, 1, 1],
  });
  const faces = w.indices([
    0,
    2,
    1,
    1,
    2,
    3,
    4,
    5,
    6,
    5,
    7,
    6,
    0,
    1,
    4,
    1,
    5,
    4,
    2,
    6,
    3,
    3,
    6,
    7,
    0,
    4,
    2,
    2,
    4,
    6,
    1,
    3,
    5,
    3,
    7,
    5,
  ]);
  for (let p = 0; p < parts; p++) {
    const half = [0.001 + rnd() * 0.02, 0.001 + rnd() * 0.02, 0.001 + rnd() * 0.02].map(Math.fround);
    const centre = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5].map((v) => Math.fround(v * 0.5));
    const name = `${["Bracket", "Screw M3x8", "Washer", "Housing/Body", "Pin"][p % 5]}:${p + 1}`;
    w.json.meshes.push({ name, primitives: [{ attributes: { POSITION: position }, indices: faces }] });
    w.node({ name, mesh: p, translation: centre, scale: half }, roots[p % assemblies]);
    nodes.push(name);
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], centre[k] - half[k]), max[k] = Math.max(max[k], centre[k] + half[k]);
    }
  }
  w.use("KHR_mesh_quantization");
  w.json.extensionsRequired = ["KHR_mesh_quantization"];
  return {
    kind: "cad-converter",
    detail: `${parts} parts`,
    main: "assembly.glb",
    files: { "assembly.glb": w.glb("CAD Exchanger") },
    truth: {
      materials: {},
      animations: [],
      nodes,
      triangles: 12 * parts,
      min,
      max,
      textures: 0,
      ktx2: 0,
      missing: [],
    },
  };
}
