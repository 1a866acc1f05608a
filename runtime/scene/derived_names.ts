/**
 * Names for properties a file left unnamed. Converters and game rippers leave most nodes, meshes,
 * materials and images without a name, or with an empty or whitespace-only one; every client then
 * invents its own (Blender `Mesh_3`, `Node_11`, `Material_4`, `Image_0`, an object named after its
 * mesh; three.js an empty node name, `mesh_3`), so a report could not point at the property and a
 * Blender round trip changed the file's names. `exportNames` (`unique_names.ts`) gives each such
 * property the name this module derives, before names are made unique.
 *
 * @module
 */
import type { Document, Material, Node, Texture } from "@gltf-transform/core";

/** True for a name that names nothing: empty, or whitespace only (three.js writes it `_`, Blender keeps it blank). */
export function isBlankName(name: string): boolean {
  return name.trim() === "";
}

/**
 * The name each property of the file carries before clashes are settled: its own, or for a blank one
 * ({@link isBlankName}) a name from what it is, said the way no client respells (letters, digits, `_`
 * after the borrowed name):
 *
 * - a node: its mesh's name, else its mesh's first material's, else its camera's or light's, else
 *   `node_<i>` (its index in the file);
 * - a mesh: the first named node drawing it, `<node>_mesh`, else `<material>_mesh` of its first
 *   primitive's material, else `mesh_<i>` (three.js's own name for it);
 * - a material: `<mesh>_material` of the first named mesh drawing it, else `material_<i>`;
 * - an image: its URI's file name without the extension (`textures/wing.png` → `wing`), else
 *   `<material>_<slot>` of the first named material using it (`Paint_baseColor`), else `image_<i>`;
 * - a clip `animation_<i>` (three.js's own name for it), a skin `<root bone>_skin` else `skin_<i>`,
 *   a camera or light `<node>_camera` / `<node>_light` of its first named node, else `camera_<i>`,
 *   `light_<i>`.
 *
 * Only names the file gave are borrowed (never a derived one), so the rule has no cycles and a
 * name does not depend on the order names are derived in. `fit` cuts a borrowed name so the whole
 * fits (Blender's 63 bytes). `derived[i]` marks each list's derived names.
 */
export function givenNames(
  doc: Document,
  lists: Record<string, { getName(): string }[]>,
  fit: (name: string, bytes: number) => string,
  maxBytes: number,
): { names: Record<string, string[]>; derived: Record<string, boolean[]> } {
  const root = doc.getRoot();
  const own = (p: { getName(): string } | null | undefined) =>
    p && !isBlankName(p.getName()) ? p.getName() : "";
  const borrow = (name: string, suffix: string) => fit(name, maxBytes - suffix.length) + suffix;
  const nodes = root.listNodes();
  /** The first named node holding each property (mesh, camera, light, skin). */
  const holder = new Map<unknown, Node>();
  for (const node of nodes) {
    if (!own(node)) continue;
    const light = node.getExtension("KHR_lights_punctual");
    for (const held of [node.getMesh(), node.getCamera(), light]) {
      if (held && !holder.has(held)) holder.set(held, node);
    }
  }
  const firstMaterial = (mesh: { listPrimitives(): { getMaterial(): Material | null }[] } | null) =>
    own(mesh?.listPrimitives().map((p) => p.getMaterial()).find((m) => own(m)));
  const materialUser = new Map<Material, string>();
  for (const mesh of root.listMeshes()) {
    if (!own(mesh)) continue;
    for (const primitive of mesh.listPrimitives()) {
      const material = primitive.getMaterial();
      if (material && !materialUser.has(material)) materialUser.set(material, own(mesh));
    }
  }
  for (const node of nodes) {
    for (const primitive of node.getMesh()?.listPrimitives() ?? []) {
      const material = primitive.getMaterial();
      if (material && own(node) && !materialUser.has(material)) materialUser.set(material, own(node));
    }
  }
  const textureUser = new Map<Texture, string>();
  for (const material of root.listMaterials()) {
    if (!own(material)) continue;
    for (const [slot, texture] of textureSlots(material)) {
      if (texture && !textureUser.has(texture)) textureUser.set(texture, borrow(own(material), `_${slot}`));
    }
  }
  const derive: Record<string, (p: never, i: number) => string> = {
    nodes: (node: Node, i) => {
      const mesh = node.getMesh();
      const named = own(mesh) || firstMaterial(mesh) || own(node.getCamera()) ||
        own(node.getExtension("KHR_lights_punctual") as { getName(): string } | null);
      return named ? fit(named, maxBytes) : `node_${i}`;
    },
    meshes: (mesh: Parameters<typeof firstMaterial>[0] & object, i) => {
      const node = holder.get(mesh);
      if (node) return borrow(own(node), "_mesh");
      const material = firstMaterial(mesh);
      return material ? borrow(material, "_mesh") : `mesh_${i}`;
    },
    materials: (material: Material, i) => {
      const user = materialUser.get(material);
      return user ? borrow(user, "_material") : `material_${i}`;
    },
    images: (texture: Texture, i) => {
      const file = texture.getURI().split(/[\\/]/).pop()!.replace(/\.[^.]*$/, "");
      if (!isBlankName(file) && !file.startsWith("data:")) return fit(file, maxBytes);
      return textureUser.get(texture) ?? `image_${i}`;
    },
    animations: (_: unknown, i) => `animation_${i}`,
    skins: (skin: { listJoints(): Node[] }, i) => {
      const bone = own(skin.listJoints()[0]);
      return bone ? borrow(bone, "_skin") : `skin_${i}`;
    },
    cameras: (camera: unknown, i) => {
      const node = holder.get(camera);
      return node ? borrow(own(node), "_camera") : `camera_${i}`;
    },
    lights: (light: unknown, i) => {
      const node = holder.get(light);
      return node ? borrow(own(node), "_light") : `light_${i}`;
    },
  };
  const names: Record<string, string[]> = {};
  const derived: Record<string, boolean[]> = {};
  for (const [kind, list] of Object.entries(lists)) {
    derived[kind] = list.map((p) => isBlankName(p.getName()));
    names[kind] = list.map((p, i) => derived[kind][i] ? derive[kind](p as never, i) : p.getName());
  }
  if (names.images) names.images = names.images.map(keptByBlender);
  return { names, derived };
}

/**
 * An image's name as Blender 3.4's exporter keeps it: it writes an embedded image under its name
 * without what Python's `splitext` calls its extension (`cube.001` came back `cube`, `Paint.003_base`
 * `Paint`), so a name with a dot is written with its image file extension (`.png`, `.jpg`, `.jpeg`)
 * dropped, as Blender drops it, and its other dots as `_` (`cube_001`).
 */
export function keptByBlender(name: string): string {
  const lead = name.length - name.replace(/^\.+/, "").length;
  const rest = name.slice(lead);
  if (!rest.includes(".")) return name;
  const bare = rest.replace(/\.(png|jpe?g)$/i, "");
  return name.slice(0, lead) + (bare === "" ? rest : bare).replaceAll(".", "_");
}

/** A material's texture slots, named as glTF names them (without `Texture`). */
function textureSlots(material: Material): [string, Texture | null][] {
  return [
    ["baseColor", material.getBaseColorTexture()],
    ["metallicRoughness", material.getMetallicRoughnessTexture()],
    ["normal", material.getNormalTexture()],
    ["occlusion", material.getOcclusionTexture()],
    ["emissive", material.getEmissiveTexture()],
  ];
}
