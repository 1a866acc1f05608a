import assert from "node:assert/strict";
import { gather, scatter, words } from "../../../runtime/scene/strided.ts";

Deno.test("scatter puts each element at its stride and gather takes it back, for every element size", () => {
  for (const size of [1, 2, 3, 4, 5, 16]) {
    const count = 7, step = size + 3;
    const packed = Uint16Array.from({ length: size * count }, (_, i) => i + 1);
    const strided = new Uint16Array(step * count);
    scatter(packed, strided, size, step, count);
    for (let i = 0; i < count; i++) {
      assert.deepEqual([...strided.subarray(i * step, i * step + size)], [
        ...packed.subarray(i * size, (i + 1) * size),
      ]);
      assert.deepEqual(
        [...strided.subarray(i * step + size, (i + 1) * step)],
        [0, 0, 0],
        `size ${size}: gap`,
      );
    }
    const back = new Uint16Array(size * count);
    gather(strided, back, size, step, count);
    assert.deepEqual(back, packed, `size ${size}`);
  }
});

Deno.test("words move float bits as they are", () => {
  const floats = new Float32Array(2);
  new Uint32Array(floats.buffer).set([0x7f800001, 0x80000000]); // a signalling NaN and −0
  const out = new Float32Array(4);
  scatter(words(4, floats.buffer, 0, 2), words(4, out.buffer, 0, 4), 1, 2, 2);
  assert.deepEqual([...new Uint32Array(out.buffer)], [0x7f800001, 0, 0x80000000, 0]);
});
