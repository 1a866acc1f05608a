/**
 * UTF names that run past the dictionary (`deno task fuzz --formats hostile-utf`, family
 * names-past-dictionary): a name offset pointing at the dictionary's last bytes, or a dictionary with
 * no NUL at all. Before, the name was cut at the dictionary's end and read as another name
 * ('HpMount01' as 'Z'), silently; now it is a DecodeError at the entry's name field. A name whose NUL
 * lies in the dictionary's allocated padding, past its used size, is read as Freelancer reads it.
 */
import assert from "node:assert/strict";
import { DecodeError } from "../../../../runtime/errors.ts";
import { encodeString, encodeUtf, utfDir, utfLeaf } from "../../../support/freelancer/encode_utf.ts";
import { readUtf } from "../../../../nodes/decode/freelancer/codec/utf.ts";
import { hostileInput } from "../../../fuzz/hostile.ts";
import { runFuzzCase } from "../../../fuzz/pipeline.ts";

const tree = () =>
  utfDir("\\", [
    utfDir("Hardpoints", [utfLeaf("HpMount01", encodeString("x")), utfLeaf("Zz", encodeString("y"))]),
  ]);

/** The header's dictionary fields and the view to edit them. */
function dictionary(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    view,
    at: view.getUint32(24, true),
    allocated: view.getUint32(28, true),
    used: view.getUint32(32, true),
  };
}

Deno.test("a UTF name offset at the dictionary's last byte, with no NUL after it, is refused at the entry", () => {
  const bytes = encodeUtf(tree());
  const { view, at, allocated, used } = dictionary(bytes);
  // Allocated = used, so no padding NUL follows; the last byte (the final name's NUL) becomes 'Z'.
  view.setUint32(28, used, true);
  bytes[at + used - 1] = 0x5a;
  assert.ok(allocated >= used);
  // Entry 2 (HpMount01, after the root and Hardpoints) now names the last byte.
  const entry = view.getUint32(8, true) + 2 * 44;
  view.setUint32(entry + 4, used - 1, true);
  const error = (() => {
    try {
      readUtf(bytes, "t.3db");
    } catch (e) {
      return e;
    }
  })();
  assert.ok(error instanceof DecodeError, `expected a DecodeError, got ${error}`);
  assert.deepEqual(error.at, { offset: entry + 4 });
  assert.match(
    error.message,
    /a name ending in a NUL inside the \d+-byte dictionary .*"Z" running to its end/,
  );
});

Deno.test("a UTF name whose NUL lies in the dictionary's padding past its used size is read whole", () => {
  const bytes = encodeUtf(tree());
  const { view, used } = dictionary(bytes);
  // The used size leaves out the final NUL, as a writer counting string bytes only might.
  view.setUint32(32, used - 1, true);
  const names = readUtf(bytes).children![0].children!.map((c) => c.name);
  assert.deepEqual(names, ["HpMount01", "Zz"]);
});

Deno.test("hostile UTF files whose names run past the dictionary end in a typed error, none renamed silently", async () => {
  const outcomes: string[] = [];
  for (let i = 0; i < 8; i++) {
    const { name, bytes } = await hostileInput("hostile-utf", 1, i, { family: "names-past-dictionary" });
    const result = await runFuzzCase(bytes, name);
    outcomes.push(result.outcome);
    assert.equal(result.outcome, "typed", `case ${i}: ${result.outcome}`);
  }
});
