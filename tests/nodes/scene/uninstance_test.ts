/**
 * `scene.uninstance`: every GPU instance becomes a node that draws its mesh exactly where the
 * instance did (checked against the transforms composed independently, with gl-matrix), the
 * extension and its accessors go, and a file declaring more instances than can be nodes is refused.
 */
import assert from "node:assert/strict";
import { type Document, type Node, NodeIO } from "@gltf-transform/core";
import { ALL_EXTENSIONS, EXTMeshGPUInstancing } from "@gltf-transform/extensions";
import { join } from "node:path";
import { mat4, vec3 } from "gl-matrix";
import { sceneUninstance } from "../../../nodes/scene/uninstance.ts";
import { MAX_INSTANCES } from "../../../nodes/scene/uninstance_run.ts";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { runNode, testContext } from "../../support/context.ts";
import { instancedGlb, instanceTransform } from "../../support/instancing.ts";
import { validateGltf } from "../../support/validator.ts";
import { tempDir } from "../../support/temp.ts";
import { buildFighterScene } from "../../../nodes/demo/fighter_run.ts";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { runGraph } from "../../../mod.ts";

async function decoded(bytes: Uint8Array): Promise<Document> {
  return (await runNode(decodeGltf, { bytes: { bytes, name: "rivets.glb" } })).scene;
}

/** A node's world matrix, composed from the root down. */
function world(node: Node): mat4 {
  const chain: Node[] = [];
  for (let n: Node | null = node; n; n = n.getParentNode()) chain.unshift(n);
  const out = mat4.create();
  for (const n of chain) {
    mat4.multiply(
      out,
      out,
      mat4.fromRotationTranslationScale(mat4.create(), n.getRotation(), n.getTranslation(), n.getScale()),
    );
  }
  return out;
}

for (const quantized of [false, true]) {
  Deno.test(`every instance becomes a node drawing where the instance did (${quantized ? "normalized short" : "float"} rotations)`, async () => {
    const input = await decoded(await instancedGlb({ count: 5, quantized }));
    const scene: Document = (await runNode(sceneUninstance, { scene: input })).scene;
    const root = scene.getRoot();
    const rivets = root.listNodes().find((n) => n.getName() === "Rivets")!;
    assert.equal(rivets.getMesh(), null, "the batch node keeps no mesh of its own");
    const instances = rivets.listChildren();
    assert.deepEqual(instances.map((n) => n.getName()), [
      "Rivets_0",
      "Rivets_1",
      "Rivets_2",
      "Rivets_3",
      "Rivets_4",
    ]);
    // The extension's rule, composed here: the node's world, then the instance's TRS.
    const wing = mat4.fromRotationTranslationScale(mat4.create(), [0, 0, Math.SQRT1_2, Math.SQRT1_2], [
      1,
      2,
      3,
    ], [2, 2, 2]);
    const position = instances[0].getMesh()!.listPrimitives()[0].getAttribute("POSITION")!;
    for (const [i, node] of instances.entries()) {
      const { t, r, s } = instanceTransform(i);
      const expected = mat4.multiply(
        mat4.create(),
        wing,
        mat4.fromRotationTranslationScale(mat4.create(), r, t, s),
      );
      for (let v = 0; v < position.getCount(); v++) {
        const p = position.getElement(v, [0, 0, 0]) as vec3;
        const got = vec3.transformMat4(vec3.create(), p, world(node));
        const want = vec3.transformMat4(vec3.create(), p, expected);
        // Normalized shorts hold a rotation to 1/32767 a component.
        assert.ok(
          vec3.distance(got, want) < (quantized ? 1e-3 : 1e-5),
          `instance ${i} vertex ${v}: ${got} vs ${want}`,
        );
      }
    }
    assert.deepEqual(root.listExtensionsUsed().map((e) => e.extensionName), []);
    // Only the mesh's own accessors remain (positions, indices); the instance columns are gone.
    assert.equal(root.listAccessors().length, 2);
    const glb = (await runNode(exportGltf, { scene })).bytes.bytes;
    const report = await validateGltf(glb);
    assert.equal(report.errors + report.warnings, 0, report.messages.join("\n"));
    // The input is a value: it keeps its instancing.
    assert.ok(input.getRoot().listNodes().some((n) => n.getExtension("EXT_mesh_gpu_instancing")));
  });
}

Deno.test("enabled: false, or a scene without instancing, passes the scene through as it is", async () => {
  const input = await decoded(await instancedGlb());
  assert.equal((await runNode(sceneUninstance, { scene: input }, { enabled: false })).scene, input);
  const plain = (await runNode(sceneUninstance, { scene: input })).scene;
  assert.equal((await runNode(sceneUninstance, { scene: plain })).scene, plain);
});

Deno.test("an instance attribute with no node equivalent is a warning naming it", async () => {
  const ctx = testContext();
  await runNode(sceneUninstance, { scene: await decoded(await instancedGlb({ custom: "_ID" })) }, {}, ctx);
  assert.deepEqual(ctx.warnings.map((w) => w.message), [
    "node 'Rivets': instance attributes _ID have no node to go to; dropped",
  ]);
});

Deno.test("more instances than can be nodes are refused at the node that passes the limit", async () => {
  const input = await decoded(await instancedGlb({ count: MAX_INSTANCES + 1 }));
  const error = await runNode(sceneUninstance, { scene: input }).then(() => undefined, (e) => e);
  assert.ok(error instanceof DecodeError, String(error));
  const index = input.getRoot().listNodes().findIndex((n) => n.getName() === "Rivets");
  assert.deepEqual(error.at, { jsonPath: `/nodes/${index}/extensions/EXT_mesh_gpu_instancing` });
  assert.match(error.found, new RegExp(`${MAX_INSTANCES + 1} by this node`));
});

Deno.test("aircraft_file.json with expand_instances rigs a fighter carrying instanced rivets as it rigs the fighter", async () => {
  const dir = await tempDir();
  const fighter = buildFighterScene(1);
  const plain = join(dir, "fighter.glb");
  await Deno.writeFile(plain, await writeGlb(fighter, { generator: "test" }));
  // The same fighter with a batch of instanced rivets on its fuselage, as `optimize` leaves repeats.
  const extension = fighter.createExtension(EXTMeshGPUInstancing).setRequired(true);
  const buffer = fighter.getRoot().listBuffers()[0];
  const columns = fighter.createAccessor("", buffer).setType("VEC3").setArray(
    new Float32Array([0, 0, 0, 0.5, 0, 0, 1, 0, 0]),
  );
  const rivet = fighter.createMesh("rivet").addPrimitive(
    fighter.createPrimitive().setAttribute(
      "POSITION",
      fighter.createAccessor("", buffer).setType("VEC3").setArray(
        new Float32Array([0, 0, 0, 0.01, 0, 0, 0, 0.01, 0]),
      ),
    ),
  );
  const rivets = fighter.createNode("Rivets").setMesh(rivet)
    .setExtension(
      "EXT_mesh_gpu_instancing",
      extension.createInstancedMesh().setAttribute("TRANSLATION", columns),
    );
  fighter.getRoot().listNodes().find((n) => n.getName() === "Fuselage")!.addChild(rivets);
  const riveted = join(dir, "riveted.glb");
  await Deno.writeFile(riveted, await new NodeIO().registerExtensions(ALL_EXTENSIONS).writeBinary(fighter));
  const graph = new URL("../../../graphs/aircraft_file.json", import.meta.url).pathname;
  const run = (model: string) =>
    runGraph(graph, { inputs: { model, expand_instances: true }, outDir: dir, cacheDir: false });
  const hinges = (report: unknown) =>
    (report as { parts: { name: string; hinge: unknown }[] }).parts.map(({ name, hinge }) => ({
      name,
      hinge,
    }));
  const with_ = await run(riveted), without = await run(plain);
  const rigged = hinges(without.outputs.report);
  assert.ok(rigged.length > 10 && rigged.every((p) => p.name && p.hinge), "the fighter's parts, each hinged");
  assert.deepEqual(hinges(with_.outputs.report), rigged);
  const out = await readGltf((with_.outputs.glb as { bytes: Uint8Array }).bytes);
  assert.deepEqual(out.getRoot().listExtensionsUsed().map((e) => e.extensionName), []);
  assert.deepEqual(
    out.getRoot().listNodes().filter((n) => n.getName().startsWith("Rivets_")).map((n) => n.getName()),
    ["Rivets_0", "Rivets_1", "Rivets_2"],
  );
});
