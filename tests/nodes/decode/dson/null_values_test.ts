/**
 * `null` channel values, as Qt's JSON writer stores NaN and infinity (Daz Studio files edited by
 * scripts carry them): each is read as if the value were absent — the channel's other value, the
 * definition's value under an instance, the default — with a warning naming its JSON path. The
 * check compares each file with the same file where those values are left out, and with one where
 * the expected numbers are written, so it fails if a null were read as 0.
 */
import assert from "node:assert/strict";
import type { Document, Node } from "@gltf-transform/core";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { channels, dsonBytes, generateFigure, type Json } from "./generate.ts";

/** The generated figure with its bones listed in the scene; bone 1 is posed in its definition. */
function figure(): Json {
  const json = generateFigure({ side: 4, bones: 3, figureId: "Fig" });
  const bone1 = (json.node_library as Json[])[2];
  bone1.rotation = channels("float", [20, -10, 5]);
  bone1.translation = channels("float", [1, 2, 3]);
  bone1.general_scale = { id: "general_scale", type: "float", value: 1, current_value: 1.25 };
  const nodes = (json.scene as Json).nodes as Json[];
  nodes[0].id = "Fig-1";
  for (let k = 0; k < 3; k++) {
    nodes.push({ id: `Fig_bone${k}-1`, url: `#Fig_bone${k}`, parent: k ? `#Fig_bone${k - 1}-1` : "#Fig-1" });
  }
  (json.modifier_library as Json[]).push({
    id: "Bend",
    name: "Bend",
    parent: "#Fig_geo",
    channel: { id: "value", type: "float", value: 0.25, current_value: 0.25 },
    morph: { vertex_count: 16, deltas: { count: 1, values: [[5, 0, 1, 0]] } },
  });
  ((json.scene as Json).modifiers as Json[]).push({ id: "Bend-1", url: "#Bend", parent: "#Fig_geo-1" });
  (json.scene as Json).materials = [{
    id: "Skin-1",
    geometry: "#Fig_geo-1",
    groups: ["Skin"],
    diffuse: { channel: { id: "diffuse", type: "color", value: [1, 0, 0], current_value: [1, 0, 0] } },
  }];
  return json;
}

const bone1Instance = (json: Json) => ((json.scene as Json).nodes as Json[])[2];

async function decode(json: Json) {
  const ctx = testContext();
  const { scene } = await runNode(
    decodeDson,
    { bytes: { bytes: dsonBytes(json), name: "nulls.duf" } },
    {},
    ctx,
  );
  return { doc: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

/** Every node's name, TRS and DSON extras, for comparing two decodes. */
function poses(doc: Document) {
  return doc.getRoot().listNodes().map((n: Node) => ({
    name: n.getName(),
    t: n.getTranslation(),
    r: n.getRotation(),
    s: n.getScale(),
    dson: getPartgraphExtras(n).dson ?? null,
  }));
}

function assertClose(a: ReturnType<typeof poses>, b: ReturnType<typeof poses>): void {
  assert.equal(a.length, b.length);
  a.forEach((x, i) => {
    assert.equal(x.name, b[i].name);
    assert.deepEqual(x.dson, b[i].dson, `${x.name} extras`);
    for (const key of ["t", "r", "s"] as const) {
      x[key].forEach((v, k) =>
        assert.ok(Math.abs(v - b[i][key][k]) < 1e-9, `${x.name} ${key}[${k}]: ${v} vs ${b[i][key][k]}`)
      );
    }
  });
}

Deno.test("dson nulls: null channel values of a node instance read as absent (the definition's values), each warned at its path", async () => {
  const withNulls = figure();
  Object.assign(bone1Instance(withNulls), {
    rotation: [{ id: "x", value: null, current_value: null }, { id: "z", value: 7, current_value: null }],
    translation: [{ id: "y", current_value: null, value: 4 }],
    scale: [{ id: "x", current_value: null }],
    general_scale: { id: "general_scale", current_value: null },
    orientation: [{ id: "z", value: null, current_value: null }],
    center_point: [{ id: "y", current_value: null }],
    end_point: [{ id: "x", value: null, current_value: null }],
  });
  // What the nulls leave: the definition's values, z rotation 7 and y translation 4.
  const leftOut = figure();
  Object.assign(bone1Instance(leftOut), {
    rotation: [{ id: "z", value: 7 }],
    translation: [{ id: "y", value: 4 }],
  });
  const written = figure();
  Object.assign(bone1Instance(written), {
    rotation: channels("float", [20, -10, 7]),
    translation: channels("float", [1, 4, 3]),
    general_scale: { id: "general_scale", value: 1.25 },
  });
  const nulls = await decode(withNulls);
  const expected = poses((await decode(leftOut)).doc);
  assertClose(poses(nulls.doc), expected);
  assertClose(poses((await decode(written)).doc), expected);
  // The check can fail: read as 0, the bone would turn otherwise.
  const zeros = figure();
  Object.assign(bone1Instance(zeros), { rotation: channels("float", [0, -10, 7]) });
  const bone = (p: ReturnType<typeof poses>) => p.find((n) => n.name === "Fig_bone1")!;
  assert.notDeepEqual(bone(poses((await decode(zeros)).doc)).r, bone(expected).r);

  const at = "dson: nulls.duf at /scene/nodes/2";
  const why = "null (how JSON writers store NaN or infinity) read as absent";
  for (
    const message of [
      `${at}/rotation/0: current_value and value ${why}; the definition's value 20 is used`,
      `${at}/rotation/1/current_value: current_value ${why}; its value 7 is used`,
      `${at}/translation/0/current_value: current_value ${why}; its value 4 is used`,
      `${at}/scale/0/current_value: current_value ${why}; the default 1 is used`,
      `${at}/general_scale/current_value: current_value ${why}; the definition's value 1.25 is used`,
      `${at}/orientation/0: current_value and value ${why}; the definition's value 10 is used`,
      `${at}/center_point/0/current_value: current_value ${why}; the definition's value 1 is used`,
      `${at}/end_point/0: current_value and value ${why}; the definition's value 0 is used`,
    ]
  ) assert.ok(nulls.warnings.includes(message), `missing: ${message}\n${nulls.warnings.join("\n")}`);
  assert.equal(nulls.warnings.length, 8, nulls.warnings.join("\n"));
});

Deno.test("dson nulls: a library node's null current_value reads its value; both null read the default", async () => {
  const json = figure();
  const bone2 = (json.node_library as Json[])[3];
  (bone2.center_point as Json[])[1].current_value = null;
  (bone2.orientation as Json[])[2] = { id: "z", value: null, current_value: null };
  const clean = figure();
  delete ((clean.node_library as Json[])[3].center_point as Json[])[1].current_value;
  ((clean.node_library as Json[])[3].orientation as Json[]).pop();
  const { doc, warnings } = await decode(json);
  assertClose(poses(doc), poses((await decode(clean)).doc));
  assert.deepEqual(warnings, [
    "dson: nulls.duf at /node_library/3/center_point/1/current_value: current_value null (how JSON writers " +
    "store NaN or infinity) read as absent; its value 2 is used",
    "dson: nulls.duf at /node_library/3/orientation/2: current_value and value null (how JSON writers " +
    "store NaN or infinity) read as absent; the default 0 is used",
  ]);
});

Deno.test("dson nulls: null morph dials read the modifier's own value, a null colour the other value; a valid GLB", async () => {
  const json = figure();
  const bend = (json.modifier_library as Json[])[1];
  (bend.channel as Json).current_value = null;
  ((json.scene as Json).modifiers as Json[])[1].channel = { id: "value", current_value: null, value: null };
  const diffuse = (((json.scene as Json).materials as Json[])[0].diffuse as Json).channel as Json;
  diffuse.current_value = null;
  const { doc, warnings } = await decode(json);
  // 0.25 is the library's value: a null read as 0 would leave the morph off.
  assert.deepEqual(doc.getRoot().listMeshes()[0].getWeights(), [0.25]);
  assert.deepEqual(doc.getRoot().listMaterials()[0].getBaseColorFactor(), [1, 0, 0, 1]);
  const why = "null (how JSON writers store NaN or infinity) read as absent";
  assert.deepEqual(warnings.sort(), [
    `dson: nulls.duf at /modifier_library/1/channel/current_value: current_value ${why}; its value 0.25 is used`,
    "dson: nulls.duf at /scene/materials/0/diffuse/channel/current_value: current_value null (how JSON " +
    "writers store NaN or infinity) read as absent; its value [1, 0, 0] is used",
    `dson: nulls.duf at /scene/modifiers/1/channel: current_value and value ${why}; the modifier's own value is used`,
  ]);
  const glb = (await runNode(exportGltf, { scene: doc })).bytes.bytes as Uint8Array;
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

/** The figure with a material definition (diffuse `[0, 0.5, 1]`) its scene instance overrides. */
function withMaterialDefinition(): Json {
  const json = figure();
  json.material_library = [{
    id: "SkinDef",
    diffuse: { channel: { id: "diffuse", type: "color", value: [0, 0.5, 1] } },
  }];
  ((json.scene as Json).materials as Json[])[0].url = "#SkinDef";
  return json;
}

const diffuseOf = (json: Json, at: "instance" | "definition") =>
  ((at === "instance" ? ((json.scene as Json).materials as Json[])[0] : (json.material_library as Json[])[0])
    .diffuse as Json).channel as Json;

Deno.test("dson nulls: a colour with a null component reads as absent — the other value, the definition's colour, white — warned at the null", async () => {
  const colour = async (json: Json) => {
    const { doc, warnings } = await decode(json);
    return { rgba: doc.getRoot().listMaterials()[0].getBaseColorFactor(), warnings };
  };
  const why = "with a null component (how JSON writers store NaN or infinity) read as absent";
  const at = "dson: nulls.duf at /scene/materials/0/diffuse/channel";

  // current_value [1, null, 0]: its value [1, 0, 0] (read as 0, the null would give the same red:
  // so the value differs here, to tell them apart).
  const json = figure();
  Object.assign(diffuseOf(json, "instance"), { current_value: [1, null, 0], value: [0, 1, 0] });
  assert.deepEqual(await colour(json), {
    rgba: [0, 1, 0, 1],
    warnings: [`${at}/current_value/1: current_value [1,null,0] ${why}; its value [0, 1, 0] is used`],
  });

  // Both with a null: the definition's colour; the warning at the channel names both.
  const both = withMaterialDefinition();
  Object.assign(diffuseOf(both, "instance"), { current_value: [null, 1, 1], value: null });
  assert.deepEqual(await colour(both), {
    rgba: [0, 0.5, 1, 1],
    warnings: [
      `${at}: current_value [null,1,1] with a null component and value null (how JSON writers store NaN or ` +
      "infinity) read as absent; the definition's colour [0, 0.5, 1] is used",
    ],
  });

  // No definition colour to fall back on: the default white.
  const white = figure();
  Object.assign(diffuseOf(white, "instance"), { current_value: [0.2, 0.2, null] });
  delete diffuseOf(white, "instance").value;
  assert.deepEqual(await colour(white), {
    rgba: [1, 1, 1, 1],
    warnings: [
      `${at}/current_value/2: current_value [0.2,0.2,null] ${why}; the default white [1, 1, 1] is used`,
    ],
  });

  // The definition's own null: the default white under it, then the instance's colour over it.
  const definition = withMaterialDefinition();
  diffuseOf(definition, "definition").value = [0, null, 1];
  assert.deepEqual(await colour(definition), {
    rgba: [1, 0, 0, 1],
    warnings: [
      "dson: nulls.duf at /material_library/0/diffuse/channel/value/1: value [0,null,1] " +
      `${why}; the default white [1, 1, 1] is used`,
    ],
  });
});

Deno.test("dson errors: a colour's bad component is refused at its own path (no extra '/0'); a short colour at the colour", async () => {
  const cases: [unknown, string, string][] = [
    [[1, "x", 0], "/current_value/1", 'a finite number, found string "x"'],
    [[1, 0, true], "/current_value/2", "a finite number, found boolean true"],
    [[1, null], "/current_value", "3 numbers, found an array of 2"],
    ["red", "/current_value", '3 numbers, found string "red"'],
  ];
  for (const [value, path, text] of cases) {
    const json = figure();
    diffuseOf(json, "instance").current_value = value;
    const error = await decode(json).catch((e) => e);
    assert.ok(error instanceof DecodeError, String(error));
    assert.deepEqual(error.at, { jsonPath: `/scene/materials/0/diffuse/channel${path}` });
    assert.ok(error.message.includes(`expected ${text}`), error.message);
  }
});
