/**
 * Texture coordinates with a third component (UVW), as Assimp's glTF exporter writes them from an OBJ
 * or FBX whose UVs have three (assimp#2615): glTF allows only `VEC2`, Blender's importer fails on the
 * file, three.js samples the first two. Read as the UVs they are, the third component dropped.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { Json } from "./checker.ts";

const FORMATS = ["5126", "5121n", "5123n"];

/** How a `VEC3` texture coordinate accessor is read, or undefined when it is not one. */
export function uvwAttributeRepair(semantic: string, accessor: Json): string | undefined {
  if (!/^TEXCOORD_\d+$/.test(semantic) || accessor.type !== "VEC3") return undefined;
  const format = `${accessor.componentType}${accessor.normalized === true ? "n" : ""}`;
  return FORMATS.includes(format) ? "UVW (VEC3): read as UV, the third component dropped" : undefined;
}

/** Converts, in the decoded scene, the `VEC3` texture coordinates {@link uvwAttributeRepair} let through. */
export function convertUvwAttributes(doc: Document): void {
  const done = new Set<unknown>();
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      for (const semantic of primitive.listSemantics()) {
        const accessor = primitive.getAttribute(semantic)!;
        const array = accessor.getArray();
        if (
          !/^TEXCOORD_\d+$/.test(semantic) || accessor.getType() !== "VEC3" || !array || done.has(accessor)
        ) {
          continue;
        }
        done.add(accessor);
        const count = accessor.getCount();
        const uv = new (array.constructor as Float32ArrayConstructor)(count * 2);
        for (let i = 0; i < count; i++) {
          uv[2 * i] = array[3 * i];
          uv[2 * i + 1] = array[3 * i + 1];
        }
        accessor.setType("VEC2").setArray(uv);
      }
    }
  }
}
