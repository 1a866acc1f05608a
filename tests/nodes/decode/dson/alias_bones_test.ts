/**
 * Alias channels whose target is a bone channel (a scene dial standing for
 * `F_bone1:?xrotate/value`, Daz Studio's channel name, or the spec's `#F_bone1?rotation/x/value`):
 * the alias's dial is the bone's value, as Daz's channel_alias reflects its target. Each case is
 * checked against the same figure with the bone's rotation written on the bone itself, and a
 * corrective reading the bone takes the weight its spline gives at that angle (worked out here).
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { channels, generateFigure, type Json, shapePreset, splineCorrective } from "./generate.ts";
import { applyPreset, decodeJson, nodeNamed } from "./dson_runs.ts";

const BONE = "F_bone1";

/**
 * Figure F with a corrective JCM reading F_bone1's x rotation (0° → 0, 90° → 1), and either an
 * alias `SHOULDER` of `target` dialled to `dial` in the scene, or (dial undefined) the bone's own
 * rotation written as `own`. `limit` clamps the bone's x rotation.
 */
function figure(options: { target?: string; dial?: number; own?: number; limit?: number }): Json {
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  const bone = (json.node_library as Json[])[2];
  const rotation = channels("float", [options.own ?? 0, 0, 0]);
  if (options.limit !== undefined) {
    Object.assign(rotation[0], { min: -options.limit, max: options.limit, clamped: true });
  }
  bone.rotation = rotation;
  const library = json.modifier_library as Json[];
  const instances = (json.scene as Json).modifiers as Json[];
  library.push(splineCorrective({
    id: "JCM",
    parent: "#F_geo",
    output: "F:#JCM?value",
    input: `${BONE}:#${BONE}?rotation/x/value`,
    keys: [[0, 0], [90, 1]],
    vertex: 5,
    delta: [0, 1, 0],
  }));
  instances.push({ id: "JCM-1", url: "#JCM", parent: "#F_geo-1" });
  if (options.target !== undefined) {
    library.push({
      id: "SHOULDER",
      name: "SHOULDER",
      parent: "#F_geo",
      channel: {
        id: "value",
        type: "alias",
        name: "SHOULDER",
        label: "Shoulder Bend",
        target_channel: options.target,
      },
    });
    instances.push({
      id: "SHOULDER-1",
      url: "#SHOULDER",
      parent: "#F_geo-1",
      ...(options.dial === undefined
        ? {}
        : { channel: { id: "value", type: "alias", current_value: options.dial } }),
    });
  }
  return json;
}

const rotationOf = (scene: Document) => nodeNamed(scene, BONE).getRotation();
const jcmOf = (scene: Document) => {
  const mesh = scene.getRoot().listMeshes()[0];
  return mesh.getWeights()[(mesh.getExtras().targetNames as string[]).indexOf("JCM")];
};
const near = (a: readonly number[], b: readonly number[], what: string) =>
  a.forEach((x, k) => assert.ok(Math.abs(x - b[k]) < 1e-6, `${what}: ${a} vs ${b}`));

Deno.test("dson alias of a bone channel: the scene's dial poses the bone, as the bone's own value would", async () => {
  for (
    const target of [`${BONE}:?xrotate/value`, `${BONE}:#${BONE}?rotation/x/value`, `F:#${BONE}?XRotate`]
  ) {
    const viaAlias = await decodeJson(figure({ target, dial: 30 }), "alias.duf");
    const written = await decodeJson(figure({ own: 30 }), "written.duf");
    const rest = await decodeJson(figure({}), "rest.duf");
    assert.deepEqual(viaAlias.warnings, [], target);
    near(rotationOf(viaAlias.scene), rotationOf(written.scene), target);
    assert.notDeepEqual(rotationOf(viaAlias.scene), rotationOf(rest.scene));
    assert.ok(Math.abs(jcmOf(viaAlias.scene) - 30 / 90) < 1e-9, `${target}: JCM ${jcmOf(viaAlias.scene)}`);
  }
});

Deno.test("dson alias of a bone channel: clamped to the joint's limits, a missing bone or a posed bone is warned", async () => {
  const limited = await decodeJson(
    figure({ target: `${BONE}:?xrotate/value`, dial: 50, limit: 20 }),
    "a.duf",
  );
  const atLimit = await decodeJson(figure({ own: 20 }), "b.duf");
  near(rotationOf(limited.scene), rotationOf(atLimit.scene), "limited");
  assert.equal(limited.warnings.length, 1, limited.warnings.join("\n"));
  assert.match(limited.warnings[0], /SHOULDER.*F_bone1.*rotation\/x 50 → 20/);

  const missing = await decodeJson(figure({ target: "lShldrBend:?xrotate/value", dial: 30 }), "c.duf");
  assert.equal(missing.warnings.length, 1, missing.warnings.join("\n"));
  assert.match(missing.warnings[0], /alias 'SHOULDER' dialled to 30 .*lShldrBend.*not passed on/);
  assert.ok(Math.abs(jcmOf(missing.scene)) < 1e-12);

  // The bone's own pose disagrees: it keeps its value (the alias only reflects it), warned.
  const both = await decodeJson(figure({ target: `${BONE}:?xrotate/value`, dial: 30, own: 45 }), "d.duf");
  const own = await decodeJson(figure({ own: 45 }), "e.duf");
  near(rotationOf(both.scene), rotationOf(own.scene), "own wins");
  assert.equal(both.warnings.length, 1, both.warnings.join("\n"));
  assert.match(both.warnings[0], /alias 'SHOULDER' to 30 .* at 45; the bone keeps 45/);
});

Deno.test("dson alias of a bone channel: a shape preset dialling the alias poses the bone (apply_preset v31)", async () => {
  const decoded = await decodeJson(figure({ target: `${BONE}:?xrotate/value` }), "alias.duf");
  assert.deepEqual(decoded.warnings, []);
  assert.ok(Math.abs(jcmOf(decoded.scene)) < 1e-12, "undialled: the bone at rest");
  const shaped = await applyPreset(decoded.scene, shapePreset([["SHOULDER", 45]]));
  const written = await decodeJson(figure({ own: 45 }), "written.duf");
  assert.deepEqual(shaped.warnings, []);
  near(rotationOf(shaped.scene), rotationOf(written.scene), "preset");
  assert.ok(Math.abs(jcmOf(shaped.scene) - 45 / 90) < 1e-9, `JCM ${jcmOf(shaped.scene)}`);
});

Deno.test("dson alias: a formula driving an alias drives its target, a morph or a bone channel", async () => {
  // CTRL at 0.8 drives the alias by 0.8 · k; the alias stands for morph M, or for F_bone1's x rotation.
  const driving = (target: string, k: number) => {
    const json = figure({ target });
    (json.modifier_library as Json[]).push({
      id: "CTRL",
      name: "CTRL",
      parent: "#F_geo",
      channel: { id: "value", type: "float", value: 0, current_value: 0.8 },
      formulas: [{
        output: "F:#SHOULDER?value",
        operations: [{ op: "push", url: "F:#CTRL?value" }, { op: "push", val: k }, { op: "mult" }],
      }],
    }, {
      id: "M",
      name: "M",
      parent: "#F_geo",
      channel: { id: "value", type: "float", value: 0 },
      morph: { vertex_count: 16, deltas: { count: 1, values: [[9, 0, 1, 0]] } },
    });
    ((json.scene as Json).modifiers as Json[]).push(
      { id: "CTRL-1", url: "#CTRL", parent: "#F_geo-1" },
      { id: "M-1", url: "#M", parent: "#F_geo-1" },
    );
    return json;
  };
  const toMorph = await decodeJson(driving("F:#M?value", 0.5), "m.duf");
  assert.deepEqual(toMorph.warnings, []);
  const mesh = toMorph.scene.getRoot().listMeshes()[0];
  assert.ok(
    Math.abs(mesh.getWeights()[(mesh.getExtras().targetNames as string[]).indexOf("M")] - 0.4) < 1e-9,
  );

  const toBone = await decodeJson(driving(`${BONE}:?xrotate/value`, 50), "b.duf");
  const written = await decodeJson(figure({ own: 40 }), "w.duf");
  assert.deepEqual(toBone.warnings, []);
  near(rotationOf(toBone.scene), rotationOf(written.scene), "formula through alias");
  assert.ok(Math.abs(jcmOf(toBone.scene) - 40 / 90) < 1e-9, `JCM ${jcmOf(toBone.scene)}`);
});
