/**
 * Typed arrays carved out of a few large `ArrayBuffer`s. A retail model has thousands of small
 * accessors; giving each its own `ArrayBuffer` made garbage collection the largest single cost of
 * decoding. The views an arena hands out are ordinary typed arrays (glTF-Transform writes them
 * through their `byteOffset`), and they live as long as the scene that holds them.
 *
 * @module
 */

/** Bytes per slab; a request larger than this gets a slab of its own size. */
const SLAB_BYTES = 1 << 20;

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
  #slab = new ArrayBuffer(0);
  #used = 0;

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
    if (bytes > SLAB_BYTES) return [new ArrayBuffer(bytes), 0];
    if (this.#used + bytes > this.#slab.byteLength) {
      this.#slab = new ArrayBuffer(SLAB_BYTES);
      this.#used = 0;
    }
    const offset = this.#used;
    this.#used = (offset + bytes + 7) & ~7;
    return [this.#slab, offset];
  }
}
