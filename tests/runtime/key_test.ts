import assert from "node:assert/strict";
import { actionKey, KEY_SCHEMA, type KeyMaterial } from "../../runtime/execute/key.ts";
import { canonicalJson, sha256Hex } from "../../runtime/canonical.ts";
import { TOOL_VERSIONS } from "../../runtime/version.ts";

Deno.test("an action key is the SHA-256 of the canonical JSON of its whole key material", () => {
  const materials: KeyMaterial[] = [
    {
      type: "test.const",
      node: { version: 1, impl: null },
      params: { value: 2 },
      inputs: {},
      invokes: {},
      plugins: [],
    },
    {
      type: "decode.auto",
      node: { version: 3, impl: "ab".repeat(32) },
      params: { z: [1, { b: "é\n", a: -0 }], a: null },
      inputs: { scene: "cd".repeat(32) + "#scene", bytes: 'literal:"x"' },
      invokes: { "decode.cmp": { version: 2, impl: null }, "decode.3db": { version: 1, impl: null } },
      plugins: [{ name: "cmp/3db", version: 2, impl: null }, {
        name: "toy",
        version: 1,
        impl: "ef".repeat(32),
      }],
    },
  ];
  for (const material of materials) {
    const expected = sha256Hex(canonicalJson({ schema: KEY_SCHEMA, tools: TOOL_VERSIONS, ...material }));
    assert.equal(actionKey(material), expected);
  }
  assert.notEqual(actionKey(materials[0]), actionKey({ ...materials[0], params: { value: 3 } }));
  const resolverBumped = { ...materials[1], plugins: [{ ...materials[1].plugins[0], version: 3 }] };
  assert.notEqual(actionKey(materials[1]), actionKey(resolverBumped));
});
