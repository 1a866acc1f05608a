/**
 * Skin attributes as exporters write them outside glTF's formats, read as they meant them: joint
 * indices in floats or 32-bit or signed integers (three.js's exporter before r92 wrote floats,
 * glTFast `UNSIGNED_INT`), and joints and weights of two or three influences (glTFast writes `VEC2`
 * for a two-bone skin). three.js hands a `VEC2` to its `vec4` shader input as `(j0, j1, 0, 1)`, so the
 * last weight became 1; padded with zeros, each vertex keeps the influences it had. Joint indices
 * become unsigned shorts, whole numbers checked; weights keep their component type.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { Json } from "./checker.ts";
import { gltfError, type GltfSource } from "./container.ts";
import { formatName } from "./check_scene.ts";

const UNSIGNED_SHORT = 5123;
/** Joint index component types read as unsigned shorts: every integer type and float, none normalized. */
const JOINT_TYPES = [5120, 5121, 5122, 5123, 5125, 5126];
/** Weight formats glTF allows (float, normalized unsigned bytes and shorts). */
const WEIGHT_FORMATS = ["5126", "5121n", "5123n"];
const TYPES = ["VEC2", "VEC3", "VEC4"];
const INFLUENCES: Readonly<Record<string, number>> = { VEC2: 2, VEC3: 3, VEC4: 4 };

/**
 * How an accessor glTF does not allow for skin attribute `semantic` is read, or undefined when it
 * cannot be (the check then refuses it).
 */
export function skinAttributeRepair(semantic: string, accessor: Json): string | undefined {
  const joints = /^JOINTS_\d+$/.test(semantic);
  if (!joints && !/^WEIGHTS_\d+$/.test(semantic)) return undefined;
  const type = accessor.type as string, code = accessor.componentType as number;
  const normalized = accessor.normalized === true;
  const fits = joints
    ? JOINT_TYPES.includes(code) && !normalized
    : WEIGHT_FORMATS.includes(`${code}${normalized ? "n" : ""}`);
  if (!TYPES.includes(type) || !fits) return undefined;
  const padded = type === "VEC4" ? "" : ` padded to VEC4 with ${joints ? "joint 0" : "zero weights"}`;
  return joints
    ? `joint indices as ${type} of ${formatName(`${code}`)}: read as unsigned shorts${padded}`
    : `weights as ${type}:${padded}`;
}

/**
 * Converts, in the decoded scene, the skin attributes {@link skinAttributeRepair} let through: joint
 * indices to VEC4 unsigned shorts (refusing one that is not a whole number in 0..65535), weights to
 * VEC4 of their type. Meshes and primitives are in the file's order, so paths name the file's.
 */
export function convertSkinAttributes(doc: Document, source: GltfSource): void {
  const done = new Set<unknown>();
  doc.getRoot().listMeshes().forEach((mesh, m) => {
    mesh.listPrimitives().forEach((primitive, p) => {
      for (const semantic of primitive.listSemantics()) {
        const joints = /^JOINTS_\d+$/.test(semantic);
        if (!joints && !/^WEIGHTS_\d+$/.test(semantic)) continue;
        const accessor = primitive.getAttribute(semantic)!;
        const array = accessor.getArray();
        const size = INFLUENCES[accessor.getType()];
        const plain = accessor.getType() === "VEC4" &&
          (!joints || [5121, UNSIGNED_SHORT].includes(accessor.getComponentType()));
        if (plain || done.has(accessor) || !array || !size) continue;
        done.add(accessor);
        const count = accessor.getCount();
        const out = joints
          ? new Uint16Array(count * 4)
          : new (array.constructor as Float32ArrayConstructor)(count * 4);
        for (let i = 0; i < count; i++) {
          for (let k = 0; k < size; k++) {
            const value = array[i * size + k];
            if (joints && !(Number.isInteger(value) && value >= 0 && value <= 65535)) {
              throw gltfError(
                source,
                { jsonPath: `/meshes/${m}/primitives/${p}/attributes/${semantic}` },
                "joint indices that are whole numbers in 0..65535",
                `${value} at element ${i}`,
              );
            }
            out[i * 4 + k] = value;
          }
        }
        accessor.setType("VEC4").setArray(out);
      }
    });
  });
}
