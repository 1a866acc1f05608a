/**
 * The extension half of the glTF structure check: the references and values of the extensions that
 * keep properties of their own — `KHR_lights_punctual`, `EXT_mesh_gpu_instancing`,
 * `KHR_materials_variants` and `KHR_xmp_json_ld` — and of `KHR_node_visibility` (materials':
 * `check_material.ts`). glTF-Transform reads them without checking: a
 * light index past the list dropped the node's light silently, a light of type `"area"` was written
 * out (three.js's loader throws on it), instance attributes past the accessors vanished and ones of
 * the wrong type or count were written as they came, and a variant past the list threw a TypeError.
 *
 * @module
 */
import type { Checker, Json } from "./checker.ts";
import { formatOf } from "./check.ts";
import { describeAccessor, formatName } from "./check_scene.ts";

/** Lights, instancing, material variants and XMP packets: indices in range, types and values as the specs say. */
export function checkExtensions(c: Checker): void {
  const lights = extensionList(c, "KHR_lights_punctual", "lights");
  lights.forEach((light, i) => checkLight(c, light, `/extensions/KHR_lights_punctual/lights/${i}`));
  const quantized = (c.json.extensionsUsed as string[] | undefined)?.includes("KHR_mesh_quantization");
  c.list("nodes").forEach((node, i) => {
    const path = `/nodes/${i}`;
    const light = extensionOf(c, node, "KHR_lights_punctual", path);
    if (light) {
      const at = `${path}/extensions/KHR_lights_punctual`;
      if (c.int(light, "light", at, lights.length) === undefined) {
        c.fail(`${at}/light`, "a light index", undefined);
      }
    }
    // A string "false" was written out as it came, and read as visible by any truthiness test.
    const visibility = extensionOf(c, node, "KHR_node_visibility", path);
    if (visibility?.visible !== undefined && typeof visibility.visible !== "boolean") {
      c.fail(
        `${path}/extensions/KHR_node_visibility/visible`,
        "a boolean (true or false)",
        visibility.visible,
      );
    }
    const instancing = extensionOf(c, node, "EXT_mesh_gpu_instancing", path);
    if (instancing) checkInstancing(c, instancing, `${path}/extensions/EXT_mesh_gpu_instancing`, quantized);
  });
  const variants = extensionList(c, "KHR_materials_variants", "variants");
  c.list("meshes").forEach((mesh, m) => {
    (mesh.primitives as Json[]).forEach((primitive, p) => {
      const path = `/meshes/${m}/primitives/${p}`;
      const mappings = extensionOf(c, primitive, "KHR_materials_variants", path);
      if (mappings) checkMappings(c, mappings, `${path}/extensions/KHR_materials_variants`, variants.length);
    });
  });
  // References name packets of the root's list: a file without one has none to check (and the walk
  // would visit every object of a large file).
  const packets = extensionList(c, "KHR_xmp_json_ld", "packets");
  const used = (c.json.extensionsUsed as string[] | undefined)?.includes("KHR_xmp_json_ld");
  if (packets.length || used) checkXmpPackets(c, packets.length);
}

/** The objects of a root extension's list (`lights`, `variants`, `packets`), or [] without the extension. */
function extensionList(c: Checker, name: string, key: string): Json[] {
  const root = extensionOf(c, c.json, name, "");
  if (!root) return [];
  const path = `/extensions/${name}/${key}`;
  const list = root[key];
  if (!Array.isArray(list)) c.fail(path, "an array", list);
  list.forEach((item, i) => c.object(item, `${path}/${i}`));
  return list as Json[];
}

/** `item`'s extension `name` at `path`, checked to be an object and listed as used, or undefined. */
function extensionOf(c: Checker, item: Json, name: string, path: string): Json | undefined {
  const extensions = item.extensions;
  if (!extensions || typeof extensions !== "object") return undefined;
  const value = (extensions as Json)[name];
  if (value === undefined) return undefined;
  const at = `${path}/extensions/${name}`;
  // As with meshopt: glTF-Transform reads no extension the file does not list, and three.js reads lights
  // and instances whether listed or not, so an unlisted one is the file's plain intent.
  c.declareUsed(name, at);
  return c.object(value, at);
}

const LIGHT_TYPES = ["directional", "point", "spot"] as const;

/**
 * A punctual light: a type glTF defines (another case read as glTF spells it), a colour of three
 * numbers, and numbers for its intensity, range and spot cones. Values out of glTF's ranges (a
 * negative intensity, a colour past 1, cones past π/2) are the export's to repair, whatever made
 * the scene (`nodes/export/repair_properties.ts`).
 */
function checkLight(c: Checker, light: Json, path: string): void {
  if (light.type === undefined) c.fail(`${path}/type`, `one of ${LIGHT_TYPES.join(", ")}`, undefined);
  c.openEnum(light, "type", path, LIGHT_TYPES, () => undefined);
  c.numbers(light, "color", path, 3);
  for (const key of ["intensity", "range"]) c.finite(light, key, path);
  if (light.spot === undefined) return;
  const spot = c.object(light.spot, `${path}/spot`);
  for (const key of ["innerConeAngle", "outerConeAngle"]) c.finite(spot, key, `${path}/spot`);
}

/** Float (`5126`), and the integer formats `KHR_mesh_quantization` adds for instance translations and scales. */
const INSTANCE_FORMATS: Readonly<Record<string, { type: string; formats: string[]; quantized: string[] }>> = {
  TRANSLATION: { type: "VEC3", formats: ["5126"], quantized: ["5120", "5120n", "5122", "5122n"] },
  ROTATION: { type: "VEC4", formats: ["5126", "5120n", "5122n"], quantized: [] },
  SCALE: { type: "VEC3", formats: ["5126"], quantized: ["5120", "5120n", "5122", "5122n"] },
};

/** `EXT_mesh_gpu_instancing`: attribute accessors in range, of the type and format the spec gives, of one count. */
function checkInstancing(c: Checker, instancing: Json, path: string, quantized = false): void {
  const attributes = c.object(instancing.attributes, `${path}/attributes`);
  const accessors = c.list("accessors");
  let count: number | undefined;
  for (const semantic of Object.keys(attributes)) {
    const index = c.index(attributes, semantic, `${path}/attributes`, "accessors")!;
    const accessor = accessors[index];
    const rule = INSTANCE_FORMATS[semantic];
    const formats = rule && [...rule.formats, ...(quantized ? rule.quantized : [])];
    if (rule && (accessor.type !== rule.type || !formats.includes(formatOf(accessor)))) {
      c.fail(
        `${path}/attributes/${semantic}`,
        `an accessor of type ${rule.type} in ${formats.map(formatName).join(", ")}`,
        describeAccessor(index, accessor),
      );
    }
    if (count !== undefined && accessor.count !== count) {
      c.fail(
        `${path}/attributes/${semantic}`,
        `an accessor of ${count} instances like the others`,
        `accessor ${index} of ${accessor.count}`,
      );
    }
    count = accessor.count as number;
  }
}

/** `KHR_materials_variants` on a primitive: each mapping's material and variants in range. */
function checkMappings(c: Checker, extension: Json, path: string, variants: number): void {
  const mappings = extension.mappings;
  if (!Array.isArray(mappings)) c.fail(`${path}/mappings`, "an array", mappings);
  mappings.forEach((value, i) => {
    const at = `${path}/mappings/${i}`;
    const mapping = c.object(value, at);
    if (c.index(mapping, "material", at, "materials") === undefined) {
      c.fail(`${at}/material`, "a material index", undefined);
    }
    const list = mapping.variants;
    if (!Array.isArray(list) || !list.length) {
      c.fail(`${at}/variants`, "a non-empty array of variant indices", list);
    }
    list.forEach((_, k) => c.int(list as unknown as Json, String(k), `${at}/variants`, variants));
  });
}

/** Every `KHR_xmp_json_ld` packet reference (on the asset, scenes, nodes, meshes, materials…) in range. */
function checkXmpPackets(c: Checker, packets: number): void {
  const stack: [unknown, string][] = [[c.json, ""]];
  while (stack.length) {
    const [item, path] = stack.pop()!;
    if (!item || typeof item !== "object") continue;
    for (const [key, child] of Object.entries(item)) {
      if (key === "extras") continue;
      if (key === "extensions" && child && typeof child === "object" && !Array.isArray(item)) {
        const xmp = extensionOf(c, item as Json, "KHR_xmp_json_ld", path);
        if (xmp && path !== "") {
          const at = `${path}/extensions/KHR_xmp_json_ld`;
          if (c.int(xmp, "packet", at, packets) === undefined) {
            c.fail(`${at}/packet`, "a packet index", undefined);
          }
        }
      }
      stack.push([child, `${path}/${key}`]);
    }
  }
}
