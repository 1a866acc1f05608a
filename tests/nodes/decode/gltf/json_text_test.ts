/** Repeated keys and syntax faults in JSON text, as decode.gltf reports them. */
import assert from "node:assert/strict";
import { repeatedKeys, syntaxFault } from "../../../../nodes/decode/gltf/codec/json_text.ts";

const repeats = (text: string) => repeatedKeys(text, JSON.parse(text));

Deno.test("repeatedKeys names keys given again with other values, at every depth, and no others", () => {
  assert.deepEqual(repeats('{"a":1,"a":2}').map((r) => r.path), ["/a"]);
  assert.deepEqual(repeats('{"a":[1, 2],"a":[1,2]}'), []); // the same value, spaced otherwise
  assert.deepEqual(repeats('{"n":[{"x":1,"x":2}],"m":{"a/b":{},"a/b":[]}}').map((r) => r.path), [
    "/n/0/x",
    "/m/a~1b",
  ]);
  assert.equal(repeats('{"n":1,"n":2,"n":3}')[0].times, 3);
  // Colons in names and strings are not keys; an escaped colon is scanned for.
  assert.deepEqual(repeats('{"a:b":"c:d","e":"\\u003a"}'), []);
  assert.deepEqual(repeats('{"e":"\\u003a","f":1,"f":0}').map((r) => r.path), ["/f"]);
});

Deno.test("syntaxFault names the habits of hand edits at their own character", () => {
  const cases: [string, number, RegExp][] = [
    ['{"a":[1,2,],"b":1}', 9, /trailing comma/],
    ['{"a":1,\n}', 6, /trailing comma/],
    ["{'a':1}", 1, /single quotes/],
    ['{"a":NaN}', 5, /NaN/],
    ['{"a":1 // note\n}', 7, /comment/],
    ['{"a":1}{"b":2}', 7, /'\{"b":2\}'/],
  ];
  for (const [text, at, found] of cases) {
    assert.throws(() => JSON.parse(text));
    const fault = syntaxFault(text)!;
    assert.equal(fault.at, at, text);
    assert.match(fault.found, found, text);
  }
});
