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
import { Accessor, type Buffer, type Document, type GLTF, type TypedArray } from "@gltf-transform/core";
import { ATTRIBUTES } from "./graph_internals.ts";
import { setRefQuietly } from "./quiet_refs.ts";

/** Default bytes per slab. */
const SLAB_BYTES = 1 << 20;
/**
 * Bytes of an arena's first slab; each next one is twice as large, up to its slab size. A scene of a
 * few kilobytes (a part, a fuzz case) took a zero-filled 1 MiB slab: a quarter of building it.
 */
const FIRST_SLAB_BYTES = 1 << 16;
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
  #nextSlab: number;

  /**
   * `slabBytes` 0 gives every array a buffer of its own (for one-off callers). Slabs start at 64 KiB
   * and double up to `slabBytes`.
   */
  constructor(slabBytes = SLAB_BYTES) {
    this.#slabBytes = slabBytes;
    this.#nextSlab = Math.min(slabBytes, FIRST_SLAB_BYTES);
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
      this.#slab = new ArrayBuffer(Math.max(this.#nextSlab, bytes));
      this.#nextSlab = Math.min(this.#slabBytes, 2 * this.#nextSlab);
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
   * An accessor of `type` over `array` in the scene's buffer, its attributes and its buffer written
   * without the setters' `change` events (see {@link setArrayQuietly} and `quiet_refs.ts`):
   * `doc.createAccessor(name, buffer)` is `new Accessor(graph, name).setBuffer(buffer)`.
   */
  create(type: GLTF.AccessorType, array: TypedArray, name = ""): Accessor {
    const accessor = new Accessor(this.doc.getGraph(), name);
    if (!setRefQuietly(accessor, "buffer", this.buffer)) accessor.setBuffer(this.buffer);
    const store = attributesOf(accessor), componentType = COMPONENT_TYPES.get(array.constructor);
    if (!store || componentType === undefined) return accessor.setArray(array).setType(type);
    store.array = array;
    store.componentType = componentType;
    store.type = type;
    return accessor;
  }
}

/** An accessor's attribute store (property-graph's `$attributes`), as glTF-Transform 4.5 keeps it. */
type AttributeStore = { array: TypedArray | null; componentType: number; type: string };

/** glTF's component type of each typed array class, as `setArray` derives it. */
const COMPONENT_TYPES = new Map<unknown, number>([
  [Float32Array, 5126],
  [Uint32Array, 5125],
  [Uint16Array, 5123],
  [Int16Array, 5122],
  [Uint8Array, 5121],
  [Int8Array, 5120],
]);

function attributesOf(accessor: Accessor): AttributeStore | undefined {
  return ATTRIBUTES && (accessor as unknown as Record<symbol, AttributeStore>)[ATTRIBUTES];
}

/**
 * Puts `array` (of the accessor's own component type, or null) under `accessor` the way `setArray`
 * does, but without its two `change` events: each is three objects and a string, dispatched to no
 * listener (glTF-Transform listens to `create` and `dispose` only), and swapping arrays in and out
 * around glTF-Transform's copy and writer made them a few per cent of an export. The component type
 * is left as it is: `array` must be of the accessor's class, or null while it is detached (where the
 * store is not found, the setter runs, which takes the type from the array: FLOAT for null).
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { setArrayQuietly } from "./accessors.ts";
 *
 * const accessor = new Document().createAccessor().setArray(new Float32Array(3));
 * setArrayQuietly(accessor, new Float32Array(0)); // same class: the component type holds
 * ```
 */
export function setArrayQuietly(accessor: Accessor, array: TypedArray | null): void {
  const store = attributesOf(accessor);
  if (store) store.array = array;
  else accessor.setArray(array);
}
