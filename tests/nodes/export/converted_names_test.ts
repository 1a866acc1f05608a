/**
 * Unnamed properties, as converters and game rippers leave them (`converted_names.ts`), are written
 * with stable names derived from what they are (`derived_names.ts`): none blank, unique per kind,
 * `rig.report` naming them as the file does, the same names on a second export of the decoded file,
 * and no `extras.name` for a name that was blank. Held-out seeds (the rule was shaped on 1–10).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { rigReport } from "../../../nodes/rig/report.ts";
import { setPart } from "../../../nodes/rig/part_extras.ts";
import { isBlankName, keptByBlender } from "../../../runtime/scene/derived_names.ts";
import { runNode } from "../../support/context.ts";
import { convertedNamesScene } from "./converted_names.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;
const KINDS = ["nodes", "meshes", "materials", "images", "animations", "skins"];
const SEEDS = [101, 102, 103, 104, 105, 106];

function glbJson(glb: Uint8Array): Json {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

const written = async (scene: unknown) => glbJson((await runNode(exportGltf, { scene })).bytes.bytes);

Deno.test("converted files: every node, mesh, material, image, clip and skin is written named, unique per kind", async () => {
  let blanks = 0;
  for (const seed of SEEDS) {
    const doc = await convertedNamesScene(seed);
    const root = doc.getRoot();
    blanks += [...root.listNodes(), ...root.listMeshes(), ...root.listMaterials()]
      .filter((p) => isBlankName(p.getName())).length;
    const json = await written(doc);
    for (const kind of KINDS) {
      const names = (json[kind] ?? []).map((p: Json) => p.name);
      assert(
        names.every((n: unknown) => typeof n === "string" && !isBlankName(n)),
        `${seed} ${kind}: ${names}`,
      );
      assertEquals(new Set(names).size, names.length, `${seed} ${kind} unique: ${names}`);
      // A blank name had nothing to keep: extras.name only ever holds a real original.
      for (const p of json[kind] ?? []) assert(p.extras?.name === undefined || !isBlankName(p.extras.name));
    }
    // Images are written as Blender's exporter keeps them (no dot: it cut `cube.001` to `cube`).
    for (const image of json.images ?? []) assertEquals(keptByBlender(image.name), image.name);
  }
  assert(blanks > 40, `the generator leaves many unnamed (${blanks})`);
});

Deno.test("converted files: a second export of the decoded file writes the same names (the rule is stable)", async () => {
  for (const seed of SEEDS) {
    const first = (await runNode(exportGltf, { scene: await convertedNamesScene(seed) })).bytes.bytes;
    const back = (await runNode(decodeGltf, { bytes: { bytes: first, name: "x.glb" } })).scene;
    const again = await written(back);
    const json = glbJson(first);
    for (const kind of KINDS) {
      assertEquals(
        (again[kind] ?? []).map((p: Json) => p.name),
        (json[kind] ?? []).map((p: Json) => p.name),
        kind,
      );
    }
  }
});

Deno.test("derived names are meaningful: a node after its mesh, a mesh after its node, a material after its mesh", async () => {
  const doc = await convertedNamesScene(101);
  const root = doc.getRoot();
  const node = root.listNodes().find((n) =>
    isBlankName(n.getName()) && n.getMesh() && !isBlankName(n.getMesh()!.getName())
  )!;
  const meshNode = root.listNodes().find((n) =>
    !isBlankName(n.getName()) && n.getMesh() && isBlankName(n.getMesh()!.getName())
  )!;
  assert(node && meshNode, "seed 101 has both");
  const json = await written(doc);
  const nodeAt = root.listNodes().indexOf(node);
  assert(json.nodes[nodeAt].name.startsWith(node.getMesh()!.getName()), json.nodes[nodeAt].name);
  const meshAt = root.listMeshes().indexOf(meshNode.getMesh()!);
  const firstHolder = root.listNodes().find((n) =>
    n.getMesh() === meshNode.getMesh() && !isBlankName(n.getName())
  )!;
  assert(json.meshes[meshAt].name.startsWith(`${firstHolder.getName()}_mesh`), json.meshes[meshAt].name);
});

Deno.test("rig.report names an unnamed part and its unnamed parent as the file does", async () => {
  for (const seed of SEEDS.slice(0, 3)) {
    const doc = await convertedNamesScene(seed);
    const unnamed = doc.getRoot().listNodes().filter((n) => isBlankName(n.getName()) && n.getParentNode());
    assert(unnamed.length > 0, `seed ${seed} has an unnamed child`);
    for (const node of unnamed) setPart(node, { kind: "aileron", found_by: "constraint" });
    const { report } = await runNode(rigReport, { scene: doc }, { forward: "+Z", up: "+Y" });
    const json = await written(doc);
    const fileNames = new Set(json.nodes.map((n: Json) => n.name));
    const parts = (report as Json).parts as Json[];
    assert(parts.length > 0);
    for (const part of parts) {
      assert(fileNames.has(part.name) && !isBlankName(part.name), `${seed}: ${part.name}`);
      for (const step of part.path.split("/")) assert(fileNames.has(step), `${seed}: path step '${step}'`);
    }
  }
});
