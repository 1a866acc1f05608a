/**
 * A parsed `.rsc` → one glTF scene: one node per map object (`obj_00`, `obj_01`, … — the index the
 * map's object layer refers to), each built as `decode.3df` builds a model (mesh per face group,
 * texture, bone table in extras, its animation as a morph clip named after it), with its TObjInfo in
 * `extras.partgraph.carnivores.object`. Objects stand side by side along +X, one terrain cell (256
 * game units = 128 file units) apart, bases at y = 0 as the games seat them on the ground, so none
 * overlaps another; each node's translation is that placement and its mesh stays in object space.
 * Ground textures are flat one-cell quads in a row behind the objects (+Z), one node each. A C2
 * object's far billboard (the 128×128 picture the game draws instead of the object at a distance) is
 * an upright quad of the object's X–Y extent, texel 0x0000 cut out as the game keys it, in a row
 * behind the ground textures, each under its object's X (`billboard_00`, …).
 *
 * @module
 */
import { type Accessor, Document, type Node } from "@gltf-transform/core";
import type { WarningSink } from "../../../../runtime/node.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { SceneAccessors } from "../../../../runtime/scene/accessors.ts";
import { encodeRgbaPng } from "../../../../runtime/scene/png.ts";
import { buildModel, setCarnivoresSource } from "./build_scene.ts";
import type { ClipInterpolation } from "./morph_clips.ts";
import { FACE_BYTES, HEADER_3DF_BYTES } from "./model.ts";
import { OBJECT_FLAGS, objectName, type RscFile } from "./parse_rsc.ts";
import { textureToRgba } from "./texture.ts";

/** File units of one terrain cell (256 game units; the games double file units on load). */
export const CELL_FILE_UNITS = 128;

/** How to build the scene. */
export interface RscSceneOptions {
  readonly scale: number;
  readonly interpolation: ClipInterpolation;
  readonly maxFrames?: number;
  readonly file?: string;
}

/**
 * Builds the scene for a parsed `.rsc`.
 *
 * @example
 * ```ts
 * const doc = buildRscScene(parseRsc(bytes, "AREA1.RSC", "auto", warn), { scale: 0.0145,
 *   interpolation: "linear" }, warn);
 * ```
 */
export function buildRscScene(rsc: RscFile, options: RscSceneOptions, warn: WarningSink): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessors = new SceneAccessors(doc, buffer);
  const scene = doc.createScene("Scene");
  doc.getRoot().setDefaultScene(scene);
  const gap = CELL_FILE_UNITS * options.scale;
  let cursor = 0;
  let depth = 0;
  const placed: { object: RscFile["objects"][number]; x: number }[] = [];
  for (const object of rsc.objects) {
    const name = objectName(object.index);
    const objectWarn: WarningSink = (message, detail) => warn(`${name}: ${message}`, detail);
    const { model, bodyOffset, info } = object;
    const node = buildModel(accessors, model, {
      bones: model.bones,
      vtl: object.animation ? [{ ...object.animation, layout: "engine+1" }] : undefined,
    }, {
      format: "rsc",
      name,
      scale: options.scale,
      interpolation: options.interpolation,
      maxFrames: options.maxFrames,
      facesOffset: bodyOffset + HEADER_3DF_BYTES,
      pointsOffset: bodyOffset + HEADER_3DF_BYTES + model.faces.count * FACE_BYTES,
      file: options.file,
    }, objectWarn);
    const [minX, maxX, maxZ] = extent(node);
    node.setTranslation([cursor - minX, 0, 0]);
    placed.push({ object, x: cursor - minX });
    cursor += maxX - minX + gap;
    depth = Math.max(depth, maxZ);
    setPartgraphExtras(node, {
      carnivores: {
        ...(getPartgraphExtras(node).carnivores as Record<string, never>),
        object: {
          index: object.index,
          ...info,
          flag_names: OBJECT_FLAGS.filter(([bit]) => (info.flags & bit) >>> 0 !== 0).map(([, n]) => n),
          billboard: object.billboard ? { width: 128, height: 128, node: billboardName(object.index) } : null,
        },
      },
    });
    scene.addChild(node);
  }
  // Every object's texture was written as "texture.png"; a .gltf needs one file name each.
  for (const texture of doc.getRoot().listTextures()) texture.setURI(`${texture.getName()}.png`);
  addGroundTextures(accessors, rsc, gap, depth + gap, options.scale);
  const groundRow = rsc.textures.length ? CELL_FILE_UNITS * options.scale + gap : 0;
  addBillboards(accessors, placed, depth + gap + groundRow, options.scale);
  const root = doc.createNode("rsc");
  setPartgraphExtras(root, {
    rsc: {
      version: rsc.layout.version,
      objects: rsc.objects.length,
      ground_textures: rsc.textures.length,
      sky_rgb: rsc.skyRgb.map((c) => [...c]),
      transparency_rgb: rsc.transparencyRgb.map((c) => [...c]),
      fogs: rsc.layout.fogs,
      random_sounds: rsc.layout.randomSounds,
      ambient_sounds: rsc.layout.ambientSounds,
      waters: rsc.layout.waters,
      layout: "objects side by side along +X, one terrain cell (128 file units) apart, bases at y = 0; " +
        "ground textures as one-cell quads in a row behind them (+Z)",
      not_carried: "sky textures, cloud map, fogs, sounds, waters",
    },
  });
  scene.addChild(root);
  if (doc.getRoot().listAccessors().length === 0) buffer.dispose();
  setCarnivoresSource(doc, "rsc", options.scale, { version: rsc.layout.version });
  return doc;
}

/** X extent and largest Z of a node's mesh, in its own space (zeros without a mesh). */
function extent(node: Node): [number, number, number] {
  let minX = Infinity, maxX = -Infinity, maxZ = -Infinity;
  for (const primitive of node.getMesh()?.listPrimitives() ?? []) {
    const position = primitive.getAttribute("POSITION");
    if (!position) continue;
    minX = Math.min(minX, position.getMin([])[0]);
    maxX = Math.max(maxX, position.getMax([])[0]);
    maxZ = Math.max(maxZ, position.getMax([])[2]);
  }
  return minX <= maxX ? [minX, maxX, maxZ] : [0, 0, 0];
}

/**
 * Each ground texture as a flat, upward-facing quad of one terrain cell, in a row along +X at `z`.
 * The games never key ground textures (their loader turns texel 0 into 1), so they are opaque.
 */
function addGroundTextures(
  accessors: SceneAccessors,
  rsc: RscFile,
  gap: number,
  z: number,
  scale: number,
): void {
  if (rsc.textures.length === 0) return;
  const doc = accessors.doc;
  const size = CELL_FILE_UNITS * scale;
  const group = doc.createNode("ground_textures").setTranslation([0, 0, z]);
  doc.getRoot().listScenes()[0].addChild(group);
  // Counter-clockwise seen from +Y: the quad faces up.
  const position = accessors.create("VEC3", Float32Array.of(0, 0, 0, 0, 0, size, size, 0, size, size, 0, 0));
  const normal = accessors.create("VEC3", Float32Array.of(0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0));
  const uv = accessors.create("VEC2", Float32Array.of(0, 0, 0, 1, 1, 1, 1, 0));
  const indices = accessors.create("SCALAR", Uint16Array.of(0, 1, 2, 0, 2, 3));
  rsc.textures.forEach((words, t) => {
    const name = `ground_${String(t).padStart(2, "0")}`;
    const node = pictureQuad(doc, name, words, false, { position, normal, uv, indices })
      .setTranslation([t * (size + gap), 0, 0]);
    setPartgraphExtras(node, { ground_texture: { index: t, width: 128, height: 128 } });
    group.addChild(node);
  });
}

/** The node name of object `index`'s far billboard. */
function billboardName(index: number): string {
  return `billboard_${String(index).padStart(2, "0")}`;
}

/**
 * Each C2 object's far billboard as the games build it (`LoadBMPModel`): an upright quad over the
 * object's X and Y extent facing +Z, its 128×128 picture with every non-zero texel opaque and texel
 * 0x0000 transparent (the hardware renderers set the alpha bit of non-zero texels only). The games
 * turn it to face the camera; here it stands in a row at `z`, under its object's X, double-sided.
 */
function addBillboards(
  accessors: SceneAccessors,
  placed: readonly { object: RscFile["objects"][number]; x: number }[],
  z: number,
  scale: number,
): void {
  const withPicture = placed.filter((p) => p.object.billboard);
  if (withPicture.length === 0) return;
  const doc = accessors.doc;
  const group = doc.createNode("billboards").setTranslation([0, 0, z]);
  doc.getRoot().listScenes()[0].addChild(group);
  const normal = accessors.create("VEC3", Float32Array.of(0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1));
  // Row 0 of the picture is its top: (u, v) = (0, 0) at the top left.
  const uv = accessors.create("VEC2", Float32Array.of(0, 0, 0, 1, 1, 1, 1, 0));
  const indices = accessors.create("SCALAR", Uint16Array.of(0, 1, 2, 0, 2, 3));
  for (const { object, x } of withPicture) {
    const name = billboardName(object.index);
    const positions = object.model.points.positions;
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    for (let i = 0; i < positions.length; i += 3) {
      minX = Math.min(minX, positions[i]), maxX = Math.max(maxX, positions[i]);
      minY = Math.min(minY, positions[i + 1]), maxY = Math.max(maxY, positions[i + 1]);
    }
    // A model without points has no extent: a one-cell square, as the ground textures are.
    if (!(minX <= maxX)) [minX, maxX, minY, maxY] = [0, CELL_FILE_UNITS, 0, CELL_FILE_UNITS];
    // The glTF mapping s·(x, y, −z) keeps x and y; the quad winds counter-clockwise seen from +Z.
    const [l, r, b, t] = [minX * scale, maxX * scale, minY * scale, maxY * scale];
    const position = accessors.create("VEC3", Float32Array.of(l, t, 0, l, b, 0, r, b, 0, r, t, 0));
    const node = pictureQuad(doc, name, object.billboard!, true, { position, normal, uv, indices })
      .setTranslation([x, 0, 0]);
    setPartgraphExtras(node, { billboard: { object: object.index, width: 128, height: 128 } });
    group.addChild(node);
  }
}

/**
 * A node `name` drawing a 128×128 picture (`words`) on one quad (`quad`'s attributes), matte; its
 * texture, material, mesh and node all named `name`. `keyed` (a billboard): texel 0x0000 cut out,
 * both sides drawn.
 */
function pictureQuad(
  doc: Document,
  name: string,
  words: Uint16Array,
  keyed: boolean,
  quad: { position: Accessor; normal: Accessor; uv: Accessor; indices: Accessor },
): Node {
  const png = encodeRgbaPng(128, 128, textureToRgba({ height: 128, words }, keyed));
  const texture = doc.createTexture(name).setImage(png).setMimeType("image/png").setURI(`${name}.png`);
  const material = doc.createMaterial(name).setBaseColorTexture(texture).setMetallicFactor(0)
    .setRoughnessFactor(1);
  if (keyed) material.setAlphaMode("MASK").setAlphaCutoff(0.5).setDoubleSided(true);
  const primitive = doc.createPrimitive().setAttribute("POSITION", quad.position)
    .setAttribute("NORMAL", quad.normal).setAttribute("TEXCOORD_0", quad.uv).setIndices(quad.indices)
    .setMaterial(material);
  return doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(primitive));
}
