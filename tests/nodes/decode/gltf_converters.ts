/**
 * glTF files as the converters people run on old aircraft models write them, each with the truth a
 * viewer draws (`gltf_converter_model.ts`'s aircraft) and the hinges of its control surfaces:
 *
 * - FBX2glTF: `RootNode` over one node per object (TRS), 32-bit indices, materials with
 *   `extras.fromFBX`, all unlit with `--khr-materials-unlit`;
 * - Assimp's glTF2 exporter from an FBX in centimetres: node matrices (never TRS), `RootNode` scaling
 *   by 0.01, each object under `<name>_$AssimpFbx$_Translation` › `_$AssimpFbx$_PreRotation` pivot
 *   nodes, an object of two materials split into two meshes, the second `<name>_1` on a child node;
 * - obj2gltf: one node, one mesh, a primitive per material (the objects' names gone), unlit with
 *   `--unlit`;
 * - COLLADA2GLTF from a Z-up `.dae`: a root matrix turning Z up to Y up, meshes `<name>-mesh`, and
 *   `KHR_techniques_webgl` leftovers on every material beside its metal-rough one (required in some);
 * - Blender 2.79's Khronos exporter: Z-up data under a root rotated −90° about X, specular-glossiness
 *   materials only, a byteStride on every vertex view;
 * - gltfpack / glTF-Transform optimised: KHR_mesh_quantization (normalized int16 positions, the
 *   dequantization on the node), and the same meshopt-compressed;
 * - game rips (Ninja Ripper / 3D Ripper): one node per draw call `Mesh_<nnnn>` in world space, custom
 *   `_`-attributes, and textured materials on draw calls whose UVs the ripper did not find (no
 *   TEXCOORD at all).
 *
 * @module
 */
import { mat4, vec3 } from "gl-matrix";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";
import { optimisedGlb } from "../../support/compressed.ts";
import { type Json, type PartTruth, Writer } from "./gltf_exporter_parts.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import {
  compacted,
  type ConverterModel,
  converterModel,
  mapped,
  type ModelObject,
  type ModelPanel,
  pieceTruth,
  planarUvs,
} from "./gltf_converter_model.ts";

/** One converter's file, the truth of what it draws, and its control surfaces' hinges. */
export interface ConverterFile {
  readonly tool: string;
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly parts: readonly PartTruth[];
  readonly panels: readonly ModelPanel[];
}

/** The converters the generator imitates, by name. */
export const CONVERTERS = [
  "fbx2gltf",
  "fbx2gltf-unlit",
  "fbx2gltf-cm",
  "fbx2gltf-common",
  "fbx2gltf-common-pbr",
  "assimp",
  "obj2gltf",
  "obj2gltf-unlit",
  "collada2gltf",
  "collada2gltf-required",
  "blender279",
  "gltfpack",
  "gltfpack-meshopt",
  "game-rip",
] as const;
export type Converter = typeof CONVERTERS[number];

/** A primitive of `positions` (local), its UVs when textured, with `indexType` indices. */
function primitive(
  w: Writer,
  positions: Float32Array,
  triangles: Uint32Array,
  material: number,
  options: { uvs?: boolean; wide?: boolean; stride?: boolean } = {},
): Json {
  const attributes: Json = { POSITION: w.floats(positions, "VEC3", options.stride ? 12 : undefined, true) };
  if (options.uvs) {
    attributes.TEXCOORD_0 = w.floats(planarUvs(positions), "VEC2", options.stride ? 8 : undefined);
  }
  const max = triangles.reduce((m, v) => Math.max(m, v), 0);
  let indices: number;
  if (options.wide || max > 65535) {
    const view = w.view(new Uint8Array(triangles.slice().buffer), { target: 34963 });
    indices = w.accessor({ bufferView: view, componentType: 5125, count: triangles.length, type: "SCALAR" });
  } else indices = w.indices(Array.from(triangles));
  return { attributes, indices, material };
}

/** A metal-rough material of `object`'s colour and texture. */
function pbr(w: Writer, object: ModelObject, name: string, extra: Json = {}): number {
  return w.material({ name, ...pbrOf(w, object), ...extra });
}

function pbrOf(w: Writer, object: ModelObject): Json {
  return {
    pbrMetallicRoughness: {
      baseColorFactor: object.factor,
      metallicFactor: 0,
      roughnessFactor: 1,
      ...(object.texture ? { baseColorTexture: { index: w.texture(w.image(object.texture)) } } : {}),
    },
  };
}

/** The centre of the object's bounds. */
function centreOf(positions: Float32Array): [number, number, number] {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3], positions[i]), max[i % 3] = Math.max(max[i % 3], positions[i]);
  }
  return [0, 1, 2].map((k) => (min[k] + max[k]) / 2) as [number, number, number];
}

const shifted = (positions: Float32Array, by: readonly number[]) => positions.map((v, i) => v - by[i % 3]);

/** FBX2glTF: `RootNode`, a TRS node per object, 32-bit indices, `extras.fromFBX`, unlit on request. */
function fbx2gltf(objects: ModelObject[], unlit: boolean): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  if (unlit) w.use("KHR_materials_unlit");
  const root = w.node({ name: "RootNode" });
  const truth = objects.map((object) => {
    const centre = centreOf(object.positions);
    const material = pbr(w, object, `${object.name}_mtl`, {
      extras: { fromFBX: { shadingModel: unlit ? "<unknown>" : "Lambert", isTruePBR: false } },
      ...(unlit ? { extensions: { KHR_materials_unlit: {} } } : {}),
    });
    const prim = primitive(w, shifted(object.positions, centre), object.triangles, material, {
      uvs: true,
      wide: true,
    });
    const mesh = w.json.meshes.push({ name: object.name, primitives: [prim] }) - 1;
    w.node({ name: object.name, mesh, translation: centre, rotation: [0, 0, 0, 1], scale: [1, 1, 1] }, root);
    return pieceTruth(object.name, object.positions, object, { unlit });
  });
  return { w, truth };
}

/**
 * FBX2glTF of 2017–18 with `--khr-materials-common`: each material a KHR_materials_common one (its
 * 2.0 draft: `type` commonLambert/commonPhong/commonBlinn/commonConstant, `diffuseFactor`,
 * `diffuseTexture`, `shininess`), required unless metal-rough values are written too (`pbr`), and
 * every material `alphaMode: BLEND`.
 */
function fbx2gltfCommon(
  objects: ModelObject[],
  pbr: boolean,
  next: () => number,
): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  w.use("KHR_materials_common");
  if (!pbr) w.json.extensionsRequired = ["KHR_materials_common"];
  const root = w.node({ name: "RootNode" });
  const truth = objects.map((object) => {
    const centre = centreOf(object.positions);
    const type = ["commonLambert", "commonPhong", "commonBlinn", "commonConstant"][Math.floor(next() * 4)];
    // A constant (unlit) material draws unlit where the extension is read; a metal-rough fallback
    // beside it is drawn lit by viewers that do not read it, so the fallback decides there.
    const unlit = !pbr && type === "commonConstant";
    const texture = object.texture ? { index: w.texture(w.image(object.texture)), texCoord: 0 } : undefined;
    const common = {
      type,
      diffuseFactor: object.factor,
      ...(texture ? { diffuseTexture: texture } : {}),
      ...(type === "commonPhong" || type === "commonBlinn"
        ? { shininess: 20, specularFactor: [0.2, 0.2, 0.2, 1] }
        : {}),
    };
    const material = w.material({
      name: `${object.name}_mtl`,
      alphaMode: "BLEND",
      ...(pbr ? pbrOf(w, object) : {}),
      extensions: { KHR_materials_common: common },
    });
    const prim = primitive(w, shifted(object.positions, centre), object.triangles, material, {
      uvs: true,
      wide: true,
    });
    const mesh = w.json.meshes.push({ name: object.name, primitives: [prim] }) - 1;
    w.node({ name: object.name, mesh, translation: centre }, root);
    return pieceTruth(object.name, object.positions, object, { unlit });
  });
  return { w, truth };
}

/**
 * Assimp from an FBX in centimetres: matrices only; `RootNode` scales by 0.01; pivots
 * `<name>_$AssimpFbx$_Translation` › `<name>_$AssimpFbx$_PreRotation` (−90° about X) › `<name>` (+90°
 * back); an object of two materials as two meshes, the second `<name>_1` on a child node.
 */
function assimp(
  objects: ModelObject[],
  panels: readonly ModelPanel[],
  next: () => number,
): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  const cm = mat4.fromScaling(mat4.create(), [0.01, 0.01, 0.01]);
  const root = w.node({ name: "RootNode", matrix: [...cm] });
  const pre = mat4.fromXRotation(mat4.create(), -Math.PI / 2);
  const back = mat4.invert(mat4.create(), pre)!;
  const truth: PartTruth[] = [];
  const mirrored = next() < 0.5, pivots = next() < 0.5;
  for (const object of objects) {
    const centreCm = centreOf(object.positions).map((v) => 100 * v);
    const t = w.node(
      {
        name: `${object.name}_$AssimpFbx$_Translation`,
        matrix: [...mat4.fromTranslation(mat4.create(), centreCm)],
      },
      root,
    );
    let chain = w.node({ name: `${object.name}_$AssimpFbx$_PreRotation`, matrix: [...pre] }, t);
    // Max users put a surface's pivot on its hinge: RotationPivot there, RotationPivotInverse back.
    const hinge = panels.find((p) => p.name === object.name)?.truth;
    if (hinge && pivots) {
      const at = [-hinge.origin[2], hinge.origin[1], hinge.origin[0]].map((v, k) => 100 * v - centreCm[k]);
      // The pivot is in the pre-rotated frame: its offset turned back into it.
      const offset = vec3.transformMat4(vec3.create(), at as vec3, back);
      chain = w.node({
        name: `${object.name}_$AssimpFbx$_RotationPivot`,
        matrix: [...mat4.fromTranslation(mat4.create(), offset)],
      }, chain);
      chain = w.node({
        name: `${object.name}_$AssimpFbx$_RotationPivotInverse`,
        matrix: [...mat4.fromTranslation(mat4.create(), vec3.negate(vec3.create(), offset))],
      }, chain);
    }
    // The right-hand objects are the left ones mirrored (Max's Mirror tool: a scale of −1 along X).
    const mirror = mirrored && /_R$/.test(object.name);
    if (mirror) {
      chain = w.node({
        name: `${object.name}_$AssimpFbx$_Scaling`,
        matrix: [...mat4.fromScaling(mat4.create(), [-1, 1, 1])],
      }, chain);
    }
    const r = chain;
    // Local: centimetres about the centre (the pre-rotation and the node's turn back cancel out; a
    // mirror along X commutes with them).
    const toLocal = mat4.multiply(
      mat4.create(),
      mat4.fromScaling(mat4.create(), [mirror ? -1 : 1, 1, 1]),
      mat4.multiply(
        mat4.create(),
        mat4.fromTranslation(mat4.create(), centreCm.map((v) => -v) as [number, number, number]),
        mat4.fromScaling(mat4.create(), [100, 100, 100]),
      ),
    );
    const local = mapped(object.positions, toLocal);
    const split = next() < 0.5 && object.triangles.length >= 12;
    const cut = split ? 3 * Math.floor(object.triangles.length / 6) : object.triangles.length;
    const halves = split ? [object.triangles.slice(0, cut), object.triangles.slice(cut)] : [object.triangles];
    const meshes = halves.map((tris, k) => {
      const piece = compacted(local, tris);
      const world = compacted(object.positions, tris).positions;
      // The second material: the same texture, another colour (a decal's, a stripe's).
      const look: ModelObject = k === 0
        ? object
        : { ...object, factor: [object.factor[2], object.factor[0], object.factor[1], 1] };
      const material = pbr(w, look, k === 0 ? `${object.name}-material` : `${object.name}-material.001`);
      truth.push(pieceTruth(object.name, world, look));
      const name = k === 0 ? object.name : `${object.name}_1`;
      return w.json.meshes.push({
        name,
        primitives: [primitive(w, piece.positions, piece.triangles, material, { uvs: true })],
      }) - 1;
    });
    const node = w.node({ name: object.name, mesh: meshes[0], matrix: [...back] }, r);
    if (meshes[1] !== undefined) w.node({ name: `${object.name}_1`, mesh: meshes[1] }, node);
  }
  return { w, truth };
}

/** obj2gltf: one node, one mesh, a primitive per material (named as the .mtl names them). */
function obj2gltf(objects: ModelObject[], unlit: boolean): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  if (unlit) w.use("KHR_materials_unlit");
  const primitives = objects.map((object, i) => {
    const material = pbr(w, object, `Material.${String(i + 1).padStart(3, "0")}`, {
      ...(unlit ? { extensions: { KHR_materials_unlit: {} } } : {}),
    });
    return primitive(w, object.positions, object.triangles, material, { uvs: true });
  });
  const mesh = w.json.meshes.push({ name: "aircraft", primitives }) - 1;
  w.node({ name: "aircraft", mesh });
  return { w, truth: objects.map((o) => pieceTruth("aircraft", o.positions, o, { unlit })) };
}

/** COLLADA's Z up to glTF's Y up, as COLLADA2GLTF's root matrix writes it. */
const Z_UP = mat4.fromXRotation(mat4.create(), -Math.PI / 2);

/**
 * COLLADA2GLTF from a Z-up `.dae`: a root `matrix` turning Z up, node matrices, meshes `<name>-mesh`,
 * every material's `KHR_techniques_webgl` values beside its metal-rough ones, the techniques at the top.
 */
function collada2gltf(objects: ModelObject[], required: boolean): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  w.use("KHR_techniques_webgl");
  if (required) w.json.extensionsRequired = ["KHR_techniques_webgl"];
  w.json.extensions = {
    KHR_techniques_webgl: {
      programs: [{ fragmentShader: 1, vertexShader: 0 }],
      shaders: [{ type: 35633, uri: "data:text/plain;base64," + btoa("void main(){}") }, {
        type: 35632,
        uri: "data:text/plain;base64," + btoa("void main(){}"),
      }],
      techniques: [{
        program: 0,
        attributes: { a_position: { semantic: "POSITION" } },
        uniforms: { u_diffuse: { type: 35666 } },
      }],
    },
  };
  const root = w.node({ name: "Y_UP_Transform", matrix: [...Z_UP] });
  const toFile = mat4.invert(mat4.create(), Z_UP)!;
  const truth = objects.map((object, i) => {
    const file = mapped(object.positions, toFile);
    const centre = centreOf(file);
    // With --technique (`required`), every other material is the technique alone: its diffuse a colour
    // (as a shader reads it: sRGB) or the texture (then no colour).
    const alone = required && i % 2 === 1;
    const look: ModelObject = alone && object.texture ? { ...object, factor: [1, 1, 1, 1] } : object;
    const diffuse = alone && object.texture
      ? { index: w.texture(w.image(object.texture)) }
      : [...object.factor.slice(0, 3).map(srgb), object.factor[3]];
    const technique = {
      KHR_techniques_webgl: { technique: 0, values: { u_diffuse: diffuse, u_shininess: 20 } },
    };
    const material = alone
      ? w.material({ name: `${object.name}-material`, extensions: technique })
      : pbr(w, object, `${object.name}-material`, { extensions: technique });
    const prim = primitive(w, shifted(file, centre), object.triangles, material, { uvs: true });
    const mesh = w.json.meshes.push({ name: `${object.name}-mesh`, primitives: [prim] }) - 1;
    w.node({ name: object.name, mesh, matrix: [...mat4.fromTranslation(mat4.create(), centre)] }, root);
    return pieceTruth(object.name, object.positions, look);
  });
  return { w, truth };
}

/** Linear to sRGB: a colour as a GLSL technique's uniform holds it. */
function srgb(value: number): number {
  return value <= 0.0031308 ? value * 12.92 : 1.055 * Math.pow(value, 1 / 2.4) - 0.055;
}

/** Blender 2.79's Khronos exporter: Z-up data under a root rotated −90° about X, spec-gloss only, strides. */
function blender279(objects: ModelObject[]): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  w.use("KHR_materials_pbrSpecularGlossiness");
  const s = Math.SQRT1_2;
  const root = w.node({ name: "Root", rotation: [-s, 0, 0, s] });
  const toFile = mat4.invert(mat4.create(), Z_UP)!;
  const truth = objects.map((object) => {
    const file = mapped(object.positions, toFile);
    const centre = centreOf(file);
    const diffuse = object.texture ? { diffuseTexture: { index: w.texture(w.image(object.texture)) } } : {};
    const material = w.material({
      name: object.name,
      extensions: {
        KHR_materials_pbrSpecularGlossiness: {
          diffuseFactor: object.factor,
          specularFactor: [0.04, 0.04, 0.04],
          glossinessFactor: 0.3,
          ...diffuse,
        },
      },
    });
    const prim = primitive(w, shifted(file, centre), object.triangles, material, { uvs: true, stride: true });
    const mesh = w.json.meshes.push({ name: object.name, primitives: [prim] }) - 1;
    w.node({ name: object.name, mesh, translation: centre }, root);
    return pieceTruth(object.name, object.positions, object);
  });
  return { w, truth };
}

/**
 * A game rip: each draw call a node `Mesh_<nnnn>` at the origin, world-space vertices, a custom
 * `_BLENDINDICES`-like attribute, and on some textured draw calls no TEXCOORD at all (the ripper did
 * not find the UV stream); their material still samples TEXCOORD_0.
 */
function gameRip(objects: ModelObject[], next: () => number): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  const truth = objects.map((object, i) => {
    const name = `Mesh_${String(40 + 3 * i).padStart(4, "0")}`;
    const material = pbr(w, object, `Material_${i}`);
    const lostUvs = object.texture !== undefined && next() < 0.6;
    const prim = primitive(w, object.positions, object.triangles, material, { uvs: !lostUvs });
    prim.attributes._ATTR7 = w.floats(new Float32Array(object.positions.length / 3 * 4).fill(1), "VEC4");
    const mesh = w.json.meshes.push({ name, primitives: [prim] }) - 1;
    w.node({ name, mesh });
    return pieceTruth(name, object.positions, object);
  });
  return { w, truth };
}

const GENERATORS: Record<Converter, string> = {
  "fbx2gltf": "FBX2glTF v0.9.7",
  "fbx2gltf-unlit": "FBX2glTF v0.9.7",
  "fbx2gltf-cm": "FBX2glTF v0.9.5",
  "fbx2gltf-common": "FBX2glTF",
  "fbx2gltf-common-pbr": "FBX2glTF",
  "assimp": "Open Asset Import Library (assimp v5.2.5)",
  "obj2gltf": "obj2gltf",
  "obj2gltf-unlit": "obj2gltf",
  "collada2gltf": "COLLADA2GLTF",
  "collada2gltf-required": "COLLADA2GLTF",
  "blender279": "Khronos Blender glTF 2.0 exporter",
  "gltfpack": "gltfpack 0.19",
  "gltfpack-meshopt": "gltfpack 0.19",
  "game-rip": "NinjaRipper glTF export",
};

/** One file of `tool` for `seed`. */
export async function converterFile(tool: Converter, seed: number): Promise<ConverterFile> {
  await loadPngEncoder();
  const next = prng(seed);
  let model = converterModel(next);
  if (tool === "fbx2gltf-cm") model = scaledModel(model, 100);
  if (tool === "blender279") model = blenderCopyNames(model);
  const { w, truth } = (() => {
    switch (tool) {
      case "fbx2gltf":
      case "fbx2gltf-cm":
      case "gltfpack":
      case "gltfpack-meshopt":
        return fbx2gltf(model.objects, false);
      case "fbx2gltf-unlit":
        return fbx2gltf(model.objects, true);
      case "fbx2gltf-common":
        return fbx2gltfCommon(model.objects, false, next);
      case "fbx2gltf-common-pbr":
        return fbx2gltfCommon(model.objects, true, next);
      case "assimp":
        return assimp(model.objects, model.panels, next);
      case "obj2gltf":
        return obj2gltf(model.objects, false);
      case "obj2gltf-unlit":
        return obj2gltf(model.objects, true);
      case "collada2gltf":
        return collada2gltf(model.objects, false);
      case "collada2gltf-required":
        return collada2gltf(model.objects, true);
      case "blender279":
        return blender279(model.objects);
      case "game-rip":
        return gameRip(model.objects, next);
    }
  })();
  let bytes = w.glb(GENERATORS[tool]);
  if (tool === "gltfpack") bytes = await quantizedGlb(bytes);
  if (tool === "gltfpack-meshopt") bytes = await optimisedGlb(bytes, "quantized meshopt");
  // Rips and obj2gltf keep no object names: there is nothing to rig by name.
  const named = tool !== "game-rip" && !tool.startsWith("obj2gltf");
  return { tool, name: `${tool}_${seed}.glb`, bytes, parts: truth, panels: named ? model.panels : [] };
}

/** The file quantized as gltfpack leaves it, uncompressed. */
async function quantizedGlb(bytes: Uint8Array): Promise<Uint8Array> {
  const { NodeIO } = await import("@gltf-transform/core");
  const { ALL_EXTENSIONS } = await import("@gltf-transform/extensions");
  const { quantizeLikeGltfpack } = await import("../../support/quantize.ts");
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
  const doc = await io.readBinary(bytes);
  quantizeLikeGltfpack(doc);
  doc.getRoot().getAsset().generator = "gltfpack 0.19";
  return await io.writeBinary(doc);
}

/**
 * The model `factor` times larger: FBX2glTF before 0.9.6 kept an FBX's centimetres as metres (and
 * users' unit settings put many old models in other units).
 */
function scaledModel(model: ConverterModel, factor: number): ConverterModel {
  return {
    objects: model.objects.map((o) => ({ ...o, positions: o.positions.map((v) => v * factor) })),
    panels: model.panels.map((p) => ({
      ...p,
      truth: p.truth && {
        origin: p.truth.origin.map((v) => v * factor) as Vec3,
        axis: p.truth.axis,
        span: p.truth.span * factor,
        chord: p.truth.chord * factor,
      },
    })),
  };
}

/**
 * Names as Blender 2.79 users leave them: the right-hand copy of an object duplicated and mirrored is
 * `<name>.001` beside `<name>` (`Aileron`, `Aileron.001`), its side in the geometry only.
 */
function blenderCopyNames(model: ConverterModel): ConverterModel {
  const rename = (name: string) => name.replace(/_L$/, "").replace(/_R$/, ".001");
  return {
    objects: model.objects.map((o) => ({ ...o, name: rename(o.name) })),
    panels: model.panels.map((p) => ({ ...p, name: rename(p.name) })),
  };
}
