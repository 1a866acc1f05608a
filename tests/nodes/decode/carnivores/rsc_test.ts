/**
 * `decode.rsc`: every object of an area as a named node (mesh, texture, TObjInfo, animation as a
 * morph clip), objects side by side without overlap, ground textures as images; C1 vs C2 told by
 * which layout ends exactly at the end of the file, and clear errors when neither (or the wrong
 * forced one) fits.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Document, Node } from "@gltf-transform/core";
import { runGraph } from "../../../../mod.ts";
import { readGltf } from "../../../../runtime/scene/gltf_io.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { tempDir } from "../../../support/temp.ts";
import { encodeRsc } from "../../../support/carnivores/rsc.ts";
import { decodeRsc } from "../../../../nodes/decode/carnivores/decode_rsc.ts";
import { animation, framePosition, pointTable, rscArea } from "./fixtures.ts";
import { faceCorners, morphedPosition, near, weightsAt } from "./probe.ts";

const SCALE = 0.1;

async function decode(bytes: Uint8Array, params: Record<string, string | number> = {}) {
  const ctx = testContext();
  const { scene } = await runNode(decodeRsc, { bytes: { bytes, name: "area1.rsc" } }, {
    scale: SCALE,
    ...params,
  }, ctx);
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

function objects(doc: Document): Node[] {
  return doc.getRoot().listScenes()[0].listChildren().filter((n) => n.getName().startsWith("obj_"));
}

function xRange(node: Node): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (const p of node.getMesh()!.listPrimitives()) {
    const position = p.getAttribute("POSITION")!;
    lo = Math.min(lo, position.getMin([])[0]);
    hi = Math.max(hi, position.getMax([])[0]);
  }
  const x = node.getTranslation()[0];
  return [lo + x, hi + x];
}

for (const version of ["c2", "c1"] as const) {
  Deno.test(`decode.rsc (${version.toUpperCase()}): one named node per object with its TObjInfo, side by side; ground textures as images`, async () => {
    const spec = rscArea(version);
    const { scene, warnings } = await decode(encodeRsc(spec));
    assert.deepEqual(warnings, []);
    const nodes = objects(scene);
    assert.deepEqual(nodes.map((n) => n.getName()), ["obj_00", "obj_01", "obj_02"]);
    const rsc = getPartgraphExtras(scene.getRoot().listNodes().find((n) => n.getName() === "rsc")!)
      .rsc as Record<string, unknown>;
    assert.equal(rsc.version, version);
    assert.deepEqual([rsc.fogs, rsc.random_sounds, rsc.ambient_sounds, rsc.waters], [
      1,
      1,
      1,
      version === "c2" ? 2 : 0,
    ]);
    assert.deepEqual(rsc.sky_rgb, version === "c2" ? [[1, 2, 3], [11, 12, 13], [21, 22, 23]] : [[1, 2, 3]]);
    // TObjInfo as stored, flags named.
    const info = (n: Node) =>
      (getPartgraphExtras(n).carnivores as Record<string, Record<string, unknown>>).object;
    assert.deepEqual(
      [info(nodes[1]).radius, info(nodes[1]).y_hi, info(nodes[1]).line_length, info(nodes[1]).circle_rad],
      [64, 60, 512, 96],
    );
    assert.deepEqual(info(nodes[0]).flag_names, ["place_ground", "bound"]);
    assert.deepEqual(info(nodes[2]).flag_names, ["animated"]);
    assert.equal(info(nodes[2]).flags, 0x80000000);
    assert.deepEqual(
      info(nodes[0]).billboard,
      version === "c2" ? { width: 128, height: 128, node: "billboard_00" } : null,
    );
    // Each object keeps its own mesh, texture and (limb) bone table.
    assert.equal(nodes[1].getMesh()!.listPrimitives()[0].getAttribute("POSITION")!.getCount(), 8);
    assert.equal((getPartgraphExtras(nodes[0]).carnivores as { bones: unknown[] }).bones.length, 4);
    assert.equal(
      new Set(nodes.map((n) => n.getMesh()!.listPrimitives()[0].getMaterial()!.getBaseColorTexture())).size,
      3,
    );
    // Side by side along +X, one terrain cell (128 file units) apart: no two X ranges overlap.
    const ranges = nodes.map(xRange);
    for (let i = 1; i < ranges.length; i++) {
      near([ranges[i][0] - ranges[i - 1][1]], [128 * SCALE], 1e-5, `gap ${i}`);
    }
    // Ground textures: 128×128 PNGs on one-cell quads.
    const ground = scene.getRoot().listNodes().filter((n) => n.getName().startsWith("ground_0"));
    assert.deepEqual(ground.map((n) => n.getName()), ["ground_00", "ground_01"]);
    const image = ground[1].getMesh()!.listPrimitives()[0].getMaterial()!.getBaseColorTexture()!;
    assert.deepEqual(image.getSize(), [128, 128]);
    assert.deepEqual(scene.getRoot().listTextures().map((t) => t.getURI()), [
      "obj_00_texture.png",
      "obj_01_texture.png",
      "obj_02_texture.png",
      "ground_00.png",
      "ground_01.png",
      ...(version === "c2" ? ["billboard_00.png", "billboard_01.png", "billboard_02.png"] : []),
    ]);
  });
}

Deno.test("decode.rsc: an animated object's frames (stored count + 1, as the games read them) are a morph clip named after it", async () => {
  const spec = rscArea("c2");
  const model = spec.objects[2].model;
  const { scene } = await decode(encodeRsc(spec));
  const [clip] = scene.getRoot().listAnimations();
  assert.equal(clip.getName(), "obj_02");
  // 3 frames at 10 KPS: AniTime 300 ms, frame k at k·150 ms.
  const node = objects(scene)[2];
  const mesh = node.getMesh()!;
  for (let k = 0; k < 3; k++) {
    const weights = weightsAt(clip, k * 0.15);
    for (let f = 0; f < model.faces.count; f++) {
      faceCorners(mesh, f).forEach((corner, i) => {
        const p = model.faces.indices[f * 3 + i];
        const [x, y, z] = framePosition(
          Array.from(model.points.positions.subarray(p * 3, p * 3 + 3)),
          p,
          0,
          k,
        );
        near(morphedPosition(corner.primitive, corner.vertex, weights), [
          SCALE * x / 16,
          SCALE * y / 16,
          -SCALE * z / 16,
        ], 2e-5);
      });
    }
  }
  const summary = getPartgraphExtras(node).carnivores as { animations: { frames: number; layout: string }[] };
  assert.deepEqual(summary.animations.map((a) => [a.frames, a.layout]), [[3, "engine+1"]]);
});

Deno.test("decode.rsc: a file neither layout fits, or a forced layout that does not fit, is a DecodeError naming both", async () => {
  const bytes = encodeRsc(rscArea("c2"));
  // Bytes after the last section are read past with a warning (community_files_test).
  for (
    const [input, params, pattern] of [
      [
        bytes.subarray(0, bytes.length - 3),
        {},
        /C2 layout at byte \d+: expected 32 bytes of 2 waters, found 29 bytes left/,
      ],
      [bytes, { version: "c1" }, /expected a C1 \.rsc whose sections end at the end of the file/],
    ] as const
  ) {
    const error = await decode(input, params).then(() => undefined, (e) => e);
    assert.ok(error instanceof DecodeError, String(error));
    assert.match(error.message, pattern);
    assert.match(error.message, /area1\.rsc/);
  }
});

Deno.test("decode.rsc: an object animation whose vertex count is not its model's is skipped with a warning at that field", async () => {
  const spec = rscArea("c1");
  const objects3 = [...spec.objects];
  objects3[2] = {
    ...objects3[2],
    animationVertexCount: 3,
    animation: animation("", 10, 2, pointTable([[0, 0, 0], [1, 0, 0], [0, 1, 0]]), 0),
  };
  const bytes = encodeRsc({ ...spec, objects: objects3 });
  // Before, a DecodeError lost the whole area.
  const { scene, warnings } = await decode(bytes);
  assert.equal(objects(scene).length, 3);
  assert.equal(scene.getRoot().listAnimations().length, 0);
  const warning = warnings.find((w) => /animation's vertex count/.test(w)) ?? "";
  const match = /^object 2: the animation's vertex count 3 at byte (\d+) is not the object's 8: .* skipped$/
    .exec(warning);
  assert.ok(match, warnings.join("\n"));
  // The field is the second count of the block after object 2's 3DF body.
  assert.equal(new DataView(bytes.buffer).getInt32(Number(match[1]), true), 3);
});

Deno.test("decode.rsc: huge counts end in a DecodeError at once, without allocating", async () => {
  const header = new Uint8Array(200);
  const view = new DataView(header.buffer);
  view.setInt32(0, 0x7fffffff, true);
  view.setInt32(4, 0x7fffffff, true);
  const error = await decode(header).then(() => undefined, (e) => e);
  assert.ok(error instanceof DecodeError);
  assert.match(error.message, /bytes of 2147483647 ground textures/);
  view.setInt32(0, 0, true); // no textures: objects follow the header, each one claiming too much
  view.setInt32(80 + 64, 0x7fffffff, true);
  const error2 = await decode(header).then(() => undefined, (e) => e);
  assert.ok(error2 instanceof DecodeError); // allocating first would have been a RangeError
});

Deno.test("graphs/carnivores.json: an .rsc becomes a valid GLB; a boned object's skeleton stands where its node does", async () => {
  const dir = await tempDir();
  try {
    await Deno.writeFile(join(dir, "area1.rsc"), encodeRsc(rscArea("c2")));
    const graph = new URL("../../../../graphs/carnivores.json", import.meta.url).pathname;
    const out = join(dir, "out");
    const result = await runGraph(graph, {
      inputs: { model: join(dir, "area1.rsc") },
      outDir: out,
      cacheDir: false,
    });
    const glb = await Deno.readFile(join(out, "model.glb"));
    const report = await validateGltf(glb);
    assert.equal(report.errors, 0, report.messages.join("\n"));
    const doc = await readGltf(glb);
    assert.deepEqual(doc.getRoot().listAnimations().map((a) => a.getName()), ["obj_02"]);
    const [skin] = doc.getRoot().listSkins();
    // export.gltf names a skin after its armature node, as Blender's exporter does (original in extras.name).
    assert.equal(skin.getName(), "obj_00_skeleton");
    assert.equal((skin.getExtras() as { name?: string }).name, "obj_00");
    const skeleton = doc.getRoot().listNodes().find((n) => n.getName() === "obj_00_skeleton")!;
    const obj0 = doc.getRoot().listNodes().find((n) => n.getName() === "obj_00")!;
    assert.deepEqual(skeleton.getTranslation(), obj0.getTranslation());
    assert.notDeepEqual(obj0.getTranslation(), [0, 0, 0]);
    void result;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
