/**
 * Messy-looking glTF that `decode.gltf` still refuses, because the tools users load it in disagree
 * on what it means or refuse it themselves (Blender 3.4's importer: "Couldn't parse glTF" or an
 * `IndexError`; three.js reads `1` as false, `null` as 0, and throws on a numeric node name): each
 * is a `DecodeError` at the exact JSON path, with what was expected and what was found, and the
 * Khronos validator reports each input as an error too.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { runNode } from "../../support/context.ts";
import {
  editAccessor,
  embeddedView,
  type MessyEdit,
  messyGlb,
  type MessyJson,
  wingPrimitive,
} from "../../support/messy_gltf.ts";
import { validateGltf } from "../../support/validator.ts";
import { writeCompressedGlb } from "../../support/compressed.ts";

/** Index of the node called `name`. */
const nodeIndex = (json: MessyJson, name: string): number =>
  json.nodes.findIndex((node: { name?: string }) => node.name === name);

/** The decode's refusal of `bytes`, checked to be a DecodeError. */
async function refusal(bytes: Uint8Array): Promise<DecodeError> {
  try {
    await runNode(decodeGltf, { bytes: { bytes, name: "messy.glb" } });
  } catch (error) {
    assert(error instanceof DecodeError, `a DecodeError, got ${error}`);
    return error;
  }
  throw new Error("decoded a file that must be refused");
}

interface RefusedCase {
  readonly name: string;
  readonly edit: MessyEdit;
  /** The validator's error code for the input. */
  readonly code: string;
  readonly jsonPath: string | ((json: MessyJson) => string);
  readonly expected: string;
  readonly found: string;
}

/** The wing's index accessor (6 values over 4 vertices). */
const wingIndices = (json: MessyJson): number => wingPrimitive(json).indices;
const wingIndicesPath = (json: MessyJson) =>
  `/meshes/${json.meshes.findIndex((m: { name?: string }) => m.name === "wing")}/primitives/0/indices`;
const NULLS = "null, as JSON writers write NaN and ±Infinity";

const CASES: RefusedCase[] = [
  {
    // three.js draws it single-sided (only `true` is double-sided there), against the writer's intent.
    name: "doubleSided: 1",
    edit: (json) => json.materials[0].doubleSided = 1,
    code: "TYPE_MISMATCH",
    jsonPath: "/materials/0/doubleSided",
    expected: "a boolean (true or false)",
    found: "1",
  },
  {
    name: "doubleSided: 0",
    edit: (json) => json.materials[0].doubleSided = 0,
    code: "TYPE_MISMATCH",
    jsonPath: "/materials/0/doubleSided",
    expected: "a boolean (true or false)",
    found: "0",
  },
  {
    name: "normalized: 1 on a texture coordinate accessor",
    edit: (json) => json.accessors[wingPrimitive(json).attributes.TEXCOORD_0].normalized = 1,
    code: "TYPE_MISMATCH",
    jsonPath: (json) => `/accessors/${wingPrimitive(json).attributes.TEXCOORD_0}/normalized`,
    expected: "a boolean (true or false)",
    found: "1",
  },
  {
    // three.js: "TypeError: name.replace is not a function" while naming the node.
    name: "a node named 12",
    edit: (json) => json.nodes[nodeIndex(json, "Flap_R")].name = 12,
    code: "TYPE_MISMATCH",
    jsonPath: "/nodes/3/name",
    expected: "a string",
    found: "12",
  },
  {
    // Decoded before, and refused only by the export's check, at the output's path.
    name: "a punctual light named 12",
    edit: (json) => {
      json.extensionsUsed = ["KHR_lights_punctual"];
      json.extensions = { KHR_lights_punctual: { lights: [{ type: "point" }, { name: 12, type: "point" }] } };
      json.nodes[nodeIndex(json, "Flap_R")].extensions = { KHR_lights_punctual: { light: 1 } };
    },
    code: "TYPE_MISMATCH",
    jsonPath: "/extensions/KHR_lights_punctual/lights/1/name",
    expected: "a string",
    found: "12",
  },
  {
    // Decoded before, and refused only by the export's check, at the output's path.
    name: "rotation keys of three components",
    edit: (json) => {
      const sampler = json.animations[0].samplers[0];
      sampler.output = json.accessors.push({ ...json.accessors[sampler.output], type: "VEC3" }) - 1;
    },
    code: "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT",
    jsonPath: "/animations/0/samplers/0/output",
    expected:
      "an accessor of type VEC4 in FLOAT, BYTE normalized, UNSIGNED_BYTE normalized, SHORT normalized, UNSIGNED_SHORT normalized for rotation keys",
    found: "",
  },
  {
    // Blender 3.4's importer asserts the asset's strings are strings; three.js ignores them.
    name: "a copyright that is a number",
    edit: (json) => json.asset.copyright = 2024,
    code: "TYPE_MISMATCH",
    jsonPath: "/asset/copyright",
    expected: "a string",
    found: "2024",
  },
  {
    // glTF-Transform kept the string, which the export wrote where glTF wants numbers.
    name: "a mesh's morph weight written as a string",
    edit: (json) => json.meshes[0].weights = ["0.5"],
    code: "ARRAY_TYPE_MISMATCH",
    jsonPath: "/meshes/0/weights/0",
    expected: "a finite number",
    found: '"0.5"',
  },
  {
    // Decoded before, and refused only by the export's check, at the output's path.
    name: "an emissive strength written as a string",
    edit: (json) => {
      json.extensionsUsed = ["KHR_materials_emissive_strength"];
      json.materials[0].extensions = { KHR_materials_emissive_strength: { emissiveStrength: "5" } };
    },
    code: "TYPE_MISMATCH",
    jsonPath: "/materials/0/extensions/KHR_materials_emissive_strength/emissiveStrength",
    expected: "a number ≥ 0",
    found: '"5"',
  },
  {
    name: "a sheen colour of two numbers",
    edit: (json) => {
      json.extensionsUsed = ["KHR_materials_sheen"];
      json.materials[0].extensions = { KHR_materials_sheen: { sheenColorFactor: [1, 0.5] } };
    },
    code: "ARRAY_LENGTH_NOT_IN_LIST",
    jsonPath: "/materials/0/extensions/KHR_materials_sheen/sheenColorFactor",
    expected: "3 numbers in 0..1",
    found: "",
  },
  {
    name: "a texture transform's rotation written as a string",
    edit: (json) => {
      json.extensionsUsed = ["KHR_texture_transform"];
      json.materials[0].pbrMetallicRoughness.baseColorTexture.extensions = {
        KHR_texture_transform: { rotation: "90" },
      };
    },
    code: "TYPE_MISMATCH",
    jsonPath: "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/rotation",
    expected: "a number",
    found: '"90"',
  },
  {
    name: "a camera's field of view written as a string",
    edit: (json) => {
      json.cameras = [{ type: "perspective", perspective: { yfov: "0.8", znear: 0.1 } }];
      json.nodes[nodeIndex(json, "Wing")].camera = 0;
    },
    code: "TYPE_MISMATCH",
    jsonPath: "/cameras/0/perspective/yfov",
    expected: "a finite number",
    found: '"0.8"',
  },
  {
    // No view to repair to: the far and near planes are (`messy_gltf_test.ts`).
    name: "a camera's field of view of 0",
    edit: (json) => {
      json.cameras = [{ type: "perspective", perspective: { yfov: 0, znear: 0.1 } }];
      json.nodes[nodeIndex(json, "Wing")].camera = 0;
    },
    code: "VALUE_NOT_IN_RANGE",
    jsonPath: "/cameras/0/perspective/yfov",
    expected: "a field of view > 0 (radians)",
    found: "0",
  },
  {
    // A NaN matrix: three.js makes it the identity (a zero determinant), Blender refuses the file.
    name: "a matrix of nulls",
    edit: (json) => json.nodes[nodeIndex(json, "Flap_R")].matrix = new Array(16).fill(null),
    code: "ARRAY_TYPE_MISMATCH",
    jsonPath: "/nodes/3/matrix/0",
    expected: "a finite number",
    found: `${NULLS}; 15 more of its 16 are not finite numbers either`,
  },
  {
    // three.js reads the null as 0, which moves the node.
    name: "a matrix with one null",
    edit: (json) =>
      json.nodes[nodeIndex(json, "Flap_R")].matrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, null, 2, 3, 1],
    code: "ARRAY_TYPE_MISMATCH",
    jsonPath: "/nodes/3/matrix/12",
    expected: "a finite number",
    found: NULLS,
  },
  {
    name: "a translation with a NaN written as a string",
    edit: (json) => json.nodes[nodeIndex(json, "Flap_R")].translation = [0, "NaN", 0],
    code: "ARRAY_TYPE_MISMATCH",
    jsonPath: "/nodes/3/translation/1",
    expected: "a finite number",
    found: '"NaN"',
  },
  {
    // Blender 3.4: "IndexError: index 7 is out of bounds for axis 0 with size 4"; three.js hands it to the GPU.
    name: "an index past the last vertex",
    edit: (json, bin) => editAccessor(json, bin, wingIndices(json), (values) => values[5] = 7),
    code: "ACCESSOR_INDEX_OOB",
    jsonPath: wingIndicesPath,
    expected: "index values below the 4 vertices of its attributes",
    found: "7 at element 5 of accessor 6",
  },
  {
    name: "three indices past the last vertex",
    edit: (json, bin) =>
      editAccessor(json, bin, wingIndices(json), (values) => values.splice(3, 3, 4, 5, 400)),
    code: "ACCESSOR_INDEX_OOB",
    jsonPath: wingIndicesPath,
    expected: "index values below the 4 vertices of its attributes",
    found: "4 at element 3 of accessor 6; 3 of its 6 values are past the last vertex",
  },
  {
    // Decoded before (the JSON check read only the view's values), and export set the index to 0.
    name: "a sparse index accessor substituting a value past the last vertex",
    edit: (json) => {
      const wing = json.accessors[wingIndices(json)];
      const flap =
        json.accessors[json.meshes.find((m: MessyJson) => m.name === "flap").primitives[0].indices];
      const at = (accessor: MessyJson, element: number) =>
        (json.bufferViews[accessor.bufferView].byteOffset ?? 0) + (accessor.byteOffset ?? 0) + 2 * element;
      // Element 0 of the wing's indices (0) is the one replaced, by element 8 of the flap's (4).
      const view = (byteOffset: number) =>
        json.bufferViews.push({ buffer: 0, byteOffset, byteLength: 2 }) - 1;
      wing.sparse = {
        count: 1,
        indices: { bufferView: view(at(wing, 0)), componentType: 5123 },
        values: { bufferView: view(at(flap, 8)) },
      };
    },
    code: "ACCESSOR_INDEX_OOB",
    jsonPath: wingIndicesPath,
    expected: "index values below the 4 vertices of its attributes",
    found: "4 at element 0 of accessor 6",
  },
  {
    // glTF-Transform and three.js dropped the value without a word; Blender's importer fails on it.
    name: "a sparse index past the accessor's count",
    edit: (json) => {
      const position = json.accessors[wingPrimitive(json).attributes.POSITION];
      position.sparse = {
        count: 2,
        indices: { bufferView: embeddedView(json, new Uint16Array([1, 4])), componentType: 5123 },
        values: { bufferView: embeddedView(json, new Float32Array(6)) },
      };
    },
    code: "ACCESSOR_SPARSE_INDEX_OOB",
    jsonPath: (json) => `/accessors/${wingPrimitive(json).attributes.POSITION}/sparse/indices`,
    expected: "sparse indices below the accessor's count of 4",
    found: "4 at element 1",
  },
  {
    // three.js reads a bone matrix past its skin's (garbage or the identity, by GPU); Blender fails.
    name: "a weighted joint index past the skin's joints",
    edit: (json, bin) =>
      editAccessor(json, bin, wingPrimitive(json).attributes.JOINTS_0, (values) => values[1] = 5),
    code: "ACCESSOR_JOINTS_INDEX_OOB",
    jsonPath: (json) => `${wingIndicesPath(json).replace("/indices", "")}/attributes/JOINTS_0`,
    expected: "joint indices below the 2 joints of skin 0, or with a weight of 0",
    found: "5 at element 0, weighted 0.5",
  },
  {
    // glTF-Transform's reader threw a TypeError on it (found by the fuzz: msfs-skin, seed 20261210).
    name: "a skin without its joints",
    edit: (json) => delete json.skins[0].joints,
    code: "UNDEFINED_PROPERTY",
    jsonPath: "/skins/0/joints",
    expected: "an array of node indices (required)",
    found: "undefined",
  },
  {
    // three.js read past the matrices' end into NaNs and the mesh vanished; export failed its own check.
    name: "fewer inverse bind matrices than joints",
    edit: (json) => json.accessors[json.skins[0].inverseBindMatrices].count = 1,
    code: "INVALID_IBM_ACCESSOR_COUNT",
    jsonPath: "/skins/0/inverseBindMatrices",
    expected: "an accessor of at least 2 matrices, one per joint",
    found: "",
  },
  {
    name: "a morph target of fewer vertices than its primitive",
    edit: (json) => {
      const position = json.accessors[wingPrimitive(json).attributes.POSITION];
      wingPrimitive(json).targets = [{ POSITION: json.accessors.push({ ...position, count: 3 }) - 1 }];
    },
    code: "MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT",
    jsonPath: (json) => `${wingIndicesPath(json).replace("/indices", "")}/targets/0/POSITION`,
    expected: "an accessor of 4 elements like the others",
    found: '"accessor 12 of 3"',
  },
];

for (const refused of CASES) {
  Deno.test(`refused glTF, ${refused.name}: a DecodeError with its JSON path, expected and found`, async () => {
    let json: MessyJson = {};
    const bytes = await messyGlb((j, bin) => {
      refused.edit(j, bin);
      json = j;
    });
    assert((await validateGltf(bytes)).codes.includes(refused.code), `the validator reports ${refused.code}`);
    const error = await refusal(bytes);
    const jsonPath = typeof refused.jsonPath === "string" ? refused.jsonPath : refused.jsonPath(json);
    assertEquals(
      { at: error.at, expected: error.expected, found: refused.found ? error.found : "" },
      { at: { jsonPath }, expected: refused.expected, found: refused.found },
    );
  });
}

Deno.test('refused glTF: a node\'s visibility written as the string "false" (written out as it came before)', async () => {
  // The Khronos validator of this version does not know KHR_node_visibility, so it is not asked.
  const bytes = await messyGlb((json) => {
    json.extensionsUsed = ["KHR_node_visibility"];
    json.nodes[nodeIndex(json, "Flap_R")].extensions = { KHR_node_visibility: { visible: "false" } };
  });
  const error = await refusal(bytes);
  assertEquals(
    { at: error.at, expected: error.expected, found: error.found },
    {
      at: { jsonPath: "/nodes/3/extensions/KHR_node_visibility/visible" },
      expected: "a boolean (true or false)",
      found: '"false"',
    },
  );
});

Deno.test("refused glTF: an index past the last vertex in a meshopt-compressed view (decoded before, unchecked)", async () => {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const quad = doc.createPrimitive()
    .setAttribute(
      "POSITION",
      doc.createAccessor().setType("VEC3").setBuffer(buffer)
        .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0])),
    )
    .setIndices(
      doc.createAccessor().setType("SCALAR").setBuffer(buffer).setArray(new Uint16Array([0, 1, 2, 2, 1, 9])),
    );
  doc.createScene().addChild(doc.createNode("quad").setMesh(doc.createMesh("quad").addPrimitive(quad)));
  const bytes = await writeCompressedGlb(doc, "meshopt");
  const jsonLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
  const indexView = json.bufferViews[json.accessors[json.meshes[0].primitives[0].indices].bufferView];
  assert(indexView.extensions?.EXT_meshopt_compression, "the indices are meshopt-compressed");
  const error = await refusal(bytes);
  assertEquals(
    { at: error.at, expected: error.expected, found: error.found },
    {
      at: { jsonPath: "/meshes/0/primitives/0/indices" },
      expected: "index values below the 4 vertices of its attributes",
      found: "9 at element 5 of accessor 1",
    },
  );
});

Deno.test("a file that is neither a GLB nor glTF JSON is named as such, with its first bytes or what it is", async () => {
  const text = (s: string) => new TextEncoder().encode(s);
  const cases: [string, Uint8Array, number, string][] = [
    [
      "random bytes",
      new Uint8Array([0x38, 0x8c, 0xae, 0x30, 0x93, 0x83, 0xfa, 0x47, 0x11]),
      0,
      "bytes 38 8c ae 30 93 83 fa 47 …",
    ],
    ["text", text("hello world"), 0, "text starting 'hello wo…'"],
    ["empty", new Uint8Array(0), 0, "an empty file"],
    ["a JSON array after a BOM and spaces", text("\uFEFF  [1]"), 5, "text starting '[1]'"],
    [
      "a ZIP download",
      text("PK\x03\x04rest"),
      0,
      "a ZIP archive (unpack it and give the model inside)",
    ],
    ["a PNG", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 0, "a PNG image"],
  ];
  for (const [what, bytes, offset, found] of cases) {
    const error = await refusal(bytes);
    assertEquals(
      [error.at, error.expected, error.found],
      [
        { offset },
        "a GLB (starting with the magic 'glTF') or glTF JSON (an object, starting with '{')",
        found,
      ],
      what,
    );
  }
  // Before, a GLB cut inside its 12-byte header was read as JSON ("Unexpected token 'g'").
  const cut = await refusal(text("glTF\x02\x00\x00\x00"));
  assertEquals([cut.format, cut.expected, cut.found], [
    "glb",
    "a 12-byte GLB header and a chunk",
    "8 bytes",
  ]);
});

Deno.test("refused glTF: a file whose asset needs a later glTF than 2.0 (minVersion), as the spec asks of readers", async () => {
  const error = await refusal(await messyGlb((json) => json.asset.minVersion = "2.1"));
  assertEquals({ at: error.at, expected: error.expected, found: error.found }, {
    at: { jsonPath: "/asset/minVersion" },
    expected: "2.0 (partgraph reads glTF 2.0)",
    found: '"2.1"',
  });
});

Deno.test("an image data: URI of no subtype (data:image/,…) is a DecodeError at its path, not glTF-Transform's TypeError", async () => {
  // Found by the fuzz (gltf1, seed 20261208, case 1129): glTF-Transform reads the type out of the URI.
  const json = { asset: { version: "2.0" }, images: [{ uri: "data:image/,iVBORw0KGgo" }] };
  const bytes = new TextEncoder().encode(JSON.stringify(json));
  try {
    await runNode(decodeGltf, { bytes: { bytes, name: "messy.gltf" } });
    assert(false, "decoded a file that must be refused");
  } catch (error) {
    assert(error instanceof DecodeError, `a DecodeError, got ${error}`);
    assertEquals(error.at, { jsonPath: "/images/0/uri" });
    assert(/image\/<subtype>/.test(error.expected), error.expected);
    assertEquals(error.found, "data:image/,iVBORw0KGgo");
  }
});
