/**
 * glTF files as exporters write whole scenes, on `gltf_converter_model.ts`'s aircraft (truth drawn,
 * hinges known), for what the other generators leave out:
 *
 * - Sketchfab's re-export: `Sketchfab_model` turned Z-up by a `matrix`, `<name>.fbx`, `RootNode`,
 *   `<object>` › `<object>_<Material>_0` › `Object_<n>`, materials with KHR_materials_clearcoat, sheen,
 *   transmission, ior, specular, volume and a non-identity KHR_texture_transform; and the same file after a
 *   tool or hand edit moved its textures' sets into the transform: each reference's `texCoord: 1` (a set
 *   no primitive has) with KHR_texture_transform's `texCoord: 0` — drawn by viewers reading the extension;
 * - FBX2glTF from centimetres: `RootNode` scaling by 0.01, each object scaled by 100 back, morph targets
 *   on the control surfaces with their names in `mesh.extras.targetNames`;
 * - Babylon.js's exporter: `__root__` (rotation 180° about Y, scale z −1: a mirror), the data in
 *   Babylon's left-handed axes, its winding reversed, as glTF says a negative-determinant node draws,
 *   the camera and a light under the root, a navigation light parented to the left aileron;
 * - three.js's GLTFExporter of unindexed geometry: one interleaved view (position, normal, uv), no
 *   indices, KHR_materials_unlit on some materials;
 * - UnityGLTF and Godot 4 scenes: `Main Camera`/`Camera3D` nodes with cameras, `Directional Light`,
 *   `OmniLight3D`, `SpotLight3D` with KHR_lights_punctual, `children: []` everywhere;
 * - MSFS / X-Plane-converted aircraft: the whole aircraft four times as sibling LOD roots `x_LOD0..3`,
 *   each object `<name>_LOD<k>`; and as Microsoft's glTF-Toolkit (Windows Mixed Reality, 3D Viewer) links
 *   them: only `x_LOD0` in the scene, `MSFT_lod` naming the other three, `MSFT_screencoverage` in extras.
 *
 * Every primitive carries normals made from its own triangles, so a decoder or rig that flips winding
 * or normals shows.
 *
 * @module
 */
import { mat3, mat4, vec3 } from "gl-matrix";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";
import { type Json, type PartTruth, Writer } from "./gltf_exporter_parts.ts";
import {
  converterModel,
  mapped,
  type ModelObject,
  type ModelPanel,
  pieceTruth,
  planarUvs,
} from "./gltf_converter_model.ts";
import { centreOf, pbrOf, primitive, shifted } from "./gltf_converter_writers.ts";
import type { ConverterFile } from "./gltf_converters.ts";

/** The exporters the generator imitates. */
export const SCENE_EXPORTERS = [
  "sketchfab-pbr",
  "transform-fallback",
  "fbx2gltf-morph",
  "babylon",
  "mirrored-instances",
  "threejs-unindexed",
  "unity-scene",
  "godot-scene",
  "lod-siblings",
  "msft-lod",
] as const;
export type SceneExporter = typeof SCENE_EXPORTERS[number];

/** What a file carries beside its meshes that the pipeline must keep or name. */
export interface SceneExtras {
  /** Material extensions, by material name. */
  readonly materialExtensions: Record<string, string[]>;
  /** Camera node names; light node names and their light types. */
  readonly cameras: string[];
  readonly lights: Record<string, string>;
  /** Morph target names, by mesh name. */
  readonly targets: Record<string, string[]>;
}

/** A scene exporter's file: a converter file (truth, panels) and its extras. */
export interface SceneFile extends ConverterFile {
  readonly extras: SceneExtras;
  /**
   * Per part (by name), the sign of Σ front-face normal · (triangle centre − part centre) as the source
   * draws it: +1 when its front faces look outward.
   */
  readonly facing: Record<string, number>;
}

/** The sign of Σ n·(c − centre) over `triangles` of world `positions` wound counter-clockwise. */
export function outwardSign(
  positions: ArrayLike<number>,
  triangles: ArrayLike<number>,
  flip = false,
): number {
  const n = positions.length / 3;
  const centre = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) centre[k] += positions[3 * i + k] / n;
  let sum = 0;
  const p = (i: number) => vec3.fromValues(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]);
  for (let t = 0; t < triangles.length; t += 3) {
    const [a, b, c] = [p(triangles[t]), p(triangles[t + 1]), p(triangles[t + 2])];
    const g = vec3.cross(vec3.create(), vec3.sub(vec3.create(), b, a), vec3.sub(vec3.create(), c, a));
    const mid = vec3.scale(vec3.create(), vec3.add(vec3.create(), vec3.add(vec3.create(), a, b), c), 1 / 3);
    sum += vec3.dot(g, vec3.sub(mid, mid, centre as vec3));
  }
  return Math.sign(flip ? -sum : sum);
}

const GENERATORS: Record<SceneExporter, string> = {
  "sketchfab-pbr": "Sketchfab-12.68.0",
  "transform-fallback": "glTF-Transform v3.10.1",
  "fbx2gltf-morph": "FBX2glTF v0.9.7",
  "babylon": "babylon.js glTF exporter for Maya 2018 v20200121.6",
  "mirrored-instances": "babylon.js v6.38.1",
  "threejs-unindexed": "THREE.GLTFExporter r152",
  "unity-scene": "UnityGLTF 2.14.1",
  "godot-scene": "Godot Engine v4.3.stable.official@77dcf97d8",
  "lod-siblings": "Microsoft Flight Simulator 2020 Blender exporter 1.3.2",
  "msft-lod": "Microsoft glTF-Toolkit WindowsMRAssetConverter 1.3",
};

/** Per-vertex normals summed from `triangles` as wound (counter-clockwise front). */
export function normalsOf(positions: Float32Array, triangles: ArrayLike<number>): Float32Array {
  const out = new Float32Array(positions.length);
  const p = (i: number) => vec3.fromValues(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]);
  for (let t = 0; t < triangles.length; t += 3) {
    const [a, b, c] = [triangles[t], triangles[t + 1], triangles[t + 2]];
    const n = vec3.cross(
      vec3.create(),
      vec3.sub(vec3.create(), p(b), p(a)),
      vec3.sub(vec3.create(), p(c), p(a)),
    );
    for (const v of [a, b, c]) for (let k = 0; k < 3; k++) out[3 * v + k] += n[k];
  }
  for (let i = 0; i < out.length; i += 3) {
    const n = vec3.normalize(vec3.create(), [out[i], out[i + 1], out[i + 2]]);
    out.set(vec3.length(n) ? n : [0, 1, 0], i);
  }
  return out;
}

/** A primitive of `object` placed in its node by `world` (positions and normals local, winding kept). */
function placed(w: Writer, object: ModelObject, world: mat4, material: number): Json {
  const inverse = mat4.invert(mat4.create(), world)!;
  const local = mapped(object.positions, inverse);
  // A mirroring node reverses the winding glTF draws: the file stores it reversed so it draws as before.
  const triangles = object.triangles.slice();
  if (mat4.determinant(world) < 0) {
    for (let t = 0; t < triangles.length; t += 3) {
      [triangles[t + 1], triangles[t + 2]] = [triangles[t + 2], triangles[t + 1]];
    }
  }
  const prim = primitive(w, local, triangles, material, { uvs: object.texture !== undefined });
  // Normals as the world draws them, carried back by the inverse of the normal matrix.
  const worldNormals = normalsOf(object.positions, object.triangles);
  const back = mat3.transpose(mat3.create(), mat3.fromMat4(mat3.create(), world));
  const normals = new Float32Array(worldNormals.length);
  for (let i = 0; i < normals.length; i += 3) {
    const n = vec3.transformMat3(
      vec3.create(),
      [worldNormals[i], worldNormals[i + 1], worldNormals[i + 2]],
      back,
    );
    normals.set(vec3.normalize(n, n), i);
  }
  prim.attributes.NORMAL = w.floats(normals, "VEC3");
  return prim;
}

const mesh = (w: Writer, name: string, primitives: Json[], extra: Json = {}) =>
  w.json.meshes.push({ name, primitives, ...extra }) - 1;

/** Sketchfab: Z-up root matrix, `.fbx` and `RootNode` levels, PBR extensions, texture transforms. */
function sketchfabPbr(objects: ModelObject[], next: () => number) {
  const w = new Writer();
  const zUp = [1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1];
  const root = w.node({ name: "Sketchfab_model", matrix: zUp });
  const fbx = w.node({ name: "aircraft.fbx", rotation: [0.7071068, 0, 0, 0.7071068] }, root);
  const rootNode = w.node({ name: "RootNode" }, fbx);
  const kinds = ["clearcoat", "sheen", "transmission", "specular", "volume"];
  const used = new Set<string>(["KHR_texture_transform", "KHR_materials_ior"]);
  const materialExtensions: Record<string, string[]> = {};
  const base = mat4.multiply(
    mat4.create(),
    zUp as unknown as mat4,
    mat4.fromQuat(mat4.create(), [0.7071068, 0, 0, 0.7071068]),
  );
  const truth = objects.map((object, i) => {
    const kind = kinds[Math.floor(next() * kinds.length)];
    const name = `${object.name}_Mat`;
    const extensions: Json = { KHR_materials_ior: { ior: 1.45 } };
    if (kind === "clearcoat") {
      extensions.KHR_materials_clearcoat = { clearcoatFactor: 1, clearcoatRoughnessFactor: 0.03 };
    }
    if (kind === "sheen") {
      extensions.KHR_materials_sheen = { sheenColorFactor: [0.2, 0.2, 0.3], sheenRoughnessFactor: 0.5 };
    }
    if (kind === "transmission") extensions.KHR_materials_transmission = { transmissionFactor: 0.8 };
    if (kind === "specular") {
      extensions.KHR_materials_specular = { specularFactor: 0.6, specularColorFactor: [1, 0.9, 0.8] };
    }
    if (kind === "volume") {
      extensions.KHR_materials_transmission = { transmissionFactor: 0.5 };
      extensions.KHR_materials_volume = { thicknessFactor: 0.02, attenuationColor: [0.9, 0.95, 1] };
    }
    Object.keys(extensions).forEach((e) => used.add(e));
    materialExtensions[name] = Object.keys(extensions).sort();
    const pbr = pbrOf(w, object);
    const transform = { scale: [2, 2], offset: [0.25, 0.5] };
    if (pbr.pbrMetallicRoughness.baseColorTexture) {
      pbr.pbrMetallicRoughness.baseColorTexture.extensions = { KHR_texture_transform: transform };
    }
    const material = w.material({ name, ...pbr, extensions, doubleSided: true });
    const holder = w.node({ name: object.name }, rootNode);
    const at = w.node({ name: `${object.name}_${name}_0` }, holder);
    const prim = placed(w, object, base, material);
    w.node({ name: `Object_${3 + 2 * i}`, mesh: mesh(w, `Object_${i}`, [prim]) }, at);
    const uv = `0 scale ${transform.scale} offset ${transform.offset}`;
    return pieceTruth(object.name, object.positions, object, { uv });
  });
  w.use(...used);
  return { w, truth, extras: { materialExtensions, cameras: [], lights: {}, targets: {} } };
}

/** `file`'s texture references naming a set the primitives lack, their transforms the one they have. */
function transformFallback(file: ReturnType<typeof sketchfabPbr>) {
  for (const material of file.w.json.materials ?? []) {
    const info = material.pbrMetallicRoughness?.baseColorTexture;
    if (info?.extensions?.KHR_texture_transform) {
      info.texCoord = 1;
      info.extensions.KHR_texture_transform.texCoord = 0;
    }
  }
  return file;
}

/** FBX2glTF from centimetres: `RootNode` × 0.01, objects × 100 back, morph targets named in extras. */
function fbx2gltfMorph(objects: ModelObject[], panels: ModelPanel[]) {
  const w = new Writer();
  const root = w.node({ name: "RootNode", scale: [0.01, 0.01, 0.01] });
  const targets: Record<string, string[]> = {};
  const truth = objects.map((object) => {
    const centre = centreOf(object.positions);
    const world = mat4.fromRotationTranslationScale(mat4.create(), [0, 0, 0, 1], centre, [1, 1, 1]);
    const material = w.material({ name: `${object.name}_mtl`, ...pbrOf(w, object) });
    const prim = placed(w, object, world, material);
    const extra: Json = {};
    if (panels.some((p) => p.name === object.name)) {
      // Blend shapes a modeller left on the surfaces (damage, a droop): zero weight, drawn as rest.
      const n = object.positions.length / 3;
      const droop = new Float32Array(3 * n).map((_, k) => (k % 3 === 1 ? -0.01 * (k % 7) : 0));
      prim.targets = [
        { POSITION: w.floats(droop, "VEC3", undefined, true) },
        { POSITION: w.floats(droop.map((v) => v / 2), "VEC3", undefined, true) },
      ];
      extra.weights = [0, 0];
      extra.extras = { targetNames: ["Droop", "Damage"] };
      targets[object.name] = ["Droop", "Damage"];
    }
    const m = mesh(w, object.name, [prim], extra);
    w.node(
      { name: object.name, mesh: m, translation: centre.map((v) => v * 100), scale: [100, 100, 100] },
      root,
    );
    return pieceTruth(object.name, object.positions, object);
  });
  return { w, truth, extras: { materialExtensions: {}, cameras: [], lights: {}, targets } };
}

/** Babylon.js: `__root__` rotating 180° about Y and mirroring z: the data left-handed, winding reversed. */
function babylon(objects: ModelObject[]) {
  const w = new Writer();
  const root = w.node({ name: "__root__", rotation: [0, 1, 0, 0], scale: [1, 1, -1] });
  const world = mat4.fromRotationTranslationScale(mat4.create(), [0, 1, 0, 0], [0, 0, 0], [1, 1, -1]);
  const truth = objects.map((object) => {
    const material = w.material({ name: object.name, ...pbrOf(w, object), extras: {} });
    const centre = centreOf(object.positions);
    const local = vec3.transformMat4(vec3.create(), centre, mat4.invert(mat4.create(), world)!);
    const placement = mat4.multiply(mat4.create(), world, mat4.fromTranslation(mat4.create(), local));
    const prim = placed(w, object, placement, material);
    const node = w.node(
      { name: object.name, mesh: mesh(w, object.name, [prim]), translation: [...local] },
      root,
    );
    // A navigation light parented to the left aileron's tip, as Babylon scenes parent lights to meshes.
    if (object.name === "Aileron_L") {
      w.node({ name: "NavLight_L", translation: [0.2, 0, 0], ...lightOf(1) }, node);
    }
    return pieceTruth(object.name, object.positions, object);
  });
  // The scene's camera and light sit under `__root__` too: mirrored with everything else.
  w.json.cameras = [{
    name: "camera1",
    type: "perspective",
    perspective: { yfov: 0.8, znear: 1, zfar: 10000 },
  }];
  w.use("KHR_lights_punctual");
  w.json.extensions = {
    KHR_lights_punctual: {
      lights: [
        { name: "light1", type: "directional", intensity: 0.7 },
        { name: "nav", type: "point", color: [1, 0, 0], intensity: 5, range: 3 },
      ],
    },
  };
  w.node({ name: "camera1", camera: 0, translation: [0, 5, -20], rotation: [0, 1, 0, 0] }, root);
  w.node({ name: "light1", rotation: [0.3826834, 0, 0, 0.9238795], ...lightOf(0) }, root);
  const lights = { light1: "directional", NavLight_L: "point" };
  return { w, truth, extras: { materialExtensions: {}, cameras: ["camera1"], lights, targets: {} } };
}

const lightOf = (light: number) => ({ extensions: { KHR_lights_punctual: { light } } });

/**
 * Babylon.js instances mirrored by scale: each right-hand object drawn by its left-hand twin's mesh on a
 * node of scale x −1 (glTF's x is the aircraft's lateral axis), in the twin's material; its front faces
 * are the twin's, reversed by the mirror as glTF says.
 */
function mirroredInstances(objects: ModelObject[]) {
  const w = new Writer();
  const meshes = new Map<string, { mesh: number; object: ModelObject }>();
  const twinOf = (name: string) => name.endsWith("_R") ? meshes.get(name.replace(/_R$/, "_L")) : undefined;
  const truth = objects.map((object) => {
    const centre = centreOf(object.positions);
    const twin = twinOf(object.name);
    if (twin) {
      w.node({ name: object.name, mesh: twin.mesh, translation: centre, scale: [-1, 1, 1] });
      return pieceTruth(object.name, object.positions, twin.object);
    }
    const material = w.material({ name: object.name, ...pbrOf(w, object) });
    const prim = placed(w, object, mat4.fromTranslation(mat4.create(), centre), material);
    const m = mesh(w, object.name, [prim]);
    meshes.set(object.name, { mesh: m, object });
    w.node({ name: object.name, mesh: m, translation: centre });
    return pieceTruth(object.name, object.positions, object);
  });
  return { w, truth, extras: { materialExtensions: {}, cameras: [], lights: {}, targets: {} } };
}

/** three.js unindexed: one interleaved view per mesh (position, normal, uv; stride 32), no indices. */
function threejsUnindexed(objects: ModelObject[], next: () => number) {
  const w = new Writer();
  w.use("KHR_materials_unlit");
  const truth = objects.map((object) => {
    const centre = centreOf(object.positions);
    const tri = object.triangles, n = tri.length;
    const local = shifted(object.positions, centre);
    const normals = normalsOf(object.positions, tri);
    const uvs = planarUvs(local);
    const bytes = new Float32Array(n * 8);
    const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
    for (let k = 0; k < n; k++) {
      const v = tri[k];
      for (let j = 0; j < 3; j++) {
        bytes[8 * k + j] = local[3 * v + j], bytes[8 * k + 3 + j] = normals[3 * v + j];
        min[j] = Math.min(min[j], local[3 * v + j]), max[j] = Math.max(max[j], local[3 * v + j]);
      }
      bytes[8 * k + 6] = uvs[2 * v], bytes[8 * k + 7] = uvs[2 * v + 1];
    }
    const view = w.view(new Uint8Array(bytes.buffer), { target: 34962, byteStride: 32 });
    const attributes = {
      POSITION: w.accessor({ bufferView: view, componentType: 5126, count: n, type: "VEC3", min, max }),
      NORMAL: w.accessor({ bufferView: view, byteOffset: 12, componentType: 5126, count: n, type: "VEC3" }),
      TEXCOORD_0: w.accessor({
        bufferView: view,
        byteOffset: 24,
        componentType: 5126,
        count: n,
        type: "VEC2",
      }),
    };
    const unlit = next() < 0.4;
    const material = w.material({
      name: object.name,
      ...pbrOf(w, object),
      ...(unlit ? { extensions: { KHR_materials_unlit: {} } } : {}),
    });
    const m = mesh(w, object.name, [{ mode: 4, attributes, material }]);
    w.node({ name: object.name, mesh: m, translation: centre });
    return pieceTruth(object.name, object.positions, object, { unlit });
  });
  return { w, truth, extras: { materialExtensions: {}, cameras: [], lights: {}, targets: {} } };
}

/** Unity or Godot: the aircraft under a root, a camera and lights beside it, `children: []` on leaves. */
function engineScene(objects: ModelObject[], tool: "unity" | "godot") {
  const w = new Writer();
  w.use("KHR_lights_punctual");
  const root = w.node({ name: tool === "unity" ? "Aircraft" : "Node3D", children: [] });
  const truth = objects.map((object) => {
    const centre = centreOf(object.positions);
    const world = mat4.fromTranslation(mat4.create(), centre);
    const material = w.material({ name: `M_${object.name}`, ...pbrOf(w, object) });
    const prim = placed(w, object, world, material);
    w.node(
      { name: object.name, mesh: mesh(w, object.name, [prim]), translation: centre, children: [] },
      root,
    );
    return pieceTruth(object.name, object.positions, object);
  });
  w.json.cameras = [{
    name: tool === "unity" ? "Main Camera" : "Camera3D",
    type: "perspective",
    perspective: { yfov: 1.0472, znear: 0.3, zfar: 1000, aspectRatio: 1.7778 },
  }];
  const lights = tool === "unity"
    ? [{ name: "Directional Light", type: "directional", color: [1, 0.957, 0.839], intensity: 1 }]
    : [
      { name: "OmniLight3D", type: "point", intensity: 8, range: 20 },
      {
        name: "SpotLight3D",
        type: "spot",
        intensity: 12,
        range: 30,
        spot: { innerConeAngle: 0, outerConeAngle: 0.7854 },
      },
    ];
  w.json.extensions = { KHR_lights_punctual: { lights } };
  const camera = w.json.cameras[0].name;
  w.node({ name: camera, camera: 0, translation: [0, 3, 20], rotation: [0, 0, 0, 1], children: [] });
  const lightNodes: Record<string, string> = {};
  lights.forEach((light, i) => {
    lightNodes[light.name] = light.type;
    w.node({
      name: light.name,
      translation: [2 * i, 10, 0],
      rotation: [-0.3826834, 0, 0, 0.9238795],
      children: [],
      extensions: { KHR_lights_punctual: { light: i } },
    });
  });
  return { w, truth, extras: { materialExtensions: {}, cameras: [camera], lights: lightNodes, targets: {} } };
}

/**
 * LODs as sibling roots `x_LOD0..3`, each the whole aircraft, objects `<name>_LOD<k>`; a lower LOD drawn
 * 0.3 % smaller per level about each object's centre, as decimation pulls a surface in.
 */
function lodSiblings(objects: ModelObject[]) {
  const w = new Writer();
  const truth: PartTruth[] = [];
  const materials = objects.map((object) => w.material({ name: `${object.name}_mat`, ...pbrOf(w, object) }));
  for (let k = 0; k < 4; k++) {
    const root = w.node({ name: `x_LOD${k}` });
    objects.forEach((object, i) => {
      const centre = centreOf(object.positions);
      const lod = {
        ...object,
        positions: object.positions.map((v, j) => centre[j % 3] + (v - centre[j % 3]) * (1 - 0.003 * k)),
      };
      const prim = placed(w, lod, mat4.fromTranslation(mat4.create(), centre), materials[i]);
      const name = `${object.name}_LOD${k}`;
      w.node({ name, mesh: mesh(w, name, [prim]), translation: centre }, root);
      truth.push(pieceTruth(name, lod.positions, object));
    });
  }
  return { w, truth, extras: { materialExtensions: {}, cameras: [], lights: {}, targets: {} } };
}

/** The LOD siblings linked by MSFT_lod: LOD0 drawn, the other roots out of the scene, its alternatives. */
function msftLod(lods: ReturnType<typeof lodSiblings>) {
  const { w } = lods;
  w.use("MSFT_lod");
  const roots = w.json.scenes[0].nodes as number[];
  w.json.nodes[roots[0]].extensions = { MSFT_lod: { ids: roots.slice(1) } };
  w.json.nodes[roots[0]].extras = { MSFT_screencoverage: [0.5, 0.2, 0.05, 0] };
  w.json.scenes[0].nodes = [roots[0]];
  return { ...lods, truth: lods.truth.filter((part) => part.name.endsWith("_LOD0")) };
}

/** One file of `tool` for `seed`. */
export async function sceneExporterFile(tool: SceneExporter, seed: number): Promise<SceneFile> {
  await loadPngEncoder();
  const next = prng(seed);
  const model = converterModel(next);
  const { w, truth, extras } = (() => {
    switch (tool) {
      case "sketchfab-pbr":
        return sketchfabPbr(model.objects, next);
      case "transform-fallback":
        return transformFallback(sketchfabPbr(model.objects, next));
      case "fbx2gltf-morph":
        return fbx2gltfMorph(model.objects, model.panels);
      case "babylon":
        return babylon(model.objects);
      case "mirrored-instances":
        return mirroredInstances(model.objects);
      case "threejs-unindexed":
        return threejsUnindexed(model.objects, next);
      case "unity-scene":
        return engineScene(model.objects, "unity");
      case "godot-scene":
        return engineScene(model.objects, "godot");
      case "lod-siblings":
        return lodSiblings(model.objects);
      case "msft-lod":
        return msftLod(lodSiblings(model.objects));
    }
  })();
  // Every LOD's surface is the source's surface: each is to be hinged as LOD0 is.
  const panels = tool === "lod-siblings" || tool === "msft-lod"
    ? [0, 1, 2, 3].flatMap((k) => model.panels.map((p) => ({ ...p, name: `${p.name}_LOD${k}` })))
    : model.panels;
  const facing: Record<string, number> = {};
  for (const part of truth) {
    let object = model.objects.find((o) => part.name === o.name || part.name.startsWith(`${o.name}_LOD`));
    // A mirrored instance draws its twin's faces, reversed by the mirror: the twin's facing.
    if (tool === "mirrored-instances" && object?.name.endsWith("_R")) {
      object = model.objects.find((o) => o.name === object!.name.replace(/_R$/, "_L")) ?? object;
    }
    if (object) facing[part.name] = outwardSign(object.positions, object.triangles);
  }
  const bytes = w.glb(GENERATORS[tool]);
  return { tool, name: `${tool}_${seed}.glb`, bytes, parts: truth, panels, extras, facing };
}
