/**
 * Joint indices against the skins that draw them, checked on the decoded scene (after
 * `convertSkinAttributes`, so every joint set is `VEC4` of integers): the Khronos validator refuses
 * an index at or past the skin's joint count (ACCESSOR_JOINTS_INDEX_OOB) whatever its weight.
 *
 * @module
 */
import type { Document, Mesh, Skin } from "@gltf-transform/core";
import { gltfError, type GltfSource } from "./container.ts";

/**
 * An index past the skin's joints with a weight of 0 — a slot an exporter left unset — moves nothing
 * in any viewer: it is set to joint 0, and the returned repair says how many were. One with a weight is
 * refused at its attribute: three.js reads a bone matrix past its skin's (garbage or the identity, by
 * GPU), Blender's importer fails, so no reading of it is the file's. Meshes, primitives and skins are in
 * the file's order, so paths name the file's.
 */
export function checkJointIndices(doc: Document, source: GltfSource): string[] {
  const root = doc.getRoot();
  const meshIndex = new Map(root.listMeshes().map((mesh, i) => [mesh, i]));
  const skinIndex = new Map(root.listSkins().map((skin, i) => [skin, i]));
  const repairs: string[] = [];
  const checked = new Set<string>();
  for (const node of root.listNodes()) {
    const mesh = node.getMesh(), skin = node.getSkin();
    if (!mesh || !skin || checked.has(`${meshIndex.get(mesh)} ${skinIndex.get(skin)}`)) continue;
    checked.add(`${meshIndex.get(mesh)} ${skinIndex.get(skin)}`);
    checkMesh(mesh, meshIndex.get(mesh)!, skin, skinIndex.get(skin)!, source, repairs);
  }
  return repairs;
}

function checkMesh(
  mesh: Mesh,
  m: number,
  skin: Skin,
  s: number,
  source: GltfSource,
  repairs: string[],
): void {
  const joints = skin.listJoints().length;
  mesh.listPrimitives().forEach((primitive, p) => {
    for (const semantic of primitive.listSemantics()) {
      if (!/^JOINTS_\d+$/.test(semantic)) continue;
      const indices = primitive.getAttribute(semantic)!.getArray()!;
      const weights = primitive.getAttribute(semantic.replace("JOINTS", "WEIGHTS"))?.getArray();
      const path = `/meshes/${m}/primitives/${p}/attributes/${semantic}`;
      let unset = 0;
      for (let i = 0; i < indices.length; i++) {
        if (indices[i] < joints) continue;
        if (weights && weights[i] === 0) {
          indices[i] = 0;
          unset++;
          continue;
        }
        throw gltfError(
          source,
          { jsonPath: path },
          `joint indices below the ${joints} joints of skin ${s}, or with a weight of 0`,
          `${indices[i]} at element ${Math.floor(i / 4)}${
            weights ? `, weighted ${weights[i]}` : ", unweighted"
          }`,
        );
      }
      if (unset) {
        repairs.push(
          `${path}: ${unset} joint index(es) past the ${joints} joints of skin ${s}, each with a weight of 0 (unset slots); set to joint 0`,
        );
      }
    }
  });
}
