/**
 * The one way scene builders make accessors: every accessor of a scene in its one buffer, created
 * with as few glTF-Transform calls as the output needs, over typed arrays that may come from a few
 * shared slabs ({@link ArrayArena}) instead of one `ArrayBuffer` each.
 *
 * Why it matters: a retail Freelancer model has thousands of small accessors. glTF-Transform makes
 * each one a `Property` with a defaults object, an edge from the root and one to its buffer, and
 * every setter dispatches two event objects; one `ArrayBuffer` per array made garbage collection
 * the largest single cost of decoding.
 *
 * @module
 */
import type { Accessor, Buffer, Document, GLTF, TypedArray } from "@gltf-transform/core";

/** Default bytes per slab. */
const SLAB_BYTES = 1 << 20;
/**
 * Requests above this share of a slab get a buffer of their own: they are few, so that costs little,
 * and the space a slab leaves unused at its end stays below an eighth.
 */
const OWN_BUFFER_SHARE = 1 / 8;

/**
 * Hands out zero-filled typed arrays from shared slabs, 8-byte aligned. The views are ordinary
 * typed arrays (glTF-Transform writes them through their `byteOffset`), and they live as long as
 * the scene that holds them.
 *
 * @example
 * ```ts
 * import { ArrayArena } from "./accessors.ts";
 *
 * const arena = new ArrayArena();
 * const positions = arena.float32(3 * 100);
 * const indices = arena.uint16(3 * 98);
 * ```
 */
export class ArrayArena {
  readonly #slabBytes: number;
  #slab = new ArrayBuffer(0);
  #used = 0;

  /** `slabBytes` 0 gives every array a buffer of its own (for one-off callers). */
  constructor(slabBytes = SLAB_BYTES) {
    this.#slabBytes = slabBytes;
  }

  /** A zero-filled `Float32Array` of `length` elements. */
  float32(length: number): Float32Array<ArrayBuffer> {
    const [buffer, offset] = this.#take(4 * length);
    return new Float32Array(buffer, offset, length);
  }

  /** A zero-filled `Uint16Array` of `length` elements. */
  uint16(length: number): Uint16Array<ArrayBuffer> {
    const [buffer, offset] = this.#take(2 * length);
    return new Uint16Array(buffer, offset, length);
  }

  #take(bytes: number): [ArrayBuffer, number] {
    if (bytes > this.#slabBytes * OWN_BUFFER_SHARE) return [new ArrayBuffer(bytes), 0];
    if (this.#used + bytes > this.#slab.byteLength) {
      this.#slab = new ArrayBuffer(this.#slabBytes);
      this.#used = 0;
    }
    const offset = this.#used;
    this.#used = (offset + bytes + 7) & ~7;
    return [this.#slab, offset];
  }
}

/**
 * A scene's accessors: its one buffer and an arena for their arrays.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { SceneAccessors } from "./accessors.ts";
 *
 * const doc = new Document();
 * const accessors = new SceneAccessors(doc, doc.createBuffer());
 * const positions = accessors.arena.float32(9);
 * positions.set([0, 0, 0, 1, 0, 0, 0, 1, 0]);
 * doc.createPrimitive().setAttribute("POSITION", accessors.create("VEC3", positions, "tri.position"));
 * ```
 */
export class SceneAccessors {
  /** Slabs for the scene's arrays. */
  readonly arena: ArrayArena = new ArrayArena();

  /** Accessors of `doc`, stored in `buffer`. */
  constructor(readonly doc: Document, readonly buffer: Buffer) {}

  /**
   * An accessor of `type` over `array`. Only setters whose value differs from glTF-Transform's
   * default are called (`SCALAR` is the default type): each costs two event objects.
   */
  create(type: GLTF.AccessorType, array: TypedArray, name = ""): Accessor {
    const accessor = this.doc.createAccessor(name, this.buffer).setArray(array);
    return type === "SCALAR" ? accessor : accessor.setType(type);
  }
}
