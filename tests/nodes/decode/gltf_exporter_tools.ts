/**
 * Blender 2.8x, Godot 3/4 and Sketchfab as `gltf_exporters.ts` writes them.
 *
 * @module
 */
import { mat4, quat, vec3 } from "gl-matrix";
import {
  baseTexture,
  box,
  emissiveStrength,
  type Json,
  type Part,
  type PartTruth,
  plainPrimitive,
  translation,
  truthOf,
  Writer,
} from "./gltf_exporter_parts.ts";

/**
 * Blender 2.8x with specular-glossiness materials: each primitive its own copy of the material
 * (`Paint`, `Paint.001`) and its texture; `fallback` writes the metal-rough fallback (the diffuse again
 * as base colour, through another texture entry), else only the extension.
 */
export function blenderSpecGloss(
  parts: Part[],
  fallback: boolean,
  required: boolean,
): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  w.use("KHR_materials_pbrSpecularGlossiness");
  if (required) w.json.extensionsRequired = ["KHR_materials_pbrSpecularGlossiness"];
  const truth: PartTruth[] = [];
  parts.forEach((part, i) => {
    // A baked second UV map on some: the texture reads it.
    if (i % 2 === 1) part.texCoord = 1;
    const image = part.texture ? w.image(part.texture, `paint_${i}`) : undefined;
    const specGloss: Json = {
      diffuseFactor: part.factor,
      specularFactor: [0.04, 0.04, 0.04],
      glossinessFactor: 0.4,
      ...(image !== undefined ? { diffuseTexture: baseTexture(w, part, image) } : {}),
    };
    const material = w.material({
      name: i ? `Paint.${String(i).padStart(3, "0")}` : "Paint",
      extensions: { KHR_materials_pbrSpecularGlossiness: specGloss },
      ...(fallback
        ? {
          pbrMetallicRoughness: {
            baseColorFactor: part.factor,
            metallicFactor: 0,
            roughnessFactor: 0.6,
            ...(image !== undefined ? { baseColorTexture: baseTexture(w, part, image) } : {}),
          },
        }
        : {}),
    });
    const mesh =
      w.json.meshes.push({ name: `${part.name}.mesh`, primitives: [plainPrimitive(w, part, material)] }) - 1;
    w.node({ name: part.name, mesh, translation: part.centre });
    truth.push(truthOf(part, translation(part)));
  });
  return { w, truth };
}

/**
 * Blender's unlit (Shadeless) materials mixed with lit ones: two parts share one mesh of two
 * primitives, one of each; unlit materials carry Blender's fallback (metallic 0, roughness 0.9).
 */
export function blenderUnlit(parts: Part[]): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  w.use("KHR_materials_unlit");
  const truth: PartTruth[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const pair = parts.slice(i, i + 2);
    const primitives = pair.map((part, k) => {
      part.unlit = k === 1 || part.name === "Fuselage";
      const material = w.material({
        name: `${part.name}_mat`,
        pbrMetallicRoughness: {
          baseColorFactor: part.factor,
          metallicFactor: 0,
          roughnessFactor: part.unlit ? 0.9 : 0.5,
          ...(part.texture ? { baseColorTexture: baseTexture(w, part) } : {}),
        },
        ...(part.unlit ? { extensions: { KHR_materials_unlit: {} } } : {}),
      });
      const b = box(part.size);
      const shifted = b.positions.map((v, j) => v + part.centre[j % 3]);
      return {
        attributes: {
          POSITION: w.floats(shifted, "VEC3", undefined, true),
          TEXCOORD_0: w.floats(b.uvs, "VEC2"),
        },
        indices: w.indices(b.indices),
        material,
      };
    });
    const mesh = w.json.meshes.push({ name: pair.map((p) => p.name).join("+"), primitives }) - 1;
    // The mesh node is named after the first part; the second is drawn by it too.
    w.node({ name: pair[0].name, mesh });
    for (const part of pair) truth.push(truthOf(part, translation(part), pair[0].name));
  }
  return { w, truth };
}

/**
 * Godot 3/4's GLTFDocument: a single scene root (`GODOT_single_root` in 4: the root has no transform,
 * its children carry the turn; Godot 3's root turns), generated names with `@`
 * (`@MeshInstance3D@17`) on intermediate nodes, node `extras` (metadata), TRS with a rotation, and
 * KHR_texture_transform written at identity, emission past 1 as KHR_materials_emissive_strength.
 */
export function godot(parts: Part[], version: 3 | 4, next: () => number): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  const truth: PartTruth[] = [];
  if (version === 4) w.use("GODOT_single_root");
  w.use("KHR_texture_transform");
  const turn = quat.setAxisAngle(quat.create(), [0, 1, 0], Math.round(next() * 8) * Math.PI / 4);
  // GODOT_single_root's root is the Godot scene's own root, which has no transform: Godot 4 writes the
  // turn on each child instead. Godot 3 writes the root's turn.
  const root = w.node({
    name: version === 4 ? "Aircraft" : "Spatial",
    ...(version === 3 ? { rotation: [...turn] } : {}),
    extras: { godot_version: version },
  });
  const rootMatrix = mat4.fromQuat(mat4.create(), turn);
  parts.forEach((part, i) => {
    if (i % 3 === 2) {
      part.emissive = [0.5, 0.25, 0], part.strength = 4;
      // Godot 3 writes emission × energy as the factor, past 1; Godot 4 the strength extension.
      if (version === 4) w.use("KHR_materials_emissive_strength");
    }
    const info = part.texture
      ? { ...baseTexture(w, part), extensions: { KHR_texture_transform: { offset: [0, 0], scale: [1, 1] } } }
      : undefined;
    const material = w.material({
      name: "",
      pbrMetallicRoughness: {
        baseColorFactor: part.factor,
        metallicFactor: 0,
        roughnessFactor: 1,
        ...(info ? { baseColorTexture: info } : {}),
      },
      ...(part.strength !== 1 && version === 3
        ? { emissiveFactor: part.emissive.map((e) => e * part.strength) }
        : {}),
      ...(version === 4 ? emissiveStrength(part) : {}),
    });
    const mesh = w.json.meshes.push({
      name: "",
      primitives: [plainPrimitive(w, part, material)],
      extras: { targetNames: [] },
    }) - 1;
    const holder = w.node({
      name: part.name,
      ...(version === 3
        ? { translation: part.centre }
        : { translation: [...vec3.transformQuat(vec3.create(), part.centre, turn)], rotation: [...turn] }),
      extras: { part: i, "@path": `Aircraft/${part.name}` },
    }, root);
    w.node({ name: `@MeshInstance${version === 4 ? "3D" : ""}@${17 + i}`, mesh }, holder);
    truth.push(truthOf(part, mat4.multiply(mat4.create(), rootMatrix, translation(part))));
  });
  return { w, truth };
}

/** Sketchfab's Z-up → Y-up root matrix, as its converter writes it (cos 90° as 2.2e-16). */
const SKETCHFAB_ROOT = [
  1,
  0,
  0,
  0,
  0,
  2.220446049250313e-16,
  -1,
  0,
  0,
  1,
  2.220446049250313e-16,
  0,
  0,
  0,
  0,
  1,
];

/**
 * Sketchfab's conversion of an FBX in centimetres, Z up: `Sketchfab_model` (matrix), `plane.fbx`
 * (0.01 scale matrix), `RootNode`, a node per part holding a node per material `<part>_<material>_0`
 * with a mesh `Object_<n>`; textures repeated per material.
 */
export function sketchfab(parts: Part[], specGloss: boolean): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  const truth: PartTruth[] = [];
  if (specGloss) w.use("KHR_materials_pbrSpecularGlossiness");
  const top = w.node({ name: "Sketchfab_model", matrix: SKETCHFAB_ROOT });
  const fbx = w.node(
    { name: "plane.fbx", matrix: [0.01, 0, 0, 0, 0, 0.01, 0, 0, 0, 0, 0.01, 0, 0, 0, 0, 1] },
    top,
  );
  const rootNode = w.node({ name: "RootNode" }, fbx);
  const toFile = mat4.clone(SKETCHFAB_ROOT as mat4);
  const world = mat4.multiply(mat4.create(), toFile, mat4.fromScaling(mat4.create(), [0.01, 0.01, 0.01]));
  parts.forEach((part, i) => {
    // The file's part is in centimetres, Z up: its place and size in the file's frame.
    const inv = mat4.invert(mat4.create(), world)!;
    const centre = vec3.transformMat4(vec3.create(), part.centre, inv);
    const fileSize: [number, number, number] = [part.size[0] * 100, part.size[2] * 100, part.size[1] * 100];
    // Tiled textures in a KHR_texture_transform; a see-through canopy blended.
    if (part.texture && i % 2 === 0) part.transform = { scale: [4, 4], offset: [0, 0.5] };
    const blend = i === 3;
    if (blend) part.factor = [part.factor[0], part.factor[1], part.factor[2], 0.5];
    if (part.transform) w.use("KHR_texture_transform");
    const filePart = { ...part, size: fileSize };
    const info = baseTexture(w, part);
    const material = w.material({
      name: `Material.${String(i + 1).padStart(3, "0")}`,
      ...(specGloss
        ? {
          extensions: {
            KHR_materials_pbrSpecularGlossiness: {
              diffuseFactor: part.factor,
              glossinessFactor: 0.5,
              specularFactor: [0.2, 0.2, 0.2],
              ...(info ? { diffuseTexture: info } : {}),
            },
          },
        }
        : {
          pbrMetallicRoughness: {
            baseColorFactor: part.factor,
            metallicFactor: 0,
            roughnessFactor: 0.6,
            ...(info ? { baseColorTexture: info } : {}),
          },
        }),
      doubleSided: true,
      ...(blend ? { alphaMode: "BLEND" } : {}),
    });
    const mesh =
      w.json.meshes.push({ name: `Object_${2 * i}`, primitives: [plainPrimitive(w, filePart, material)] }) -
      1;
    const holder = w.node({ name: part.name, translation: [...centre] }, rootNode);
    w.node(
      { name: `Object_${2 * i + 1}`, mesh, matrix: undefined },
      w.node({ name: `${part.name}_Material.${String(i + 1).padStart(3, "0")}_0` }, holder),
    );
    // The box in the file is its size in the file's frame: the world sees the part's own box.
    const placed = mat4.multiply(mat4.create(), world, mat4.fromTranslation(mat4.create(), centre));
    truth.push({ ...truthOf(filePart, placed), name: part.name });
  });
  for (const node of w.json.nodes) if (node.matrix === undefined) delete node.matrix;
  return { w, truth };
}
