/**
 * The scene half of the glTF structure check: meshes (attribute types, equal counts, index
 * types), the node hierarchy, skins, textures, samplers, materials and cameras; animations in
 * `check_animations.ts`.
 *
 * @module
 */
import {
  ATTRIBUTE_RULES,
  FLOAT,
  formatOf,
  INDEX_TYPES,
  QUANTIZED_ATTRIBUTE_RULES,
  TARGET_FORMATS,
} from "./check.ts";
import type { Checker, Json } from "./checker.ts";
import { describe } from "./container.ts";
import { checkMaterial, checkTextureInfo } from "./check_material.ts";
import { checkMatrix } from "./check_matrix.ts";
import { checkAnimations } from "./check_animations.ts";
import { skinAttributeRepair } from "./skin_attributes.ts";
import { separateRepeatedJoints } from "./skin_joints.ts";
import { uvwAttributeRepair } from "./uvw_attributes.ts";
import { isMsfsPacked, isMsfsPackedAttribute } from "./msfs_attributes.ts";
import { MAX_HIERARCHY_DEPTH, scanHierarchy } from "../../../../runtime/depth.ts";
import { warnUndrawnNodes } from "./undrawn_nodes.ts";
import { checkSceneRoots, warnEmptyDefaultScene } from "./scene_roots.ts";

/** Primitives: modes, attribute types per semantic, equal element counts, index types. */
export function checkMeshes(c: Checker): void {
  const accessors = c.list("accessors");
  const quantized = (c.json.extensionsUsed as string[] | undefined)?.includes("KHR_mesh_quantization");
  const rules = quantized ? QUANTIZED_ATTRIBUTE_RULES : ATTRIBUTE_RULES;
  const packed = isMsfsPacked(c.json);
  c.list("meshes").forEach((mesh, m) => {
    const primitives = mesh.primitives;
    // An empty list is invalid, but viewers draw nothing for it: the export leaves such a mesh out.
    if (!Array.isArray(primitives)) c.fail(`/meshes/${m}/primitives`, "an array", primitives);
    if (primitives.length === 0) {
      // Named, not only dropped: a part a user expects (a wing whose faces an exporter lost) is missing.
      const named = typeof mesh.name === "string" && mesh.name ? `mesh '${mesh.name}'` : `mesh ${m}`;
      c.repaired(
        `/meshes/${m}/primitives`,
        `${named} has no primitives (glTF requires at least one; its exporter emptied it): ` +
          "the nodes using it draw nothing, and an export leaves the mesh out",
      );
    }
    c.numbers(mesh, "weights", `/meshes/${m}`);
    primitives.forEach((value, p) => {
      const path = `/meshes/${m}/primitives/${p}`;
      const primitive = c.object(value, path);
      c.oneOf(primitive, "mode", path, [0, 1, 2, 3, 4, 5, 6]);
      c.index(primitive, "material", path, "materials");
      const sets = [c.object(primitive.attributes, `${path}/attributes`)];
      if (primitive.targets !== undefined) {
        if (!Array.isArray(primitive.targets)) c.fail(`${path}/targets`, "an array", primitive.targets);
        primitive.targets.forEach((t, i) => sets.push(c.object(t, `${path}/targets/${i}`)));
      }
      let vertices: number | undefined;
      sets.forEach((set, s) => {
        const base = s === 0 ? `${path}/attributes` : `${path}/targets/${s - 1}`;
        for (const semantic of Object.keys(set)) {
          const a = c.index(set, semantic, base, "accessors")!;
          const accessor = accessors[a];
          const rule = rules.find(({ semantic: pattern }) => pattern.test(semantic));
          const formats = s === 0 ? rule?.formats : rule && TARGET_FORMATS;
          // A packed MSFS model's formats are read as the sim reads them, said once for the file.
          const allowed = !rule ||
            (rule.types.includes(accessor.type as string) && formats!.includes(formatOf(accessor))) ||
            (s === 0 && isMsfsPackedAttribute(semantic, accessor, packed));
          const read = allowed || s > 0
            ? undefined
            : skinAttributeRepair(semantic, accessor) ?? uvwAttributeRepair(semantic, accessor);
          if (read) c.repaired(`${base}/${semantic}`, `accessor ${a} holds ${read}`);
          else if (!allowed) {
            c.fail(
              `${base}/${semantic}`,
              `an accessor of type ${rule.types.join(" or ")} in ${formats!.map(formatName).join(", ")}`,
              describeAccessor(a, accessor),
            );
          }
          if (vertices !== undefined && accessor.count !== vertices) {
            c.fail(
              `${base}/${semantic}`,
              `an accessor of ${vertices} elements like the others`,
              `accessor ${a} of ${accessor.count}`,
            );
          }
          vertices = accessor.count as number;
        }
      });
      const indices = c.index(primitive, "indices", path, "accessors");
      if (indices !== undefined) checkIndexType(c, indices, `${path}/indices`);
    });
  });
}

/**
 * An index accessor holds unsigned integer scalars. (Its values are checked against the vertex count
 * after decoding, by `checkIndexValues`, where sparse, meshopt and Draco data are decoded too.)
 */
function checkIndexType(c: Checker, a: number, path: string): void {
  const accessor = c.list("accessors")[a];
  const signed = SIGNED_INDEX_TYPES[accessor.componentType as number];
  if (accessor.type === "SCALAR" && signed) {
    // Early exporters (UnityGLTF, gdx-gltf) wrote indices as signed shorts; the bits are the unsigned
    // values they meant, which viewers read.
    accessor.componentType = signed.unsigned;
    c.repaired(path, `accessor ${a} holds indices as ${signed.name}: read as unsigned`);
  }
  if (accessor.type !== "SCALAR" || !INDEX_TYPES.includes(accessor.componentType as number)) {
    c.fail(path, "an accessor of unsigned integer scalars", a);
  }
}

/** Signed index component types, with the unsigned type of their size. */
const SIGNED_INDEX_TYPES: Readonly<Record<number, { name: string; unsigned: number }>> = {
  5120: { name: "BYTE", unsigned: 5121 },
  5122: { name: "SHORT", unsigned: 5123 },
};

/** The validator's tolerance for a unit quaternion's length. */
const UNIT_TOLERANCE = 0.0005;
/** Rotations shorter than this are refused, not normalised: their direction is noise. */
const MIN_ROTATION_LENGTH = 0.01;

/**
 * Nodes: finite, unit-quaternion transforms, valid references, and a hierarchy with one parent each
 * and no cycle. Returns each node's parent (-1 for a root).
 */
export function checkNodes(c: Checker): number[] {
  const nodes = c.list("nodes");
  const parent = new Array<number>(nodes.length).fill(-1);
  nodes.forEach((node, i) => {
    const path = `/nodes/${i}`;
    c.numbers(node, "translation", path, 3);
    c.numbers(node, "rotation", path, 4);
    const q = node.rotation as number[] | undefined;
    const length = q && Math.hypot(...q);
    if (q && length !== undefined && Math.abs(length - 1) > UNIT_TOLERANCE) {
      // Exporters that round to a few decimals write such rotations, and viewers normalise them; a
      // (near) zero one names no rotation at all.
      if (!(length > MIN_ROTATION_LENGTH)) {
        c.fail(`${path}/rotation`, "a unit quaternion (length 1 ± 0.0005)", Number(length.toPrecision(6)));
      }
      node.rotation = q.map((v) => v / length);
      c.repaired(`${path}/rotation`, `rotation of length ${Number(length.toPrecision(6))} made unit length`);
    }
    c.numbers(node, "scale", path, 3);
    c.numbers(node, "matrix", path, 16);
    checkMatrix(c, node, path);
    c.index(node, "mesh", path, "meshes");
    c.index(node, "skin", path, "skins");
    c.index(node, "camera", path, "cameras");
    c.numbers(node, "weights", path);
    c.indexList(node, "children", path, "nodes").forEach((child, k) => {
      // Named as "node n", so a glTF 1.0 file's error names the child by its own id.
      if (parent[child] !== -1 || child === i) {
        c.fail(`${path}/children/${k}`, "each node with one parent", `node ${child}`);
      }
      parent[child] = i;
    });
  });
  const hierarchy = scanHierarchy(parent);
  if (hierarchy.cycleFrom >= 0) {
    c.fail(`/nodes/${hierarchy.cycleFrom}`, "a node hierarchy without cycles", "a cycle");
  }
  if (hierarchy.depth > MAX_HIERARCHY_DEPTH) {
    const expected = `a node hierarchy at most ${MAX_HIERARCHY_DEPTH} levels deep (levels down to this node)`;
    c.fail(`/nodes/${hierarchy.deepest}`, expected, hierarchy.depth);
  }
  return parent;
}

/** The values glTF allows for each sampler property. */
export const SAMPLER_ENUMS: readonly [SamplerEnum, readonly number[]][] = [
  ["magFilter", [9728, 9729]],
  ["minFilter", [9728, 9729, 9984, 9985, 9986, 9987]],
  ["wrapS", [33071, 33648, 10497]],
  ["wrapT", [33071, 33648, 10497]],
];

/**
 * A file with nodes but no scene (glTF allows it; hand-written and minimal exporters write it) is read
 * with one scene of its root nodes, as Blender's importer reads it. Kept as it was, the output had no
 * scene either: three.js's GLTFLoader gives no `scene` (an app's `gltf.scene.traverse` throws) and a
 * viewer draws nothing, silently. An empty `scenes` list is the same.
 */
function sceneForRoots(c: Checker, parent: readonly number[]): void {
  const scenes = c.json.scenes;
  if (parent.length === 0 || (scenes !== undefined && (!Array.isArray(scenes) || scenes.length))) return;
  // MSFT_lod's lower levels stay outside every scene, as in a file that has one (see decode_gltf.ts).
  const lods = new Set(
    c.list("nodes").flatMap((node) => {
      const lod = (node.extensions as Json | undefined)?.MSFT_lod as Json | undefined;
      const ids = lod?.ids;
      return Array.isArray(ids) ? ids : [];
    }),
  );
  const roots = parent.flatMap((p, node) => p === -1 && !lods.has(node) ? [node] : []);
  c.json.scenes = [{ nodes: roots }];
  if (c.json.scene === undefined) c.json.scene = 0;
  c.repaired(
    "/scenes",
    `the file has ${parent.length} node(s) but no scene, so a viewer draws none of them (three.js gives no ` +
      `scene at all): read as one scene of its ${roots.length} root node(s)`,
  );
}

/** A sampler property whose value is a GL enum. */
export type SamplerEnum = "magFilter" | "minFilter" | "wrapS" | "wrapT";

/**
 * Scenes, skins, textures, images, samplers, materials, cameras and animations: indices, enums and
 * ranges. `parent`: each node's parent (-1 for a root), from {@link checkNodes}.
 */
export function checkReferences(c: Checker, parent: readonly number[]): void {
  sceneForRoots(c, parent);
  c.index(c.json, "scene", "", "scenes");
  c.list("scenes").forEach((scene, i) => {
    c.indexList(scene, "nodes", `/scenes/${i}`, "nodes");
    checkSceneRoots(c, scene, `/scenes/${i}/nodes`, parent);
  });
  warnEmptyDefaultScene(c);
  warnUndrawnNodes(c, parent);
  c.list("skins").forEach((skin, i) => {
    const path = `/skins/${i}`;
    // Required: a skin of no joints binds nothing (glTF-Transform's reader threw a TypeError on one).
    if (skin.joints === undefined) c.fail(`${path}/joints`, "an array of node indices (required)", undefined);
    c.indexList(skin, "joints", path, "nodes");
    separateRepeatedJoints(c, skin, path);
    c.index(skin, "skeleton", path, "nodes");
    const ibm = c.index(skin, "inverseBindMatrices", path, "accessors");
    const accessor = ibm === undefined ? undefined : c.list("accessors")[ibm];
    if (accessor && (accessor.type !== "MAT4" || accessor.componentType !== FLOAT)) {
      c.fail(`${path}/inverseBindMatrices`, "a MAT4 float accessor", ibm);
    }
    // Refused, not padded: three.js reads past the array's end into a matrix of NaNs (the mesh
    // vanishes), and Blender's importer fails; which joints the matrices belong to is unknown.
    const joints = Array.isArray(skin.joints) ? skin.joints.length : 0;
    if (accessor && (accessor.count as number) < joints) {
      c.fail(
        `${path}/inverseBindMatrices`,
        `an accessor of at least ${joints} matrices, one per joint`,
        `accessor ${ibm} of ${accessor.count}`,
      );
    }
  });
  c.list("textures").forEach((texture, i) => {
    c.index(texture, "source", `/textures/${i}`, "images");
    c.index(texture, "sampler", `/textures/${i}`, "samplers");
    const extensions = texture.extensions as Json | undefined;
    for (const name of IMAGE_SOURCE_EXTENSIONS) {
      const extension = extensions?.[name];
      if (extension !== undefined) {
        c.index(
          c.object(extension, `/textures/${i}/extensions/${name}`),
          "source",
          `/textures/${i}/extensions/${name}`,
          "images",
        );
      }
    }
  });
  c.list("images").forEach((image, i) => {
    c.index(image, "bufferView", `/images/${i}`, "bufferViews");
    if (image.uri !== undefined && typeof image.uri !== "string") {
      c.fail(`/images/${i}/uri`, "a string", image.uri);
    }
  });
  c.list("samplers").forEach((sampler, i) => {
    const path = `/samplers/${i}`;
    for (const [key, values] of SAMPLER_ENUMS) {
      // Exporters write 0 or a GL constant glTF does not allow; viewers sample with the default.
      if (sampler[key] !== undefined && !values.includes(sampler[key] as number)) {
        c.repaired(`${path}/${key}`, `${describe(sampler[key])} is not a glTF ${key}; left to the default`);
        delete sampler[key];
      }
    }
  });
  c.list("materials").forEach((material, i) => checkMaterial(c, material, `/materials/${i}`));
  c.list("cameras").forEach((camera, i) => {
    // The projection object the camera holds says what it is; without one (or with both) nothing does.
    const held = ["perspective", "orthographic"].filter((type) => camera[type] !== undefined);
    const projection = (type: unknown) => {
      if (held.length !== 1) return undefined;
      camera.type = held[0];
      return `${type === undefined ? "absent" : "is not a glTF camera type"}; read as '${
        held[0]
      }', the projection it holds`;
    };
    if (camera.type === undefined) {
      const settled = projection(undefined);
      if (!settled) c.fail(`/cameras/${i}/type`, "perspective or orthographic", undefined);
      c.repaired(`/cameras/${i}/type`, settled);
    }
    c.openEnum(camera, "type", `/cameras/${i}`, ["perspective", "orthographic"], projection);
    checkProjection(c, camera, `/cameras/${i}`);
  });
  checkAnimations(c);
}

/**
 * The numbers of a camera's projection. Planes out of range (a near plane of 0, a far one before it)
 * are the export's to repair, whatever made the scene (`nodes/export/repair_properties.ts`); a field
 * of view or magnification that is missing or not positive leaves no view to repair to.
 */
function checkProjection(c: Checker, camera: Json, path: string): void {
  const type = camera.type as "perspective" | "orthographic";
  const at = `${path}/${type}`;
  const projection = c.object(camera[type], at);
  const required = type === "perspective" ? ["yfov"] : ["xmag", "ymag"];
  for (const key of ["aspectRatio", "znear", "zfar", ...required]) c.finite(projection, key, at);
  for (const key of required) {
    if (projection[key] === undefined) c.fail(`${at}/${key}`, "a number", undefined);
  }
  if (type === "perspective" && !((projection.yfov as number) > 0)) {
    c.fail(`${at}/yfov`, "a field of view > 0 (radians)", projection.yfov);
  }
  // Half a turn or more sees nothing sensible: a hand edit in degrees (`"yfov": 60`), said, kept.
  const yfov = projection.yfov as number;
  if (type === "perspective" && yfov >= Math.PI) {
    const meant = `${yfov}° would be ${Number((yfov * Math.PI / 180).toFixed(4))}`;
    c.repaired(`${at}/yfov`, `${yfov} radians is half a turn or more: probably degrees (${meant}); kept`);
  }
}

/** Extensions that give a texture its image in place of (or beside) its own `source`, which glTF-Transform reads. */
const IMAGE_SOURCE_EXTENSIONS = ["KHR_texture_basisu", "EXT_texture_webp", "EXT_texture_avif"];

/**
 * Whether a texture names an image, itself or through an extension the file uses (glTF-Transform
 * reads no other, and drops a texture it finds no image for).
 */
function hasImage(c: Checker, texture: Json): boolean {
  const extensions = texture.extensions as Json | undefined;
  const used = (c.json.extensionsUsed ?? []) as string[];
  return texture.source !== undefined ||
    IMAGE_SOURCE_EXTENSIONS.some((name) =>
      used.includes(name) && (extensions?.[name] as Json | undefined)?.source !== undefined
    );
}

/**
 * Every `…Texture` object (core materials and extensions alike) names an existing texture with an
 * image: glTF-Transform drops a texture without one and then fails on the material that uses it.
 */
export function checkTextureInfos(c: Checker, value: unknown, path: string): void {
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length) {
    const [item, at] = stack.pop()!;
    if (!item || typeof item !== "object") continue;
    if (Array.isArray(item)) {
      // Only objects are walked on: a path for each number (a million nodes' transforms) cost the most.
      item.forEach((v, i) => v && typeof v === "object" && stack.push([v, `${at}/${i}`]));
      continue;
    }
    for (const key in item) {
      const child = (item as Json)[key];
      if (key === "extras") continue;
      if (key.endsWith("Texture")) {
        const info = c.object(child, `${at}/${key}`);
        const index = c.index(info, "index", `${at}/${key}`, "textures");
        if (index === undefined) c.fail(`${at}/${key}/index`, "a texture index", undefined);
        checkTextureInfo(c, info, `${at}/${key}`);
        if (!hasImage(c, c.list("textures")[index!])) {
          // Valid glTF (a texture's source is optional), but it samples nothing: viewers draw the
          // material without it, and glTF-Transform cannot read the reference.
          delete (item as Json)[key];
          c.repaired(`${at}/${key}`, `texture ${index} has no image; the material is kept without it`);
          continue;
        }
      }
      if (child && typeof child === "object") stack.push([child, `${at}/${key}`]);
    }
  }
}

const COMPONENT_NAMES: Readonly<Record<string, string>> = {
  5120: "BYTE",
  5121: "UNSIGNED_BYTE",
  5122: "SHORT",
  5123: "UNSIGNED_SHORT",
  5125: "UNSIGNED_INT",
  5126: "FLOAT",
};

/** An accessor as a refusal names it: `accessor 4, VEC3 in FLOAT`. */
export function describeAccessor(index: unknown, accessor: Json): string {
  return `accessor ${index}, ${accessor.type} in ${formatName(formatOf(accessor))}`;
}

/** A format (`5123n`) as the validator writes it (`UNSIGNED_SHORT normalized`). */
export function formatName(format: string): string {
  const normalized = format.endsWith("n");
  const code = normalized ? format.slice(0, -1) : format;
  return `${COMPONENT_NAMES[code] ?? code}${normalized ? " normalized" : ""}`;
}
