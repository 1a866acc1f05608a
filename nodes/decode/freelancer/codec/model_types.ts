/**
 * The shapes of a Freelancer model in memory (`model.ts` reads it): its parts, what a decode returns,
 * library contents and their sources, and a reading that a library search completes.
 *
 * @module
 */
import type { ByteWindow } from "../../../../runtime/binary.ts";
import type { DecodeError } from "../../../../runtime/errors.ts";
import type { ConstraintRecord } from "./constraints.ts";
import type { AnimationScriptRecord } from "./animation.ts";
import type { Fragment } from "./fragment.ts";
import type { MaterialDef } from "./material.ts";
import type { MaterialMap } from "./material_map.ts";
import type { UtfEntry } from "./utf.ts";
import type { TrailingBytes, VMeshData } from "./vmesh.ts";
import type { MaterialAnimation } from "./material_anim.ts";
import type { SphereModel, SphereSpec } from "./sphere.ts";

/** Which kind of file the model came from; also the source format recorded on the scene. */
export type ModelKind = "cmp" | "3db" | "vms" | "sph";

/** One part: a named fragment. */
export interface ModelPart {
  /** `Object name` (a `.3db`'s single part is `Root`); constraints refer to parts by it. */
  readonly name: string;
  /** `File name` of the fragment (the fragment directory), when from a `.cmp`. */
  readonly fileName?: string;
  /** `Index` from the `Cmpnd` entry, when present. */
  readonly index?: number;
  readonly fragment: Fragment;
  /** A planet's or sun's sphere (`.sph`): radius, side materials, atmosphere scale when drawn. */
  readonly sphere?: SphereModel["info"];
}

/** Everything `decodeModel` (model.ts) reads. */
export interface FreelancerModel {
  readonly kind: ModelKind;
  readonly parts: readonly ModelPart[];
  /** Raw constraint records in file order (empty for `.3db`/`.vms`). */
  readonly constraints: readonly ConstraintRecord[];
  /** Animation scripts (`Animation/Script`), decoded; empty when there are none. */
  readonly animations: readonly AnimationScriptRecord[];
  /** Meshes by FLCRC32 of their library name, from the file first, then the extra libraries. */
  readonly meshes: ReadonlyMap<number, VMeshData>;
  /** Meshes whose `VMeshData` does not decode, by id, when no library defines a readable one. */
  readonly damagedMeshes: ReadonlyMap<number, MeshDamage>;
  /** Materials by id, each with its type as `[MaterialMap]` rewrites it (`mapMaterial`). */
  readonly materials: ReadonlyMap<number, MaterialDef>;
  /** Texture directories by lower-cased name. */
  readonly textures: ReadonlyMap<string, UtfEntry>;
  /** The `[MaterialMap]` the material types went through. */
  readonly materialMap: MaterialMap;
  /** `MaterialAnim` entries (texture-coordinate animations) by lower-cased material name. */
  readonly materialAnims: ReadonlyMap<string, MaterialAnimation>;
  /** Which file supplied each mesh, material and texture (the name given with its bytes). */
  readonly sources: LibrarySources;
  /**
   * Textures no loaded library defines, by lower-cased name, with what a library the search read holds
   * spelt alike (`decode_cmp_run.ts` sets it from the search), for the texture's one warning.
   */
  readonly nearMisses?: ReadonlyMap<string, string>;
  /**
   * Every file whose libraries were looked in, in the order read: the model, the given libraries, those
   * the search loaded, and (`decode_cmp_run.ts` adds them) those it read and passed over — what a
   * warning about a material in none of them names.
   */
  readonly librariesRead?: readonly string[];
}

/**
 * A library mesh whose `VMeshData` does not decode (bad counts, a short leaf, an unknown FVF). It
 * costs only the geometry of the references that draw it: the scene builder leaves that geometry
 * out with a warning, as it does for a reference that does not fit its mesh.
 */
export interface MeshDamage {
  /** The mesh's directory name in its library. */
  readonly name: string;
  /** UTF path of the leaf, e.g. `VMeshLibrary/ship.lod0.vms/VMeshData`. */
  readonly entry: string;
  /** The file the library came from. */
  readonly file?: string;
  /** What was wrong: byte offset, expected and found. */
  readonly error: DecodeError;
}

/** Meshes, materials and textures of one or more UTF libraries, keyed as the game keys them. */
export interface LibraryContents {
  /** Meshes by FLCRC32 of their library name. */
  readonly meshes: Map<number, VMeshData>;
  /** Meshes that do not decode, by id, while no readable definition of the id is known. */
  readonly damagedMeshes: Map<number, MeshDamage>;
  /** The bytes and place (entry path and file) of the copy of each id in `meshes`, to tell a later copy from it. */
  readonly meshCopies: Map<number, { readonly data: ByteWindow; readonly where: string }>;
  /** Materials by FLCRC32 of their name. */
  readonly materials: Map<number, MaterialDef>;
  /** Texture directories by lower-cased name. */
  readonly textures: Map<string, UtfEntry>;
}

/** The name of the file each id of a {@link LibraryContents} came from. */
export interface LibrarySources {
  readonly meshes: ReadonlyMap<number, string>;
  readonly materials: ReadonlyMap<number, string>;
  readonly textures: ReadonlyMap<string, string>;
}

/** A file given to the decoder: bytes and a name for error messages. */
export interface NamedBytes {
  readonly bytes: Uint8Array;
  readonly name: string;
}

/**
 * A model file read as far as the libraries at hand allow: its UTF tree parsed, its parts read, its
 * own and the given libraries gathered. `modelSoFar` tells a library search what it uses and
 * lacks; `finishModel` adds the libraries found and completes it. The file is parsed and its
 * parts read once however a search ends (before, `decode.cmp` decoded it again with the libraries).
 */
export interface ModelReading {
  readonly file: NamedBytes;
  readonly root: UtfEntry;
  readonly kind: ModelKind;
  /** The parts (none yet for a `.vms` or `.sph`: they are made from the libraries). */
  readonly parts: readonly ModelPart[];
  readonly constraints: ConstraintRecord[];
  readonly sphere?: SphereSpec;
  /** Raw contents: material types not yet through a `[MaterialMap]`. */
  readonly contents: LibraryContents;
  readonly sources: {
    readonly meshes: Map<number, string>;
    readonly materials: Map<number, string>;
    readonly textures: Map<string, string>;
  };
  /** Bytes after meshes' vertex buffers, by file: one warning per file, not one per mesh. */
  readonly padded: Map<string, TrailingBytes[]>;
  /** The files whose libraries were gathered, each once, in order. */
  readonly files: Set<string>;
  /** Set by `finishModel`, which adds to the contents and so runs once. */
  finished?: true;
}
