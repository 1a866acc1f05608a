/**
 * Files written by three.js's own `GLTFExporter` (npm:three), as a web editor saves a model: a group
 * tree turned and scaled, names with dots and spaces (`Aileron.L`, `Wing L`), vertex colours as
 * normalized bytes, a mesh of two materials (geometry groups: primitives sharing one vertex list, each
 * its own range of indices), `MeshBasicMaterial` (unlit), emission past 1 (`emissiveIntensity`:
 * KHR_materials_emissive_strength), a geometry of interleaved attributes. No textures: the exporter
 * needs a canvas to write images. The truth is what three.js itself places and colours.
 *
 * @module
 */
import * as THREE from "three";
import { GLTFExporter } from "three/examples/jsm/exporters/GLTFExporter.js";
import { prng } from "../../support/prng.ts";
import type { ExporterFile, PartTruth } from "./gltf_exporter_parts.ts";

const NAMES = ["Fuselage", "Wing L", "Aileron.L", "Aileron.R", "Elevator", "Rudder"];

/** A box geometry of `size`, its colours bytes of `tint` when given, interleaved when `interleaved`. */
function boxGeometry(size: number[], tint?: number[], interleaved = false): THREE.BufferGeometry {
  const geometry = new THREE.BoxGeometry(size[0], size[1], size[2]);
  if (tint) {
    const count = geometry.getAttribute("position").count;
    const colours = new Uint8Array(count * 3).map((_, k) => tint[k % 3]);
    geometry.setAttribute("color", new THREE.Uint8BufferAttribute(colours, 3, true));
  }
  if (!interleaved) return geometry;
  const position = geometry.getAttribute("position"), normal = geometry.getAttribute("normal");
  const data = new Float32Array(position.count * 6);
  for (let i = 0; i < position.count; i++) {
    data.set([position.getX(i), position.getY(i), position.getZ(i)], 6 * i);
    data.set([normal.getX(i), normal.getY(i), normal.getZ(i)], 6 * i + 3);
  }
  const buffer = new THREE.InterleavedBuffer(data, 6);
  geometry.setAttribute("position", new THREE.InterleavedBufferAttribute(buffer, 3, 0));
  geometry.setAttribute("normal", new THREE.InterleavedBufferAttribute(buffer, 3, 3));
  return geometry;
}

/** What three.js draws of `mesh`'s group `group` (or all of it): bounds, colour, unlit, glow. */
function truthOf(mesh: THREE.Mesh, material: THREE.Material, group?: THREE.GeometryGroup): PartTruth {
  const geometry = mesh.geometry;
  const position = geometry.getAttribute("position");
  const index = geometry.getIndex()!;
  const start = group?.start ?? 0, end = group ? group.start + group.count : index.count;
  const box = new THREE.Box3();
  const v = new THREE.Vector3();
  for (let i = start; i < end; i++) {
    box.expandByPoint(v.fromBufferAttribute(position, index.getX(i)).applyMatrix4(mesh.matrixWorld));
  }
  const tint = geometry.getAttribute("color");
  const t = tint ? [tint.getX(0), tint.getY(0), tint.getZ(0)] : [1, 1, 1];
  const m = material as THREE.MeshStandardMaterial;
  const unlit = material instanceof THREE.MeshBasicMaterial;
  const emissive = unlit
    ? [0, 0, 0]
    : [m.emissive.r, m.emissive.g, m.emissive.b].map((e) => e * m.emissiveIntensity);
  return {
    name: mesh.name,
    min: box.min.toArray(),
    max: box.max.toArray(),
    colour: [m.color.r * t[0], m.color.g * t[1], m.color.b * t[2], m.opacity],
    unlit,
    emissive,
    uv: "",
  };
}

/** A three.js editor's save of an aircraft of seeded parts, through the real GLTFExporter. */
export async function threejsExporterFile(seed: number): Promise<ExporterFile> {
  const next = prng(seed);
  const scene = new THREE.Scene();
  const root = new THREE.Group();
  root.name = "Aircraft";
  root.rotation.set(0, Math.round(next() * 4) * Math.PI / 2, 0);
  root.scale.setScalar(0.5 + Math.round(next() * 4) / 4);
  scene.add(root);
  const meshes: THREE.Mesh[] = [];
  NAMES.forEach((name, i) => {
    const size = [0.2 + next() * 2, 0.05 + next() * 0.3, 0.2 + next() * 1.5];
    const tint = i % 2 ? [Math.floor(next() * 256), 255, Math.floor(next() * 256)] : undefined;
    const geometry = boxGeometry(size, tint, i === 4);
    const colour = new THREE.Color(next(), next(), next());
    const material = i === 1
      ? new THREE.MeshBasicMaterial({ color: colour, vertexColors: !!tint })
      : new THREE.MeshStandardMaterial({
        color: colour,
        vertexColors: !!tint,
        emissive: i === 3 ? new THREE.Color(0.2, 0.4, 0.6) : new THREE.Color(0, 0, 0),
        emissiveIntensity: i === 3 ? 3 : 1,
      });
    let mesh: THREE.Mesh;
    if (i === 0) {
      // The fuselage: two materials, its box's first two faces in the second (a canopy).
      geometry.clearGroups();
      geometry.addGroup(0, 12, 1);
      geometry.addGroup(12, 24, 0);
      const canopy = new THREE.MeshStandardMaterial({
        color: new THREE.Color(0.1, 0.3, 0.9),
        roughness: 0.1,
      });
      mesh = new THREE.Mesh(geometry, [material, canopy]);
    } else mesh = new THREE.Mesh(geometry, material);
    mesh.name = name;
    mesh.position.set(next() * 8 - 4, next() * 2, next() * 8 - 4);
    mesh.rotation.set(0, 0, i === 5 ? Math.PI / 2 : 0);
    root.add(mesh);
    meshes.push(mesh);
  });
  scene.updateMatrixWorld(true);
  const parts = meshes.flatMap((mesh) =>
    Array.isArray(mesh.material)
      ? mesh.geometry.groups.map((group) =>
        truthOf(mesh, (mesh.material as THREE.Material[])[group.materialIndex!], group)
      )
      : [truthOf(mesh, mesh.material)]
  );
  const bytes = new Uint8Array(await new GLTFExporter().parseAsync(scene, { binary: true }) as ArrayBuffer);
  return { tool: "threejs-r187", name: `threejs_${seed}.glb`, bytes, parts };
}
