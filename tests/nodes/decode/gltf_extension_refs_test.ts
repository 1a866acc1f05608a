/**
 * The extensions that keep properties of their own — punctual lights, GPU instancing, material
 * variants, XMP packets — checked at decode: glTF-Transform read them unchecked, so a light index
 * past the list dropped the node's light silently, a light of type "area" was written out (three.js's
 * loader throws on it), instance attributes past the accessors vanished and ones of the wrong type or
 * count were written as they came. Each is now a DecodeError at its JSON path; good files keep every
 * such property through decode and export, and a light brighter than glTF's 0..1 keeps its light.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import type { Light } from "@gltf-transform/extensions";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { runNode, testContext } from "../../support/context.ts";
import { type MessyEdit, messyGlb, type MessyJson } from "../../support/messy_gltf.ts";
import { validateGltf } from "../../support/validator.ts";

const nodeIndex = (json: MessyJson, name: string): number =>
  json.nodes.findIndex((node: { name?: string }) => node.name === name);

/** One point light on `Wing`, as Blender writes it. */
const withLight = (light: MessyJson = { name: "nav", type: "point", intensity: 2 }): MessyEdit => (json) => {
  json.extensionsUsed = [...(json.extensionsUsed ?? []), "KHR_lights_punctual"];
  json.extensions = { ...json.extensions, KHR_lights_punctual: { lights: [light] } };
  json.nodes[nodeIndex(json, "Wing")].extensions = { KHR_lights_punctual: { light: 0 } };
};

/** `Flap_R` drawn three times through GPU instancing, with `edit` applied to its attributes afterwards. */
const withInstances =
  (edit: (attributes: MessyJson, json: MessyJson) => void = () => {}): MessyEdit => (json, _) => {
    // Three translations ride on the wing's first three positions' bytes: any VEC3 float accessor serves.
    const positions = json.meshes.find((m: MessyJson) => m.name === "flap").primitives[0].attributes.POSITION;
    const source = json.accessors[positions];
    json.accessors.push({ ...source, count: 3, min: undefined, max: undefined });
    const attributes = { TRANSLATION: json.accessors.length - 1 };
    json.extensionsUsed = [...(json.extensionsUsed ?? []), "EXT_mesh_gpu_instancing"];
    json.nodes[nodeIndex(json, "Flap_R")].extensions = { EXT_mesh_gpu_instancing: { attributes } };
    edit(attributes, json);
  };

/** Two material variants, the wing's primitive drawn with material 0 in both. */
const withVariants = (mapping: MessyJson = { material: 0, variants: [0, 1] }): MessyEdit => (json) => {
  json.extensionsUsed = [...(json.extensionsUsed ?? []), "KHR_materials_variants"];
  json.extensions = {
    ...json.extensions,
    KHR_materials_variants: { variants: [{ name: "day" }, { name: "night" }] },
  };
  json.meshes.find((m: MessyJson) => m.name === "wing").primitives[0].extensions = {
    KHR_materials_variants: { mappings: [mapping] },
  };
};

/** One XMP packet, referenced from the asset. */
const withXmp = (packet = 0): MessyEdit => (json) => {
  json.extensionsUsed = [...(json.extensionsUsed ?? []), "KHR_xmp_json_ld"];
  json.extensions = {
    ...json.extensions,
    KHR_xmp_json_ld: { packets: [{ "@context": {}, "dc:creator": ["A. Modeller"] }] },
  };
  json.asset.extensions = { KHR_xmp_json_ld: { packet } };
};

const wingPrimitivePath = (json: MessyJson) =>
  `/meshes/${json.meshes.findIndex((m: MessyJson) => m.name === "wing")}/primitives/0`;

const then = (...edits: MessyEdit[]): MessyEdit => (json, bin) => edits.forEach((edit) => edit(json, bin));

const REFUSED: {
  name: string;
  edit: MessyEdit;
  jsonPath: string | ((json: MessyJson) => string);
  expected: string | ((json: MessyJson) => string);
  found?: string | ((json: MessyJson) => string);
}[] = [
  {
    name: "a node's light past the list",
    edit: then(
      withLight(),
      (json) => json.nodes[nodeIndex(json, "Wing")].extensions.KHR_lights_punctual.light = 3,
    ),
    jsonPath: (json) => `/nodes/${nodeIndex(json, "Wing")}/extensions/KHR_lights_punctual/light`,
    expected: "an integer in 0..0",
    found: "3",
  },
  {
    // glTF-Transform reads lights["0"] as light 0; Blender's importer indexes a list with it and fails.
    name: "a node's light given as a string",
    edit: then(
      withLight(),
      (json) => json.nodes[nodeIndex(json, "Wing")].extensions.KHR_lights_punctual.light = "0",
    ),
    jsonPath: (json) => `/nodes/${nodeIndex(json, "Wing")}/extensions/KHR_lights_punctual/light`,
    expected: "an integer in 0..0",
    found: '"0"',
  },
  {
    // three.js: "THREE.GLTFLoader: Unexpected light type: area".
    name: "a light of a type glTF does not define",
    edit: withLight({ type: "area" }),
    jsonPath: "/extensions/KHR_lights_punctual/lights/0/type",
    expected: "one of directional, point, spot",
    found: '"area"',
  },
  {
    name: "a light colour of two components",
    edit: withLight({ type: "point", color: [1, 0.5] }),
    jsonPath: "/extensions/KHR_lights_punctual/lights/0/color",
    expected: "an array of 3 finite numbers",
    found: "an array of 2",
  },
  {
    name: "a spot cone angle written as a string",
    edit: withLight({ type: "spot", spot: { outerConeAngle: "0.5" } }),
    jsonPath: "/extensions/KHR_lights_punctual/lights/0/spot/outerConeAngle",
    expected: "a finite number",
    found: '"0.5"',
  },
  {
    name: "instance translations past the accessors",
    edit: withInstances((attributes, json) => attributes.TRANSLATION = json.accessors.length + 4),
    jsonPath: (json) =>
      `/nodes/${nodeIndex(json, "Flap_R")}/extensions/EXT_mesh_gpu_instancing/attributes/TRANSLATION`,
    expected: (json) => `an integer in 0..${json.accessors.length - 1}`,
    found: (json) => String(json.accessors.length + 4),
  },
  {
    name: "instance rotations of three components",
    edit: withInstances((attributes) => attributes.ROTATION = attributes.TRANSLATION),
    jsonPath: (json) =>
      `/nodes/${nodeIndex(json, "Flap_R")}/extensions/EXT_mesh_gpu_instancing/attributes/ROTATION`,
    expected: "an accessor of type VEC4 in FLOAT, BYTE normalized, SHORT normalized",
  },
  {
    name: "instance scales of another count than the translations",
    edit: withInstances((attributes, json) => {
      json.accessors.push({ ...json.accessors[attributes.TRANSLATION], count: 2 });
      attributes.SCALE = json.accessors.length - 1;
    }),
    jsonPath: (json) =>
      `/nodes/${nodeIndex(json, "Flap_R")}/extensions/EXT_mesh_gpu_instancing/attributes/SCALE`,
    expected: "an accessor of 3 instances like the others",
  },
  {
    // glTF-Transform: "TypeError: Cannot read properties of undefined (reading 'graph')".
    name: "a variant past the list",
    edit: withVariants({ material: 0, variants: [0, 9] }),
    jsonPath: (json) => `${wingPrimitivePath(json)}/extensions/KHR_materials_variants/mappings/0/variants/1`,
    expected: "an integer in 0..1",
    found: "9",
  },
  {
    name: "a variant mapping's material past the materials",
    edit: withVariants({ material: 40, variants: [0] }),
    jsonPath: (json) => `${wingPrimitivePath(json)}/extensions/KHR_materials_variants/mappings/0/material`,
    expected: "an integer in 0..0",
    found: "40",
  },
  {
    name: "an XMP packet past the list",
    edit: withXmp(2),
    jsonPath: "/asset/extensions/KHR_xmp_json_ld/packet",
    expected: "an integer in 0..0",
    found: "2",
  },
];

/** Decodes the base file with `edit` applied; the edited JSON beside the outcome. */
async function decodeEdited(edit: MessyEdit, ctx = testContext()) {
  let json: MessyJson = {};
  const bytes = await messyGlb((j, bin) => {
    edit(j, bin);
    json = j;
  });
  const outcome = await runNode(decodeGltf, { bytes: { bytes, name: "ext.glb" } }, {}, ctx).then(
    ({ scene }) => ({ scene, error: undefined }),
    (error) => ({ scene: undefined, error }),
  );
  return { json, ...outcome };
}

for (const refused of REFUSED) {
  Deno.test(`glTF extension references, ${refused.name}: a DecodeError at its JSON path`, async () => {
    const { json, error } = await decodeEdited(refused.edit);
    assert(error instanceof DecodeError, `a DecodeError, got ${error}`);
    const jsonPath = typeof refused.jsonPath === "string" ? refused.jsonPath : refused.jsonPath(json);
    assertEquals({ at: error.at, expected: error.expected }, {
      at: { jsonPath },
      expected: typeof refused.expected === "string" ? refused.expected : refused.expected(json),
    });
    const found = typeof refused.found === "string" ? refused.found : refused.found?.(json);
    if (found !== undefined) assertEquals(error.found, found);
  });
}

/** Decodes and exports; the exported GLB's JSON and the warnings of both. */
async function roundTrip(edit: MessyEdit) {
  const ctx = testContext();
  const { scene, error } = await decodeEdited(edit, ctx);
  if (error) throw error;
  const glb: Uint8Array = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
  const report = await validateGltf(glb);
  assertEquals(report.errors, 0, report.messages.join("\n"));
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  const out = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
  return { out, scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

Deno.test("glTF extension references: good lights, instances, variants and XMP packets come through decode and export", async () => {
  const { out, warnings } = await roundTrip(then(withLight(), withInstances(), withVariants(), withXmp()));
  assertEquals(warnings, []);
  assertEquals(out.extensions.KHR_lights_punctual.lights, [{ name: "nav", type: "point", intensity: 2 }]);
  const wing = out.nodes.find((n: MessyJson) => n.name === "Wing");
  assertEquals(wing.extensions.KHR_lights_punctual, { light: 0 });
  const flap = out.nodes.find((n: MessyJson) => n.name === "Flap_R");
  assertEquals(out.accessors[flap.extensions.EXT_mesh_gpu_instancing.attributes.TRANSLATION].count, 3);
  assertEquals(out.extensions.KHR_materials_variants.variants.map((v: MessyJson) => v.name), [
    "day",
    "night",
  ]);
  assertEquals(out.extensions.KHR_xmp_json_ld.packets[0]["dc:creator"], ["A. Modeller"]);
  assertEquals(out.asset.extensions.KHR_xmp_json_ld, { packet: 0 });
});

Deno.test("glTF extension references: a light the file does not list as used is read, and the extension listed with a warning", async () => {
  const { out, warnings } = await roundTrip(then(withLight(), (json) => {
    json.extensionsUsed = json.extensionsUsed.filter((name: string) => name !== "KHR_lights_punctual");
  }));
  assertEquals(out.extensions.KHR_lights_punctual.lights.length, 1);
  assertEquals(warnings.filter((w) => w.includes("KHR_lights_punctual")), [
    "ext.glb at /extensionsUsed: 'KHR_lights_punctual' added: /extensions/KHR_lights_punctual uses it",
  ]);
});

Deno.test("export.gltf: a light colour past glTF's 0..1 is scaled into it and the intensity by as much, so the light emitted stays", async () => {
  const { scene, out, warnings } = await roundTrip(
    withLight({ name: "lamp", type: "point", color: [4, 2, -1], intensity: 3 }),
  );
  const [r, g, b] = out.extensions.KHR_lights_punctual.lights[0].color;
  const intensity = out.extensions.KHR_lights_punctual.lights[0].intensity;
  assertEquals([r, g, b], [1, 0.5, 0]);
  assertEquals(intensity, 12);
  assertEquals([r * intensity, g * intensity], [4 * 3, 2 * 3], "colour × intensity as written");
  assert(
    warnings.some((w) =>
      w.includes(
        "light 'lamp': colour [4, 2, -1] made ≥ 0; colour [4, 2, -1] past 1 scaled by 1/4, intensity by 4",
      )
    ),
    warnings.join("\n"),
  );
  // The scene handed on is repaired only in the output: the decoded light keeps its written colour.
  const light = scene.getRoot().listNodes().find((n) => n.getName() === "Wing")!.getExtension<Light>(
    "KHR_lights_punctual",
  )!;
  assertEquals(light.getColor(), [4, 2, -1]);
});
