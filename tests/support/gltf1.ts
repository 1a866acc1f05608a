/**
 * glTF 1.0 files made by code from a glTF 2.0 document, as 1.0's writers shaped them (COLLADA2GLTF,
 * Cesium's samples): dictionaries keyed by id, strides on accessors, GLSL techniques or
 * `KHR_materials_common`, `jointName`s, animation parameters, and optionally several meshes on one
 * node, one vertex view shared by attributes of different strides, a bind shape matrix, and the
 * binary container (GLB version 1, `KHR_binary_glTF`). The same model as 2.0 is the document itself,
 * so a test can compare what both decode and rig to.
 *
 * @module
 */
import { type Document, Format, NodeIO } from "@gltf-transform/core";

/** A glTF JSON object, loosely typed for editing. */
// deno-lint-ignore no-explicit-any
export type Json = Record<string, any>;

/** How the 1.0 file is written. */
export interface Gltf1Options {
  /** Binary glTF 1.0 (GLB version 1) rather than JSON with data URIs. */
  readonly binary?: boolean;
  /** Materials as `KHR_materials_common` (this lighting model) rather than a GLSL technique. */
  readonly common?: "BLINN" | "PHONG" | "LAMBERT" | "CONSTANT";
  /** Nodes whose one primitive is written as two meshes on the node (its triangles halved). */
  readonly splitMeshes?: (nodeName: string) => boolean;
  /** All vertex views merged into one (its accessors of different strides, as COLLADA2GLTF wrote them). */
  readonly sharedVertexView?: boolean;
  /** A translation written as every skin's bind shape matrix (the inverse bind matrices compensate). */
  readonly bindShapeTranslation?: readonly [number, number, number];
  /** Leave `asset` out (1.0 allowed it; the 1.0 shape alone says the version). */
  readonly noAsset?: boolean;
  /** Edits the 1.0 JSON before it is packed. */
  readonly edit?: (json: Json) => void;
}

/** Writes `doc` as a glTF 1.0 file (`.gltf` JSON bytes, or a version-1 `.glb`). */
export async function gltf1Of(doc: Document, options: Gltf1Options = {}): Promise<Uint8Array> {
  const written = await new NodeIO().writeJSON(doc, { format: Format.GLB });
  const v2 = written.json as Json;
  const body = Object.values(written.resources)[0] ?? new Uint8Array(0);
  const extra: Uint8Array[] = [];
  let extraLength = body.byteLength;
  /** Appends bytes to the one buffer, 4-aligned; returns their offset. */
  const append = (bytes: Uint8Array) => {
    const pad = (4 - (extraLength % 4)) % 4;
    if (pad) extra.push(new Uint8Array(pad)), extraLength += pad;
    const at = extraLength;
    extra.push(bytes);
    extraLength += bytes.byteLength;
    return at;
  };
  const id = (collection: string, i: number) => `${collection}_${i}`;
  const bufferId = options.binary ? "binary_glTF" : "buffer_0";
  const json: Json = { extensionsUsed: [] as string[] };
  if (!options.noAsset) json.asset = { version: "1.0", generator: "partgraph tests (gltf1Of)" };
  const views: Json = {};
  (v2.bufferViews ?? []).forEach((view: Json, i: number) => {
    views[id("bufferView", i)] = {
      buffer: bufferId,
      byteOffset: view.byteOffset ?? 0,
      byteLength: view.byteLength,
      ...(view.target ? { target: view.target } : {}),
    };
  });
  const accessors: Json = {};
  (v2.accessors ?? []).forEach((accessor: Json, i: number) => {
    const view = v2.bufferViews[accessor.bufferView];
    accessors[id("accessor", i)] = {
      bufferView: id("bufferView", accessor.bufferView),
      byteOffset: accessor.byteOffset ?? 0,
      byteStride: view.byteStride ?? 0,
      componentType: accessor.componentType,
      count: accessor.count,
      type: accessor.type,
      ...(accessor.min ? { min: accessor.min, max: accessor.max } : {}),
      ...(accessor.normalized ? { normalized: true } : {}),
    };
  });
  if (options.sharedVertexView) shareVertexViews(views, accessors);
  json.accessors = accessors;
  json.bufferViews = views;
  // Images: data URIs in JSON, the binary body's views in a binary file.
  const images: Json = {};
  (v2.images ?? []).forEach((image: Json, i: number) => {
    const view = v2.bufferViews[image.bufferView];
    const bytes = body.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
    images[id("image", i)] = options.binary
      ? {
        name: image.name,
        uri: "data:,",
        extensions: {
          KHR_binary_glTF: { bufferView: id("bufferView", image.bufferView), mimeType: image.mimeType },
        },
      }
      : { name: image.name, uri: `data:${image.mimeType};base64,${bytes.toBase64()}` };
  });
  json.images = images;
  json.samplers = Object.fromEntries(
    (v2.samplers ?? [{}]).map((sampler: Json, i: number) => [id("sampler", i), { ...sampler }]),
  );
  json.textures = Object.fromEntries(
    (v2.textures ?? []).map((texture: Json, i: number) => [id("texture", i), {
      source: id("image", texture.source),
      sampler: id("sampler", texture.sampler ?? 0),
      format: 6408,
      internalFormat: 6408,
      target: 3553,
      type: 5121,
    }]),
  );
  writeMaterials(json, v2, options);
  // Meshes (several per node where asked: each half of the triangles its own mesh and index accessor).
  const meshes: Json = {};
  const splitOf = new Map<number, string[]>();
  (v2.meshes ?? []).forEach((mesh: Json, i: number) => {
    meshes[id("mesh", i)] = { name: mesh.name, primitives: mesh.primitives.map(primitive1) };
  });
  (v2.nodes ?? []).forEach((node: Json) => {
    if (node.mesh === undefined || !options.splitMeshes?.(node.name ?? "") || splitOf.has(node.mesh)) return;
    const mesh = meshes[id("mesh", node.mesh)];
    const [primitive] = mesh.primitives;
    const indices = accessors[primitive.indices];
    const half = Math.floor(indices.count / 6) * 3;
    const size = indices.componentType === 5125 ? 4 : 2;
    const second = `${primitive.indices}_b`;
    accessors[second] = {
      ...indices,
      byteOffset: indices.byteOffset + half * size,
      count: indices.count - half,
    };
    delete accessors[second].min, delete accessors[second].max;
    indices.count = half;
    delete indices.min, delete indices.max;
    const secondId = `${id("mesh", node.mesh)}_b`;
    meshes[secondId] = { name: `${mesh.name}_part2`, primitives: [{ ...primitive, indices: second }] };
    splitOf.set(node.mesh, [id("mesh", node.mesh), secondId]);
  });
  json.meshes = meshes;
  writeNodes(json, v2, splitOf, options, append, body, bufferId);
  json.animations = Object.fromEntries((v2.animations ?? []).map((animation: Json, a: number) => {
    const parameters: Json = {}, samplers: Json = {};
    animation.samplers.forEach((sampler: Json, s: number) => {
      parameters[`TIME_${s}`] = id("accessor", sampler.input);
      parameters[`value_${s}`] = id("accessor", sampler.output);
      samplers[`sampler_${s}`] = {
        input: `TIME_${s}`,
        output: `value_${s}`,
        interpolation: sampler.interpolation ?? "LINEAR",
      };
    });
    const channels = animation.channels.map((channel: Json) => ({
      sampler: `sampler_${channel.sampler}`,
      target: { id: id("node", channel.target.node), path: channel.target.path },
    }));
    return [id("animation", a), { name: animation.name, parameters, samplers, channels }];
  }));
  json.scenes = Object.fromEntries((v2.scenes ?? []).map((scene: Json, i: number) => [id("scene", i), {
    name: scene.name,
    nodes: (scene.nodes ?? []).map((n: number) => id("node", n)),
  }]));
  json.scene = id("scene", v2.scene ?? 0);
  if (options.binary) json.extensionsUsed.push("KHR_binary_glTF");
  const buffer = new Uint8Array(extraLength);
  buffer.set(body);
  let at = body.byteLength;
  for (const chunk of extra) buffer.set(chunk, at), at += chunk.byteLength;
  json.buffers = {
    [bufferId]: options.binary ? { byteLength: buffer.byteLength, type: "arraybuffer", uri: "data:," } : {
      byteLength: buffer.byteLength,
      type: "arraybuffer",
      uri: `data:application/octet-stream;base64,${buffer.toBase64()}`,
    },
  };
  options.edit?.(json);
  return options.binary ? glbV1(json, buffer) : new TextEncoder().encode(JSON.stringify(json));
}

/** A 2.0 primitive as 1.0 wrote it: ids for accessors and material, 1.0's skin semantics. */
function primitive1(primitive: Json): Json {
  const semantic = (name: string) => name === "JOINTS_0" ? "JOINT" : name === "WEIGHTS_0" ? "WEIGHT" : name;
  return {
    attributes: Object.fromEntries(
      Object.entries(primitive.attributes).map(([name, a]) => [semantic(name), `accessor_${a}`]),
    ),
    ...(primitive.indices !== undefined ? { indices: `accessor_${primitive.indices}` } : {}),
    material: `material_${primitive.material ?? 0}`,
    mode: primitive.mode ?? 4,
  };
}

/** Every vertex view (target 34962) merged into one spanning them, its accessors' offsets and strides moved onto them. */
function shareVertexViews(views: Json, accessors: Json): void {
  const vertex = Object.entries(views).filter(([, view]) => view.target === 34962);
  if (vertex.length < 2) return;
  const start = Math.min(...vertex.map(([, view]) => view.byteOffset));
  const end = Math.max(...vertex.map(([, view]) => view.byteOffset + view.byteLength));
  for (const accessor of Object.values(accessors) as Json[]) {
    const view = views[accessor.bufferView];
    if (view?.target !== 34962) continue;
    accessor.byteOffset += view.byteOffset - start;
    accessor.bufferView = "bufferView_vertices";
  }
  for (const [key] of vertex) delete views[key];
  views.bufferView_vertices = {
    buffer: vertex[0][1].buffer,
    byteOffset: start,
    byteLength: end - start,
    target: 34962,
  };
}

/** sRGB of a linear colour (1.0 values are used as stored, on screen). */
function srgb(linear: number): number {
  return linear <= 0.0031308 ? linear * 12.92 : 1.055 * Math.pow(linear, 1 / 2.4) - 0.055;
}

function writeMaterials(json: Json, v2: Json, options: Gltf1Options): void {
  const materials: Json = {};
  const list = v2.materials?.length ? v2.materials : [{ name: "default" }];
  list.forEach((material: Json, i: number) => {
    const pbr = material.pbrMetallicRoughness ?? {};
    const factor = (pbr.baseColorFactor ?? [1, 1, 1, 1]) as number[];
    const diffuse = pbr.baseColorTexture ? `texture_${pbr.baseColorTexture.index}` : [
      ...factor.slice(0, 3).map(srgb),
      factor[3],
    ];
    const values: Json = { diffuse, shininess: 50, specular: [0.2, 0.2, 0.2, 1], emission: [0, 0, 0, 1] };
    materials[`material_${i}`] = options.common
      ? {
        name: material.name,
        extensions: { KHR_materials_common: { technique: options.common, doubleSided: false, values } },
      }
      : { name: material.name, technique: "technique_blinn", values };
  });
  json.materials = materials;
  if (options.common) {
    json.extensionsUsed.push("KHR_materials_common");
    return;
  }
  // A COLLADA2GLTF-style Blinn technique: its GLSL is left out of the 2.0 file.
  json.shaders = {
    vs: { type: 35633, uri: "data:,void%20main()%7B%7D" },
    fs: { type: 35632, uri: "data:,void%20main()%7B%7D" },
  };
  json.programs = {
    program_0: { attributes: ["a_position", "a_normal"], vertexShader: "vs", fragmentShader: "fs" },
  };
  json.techniques = {
    technique_blinn: {
      program: "program_0",
      attributes: { a_position: "position", a_normal: "normal" },
      parameters: {
        position: { semantic: "POSITION", type: 35665 },
        normal: { semantic: "NORMAL", type: 35665 },
        diffuse: { type: 35666 },
        shininess: { type: 5126 },
        specular: { type: 35666 },
        emission: { type: 35666 },
      },
      uniforms: { u_diffuse: "diffuse", u_shininess: "shininess" },
      states: { enable: [2884, 2929] },
    },
  };
}

function writeNodes(
  json: Json,
  v2: Json,
  splitOf: Map<number, string[]>,
  options: Gltf1Options,
  append: (bytes: Uint8Array) => number,
  body: Uint8Array,
  bufferId: string,
): void {
  const nodes: Json = {};
  const jointName = (n: number) => `joint_${n}`;
  const joints = new Set<number>((v2.skins ?? []).flatMap((skin: Json) => skin.joints));
  (v2.nodes ?? []).forEach((node: Json, i: number) => {
    const out: Json = { name: node.name };
    for (const key of ["matrix", "translation", "rotation", "scale", "extras"]) {
      if (node[key] !== undefined) out[key] = node[key];
    }
    if (node.children?.length) out.children = node.children.map((c: number) => `node_${c}`);
    if (node.mesh !== undefined) out.meshes = splitOf.get(node.mesh) ?? [`mesh_${node.mesh}`];
    if (node.skin !== undefined) {
      out.skin = `skin_${node.skin}`;
      const skinJoints = v2.skins[node.skin].joints as number[];
      out.skeletons = [`node_${v2.skins[node.skin].skeleton ?? skinJoints[0]}`];
    }
    if (joints.has(i)) out.jointName = jointName(i);
    nodes[`node_${i}`] = out;
  });
  json.nodes = nodes;
  const skins: Json = {};
  (v2.skins ?? []).forEach((skin: Json, i: number) => {
    const out: Json = { name: skin.name, jointNames: skin.joints.map(jointName) };
    const shift = options.bindShapeTranslation;
    if (shift) {
      // Inverse bind matrices that undo the bind shape translation: IBM' = IBM · T⁻¹.
      const accessor = json.accessors[`accessor_${skin.inverseBindMatrices}`];
      const view = v2.bufferViews[v2.accessors[skin.inverseBindMatrices].bufferView];
      const count = accessor.count as number;
      const start = body.byteOffset + (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
      const read = new DataView(body.buffer, start, count * 64);
      const data = new Float32Array(count * 16);
      for (let k = 0; k < count * 16; k++) data[k] = read.getFloat32(k * 4, true);
      for (let m = 0; m < count; m++) {
        const ibm = data.subarray(m * 16, m * 16 + 16);
        // IBM · T⁻¹: the translation column gains −IBM₃ₓ₃ · t.
        for (let row = 0; row < 3; row++) {
          ibm[12 + row] -= ibm[row] * shift[0] + ibm[4 + row] * shift[1] + ibm[8 + row] * shift[2];
        }
      }
      const at = append(new Uint8Array(data.buffer));
      json.bufferViews[`bufferView_ibm_${i}`] = { buffer: bufferId, byteOffset: at, byteLength: count * 64 };
      json.accessors[`accessor_ibm_${i}`] = {
        bufferView: `bufferView_ibm_${i}`,
        byteOffset: 0,
        componentType: 5126,
        count,
        type: "MAT4",
      };
      out.inverseBindMatrices = `accessor_ibm_${i}`;
      out.bindShapeMatrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, shift[0], shift[1], shift[2], 1];
    } else {
      out.inverseBindMatrices = `accessor_${skin.inverseBindMatrices}`;
      out.bindShapeMatrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    }
    skins[`skin_${i}`] = out;
  });
  json.skins = skins;
}

/** GLB version 1: the 20-byte header, the JSON content (space-padded to 4), the binary body. */
function glbV1(json: Json, body: Uint8Array): Uint8Array {
  let text = JSON.stringify(json);
  text += " ".repeat((4 - (new TextEncoder().encode(text).byteLength % 4)) % 4);
  const content = new TextEncoder().encode(text);
  const out = new Uint8Array(20 + content.byteLength + body.byteLength);
  const view = new DataView(out.buffer);
  out.set([0x67, 0x6c, 0x54, 0x46]);
  view.setUint32(4, 1, true);
  view.setUint32(8, out.byteLength, true);
  view.setUint32(12, content.byteLength, true);
  view.setUint32(16, 0, true);
  out.set(content, 20);
  out.set(body, 20 + content.byteLength);
  return out;
}
