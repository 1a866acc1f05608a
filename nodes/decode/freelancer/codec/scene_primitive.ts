/**
 * The glTF primitives of a Freelancer scene: a selected group (or wireframe) as a primitive with its
 * attributes, LancerEdit's tangents packed from the last two UV sets when a normal map reads them, and
 * its material; a material sampling a UV set the mesh lacks is named once per material and set count,
 * after the parts, with every such mesh (the first four, then how many more) and the parts and LODs
 * drawing each.
 *
 * @module
 */
import { type Accessor, type Document, type Material, Primitive } from "@gltf-transform/core";
import type { WarningSink } from "../../../../runtime/node.ts";
import type { SceneAccessors } from "../../../../runtime/scene/accessors.ts";
import { setQuietly, setRefMapQuietly, setRefQuietly } from "../../../../runtime/scene/quiet_refs.ts";
import type { FreelancerModel } from "./model.ts";
import { packTangents, wantsTangents } from "./tangents.ts";
import type { SelectedPrimitive } from "./vmesh_select.ts";

/** The buffer-view targets glTF-Transform's `setAttribute` and `setIndices` give their edges. */
const ARRAY_BUFFER = "ARRAY_BUFFER", ELEMENT_ARRAY_BUFFER = "ELEMENT_ARRAY_BUFFER";
/** UV set semantics, not built per primitive (Freelancer meshes have up to eight sets). */
const TEXCOORDS = Array.from({ length: 8 }, (_, i) => `TEXCOORD_${i}`);

/**
 * Makes the primitive of a selected group (`lines`: a wireframe, drawn without material). `mesh` says
 * which library mesh it is and who draws it, in a warning's words (else the label names it).
 */
export type MakePrimitive = (
  prim: SelectedPrimitive,
  label: string,
  lines: boolean,
  mesh?: () => string,
) => Primitive;

/** {@link MakePrimitive} with the warnings it holds until every part is made. */
export type ScenePrimitives = MakePrimitive & {
  /** One warning per material and UV set count its meshes lack, naming every such mesh (call once). */
  readonly reportUvSets: () => void;
};

/** How many meshes a UV-set warning names before it counts the rest, as `users.ts` does parts. */
const NAMED_MESHES = 4;

/**
 * The primitive maker of one scene: accessors from `accessors`, materials by id from `material`.
 *
 * @example
 * ```ts
 * const primitive = scenePrimitives(doc, accessors, model, sceneMaterials(doc, model, warn), warn);
 * mesh.addPrimitive(primitive(selected, "Root.0", false));
 * primitive.reportUvSets();
 * ```
 */
export function scenePrimitives(
  doc: Document,
  accessors: SceneAccessors,
  model: FreelancerModel,
  material: (id: number) => Material | null,
  warn: WarningSink,
): ScenePrimitives {
  // A new primitive's references are set without glTF-Transform's change events (`quiet_refs.ts`):
  // four to six per primitive, dispatched to no listener.
  const attribute = (out: Primitive, semantic: string, accessor: Accessor) => {
    if (!setRefMapQuietly(out, "attributes", semantic, accessor, ARRAY_BUFFER)) {
      out.setAttribute(semantic, accessor);
    }
  };
  const primitive = (
    prim: SelectedPrimitive,
    label: string,
    lines: boolean,
    mesh?: () => string,
  ): Primitive => {
    const out = doc.createPrimitive();
    // TRIANGLES is the default.
    if (lines && !setQuietly(out, "mode", Primitive.Mode.LINES)) out.setMode(Primitive.Mode.LINES);
    attribute(out, "POSITION", accessors.create("VEC3", prim.positions, `${label}.position`));
    const indices = accessors.create("SCALAR", prim.indices, `${label}.indices`);
    if (!setRefQuietly(out, "indices", indices, { usage: ELEMENT_ARRAY_BUFFER })) out.setIndices(indices);
    if (prim.normals) attribute(out, "NORMAL", accessors.create("VEC3", prim.normals, `${label}.normal`));
    if (prim.colors) attribute(out, "COLOR_0", accessors.create("VEC4", prim.colors, `${label}.color`));
    let uvs = prim.uvs;
    if (!lines && wantsTangents(uvs.length, !!prim.normals, model.materials.get(prim.materialId))) {
      // The last two UV sets are LancerEdit's tangent (x, y | z, w), which the normal map needs.
      const tangents = packTangents(uvs[uvs.length - 2], uvs[uvs.length - 1], accessors.arena);
      if (typeof tangents === "string") {
        // The label ('Root.2') is a primitive of the output; the mesh, its parts and the material say
        // where in the model the sets are.
        const def = model.materials.get(prim.materialId);
        const of = mesh ? ` of mesh ${mesh()}${def ? `, under material '${def.name}',` : ""}` : "";
        warn(
          `${label}: UV sets ${uvs.length - 2}–${
            uvs.length - 1
          }${of} are not tangents (${tangents}); kept as UV sets`,
        );
      } else {
        attribute(out, "TANGENT", accessors.create("VEC4", tangents, `${label}.tangent`));
        uvs = uvs.slice(0, -2);
      }
    }
    for (let i = 0; i < uvs.length; i++) {
      attribute(out, TEXCOORDS[i] ?? `TEXCOORD_${i}`, accessors.create("VEC2", uvs[i], `${label}.uv${i}`));
    }
    if (!lines) {
      const mat = material(prim.materialId);
      if (mat && !setRefQuietly(out, "material", mat)) out.setMaterial(mat);
      checkUvSets(mat, uvs.length, mesh ?? (() => `'${label}'`));
    }
    return out;
  };
  /**
   * Materials sampling a UV set their mesh lacks, by material and set count, in first-seen order: the
   * sets missing and every mesh (in a warning's words, each once), told after the parts, since a
   * material a mod gave flags to is drawn on many meshes and the first alone sent a modder to one part.
   */
  const uvLacking = new Map<
    string,
    { material: string; missing: number[]; sets: number; meshes: Set<string> }
  >();
  // A material's sampler flags (0x10: second UV set) are a property of the material, the sets one of
  // the mesh; a mod's material on a mesh with fewer sets samples one that is not there.
  /** The UV sets each material samples: its texture infos are read once, not once per primitive. */
  const sampled = new Map<Material, number[]>();
  const checkUvSets = (mat: Material | null, sets: number, mesh: () => string) => {
    if (!mat) return;
    let needed = sampled.get(mat);
    if (!needed) sampled.set(mat, needed = sampledUvSets(mat));
    // Sorted ascending: the last is the highest set the material samples.
    if (!needed.length || needed[needed.length - 1] < sets) return;
    const key = `${mat.getName()}\u0000${sets}`;
    let lacking = uvLacking.get(key);
    if (!lacking) {
      const missing = needed.filter((set) => set >= sets);
      uvLacking.set(key, lacking = { material: mat.getName(), missing, sets, meshes: new Set() });
    }
    lacking.meshes.add(mesh());
  };
  const reportUvSets = () => {
    for (const { material, missing, sets, meshes } of uvLacking.values()) {
      const all = [...meshes];
      const named = all.slice(0, NAMED_MESHES);
      const rest = all.length - named.length;
      const list = rest > 0
        ? `${named.join(", ")} and ${rest} more mesh${rest === 1 ? "" : "es"}`
        : named.length === 1
        ? named[0]
        : `${named.slice(0, -1).join(", ")} and ${named[named.length - 1]}`;
      warn(
        `material '${material}' samples UV set ${
          missing.map((s) => s + 1).join(", ")
        } (its texture flags), ` +
          `but mesh${all.length === 1 ? "" : "es"} ${list} ha${all.length === 1 ? "s" : "ve"} ${sets} UV set${
            sets === 1 ? "" : "s"
          }; ` +
          (sets
            ? "export.gltf draws those textures with the first set"
            : "its textures cannot be placed on it"),
      );
    }
    uvLacking.clear();
  };

  return Object.assign(primitive, { reportUvSets });
}

/** The UV sets a material's textures sample (glTF `texCoord`), in ascending order. */
function sampledUvSets(material: Material): number[] {
  const infos = [
    material.getBaseColorTextureInfo(),
    material.getEmissiveTextureInfo(),
    material.getNormalTextureInfo(),
    material.getOcclusionTextureInfo(),
    material.getMetallicRoughnessTextureInfo(),
  ];
  return [...new Set(infos.filter((info) => info !== null).map((info) => info.getTexCoord()))].sort((a, b) =>
    a - b
  );
}
