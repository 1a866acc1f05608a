/**
 * The converters `gltf_converters.ts` imitates that keep the model's frame: FBX2glTF (TRS nodes under
 * `RootNode`, unlit, KHR_materials_common), obj2gltf (one node, a primitive per material) and game rips
 * (a node per draw call, UVs lost); and the helpers every converter writes with.
 *
 * @module
 */
import { type Json, type PartTruth, Writer } from "./gltf_exporter_parts.ts";
import { type ModelObject, pieceTruth, planarUvs } from "./gltf_converter_model.ts";
/** A primitive of `positions` (local), its UVs when textured, with `indexType` indices. */
export function primitive(
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
export function pbr(w: Writer, object: ModelObject, name: string, extra: Json = {}): number {
  return w.material({ name, ...pbrOf(w, object), ...extra });
}

export function pbrOf(w: Writer, object: ModelObject): Json {
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
export function centreOf(positions: Float32Array): [number, number, number] {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3], positions[i]), max[i % 3] = Math.max(max[i % 3], positions[i]);
  }
  return [0, 1, 2].map((k) => (min[k] + max[k]) / 2) as [number, number, number];
}

export const shifted = (positions: Float32Array, by: readonly number[]) =>
  positions.map((v, i) => v - by[i % 3]);

/** FBX2glTF: `RootNode`, a TRS node per object, 32-bit indices, `extras.fromFBX`, unlit on request. */
export function fbx2gltf(objects: ModelObject[], unlit: boolean): { w: Writer; truth: PartTruth[] } {
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
export function fbx2gltfCommon(
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

/** obj2gltf: one node, one mesh, a primitive per material (named as the .mtl names them). */
export function obj2gltf(objects: ModelObject[], unlit: boolean): { w: Writer; truth: PartTruth[] } {
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

/**
 * A game rip: each draw call a node `Mesh_<nnnn>` at the origin, world-space vertices, a custom
 * `_BLENDINDICES`-like attribute, and on some textured draw calls no TEXCOORD at all (the ripper did
 * not find the UV stream); their material still samples TEXCOORD_0.
 */
export function gameRip(objects: ModelObject[], next: () => number): { w: Writer; truth: PartTruth[] } {
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
