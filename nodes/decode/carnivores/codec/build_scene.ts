/**
 * A parsed Carnivores model → a glTF scene: one node with one mesh (a primitive per face group), the
 * texture as an RGBA PNG, materials per alpha class and sidedness, `.car` clips as morph animations,
 * and everything the file says that glTF has no place for under `extras.partgraph.carnivores`
 * (bone table, face flags, clip and sound tables) — the bone table is what the resolver turns into a
 * skin later.
 *
 * Axes: the engine loads `(2x, 2y, −2z)` into a right-handed camera space, so the faithful glTF
 * mapping is `s·(x, y, −z)` with every triangle's winding reversed; the model then faces +Z.
 *
 * @module
 */
import { Document, type Material, type Node } from "@gltf-transform/core";
import type { JsonValue, WarningSink } from "../../../../runtime/node.ts";
import { setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { setSourceInfo } from "../../../../runtime/scene/source.ts";
import { SceneAccessors } from "../../../../runtime/scene/accessors.ts";
import { groupFaces } from "./mesh_split.ts";
import { materialFor, primitiveFor } from "./primitives.ts";
import {
  type Bone,
  type CarAnimation,
  type CarModel,
  FACE_BYTES,
  FaceFlag,
  type FaceTable,
  type MeshData,
  type Texture16,
  TEXTURE_WIDTH,
} from "./model.ts";
import { addMorphClips, type ClipInterpolation, type MorphClips } from "./morph_clips.ts";
import { boneTable, carSummary, clipSummaries } from "./model_extras.ts";
import { METRES_PER_FILE_UNIT } from "../params.ts";
import { textureToPng } from "./texture.ts";
import { pointNormals } from "./normals.ts";
import { toScenePositions } from "./scene_positions.ts";
import { padSampledRows } from "./texture_rows.ts";
import { warnNarrowPicture } from "./narrow_picture.ts";
import { warnRgb565 } from "./texture_565.ts";
import type { VtlClip } from "./parse_vtl.ts";

/** Where a face record holds its render flags. */
const FLAGS_OFFSET = 36;
/** Where a face record holds its first corner's texel row (`tay`; `tax, tbx, tcx` come first). */
const TEXEL_V_OFFSET = 24;

export { MAX_SCENE_COORDINATE } from "./scene_positions.ts";
export { OWNER_ATTRIBUTE, TRANSPARENT_ALPHA } from "./primitives.ts";

/** How to build the scene. */
export interface SceneOptions {
  /** Source format recorded on the scene. */
  readonly format: "3df" | "car" | "rsc" | "3dn";
  /** Name of the model node and mesh. */
  readonly name: string;
  /** Scene units per file unit (the file unit is unknown; see docs). */
  readonly scale: number;
  /** Weight-track interpolation for `.car` clips. */
  readonly interpolation: ClipInterpolation;
  /** Most `.car` keyframes in all; longer clips are resampled (see `addMorphClips`). */
  readonly maxFrames?: number;
  /** Byte offset of the face block, for warnings about texel coordinates. */
  readonly facesOffset: number;
  /** Byte offset of the point block, for errors about coordinates. */
  readonly pointsOffset: number;
  /** File name, for errors. */
  readonly file?: string;
  /**
   * Rows the V texels count when the file holds no texture: a `.3dn`'s texture is another file, so
   * its texels are made UVs against a texture of this height (no image is made).
   */
  readonly uvHeight?: number;
  /**
   * A picture from another file (a `.3dn`'s texture), used as the texture when the file holds none:
   * PNG bytes and its size. Its texels are over 256 × its height, or over its width when some texel
   * is past 256 (a wider picture's own pixels).
   */
  readonly picture?: {
    readonly png: Uint8Array;
    readonly width: number;
    readonly height: number;
    readonly file?: string;
  };
}

/** The format-specific parts: bones for `.3df`, clips and sounds for `.car`. */
export interface SceneExtras {
  /** The `.3df` bone table, kept in extras for the resolver. */
  readonly bones?: readonly Bone[];
  /** The `.car` clips, sounds and anim→sound table. */
  readonly car?: CarModel;
  /**
   * Clips besides a `.car`'s (morph animations like its): `.vtl` files beside a `.3df`, or a `.rsc`
   * object's animation. The file and layout they were read from, when given, go to the extras.
   */
  readonly vtl?: readonly (CarAnimation & Partial<Pick<VtlClip, "file" | "layout">>)[];
  /** What else the file's header says (a `.3dn`'s image and sprite names), kept as given. */
  readonly notes?: Record<string, JsonValue>;
}

/**
 * Builds the scene for a parsed model.
 *
 * @example
 * ```ts
 * const { model } = parse3df(bytes);
 * const doc = buildScene(model, { bones: model.bones },
 *   { format: "3df", name: "palm", scale: 1, interpolation: "linear", facesOffset: 16,
 *     pointsOffset: 16 + 64 * model.faces.count },
 *   console.warn);
 * ```
 */
export function buildScene(
  mesh: MeshData,
  extras: SceneExtras,
  options: SceneOptions,
  warn: WarningSink,
): Document {
  const doc = new Document();
  const accessors = new SceneAccessors(doc, doc.createBuffer());
  const scene = doc.createScene("Scene");
  doc.getRoot().setDefaultScene(scene);
  scene.addChild(buildModel(accessors, mesh, extras, options, warn));
  // An empty buffer would be written without a byteLength, which glTF forbids.
  if (doc.getRoot().listAccessors().length === 0) accessors.buffer.dispose();
  setCarnivoresSource(doc, options.format, options.scale);
  return doc;
}

/**
 * Records a Carnivores scene's source frame: the games' +Z forward, +Y up, and the metres per unit
 * `scale` leaves (inferred, not stated by the file: see METRES_PER_FILE_UNIT), with `notes` added.
 */
export function setCarnivoresSource(
  doc: Document,
  format: string,
  scale: number,
  notes: Record<string, JsonValue> = {},
): void {
  setSourceInfo(doc, {
    format,
    forward: "+Z",
    up: "+Y",
    metresPerUnit: METRES_PER_FILE_UNIT / scale,
    notes: {
      scale,
      metres_per_file_unit: METRES_PER_FILE_UNIT,
      mapping: "scene = scale·(x, y, −z), triangle winding reversed (the engine mirrors z on load)",
      file_unit: "not defined by the format; inferred: a hunter (~1.8 m) is ~124.6 file units tall, " +
        "i.e. ~0.0145 m per file unit",
      ...notes,
    },
  });
}

/**
 * Builds one model's node (mesh, materials, texture, morph clips, extras) into a document under
 * construction, its accessors in `accessors.buffer` — a scene of several models (a `.rsc`) calls it
 * once per model. Materials are shared between the model's own primitives only.
 *
 * @example
 * ```ts
 * scene.addChild(buildModel(accessors, model, { bones: model.bones }, options, console.warn));
 * ```
 */
export function buildModel(
  accessors: SceneAccessors,
  mesh: MeshData,
  extras: SceneExtras,
  options: SceneOptions,
  warn: WarningSink,
): Node {
  const { faces, points, texture } = mesh;
  const { scale } = options;
  const image = texture ? sampledImage(texture, faces, options, warn) : undefined;
  if (texture) {
    warnNarrowPicture(texture, warn);
    warnRgb565(texture, warn);
  }
  const scenePositions = toScenePositions(points.positions, scale, options, warn);

  const doc = accessors.doc;
  const node = doc.createNode(options.name);
  const materials = new Map<string, Material>();

  const picture = image ? undefined : options.picture;
  const textureHeight = image?.height ?? picture?.height ?? options.uvHeight ?? 0;
  const textureWidth = picture ? pictureUvWidth(faces, picture.width, warn) : TEXTURE_WIDTH;
  const { groups, clampedCorners } = groupFaces(faces, textureHeight, textureWidth);
  if (clampedCorners) {
    warn(
      `${clampedCorners} face corner(s) have texel coordinates outside [0, ${textureWidth}]×[0, ${textureHeight}]; clamped`,
      {
        corners: clampedCorners,
      },
    );
  }
  let colourKey = false;
  for (let f = 0; f < faces.count; f++) if (faces.flags[f] & FaceFlag.opacity) colourKey = true;
  warnUndefinedFlags(faces, options.facesOffset, warn);

  const summary: Record<string, JsonValue> = {
    format: options.format,
    vertices: points.count,
    faces: faces.count,
    ...extras.notes,
    texture: texture && image
      ? {
        width: TEXTURE_WIDTH,
        height: texture.height,
        // Rows the faces sample past the stored ones (the engine's zeroed buffer), when there are any.
        ...(image.height !== texture.height ? { image_height: image.height } : {}),
        colour_key: colourKey,
      }
      : picture
      ? { width: picture.width, height: picture.height, ...(picture.file ? { file: picture.file } : {}) }
      : null,
  };
  let morphs: MorphClips | undefined;
  if (groups.length === 0) {
    warn("the model has no faces; the scene has no mesh");
  } else {
    const gltfTexture = image
      ? doc.createTexture(`${options.name}_texture`).setImage(textureToPng(image, colourKey))
        .setMimeType("image/png").setURI("texture.png")
      : picture
      ? doc.createTexture(`${options.name}_texture`).setImage(picture.png).setMimeType("image/png")
        .setURI("texture.png")
      : undefined;
    const meshDef = doc.createMesh(options.name);
    const normals = pointNormals(faces, scenePositions);
    for (const group of groups) {
      const material = materialFor(doc, materials, group, gltfTexture, colourKey);
      meshDef.addPrimitive(
        primitiveFor(
          accessors,
          group,
          mesh,
          scenePositions,
          normals,
          [textureWidth, textureHeight],
          material,
        ),
      );
    }
    node.setMesh(meshDef);
    const clips = extras.car?.animations ?? extras.vtl;
    if (clips?.length) {
      morphs = addMorphClips({
        accessors,
        node,
        mesh: meshDef,
        groups,
        points,
        scale,
        interpolation: options.interpolation,
        maxFrames: options.maxFrames,
        warn,
      }, clips);
    }
  }
  if (extras.car) Object.assign(summary, carSummary(extras.car, morphs));
  if (extras.vtl?.length) {
    Object.assign(summary, {
      morph_targets: morphs?.targetCount ?? 0,
      animations: clipSummaries(extras.vtl, morphs).map((clip, c) => {
        const { file, layout } = extras.vtl![c];
        return { ...clip, ...(file ? { file } : {}), ...(layout ? { layout } : {}) };
      }),
    });
  }
  if (extras.bones) summary.bones = boneTable(extras.bones, points.owners, scenePositions, scale);
  setPartgraphExtras(node, { carnivores: summary });
  return node;
}

/**
 * What a picture from another file divides U texels by: 256, the games' texture width, which
 * CarnivoresIO writes them against (`round(u·255)`); or the picture's width when it is wider and some
 * texel lies past 256, so the texels can only be its own pixels. A picture of another width is named.
 */
function pictureUvWidth(faces: FaceTable, width: number, warn: WarningSink): number {
  if (width === TEXTURE_WIDTH) return TEXTURE_WIDTH;
  let maxU = 0;
  for (let f = 0; f < faces.count; f++) {
    for (let k = 0; k < 3; k++) maxU = Math.max(maxU, faces.texels[f * 6 + k * 2]);
  }
  const own = width > TEXTURE_WIDTH && maxU > TEXTURE_WIDTH;
  warn(
    `the texture picture is ${width} pixels wide, not the games' 256: U texels (up to ${maxU}) are read ` +
      (own
        ? `as its own pixels (over ${width}), some being past 256`
        : "over 256, as CarnivoresIO writes them"),
    { width, max_u: maxU },
  );
  return own ? width : TEXTURE_WIDTH;
}

/** Face flag bits no game defines (`Hunt.h` stops at sfNeedVC 0x80, then sfDark 0x8000). */
const UNDEFINED_FLAG_BITS = 0x7f00;

/**
 * One warning for faces whose flags carry bits no game defines. Editors write them: io_carnivores'
 * "Dark" checkbox sets 0x100 where the games' sfDark is 0x8000. The games ignore them, and so does the
 * scene; the stored flags stay in the primitive extras.
 */
function warnUndefinedFlags(faces: FaceTable, facesOffset: number, warn: WarningSink): void {
  let count = 0;
  let first = -1;
  let bits = 0;
  for (let f = 0; f < faces.count; f++) {
    const extra = faces.flags[f] & UNDEFINED_FLAG_BITS;
    if (!extra) continue;
    if (count++ === 0) first = f;
    bits |= extra;
  }
  if (!count) return;
  const offset = facesOffset + first * FACE_BYTES + FLAGS_OFFSET;
  warn(
    `${count} face(s) carry flag bits no game defines (0x${
      bits.toString(16).padStart(4, "0")
    }; the first is ` +
      `face ${first}, flags at byte ${offset})${
        bits & 0x100 ? " — io_carnivores writes its 'Dark' as 0x100, where the games' sfDark is 0x8000" : ""
      }: ignored, as the games ignore them; the stored flags are kept in the primitive extras`,
    { offset, faces: count, bits },
  );
}

/**
 * The texture as the faces sample it: the stored rows, then the zero rows of the engine's 256-row
 * buffer that faces reach (see `padSampledRows`), with one warning naming the first such corner.
 */
function sampledImage(
  texture: Texture16,
  faces: FaceTable,
  options: SceneOptions,
  warn: WarningSink,
): Texture16 {
  const { texture: image, past } = padSampledRows(texture, faces);
  if (past) {
    const offset = options.facesOffset + past.face * FACE_BYTES + TEXEL_V_OFFSET + past.corner * 4;
    warn(
      `${past.corners} face corner(s) sample texture rows past the texture's ${texture.height} (v up to ` +
        `${past.maxRow}; the first is face ${past.face} corner ${past.corner + 1} at byte ${offset}): the ` +
        "game's hardware renderers hold every texture in a zeroed 256-row buffer, so rows " +
        `${texture.height}–${image.height - 1} are added as texel 0x0000 (black, or transparent where ` +
        "colour-keyed)",
      { offset },
    );
  }
  return image;
}
