import assert from "node:assert/strict";
import { DecodeError } from "../../../../runtime/errors.ts";
import { encodeString, encodeUtf, utfDir, utfLeaf } from "../../../support/freelancer/encode_utf.ts";
import {
  findChild,
  findPath,
  isUtf,
  leafString,
  readUtf,
  type UtfEntry,
} from "../../../../nodes/decode/freelancer/codec/utf.ts";

const sample = () =>
  utfDir("\\", [
    utfLeaf("Exporter Version", encodeString("partgraph")),
    utfDir("Material Library", [utfLeaf("a", encodeString("same")), utfLeaf("b", encodeString("same"))]),
    utfDir("empty", []),
    utfLeaf("NoNul", encodeString("abc", false)),
    utfLeaf("odd", new Uint8Array([1, 2, 3, 4, 5])),
    utfLeaf("DUP", encodeString("first")),
    utfLeaf("dup", encodeString("second")),
  ]);

function errorOf(fn: () => unknown): DecodeError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof DecodeError, `expected a DecodeError, got ${e}`);
    return e;
  }
  assert.fail("expected a DecodeError");
}

const offsetOf = (e: DecodeError) => (e.at as { offset: number }).offset;

Deno.test("UTF round trip: tree, case-insensitive lookup (first duplicate wins), strings with or without NUL", () => {
  const bytes = encodeUtf(sample());
  assert.ok(isUtf(bytes));
  const root = readUtf(bytes, "sample.utf");
  assert.equal(root.name, "\\");
  assert.deepEqual(root.children!.map((c) => c.name), [
    "Exporter Version",
    "Material Library",
    "empty",
    "NoNul",
    "odd",
    "DUP",
    "dup",
  ]);
  assert.equal(leafString(findPath(root, "material library/A")!), "same");
  assert.equal(leafString(findChild(root, "dup")!), "first");
  assert.equal(leafString(findChild(root, "nonul")!), "abc");
  assert.deepEqual(
    Array.from(findChild(root, "ODD")!.data!.view()),
    [1, 2, 3, 4, 5],
    "used size, not allocated",
  );
  assert.deepEqual(findChild(root, "empty")!.children, []);
});

Deno.test("identical payloads share one data range; both leaves read it", () => {
  const bytes = encodeUtf(sample());
  const root = readUtf(bytes);
  const lib = findChild(root, "Material Library")!;
  const [a, b] = lib.children! as UtfEntry[];
  assert.equal(a.data!.start, b.data!.start);
  assert.ok(encodeUtf(sample(), { shareData: false }).length > bytes.length);
});

Deno.test("blocks in any order: dictionary before the tree, data before the dictionary", () => {
  const original = encodeUtf(sample());
  const view = new DataView(original.buffer);
  const treeOffset = view.getUint32(8, true), treeSize = view.getUint32(12, true);
  const namesOffset = view.getUint32(24, true), namesSize = view.getUint32(28, true);
  const dataOffset = view.getUint32(36, true);
  const tree = original.slice(treeOffset, treeOffset + treeSize);
  const names = original.slice(namesOffset, namesOffset + namesSize);
  const data = original.slice(dataOffset);
  const moved = new Uint8Array(original.length);
  moved.set(original.subarray(0, 56));
  let at = 56;
  const place = (block: Uint8Array, field: number) => {
    moved.set(block, at);
    new DataView(moved.buffer).setUint32(field, at, true);
    at += block.length;
  };
  place(data, 36);
  place(names, 24);
  place(tree, 8);
  const root = readUtf(moved);
  assert.equal(leafString(findChild(root, "Exporter Version")!), "partgraph");
  assert.equal(leafString(findChild(root, "dup")!), "first");
});

Deno.test("directory bit is tested, not compared: upper attribute bytes are tolerated", () => {
  const bytes = encodeUtf(sample());
  const view = new DataView(bytes.buffer);
  const tree = view.getUint32(8, true);
  for (let at = tree; at < tree + view.getUint32(12, true); at += 44) {
    view.setUint32(at + 8, view.getUint32(at + 8, true) | 0xff000000, true);
  }
  assert.equal(leafString(findPath(readUtf(bytes), "Material Library/b")!), "same");
});

Deno.test("header checks: signature, version, entry size", () => {
  const bytes = encodeUtf(sample());
  const patch = (at: number, value: number) => {
    const copy = bytes.slice();
    new DataView(copy.buffer).setUint32(at, value, true);
    return copy;
  };
  const riff = errorOf(() => readUtf(patch(0, 0x46464952)));
  assert.deepEqual([offsetOf(riff), riff.found], [0, '"RIFF"']);
  // A model download still zipped says what it is and what to do.
  const zipped = errorOf(() => readUtf(patch(0, 0x04034b50)));
  assert.equal(zipped.found, "a ZIP archive (unpack it and give the model inside)");
  const version = errorOf(() => readUtf(patch(4, 0x102)));
  assert.equal(offsetOf(version), 4);
  assert.equal(version.found, "0x102");
  const entry = errorOf(() => readUtf(patch(20, 40)));
  assert.equal(offsetOf(entry), 20);
  assert.equal(offsetOf(errorOf(() => readUtf(bytes.subarray(0, 40)))), 0);
});

Deno.test("a sibling link back to an earlier entry is a cycle error, not a hang", () => {
  const bytes = encodeUtf(sample());
  const view = new DataView(bytes.buffer);
  const tree = view.getUint32(8, true);
  // Entry 9 is the last root child ('dup'); point its sibling link back at entry 1.
  const last = tree + 9 * 44;
  assert.equal(view.getUint32(last, true), 0);
  view.setUint32(last, 44, true);
  const error = errorOf(() => readUtf(bytes));
  assert.match(error.expected, /acyclic/);
  assert.equal(offsetOf(error), last, "the offending link field");
  // A directory that is its own child.
  const self = encodeUtf(utfDir("\\", [utfDir("loop", [])]));
  new DataView(self.buffer).setUint32(56 + 44 + 16, 44, true);
  assert.match(errorOf(() => readUtf(self)).expected, /acyclic/);
});

Deno.test("offsets and sizes past the end are errors naming the field's offset", () => {
  const bytes = encodeUtf(sample());
  const view = new DataView(bytes.buffer);
  const tree = view.getUint32(8, true);
  const dataSize = (entry: number) => tree + entry * 44 + 24;
  const leafSize = bytes.slice();
  new DataView(leafSize.buffer).setUint32(dataSize(1), 0x7fffffff, true);
  assert.equal(offsetOf(errorOf(() => readUtf(leafSize))), tree + 44 + 16);
  const name = bytes.slice();
  new DataView(name.buffer).setUint32(tree + 44 + 4, 0xffffff, true);
  assert.equal(offsetOf(errorOf(() => readUtf(name))), tree + 44 + 4);
  const child = bytes.slice();
  new DataView(child.buffer).setUint32(tree + 16, 44 * 1000, true);
  assert.equal(offsetOf(errorOf(() => readUtf(child))), tree + 16, "the root's child link");
  const unaligned = bytes.slice();
  new DataView(unaligned.buffer).setUint32(tree + 44, 50, true);
  assert.equal(offsetOf(errorOf(() => readUtf(unaligned))), tree + 44, "a sibling link between entries");

  const treeSize = bytes.slice();
  new DataView(treeSize.buffer).setUint32(12, 0xfffffff0, true);
  assert.equal(offsetOf(errorOf(() => readUtf(treeSize))), 8);
});

Deno.test("deeply nested directories fail cleanly instead of overflowing the stack", () => {
  let node = utfDir("leaf", []);
  for (let i = 0; i < 300; i++) node = utfDir(`d${i}`, [node]);
  const error = errorOf(() => readUtf(encodeUtf(utfDir("\\", [node]))));
  assert.match(error.expected, /depth/);
});
