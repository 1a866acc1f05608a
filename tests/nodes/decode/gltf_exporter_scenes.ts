/**
 * Exporter files whose parts are not placed by their mesh nodes: Sketchfab's conversion of a rigged
 * FBX (each part a primitive of one skinned mesh, bound rigidly to a bone named for it, under
 * `Armature` › `GLTF_created_0` › `_rootJoint`; the skinned mesh node's own turn, which viewers ignore,
 * left in), and Blender's export of a file of two scenes whose active one (`scene: 1`) holds the
 * aircraft and the first a studio backdrop no viewer shows.
 *
 * @module
 */
import { mat4, vec3 } from "gl-matrix";
import {
  baseTexture,
  box,
  type Part,
  type PartTruth,
  plainPrimitive,
  translation,
  truthOf,
  Writer,
} from "./gltf_exporter_parts.ts";

/**
 * Sketchfab's rigged conversion, Z up in centimetres like its static one: bones `<part>_0<k>` placed at
 * each part, the skinned mesh's vertices in the armature's space, each inverse bind matrix its bone's
 * world inverted times the armature's; joints as bytes, weights as floats (one influence, three slots 0).
 */
export function sketchfabRigged(parts: Part[]): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  const turn = mat4.fromXRotation(mat4.create(), -Math.PI / 2);
  const scale = mat4.fromScaling(mat4.create(), [0.01, 0.01, 0.01]);
  const top = w.node({ name: "Sketchfab_model", matrix: [...turn] });
  const fbx = w.node({ name: "plane.fbx", matrix: [...scale] }, top);
  const armature = w.node(
    { name: "Armature" },
    w.node({ name: "RootNode" }, w.node({ name: "Object_2" }, fbx)),
  );
  const armatureWorld = mat4.multiply(mat4.create(), turn, scale);
  const toFile = mat4.invert(mat4.create(), armatureWorld)!;
  const created = w.node({ name: "GLTF_created_0" }, armature);
  const rootJoint = w.node({ name: "_rootJoint" }, created);
  const joints = [rootJoint];
  const inverseBinds: number[] = [...mat4.create()];
  const primitives = parts.map((part, i) => {
    const centre = vec3.transformMat4(vec3.create(), part.centre, toFile);
    const bone = w.node({ name: `${part.name}_0${i + 1}`, translation: [...centre] }, rootJoint);
    joints.push(bone);
    // The bone's world at rest is the armature's times its translation: its inverse bind undoes that
    // back to the armature's space, where the vertices are.
    inverseBinds.push(...mat4.fromTranslation(mat4.create(), vec3.negate(vec3.create(), centre)));
    const fileSize: [number, number, number] = [part.size[0] * 100, part.size[2] * 100, part.size[1] * 100];
    const b = box(fileSize);
    const n = b.positions.length / 3;
    const material = w.material({
      name: `Material.${String(i + 1).padStart(3, "0")}`,
      pbrMetallicRoughness: {
        baseColorFactor: part.factor,
        metallicFactor: 0,
        ...(part.texture ? { baseColorTexture: baseTexture(w, part) } : {}),
      },
    });
    // The vertices where the part lies in the armature's space.
    const placed = b.positions.map((v, k) => v + centre[k % 3]);
    const primitive = {
      attributes: {
        POSITION: w.floats(placed, "VEC3", undefined, true),
        NORMAL: w.floats(b.normals, "VEC3"),
        TEXCOORD_0: w.floats(b.uvs, "VEC2"),
      } as Record<string, number>,
      indices: w.indices(b.indices),
      material,
    };
    const jointBytes = new Uint8Array(4 * n).map((_, k) => (k % 4 === 0 ? i + 1 : 0));
    const weights = new Float32Array(4 * n).map((_, k) => (k % 4 === 0 ? 1 : 0));
    primitive.attributes.JOINTS_0 = w.accessor({
      bufferView: w.view(jointBytes, { target: 34962 }),
      componentType: 5121,
      count: n,
      type: "VEC4",
    });
    primitive.attributes.WEIGHTS_0 = w.floats(weights, "VEC4");
    return primitive;
  });
  const ibm = w.accessor({
    bufferView: w.view(new Uint8Array(new Float32Array(inverseBinds).buffer)),
    componentType: 5126,
    count: joints.length,
    type: "MAT4",
  });
  w.json.skins = [{ name: "Armature", skeleton: rootJoint, joints, inverseBindMatrices: ibm }];
  const mesh = w.json.meshes.push({ name: "Object_0", primitives }) - 1;
  // Sketchfab keeps the FBX mesh's own turn on the skinned node; glTF says viewers ignore it.
  w.node({ name: "Object_7", mesh, skin: 0, rotation: [0.5, 0.5, 0.5, 0.5] }, armature);
  const truth = parts.map((part, i) => {
    const centre = vec3.transformMat4(vec3.create(), part.centre, toFile);
    const fileSize: [number, number, number] = [part.size[0] * 100, part.size[2] * 100, part.size[1] * 100];
    const world = mat4.multiply(mat4.create(), armatureWorld, mat4.fromTranslation(mat4.create(), centre));
    return truthOf({ ...part, size: fileSize }, world, `${part.name}_0${i + 1}`);
  });
  return { w, truth };
}

/**
 * Blender's export of a .blend of two scenes: `Studio` (a backdrop) first, the active `Aircraft`
 * second (`scene: 1`), which viewers show.
 */
export function blenderTwoScenes(parts: Part[]): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  w.json.scenes = [{ name: "Studio", nodes: [] }, { name: "Aircraft", nodes: [] }];
  w.json.scene = 1;
  const backdrop: Part = { ...parts[0], name: "Backdrop", centre: [0, -1, 0], size: [40, 0.1, 40] };
  const floor = w.material({ name: "Floor", pbrMetallicRoughness: { baseColorFactor: [0.5, 0.5, 0.5, 1] } });
  const floorMesh = w.json.meshes.push({ name: "Plane", primitives: [plainPrimitive(w, backdrop, floor)] }) -
    1;
  w.node({ name: "Backdrop", mesh: floorMesh, translation: backdrop.centre });
  // w.node puts roots in scene 0: the aircraft's go to scene 1.
  w.json.scenes[0].nodes = [];
  const studio = w.json.nodes.length - 1;
  for (const part of parts) {
    const material = w.material({
      name: part.name,
      pbrMetallicRoughness: {
        baseColorFactor: part.factor,
        ...(part.texture ? { baseColorTexture: baseTexture(w, part) } : {}),
      },
    });
    const mesh = w.json.meshes.push({ name: part.name, primitives: [plainPrimitive(w, part, material)] }) - 1;
    w.node({ name: part.name, mesh, translation: part.centre });
  }
  w.json.scenes[1].nodes = w.json.scenes[0].nodes;
  w.json.scenes[0].nodes = [studio];
  return { w, truth: parts.map((part) => truthOf(part, translation(part))) };
}
