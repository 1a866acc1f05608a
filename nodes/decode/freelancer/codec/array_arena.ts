/**
 * Typed arrays carved out of a few large `ArrayBuffer`s. A retail model has thousands of small
 * accessors; giving each its own `ArrayBuffer` made garbage collection the largest single cost of
 * decoding. The views an arena hands out are ordinary typed arrays (glTF-Transform writes them
 * through their `byteOffset`), and they live as long as the scene that holds them.
 *
 * @module
 */

/** Default bytes per slab. */
const SLAB_BYTES = 1 << 20;
/**
 * Requests above this share of a slab get a buffer of their own: they are few, so that costs little,
 * and the space a slab leaves unused at its end stays below an eighth.
 */
const OWN_BUFFER_SHARE = 1 / 8;

/**
 * Hands out zero-filled typed arrays from shared slabs, 8-byte aligned.
 *
 * @example
 * ```ts
 * const arena = new ArrayArena();
 * const positions = arena.float32(3 * vertexCount);
 * const indices = arena.uint16(indexCount);
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
