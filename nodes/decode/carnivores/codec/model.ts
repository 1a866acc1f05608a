/**
 * In-memory form of Carnivores `.3df` and `.car` files, shared by the parsers, the encoders and the
 * scene builder. Every per-vertex and per-face field is a typed array so that models with thousands
 * of faces and hundreds of animation frames never turn into per-element objects.
 *
 * Layout facts follow `formats/carnivores-dson.md` Part A (checked against the original engine's
 * loaders), not the short published layout: a point is `float x,y,z; int16 owner; uint16 hide` and
 * the face words after the UVs are `Flags, DMask, Distant, Next, group, reserved` — no parent.
 *
 * @module
 */

/** Bytes of one face record. */
export const FACE_BYTES = 64;
/** Bytes of one point (vertex) record. */
export const POINT_BYTES = 16;
/** Bytes of one bone record (3df only). */
export const BONE_BYTES = 48;
/** Bytes of the `.3df` header. */
export const HEADER_3DF_BYTES = 16;
/** Bytes of the `.car` header. */
export const HEADER_CAR_BYTES = 52;
/** Bytes of a fixed-size name field (bone, model, animation and sound names). */
export const NAME_BYTES = 32;
/** Bytes before a `.car` animation's frame data: name, KPS, frame count. */
export const ANIMATION_HEADER_BYTES = NAME_BYTES + 8;
/** Bytes before a `.car` sound's PCM data: name, length. */
export const SOUND_HEADER_BYTES = NAME_BYTES + 4;
/** Texels per texture row: every Carnivores model texture is 256 wide. */
export const TEXTURE_WIDTH = 256;
/** Rows of the buffer the engine's hardware renderers read every model texture into (zeroed). */
export const ENGINE_TEXTURE_ROWS = 256;
/** Bytes per texture row (256 texels × 2 bytes). */
export const TEXTURE_ROW_BYTES = 512;
/** Entries of the `.car` animation → sound table. */
export const ANIM_SOUND_SLOTS = 64;
/** Sample rate of `.car` sounds (16-bit mono PCM). */
export const SOUND_SAMPLE_RATE = 22050;
/** The engine's `TModel` arrays hold this many vertices and faces; larger models overflow them. */
export const ENGINE_MAX_ELEMENTS = 1024;

/** Face render flags (`Hunt.h`). Bits the engine tests with a wider mask are noted in the docs. */
export const FaceFlag = {
  /** Not back-face culled — unless sfDarkBack or a stored sfNeedVC is set too (see `drawsBothSides`). */
  doubleSide: 0x0001,
  /** Back-face culled, even with sfDoubleSide: every renderer culls on `Flags & (sfDarkBack | sfNeedVC)`. */
  darkBack: 0x0002,
  /** Texel 0x0000 becomes transparent for the whole texture when any face has it. */
  opacity: 0x0004,
  /** Drawn last with vertex alpha 0x70 (translucent). */
  transparent: 0x0008,
  /** A ray hit here is a kill zone. */
  mortal: 0x0010,
  /** Phong highlight pass (the engine tests `Flags & 0x30`). */
  phong: 0x0020,
  /** Environment-map pass (the engine tests `Flags & 0x50`). */
  envMap: 0x0040,
  /** Set by the loader on single-sided faces; one a file carries culls the face like sfDarkBack. */
  needVC: 0x0080,
  /** "Dark front side". */
  dark: 0x8000,
} as const;

/**
 * Faces as parallel arrays, `count` long (×3 or ×6 where noted). Index `i` of every array is face `i`
 * of the file.
 */
export interface FaceTable {
  /** Number of faces. */
  readonly count: number;
  /** `v1, v2, v3` per face (3 per face), as stored (file winding). */
  readonly indices: Int32Array;
  /** Texel coordinates per corner: `u1, v1, u2, v2, u3, v3` (6 per face). The file stores U's then V's. */
  readonly texels: Int32Array;
  /** Render flags, see {@link FaceFlag}. */
  readonly flags: Uint16Array;
  /** Editor-only mask; 0 in every known file. */
  readonly dmask: Uint16Array;
  /** Engine scratch (painter-sort depth key); files hold stale values. */
  readonly distant: Int32Array;
  /** Engine scratch (render-time linked list); files hold stale values or -1. Not a parent link. */
  readonly next: Int32Array;
  /** Editor-only group number; usually 0. */
  readonly group: Int32Array;
  /**
   * 1 for a face with a corner that names no point (an index outside `[0, count)`: the 65535 or -1
   * an editor leaves when it deletes vertices). Such faces are kept as stored but not drawn. Absent
   * when every face is whole.
   */
  readonly broken?: Uint8Array;
}

/** Points (vertices) as parallel arrays. */
export interface PointTable {
  /** Number of points. */
  readonly count: number;
  /** `x, y, z` per point in file units and file axes (3 per point). */
  readonly positions: Float32Array;
  /** Owning bone (3df) or group id (car) of each point. */
  readonly owners: Int16Array;
  /** Editor hide flag; no effect in game. */
  readonly hides: Uint16Array;
}

/** The model texture: 256 × `height` X1R5G5B5 words, row 0 (the top row) first. */
export interface Texture16 {
  /** Rows: `TextureSize / 512`, rounded down. */
  readonly height: number;
  /** `256 × height` little-endian words as read (bit 15 kept as stored). */
  readonly words: Uint16Array;
}

/** One bone record of a `.3df` file. */
export interface Bone {
  /** Name (not unique in real files). */
  readonly name: string;
  /** Pivot in absolute model space, file units and axes. May be junk in real files. */
  readonly pivot: readonly [number, number, number];
  /** Parent bone index, -1 for a root. */
  readonly parent: number;
  /** Editor hide flag. */
  readonly hide: number;
}

/** The geometry and texture blocks both formats share. */
export interface MeshData {
  /** The face table. */
  readonly faces: FaceTable;
  /** The point table. */
  readonly points: PointTable;
  /** Absent when the texture block is empty (or shorter than one row). */
  readonly texture?: Texture16;
}

/** A decoded `.3df` file. */
export interface Model3df extends MeshData {
  /** The bone table (empty when the model has none). */
  readonly bones: readonly Bone[];
}

/** One `.car` animation: absolute vertex positions per frame, file units × 16. */
export interface CarAnimation {
  /** Source VTL name (may repeat). */
  readonly name: string;
  /** Frames per second as stored; the engine derives the clip length from it. */
  readonly kps: number;
  /** Number of frames stored. */
  readonly frameCount: number;
  /** `frameCount × vertexCount × 3` int16, `x, y, z` per vertex per frame, file axes × 16. */
  readonly positions: Int16Array;
}

/** One `.car` sound: 16-bit mono PCM at {@link SOUND_SAMPLE_RATE} Hz. */
export interface CarSound {
  /** Sound name. */
  readonly name: string;
  /** Raw PCM bytes (a view into the source file when parsed). */
  readonly pcm: Uint8Array;
}

/** A decoded `.car` file. */
export interface CarModel extends MeshData {
  /** Model name: the text before the first NUL of the 32-byte field. */
  readonly name: string;
  /** The `"msc: N"` tail of the name field (at byte 24, or 20 in Ice Age files), or "" when absent. */
  readonly msc: string;
  /** Animations in file order. */
  readonly animations: readonly CarAnimation[];
  /** Sounds in file order. */
  readonly sounds: readonly CarSound[];
  /**
   * Animation → sound table (64 entries, -1 = none), or undefined when the file ends before it
   * (the engine then uses -1 everywhere).
   */
  readonly animSounds?: Int32Array;
}
