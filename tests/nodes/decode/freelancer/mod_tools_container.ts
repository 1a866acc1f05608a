/**
 * The UTF container habit of `mod_tools.ts`'s files: a utf-xml round trip's layout.
 *
 * @module
 */

/**
 * A UTF file laid out as a utf-xml round trip writes it: header, dictionary, data, tree (the
 * tree last), the dictionary's allocated size equal to its used size, and every leaf's allocated
 * size equal to its used size and its "uncompressed" size 0.
 */
export function utfXmlLayout(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const treeOffset = view.getUint32(8, true), treeSize = view.getUint32(12, true);
  const namesOffset = view.getUint32(24, true), namesUsed = view.getUint32(32, true);
  const dataOffset = view.getUint32(36, true);
  const tree = bytes.slice(treeOffset, treeOffset + treeSize);
  const names = bytes.slice(namesOffset, namesOffset + namesUsed);
  const data = bytes.slice(dataOffset);
  const out = new Uint8Array(56 + names.length + data.length + tree.length);
  out.set(bytes.subarray(0, 56));
  out.set(names, 56);
  out.set(data, 56 + names.length);
  out.set(tree, 56 + names.length + data.length);
  const w = new DataView(out.buffer);
  w.setUint32(8, 56 + names.length + data.length, true);
  w.setUint32(24, 56, true);
  w.setUint32(28, names.length, true);
  w.setUint32(36, 56 + names.length, true);
  const treeAt = 56 + names.length + data.length;
  for (let at = treeAt; at < out.length; at += 44) {
    if (w.getUint32(at + 8, true) & 0x80) {
      w.setUint32(at + 20, w.getUint32(at + 24, true), true);
      w.setUint32(at + 28, 0, true);
    }
  }
  return out;
}
