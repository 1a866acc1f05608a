/**
 * Scenes whose meshes and materials `export.gltf` renames (the original kept in `extras.name`), made as
 * users' files come: kit-bashed Blender merges repeating `Cube`, `Plane.001`, `Material` and `Paint`;
 * CAD exports naming parts past Blender's 63 bytes; nodes named apart from their meshes, some with
 * custom properties (Blender's extras) or a mesh drawn by several nodes; one or several primitives per
 * mesh; merged kits' `Camera`s and `Light`s on nodes of their own. What three.js's `GLTFLoader` keeps of those originals is measured in `threejs_mesh_names_test.ts`.
 *
 * @module
 */
import { Document, type Material, type Mesh } from "@gltf-transform/core";
import { KHRLightsPunctual } from "@gltf-transform/extensions";
import { prng } from "../support/prng.ts";

const STOCK_MESHES = ["Cube", "Plane", "Cylinder", "Plane.001", "Mesh", "Object_0"];
const STOCK_MATERIALS = ["Material", "Paint", "Material.001", "Default"];
const CAD = "Assembly_Main_Landing_Gear_Door_Actuator_Bracket_Left_Forward_Revision_";

/** A scene of seed `seed`: 6–15 nodes, their meshes and materials drawn from stock and CAD names. */
export function renamedMeshesScene(seed: number): Document {
  const next = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene("Scene");
  const accessor = (type: "VEC3" | "SCALAR", array: Float32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>) =>
    doc.createAccessor().setBuffer(buffer).setType(type).setArray(array);
  const materialName = () => next() < 0.2 ? `${CAD}Finish_${Math.floor(next() * 3)}` : pick(STOCK_MATERIALS);
  const materials: Material[] = Array.from(
    { length: 2 + Math.floor(next() * 4) },
    () => doc.createMaterial(materialName()).setBaseColorFactor([next(), next(), next(), 1]),
  );
  const meshes: Mesh[] = [];
  const count = 6 + Math.floor(next() * 10);
  for (let i = 0; i < count; i++) {
    const node = doc.createNode(next() < 0.5 ? `Part_${i}` : `Panel.${String(i).padStart(3, "0")}`)
      .setTranslation([i, 0, 0]);
    if (next() < 0.3) node.setExtras({ part_id: i, sim: { hinge: next() < 0.5 } });
    let mesh = meshes.length > 0 && next() < 0.2 ? pick(meshes) : undefined;
    if (!mesh) {
      const name = next() < 0.25 ? `${CAD}${Math.floor(next() * 2)}` : pick(STOCK_MESHES);
      mesh = doc.createMesh(name);
      const primitives = next() < 0.7 ? 1 : 2 + Math.floor(next() * 2);
      for (let p = 0; p < primitives; p++) {
        const x = 0.5 + next();
        mesh.addPrimitive(
          doc.createPrimitive()
            .setAttribute("POSITION", accessor("VEC3", new Float32Array([0, 0, 0, x, 0, 0, 0, 0, x])))
            .setIndices(accessor("SCALAR", new Uint16Array([0, 2, 1])))
            .setMaterial(pick(materials)),
        );
      }
      if (next() < 0.2) mesh.setExtras({ lod: 0 });
      meshes.push(mesh);
    }
    scene.addChild(node.setMesh(mesh));
  }
  // Merged kits' cameras and lights, each on a node of its own as Blender writes them.
  const lights = doc.createExtension(KHRLightsPunctual);
  for (let k = 0; k < 3; k++) {
    if (next() < 0.6) {
      const camera = doc.createCamera(next() < 0.7 ? "Camera" : `${CAD}Camera`).setType("perspective")
        .setYFov(0.8).setZNear(0.1).setZFar(100);
      scene.addChild(doc.createNode(`Camera.${String(k).padStart(3, "0")}`).setCamera(camera));
    }
    if (next() < 0.6) {
      const light = lights.createLight(next() < 0.5 ? "Light" : "Sun").setType("point").setIntensity(5);
      scene.addChild(doc.createNode(`Lamp_${k}`).setExtension("KHR_lights_punctual", light));
    }
  }
  return doc;
}
