/** The shared bounds-checked reader: every bad read is a DecodeError at an absolute offset of the file. */
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { ByteWindow, latin1 } from "../../runtime/binary.ts";
import { DecodeError } from "../../runtime/errors.ts";

const decodeErrorAt = (offset: number, expected: RegExp) => (error: unknown) =>
  error instanceof DecodeError && "offset" in error.at && error.at.offset === offset &&
  expected.test(error.expected) &&
  error.format === "toy" && error.file === "toy.bin";

Deno.test("ByteWindow reads little-endian values and reports bad reads at absolute file offsets", () => {
  const bytes = new Uint8Array(32);
  const view = new DataView(bytes.buffer);
  view.setUint16(4, 0xbeef, true);
  view.setInt32(8, -7, true);
  view.setFloat32(12, 1.5, true);
  bytes.set([0x48, 0x69, 0, 0x7a], 16); // "Hi\0z"
  const file = ByteWindow.of(bytes, "toy", "toy.bin");
  assertEquals([file.u16(4), file.i32(8), file.f32(12), file.cString(16, 4)], [0xbeef, -7, 1.5, "Hi"]);

  const block = file.sub(8, 16, "block");
  assertEquals([block.start, block.length, block.i32(0)], [8, 16, -7]);
  // Offsets in errors are into the whole file, not the window.
  throws(() => block.u32(14, "tail"), decodeErrorAt(8 + 14, /4 bytes of tail/));
  throws(() => block.count(0, "part count"), decodeErrorAt(8, /part count ≥ 0/));
  throws(() => file.sub(30, 8, "header"), decodeErrorAt(30, /8 bytes of header/));
  throws(() => file.need(-1, 4, "before the start"), decodeErrorAt(0, /before the start/));
  throws(() => file.floats(28, 2, "scale"), decodeErrorAt(28, /scale/));
  view.setFloat32(20, NaN, true);
  throws(() => file.floats(16, 2, "scale"), decodeErrorAt(20, /a finite float \(scale\)/));
  // A string field running past the end stops at the end instead of reading beyond it.
  assertEquals(file.sub(16, 2, "name").cString(0, 32), "Hi");
});

Deno.test("latin1 stops at the first NUL and keeps 8-bit characters", () => {
  assertEquals(latin1(new Uint8Array([0x41, 0xe9, 0, 0x42])), "A\u00e9");
  assertEquals(latin1(new Uint8Array([0x41, 0x42])), "AB");
});

Deno.test("ByteWindow: sub-windows share their file's one DataView, and still read only inside themselves", () => {
  const bytes = new Uint8Array(4096);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 1024; i++) view.setInt32(4 * i, i, true);
  // Count the readers made: a decoder opens a sub-window per chunk, node and mesh of a file.
  const Native = globalThis.DataView;
  let made = 0;
  globalThis.DataView = new Proxy(Native, {
    construct: (target, args, newTarget) => (made++, Reflect.construct(target, args, newTarget)),
  });
  const seen: number[] = [];
  try {
    const file = ByteWindow.of(bytes, "toy", "toy.bin");
    for (let i = 0; i < 256; i++) {
      const entry = file.sub(16 * i, 16, "entry");
      seen.push(entry.sub(8, 8, "tail").i32(4)); // the fourth int of the entry, at 16 i + 12
      throws(() => entry.i32(16, "past the entry"), decodeErrorAt(16 * i + 16, /past the entry/));
    }
  } finally {
    globalThis.DataView = Native;
  }
  assertEquals(seen, Array.from({ length: 256 }, (_, i) => 4 * i + 3));
  assertEquals(made, 1, "one reader for the file, none per sub-window");
});
