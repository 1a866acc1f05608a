/**
 * Export repairs of properties rather than vertex data: what real exporters write that viewers
 * accept but the glTF validator does not — attribute names outside glTF's semantics, attribute sets
 * numbered with gaps or joints without weights (`repair_attribute_sets.ts`), a material variant mapped
 * twice on one primitive (`repair_variants.ts`), an image whose
 * MIME type contradicts its bytes or whose bytes end before its image data (`repair_textures.ts`), cameras and punctual lights with values out of range, a skin's
 * joints without a common root (`repair_joint_root.ts`), a `skeleton` that is not its joints' common root, a skin on a node whose mesh has no joint data (`repair_unskinned.ts`),
 * morph weights (of a mesh or a node) that do not match the targets.
 * Each function follows `repair.ts`: it reports what needs repair, and repairs it when `apply`.
 *
 * @module
 */
import type { Accessor, Document, Mesh, Node, Primitive, Skin, vec3 } from "@gltf-transform/core";
import type { Light } from "@gltf-transform/extensions";
import { textureRepairs } from "./repair_textures.ts";
import { jointRootRepairs } from "./repair_joint_root.ts";
import { attributeSetRepairs } from "./repair_attribute_sets.ts";
import { attributeReader, type Attributes, type AttributesOf } from "./primitive_attributes.ts";
import { variantRepairs } from "./repair_variants.ts";
import { unskinnedRepairs } from "./repair_unskinned.ts";
import { type WrittenName as NameOf, writtenNames } from "../../runtime/scene/unique_names.ts";

/** The attribute semantics glTF 2.0 defines; any other must start with `_` (application-specific). */
const GLTF_SEMANTIC = /^(?:POSITION|NORMAL|TANGENT|(?:TEXCOORD|COLOR|JOINTS|WEIGHTS)_(?:0|[1-9]\d*))$|^_/;
/** A semantic misspelt in case or without its underscore (`texcoord_0`, `TEXCOORD0`, `Normal`). */
const MISSPELT_SEMANTIC = /^(POSITION|NORMAL|TANGENT|(?:TEXCOORD|COLOR|JOINTS|WEIGHTS)_?(0|[1-9]\d*))$/i;
/** The accessor types each semantic takes. */
const SEMANTIC_TYPES: Readonly<Record<string, readonly string[]>> = {
  POSITION: ["VEC3"],
  NORMAL: ["VEC3"],
  TANGENT: ["VEC4"],
  TEXCOORD: ["VEC2"],
  COLOR: ["VEC3", "VEC4"],
  JOINTS: ["VEC4"],
  WEIGHTS: ["VEC4"],
};
/** `KHR_lights_punctual`. */
const LIGHTS = "KHR_lights_punctual";

/**
 * Every property repair `doc` needs, as warning messages; made in place when `apply` is true.
 *
 * @example
 * ```ts
 * const messages: string[] = [];
 * propertyRepairs(doc, false, messages); // messages says what a repair would change
 * ```
 */
export function propertyRepairs(
  doc: Document,
  apply: boolean,
  messages: string[],
  attributes: AttributesOf = attributeReader(apply),
): void {
  const root = doc.getRoot();
  // Warnings name an unnamed property as the written file will (`Wing_mesh`), not `''`.
  const name = writtenNames(doc);
  const meshes = root.listMeshes();
  for (let m = 0; m < meshes.length; m++) meshRepairs(doc, meshes[m], apply, messages, name, attributes);
  const textures = root.listTextures();
  for (let t = 0; t < textures.length; t++) textureRepairs(textures[t], t, apply, messages);
  const cameras = root.listCameras();
  for (let c = 0; c < cameras.length; c++) cameraRepair(cameras[c], apply, messages, name);
  const lights = root.listExtensionsUsed().find((extension) => extension.extensionName === LIGHTS);
  if (lights) lightRepairs(lights.listProperties() as Light[], apply, messages, name);
  // First the joints' common root: a `skeleton` is then judged against it.
  jointRootRepairs(doc, apply, messages, name);
  const skins = root.listSkins();
  for (let s = 0; s < skins.length; s++) {
    if (!emptySkinRepair(skins[s], apply, messages, name)) skeletonRepair(skins[s], apply, messages, name);
  }
  const nodes = root.listNodes();
  // Before the morph weights: a mesh split here gives its child nodes the node's weights.
  unskinnedRepairs(doc, nodes, apply, messages, name);
  for (let n = 0; n < nodes.length; n++) nodeWeightsRepair(nodes[n], apply, messages, name);
}

/**
 * Attribute names outside glTF's semantics (`TEXCOORD0`, `texcoord_0`), primitives with fewer morph targets
 * than others, and morph weights of the wrong count.
 */
function meshRepairs(
  doc: Document,
  mesh: Mesh,
  apply: boolean,
  messages: string[],
  name: NameOf,
  attributes: AttributesOf,
): void {
  const primitives = attributes.primitives(mesh);
  const renamed = new Set<string>();
  let targets = 0;
  for (let p = 0; p < primitives.length; p++) {
    renameAttributes(primitives[p], attributes(primitives[p]), apply, renamed);
    targets = Math.max(targets, primitives[p].listTargets().length);
  }
  if (renamed.size) {
    messages.push(
      `attribute names of mesh '${name(mesh)}' that glTF does not define renamed: ` +
        [...renamed].join(", "),
    );
  }
  attributeSetRepairs(mesh, apply, messages, attributes);
  variantRepairs(mesh, apply, messages, name, attributes);
  // A mesh without morph targets (nearly every one) has none to drop or pad: not walked twice more.
  if (targets > 0) {
    baselessTargets(doc, mesh, apply, messages, name);
    padTargets(doc, mesh, targets, apply, messages, name);
  }
  const weights = mesh.getWeights();
  if (weights.length && weights.length !== targets) {
    messages.push(
      `mesh '${name(mesh)}' has ${weights.length} morph weight(s) for ${targets} target(s); ` +
        (targets ? "padded with 0 or cut to fit" : "dropped"),
    );
    if (apply) mesh.setWeights(Array.from({ length: targets }, (_, i) => weights[i] ?? 0));
  }
}

/**
 * A morph target offsets only attributes its primitive has (MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR:
 * viewers have nothing to offset): the others are left out, and a target left with none keeps its place
 * (the weights index targets) as one that moves nothing.
 */
function baselessTargets(doc: Document, mesh: Mesh, apply: boolean, messages: string[], name: NameOf): void {
  const dropped = new Set<string>();
  for (const primitive of mesh.listPrimitives()) {
    let zeros: Accessor | undefined;
    for (const target of primitive.listTargets()) {
      const baseless = target.listSemantics().filter((semantic) => !primitive.getAttribute(semantic));
      if (!baseless.length) continue;
      baseless.forEach((semantic) => dropped.add(semantic));
      if (!apply) continue;
      for (const semantic of baseless) target.setAttribute(semantic, null);
      if (target.listSemantics().length) continue;
      const vertices = primitive.getAttribute("POSITION")?.getCount() ?? 0;
      zeros ??= doc.createAccessor(`${mesh.getName()}.no_offset`, doc.getRoot().listBuffers()[0])
        .setType("VEC3").setArray(new Float32Array(3 * vertices));
      target.setAttribute("POSITION", zeros);
    }
  }
  if (dropped.size) {
    messages.push(
      `mesh '${name(mesh)}': morph target offsets of ${[...dropped].join(", ")}, which their primitives ` +
        "do not have, left out",
    );
  }
}

/**
 * Primitives of one mesh with fewer morph targets than another (the validator's
 * MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT; Blender 3.4's importer fails with an `IndexError` on one with
 * fewer than the first) are given targets that move nothing, as Blender reads a primitive without
 * targets: one accessor of zero offsets per primitive, shared by the targets it adds.
 */
function padTargets(
  doc: Document,
  mesh: Mesh,
  targets: number,
  apply: boolean,
  messages: string[],
  name: NameOf,
): void {
  const primitives = mesh.listPrimitives();
  const short = primitives.filter((p) => p.listTargets().length < targets);
  if (!short.length) return;
  messages.push(
    `mesh '${name(mesh)}': ${short.length} of its ${primitives.length} primitives have fewer than its ` +
      `${targets} morph targets; given targets that move nothing`,
  );
  if (!apply) return;
  const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
  for (const primitive of short) {
    const vertices = primitive.getAttribute("POSITION")?.getCount() ?? 0;
    const zeros = doc.createAccessor(`${mesh.getName()}.no_offset`, buffer).setType("VEC3")
      .setArray(new Float32Array(3 * vertices));
    for (let t = primitive.listTargets().length; t < targets; t++) {
      primitive.addTarget(doc.createPrimitiveTarget().setAttribute("POSITION", zeros));
    }
  }
}

/**
 * Renames each attribute whose name glTF does not define: a glTF semantic misspelt in case or
 * underscore (`texcoord_0`, `TEXCOORD0`) takes its right spelling when the primitive lacks that one
 * and the accessor's type fits it (a material may sample it: three.js and Blender read it under the
 * right name only); any other name gets the `_` prefix of an application-specific attribute, its
 * data kept and read by no viewer as something it is not. `renamed` collects `old → new`.
 */
function renameAttributes(
  primitive: Primitive,
  attributes: Attributes,
  apply: boolean,
  renamed: Set<string>,
): void {
  for (const [name, accessor] of attributes) {
    if (GLTF_SEMANTIC.test(name)) continue;
    const match = MISSPELT_SEMANTIC.exec(name);
    const semantic = match &&
      (match[2] === undefined
        ? match[1].toUpperCase()
        : `${match[1].slice(0, -match[2].length).replace(/_$/, "").toUpperCase()}_${match[2]}`);
    const kind = semantic?.replace(/_\d+$/, "");
    let free = semantic && !primitive.getAttribute(semantic) &&
        SEMANTIC_TYPES[kind!].includes(accessor.getType())
      ? semantic
      : `_${name}`;
    for (let n = 2; primitive.getAttribute(free); n++) free = `_${name}_${n}`;
    renamed.add(`'${name}' → '${free}'`);
    if (apply) primitive.setAttribute(free, accessor).setAttribute(name, null);
  }
}

type Camera = ReturnType<Document["createCamera"]>;

/** The far plane an orthographic camera gets beyond its near one when it has none there (Blender's default). */
const ORTHOGRAPHIC_DEPTH = 100;

/**
 * Camera values glTF forbids: a perspective aspect ratio ≤ 0 is left out (viewers use the viewport's);
 * a perspective near plane ≤ 0 (or none) is placed at a thousandth of the far plane (Blender's default
 * ratio; 0.1 without a far plane), and a far plane not beyond the near one left out (an infinite
 * projection); an orthographic near plane below 0 (or none) is 0, and a far plane not beyond it (or
 * none: glTF requires one) 100 beyond it; an orthographic magnification of 0 takes the other one's (a
 * square view; 1 when both are 0).
 */
function cameraRepair(camera: Camera, apply: boolean, messages: string[], name: NameOf): void {
  const fixes: string[] = [];
  let znear = camera.getZNear();
  const zfar = camera.getZFar();
  if (camera.getType() === "perspective") {
    const aspect = camera.getAspectRatio();
    if (aspect !== null && !(aspect > 0)) {
      fixes.push(`aspect ratio ${aspect} left out`);
      if (apply) camera.setAspectRatio(null);
    }
    if (!(znear > 0)) {
      const placed = zfar > 0 ? zfar / 1000 : 0.1;
      fixes.push(`near plane ${znear ?? "none"} made ${placed}`);
      if (apply) camera.setZNear(placed);
      znear = placed;
    }
    if (zfar !== undefined && !(zfar > znear)) {
      fixes.push(`far plane ${zfar} not beyond the near plane ${znear}: made infinite`);
      if (apply) camera.setZFar(undefined as unknown as number);
    }
  } else {
    if (!(znear >= 0)) {
      fixes.push(`near plane ${znear ?? "none"} made 0`);
      if (apply) camera.setZNear(0);
      znear = 0;
    }
    if (!(zfar > znear)) {
      const found = zfar === undefined
        ? "no far plane"
        : `far plane ${zfar} not beyond the near plane ${znear}`;
      fixes.push(`${found}: made ${znear + ORTHOGRAPHIC_DEPTH}`);
      if (apply) camera.setZFar(znear + ORTHOGRAPHIC_DEPTH);
    }
    const xmag = camera.getXMag(), ymag = camera.getYMag();
    if (xmag === 0 || ymag === 0) {
      const mag = xmag || ymag || 1;
      fixes.push(`magnification ${xmag} × ${ymag} made ${mag} × ${mag}`);
      if (apply) camera.setXMag(mag).setYMag(mag);
    }
  }
  if (fixes.length) messages.push(`camera '${name(camera)}': ${fixes.join("; ")}`);
}

/**
 * Punctual light values out of glTF's ranges: a negative intensity or colour component becomes 0, a
 * colour past 1 is scaled into 0..1 and its intensity by the same factor, a range ≤ 0 is left out
 * (unlimited), spot cone angles are clamped to 0 ≤ inner < outer ≤ π/2.
 */
function lightRepairs(lights: Light[], apply: boolean, messages: string[], name: NameOf): void {
  for (let l = 0; l < lights.length; l++) {
    const light = lights[l];
    const fixes: string[] = [];
    const intensity = light.getIntensity(), range = light.getRange(), color = light.getColor();
    if (intensity < 0) {
      fixes.push(`intensity ${intensity} made 0`);
      if (apply) light.setIntensity(0);
    }
    if (color.some((v) => v < 0)) {
      fixes.push(`colour [${color.join(", ")}] made ≥ 0`);
      if (apply) light.setColor(color.map((v) => Math.max(v, 0)) as vec3);
    }
    // HDR tools write colours past 1; glTF keeps the brightness in the intensity, so the light emitted stays.
    const brightest = Math.max(...color);
    if (brightest > 1) {
      fixes.push(`colour [${color.join(", ")}] past 1 scaled by 1/${brightest}, intensity by ${brightest}`);
      if (apply) {
        light.setColor(color.map((v) => Math.max(v, 0) / brightest) as vec3);
        light.setIntensity(Math.max(intensity, 0) * brightest);
      }
    }
    if (range !== null && !(range > 0)) {
      fixes.push(`range ${range} left out`);
      if (apply) light.setRange(null);
    }
    if (light.getType() === "spot") {
      const inner = light.getInnerConeAngle(), outer = light.getOuterConeAngle();
      const fixedOuter = Math.min(Math.PI / 2, Math.max(outer, 1e-6));
      const fixedInner = Math.min(Math.max(inner, 0), fixedOuter * (1 - 1e-6));
      if (fixedInner !== inner || fixedOuter !== outer) {
        fixes.push(`cone angles ${inner}, ${outer} made ${fixedInner}, ${fixedOuter}`);
        if (apply) light.setInnerConeAngle(fixedInner).setOuterConeAngle(fixedOuter);
      }
    }
    if (fixes.length) messages.push(`light '${name(light)}': ${fixes.join("; ")}`);
  }
}

/**
 * A skin without joints (EMPTY_ENTITY) binds nothing: it is left out, and the nodes that used it are drawn
 * unskinned, as viewers draw them. True when it is (to be) left out.
 */
function emptySkinRepair(skin: Skin, apply: boolean, messages: string[], name: NameOf): boolean {
  if (skin.listJoints().length) return false;
  messages.push(`skin '${name(skin)}' has no joints; left out, its meshes drawn unskinned`);
  if (apply) skin.dispose();
  return true;
}

/** A skin's `skeleton` must be an ancestor of (or one of) all its joints; one that is not is left out. */
function skeletonRepair(skin: Skin, apply: boolean, messages: string[], name: NameOf): void {
  const skeleton = skin.getSkeleton();
  if (!skeleton) return;
  const joints = skin.listJoints();
  const isAncestor = (joint: Node) => {
    for (let node: Node | null = joint; node; node = node.getParentNode()) if (node === skeleton) return true;
    return false;
  };
  if (joints.every(isAncestor)) return;
  messages.push(
    `skin '${name(skin)}': skeleton '${name(skeleton)}' is not the common root of its joints; left out`,
  );
  if (apply) skin.setSkeleton(null);
}

/** A node's morph weights: one per target of its mesh, none without a mesh (NODE_WEIGHTS_INVALID). */
function nodeWeightsRepair(node: Node, apply: boolean, messages: string[], name: NameOf): void {
  const weights = node.getWeights();
  if (!weights.length) return;
  const mesh = node.getMesh();
  const targets = Math.max(0, ...(mesh?.listPrimitives() ?? []).map((p) => p.listTargets().length));
  if (weights.length === targets) return;
  messages.push(
    `node '${name(node)}' has ${weights.length} morph weight(s) for ${targets} target(s)` +
      `${mesh ? "" : " (it has no mesh)"}; ${targets ? "padded with 0 or cut to fit" : "dropped"}`,
  );
  if (apply) node.setWeights(Array.from({ length: targets }, (_, i) => weights[i] ?? 0));
}
