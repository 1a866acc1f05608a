/**
 * `.vtl` animations beside a `.3df` (`decode.3df`'s `animations`): each file one morph-target clip
 * like a `.car`'s, in either layout (Animator's 12-byte header or the engine's 16-byte one, with the
 * stored frame count as is or one less), and clear errors for files that are not this model's.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Document } from "@gltf-transform/core";
import { runGraph } from "../../../../mod.ts";
import { readGltf } from "../../../../runtime/scene/gltf_io.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { tempDir } from "../../../support/temp.ts";
import { encode3df } from "../../../support/carnivores/encode.ts";
import { encodeVtl } from "../../../support/carnivores/vtl.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { parseVtl } from "../../../../nodes/decode/carnivores/codec/parse_vtl.ts";
import type { Model3df } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { animation, framePosition, LIMB_BONES, limbModel } from "./fixtures.ts";
import { faceCorners, modelNode, morphedPosition, near, summaryOf, weightsAt } from "./probe.ts";

const SCALE = 0.1;

/** Writes the limb `.3df` and the given `.vtl` files into a fresh folder. */
async function folder(vtls: Record<string, Uint8Array>): Promise<string> {
  const dir = await tempDir();
  await Deno.writeFile(join(dir, "limb.3df"), encode3df(limbModel()));
  for (const [name, bytes] of Object.entries(vtls)) await Deno.writeFile(join(dir, name), bytes);
  return dir;
}

async function decode(dir: string, animations: string[]) {
  const ctx = testContext();
  const bytes = { bytes: await Deno.readFile(join(dir, "limb.3df")), name: "limb.3df" };
  const { scene } = await runNode(decode3df, { bytes }, { scale: SCALE, animations }, ctx);
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

/** Checks every face corner against clip `c`'s frame `k` (its stored positions ÷16 in glTF axes). */
function assertFrame(scene: Document, model: Model3df, weights: number[], c: number, k: number) {
  const mesh = modelNode(scene).getMesh()!;
  for (let f = 0; f < model.faces.count; f++) {
    faceCorners(mesh, f).forEach((corner, i) => {
      const p = model.faces.indices[f * 3 + i];
      const base = Array.from(model.points.positions.subarray(p * 3, p * 3 + 3));
      const [x, y, z] = framePosition(base, p, c, k);
      near(
        morphedPosition(corner.primitive, corner.vertex, weights),
        [
          SCALE * x / 16,
          SCALE * y / 16,
          -SCALE * z / 16,
        ],
        2e-5,
        `clip ${c} frame ${k} point ${p}`,
      );
    });
  }
}

Deno.test("decode.3df reads a glob of .vtl files of both layouts as one morph clip each, named after the file", async () => {
  const model = limbModel();
  const walk = animation("walk", 10, 5, model.points, 0);
  const idle = animation("idle", 8, 3, model.points, 1);
  const dir = await folder({
    "walk.vtl": encodeVtl(walk),
    // The engine layout as a .rsc stores it: the count one less than the frames present.
    "IDLE.VTL": encodeVtl(idle, { layout: "engine", storedFrames: 2 }),
    "notes.txt": new Uint8Array(3),
  });
  try {
    const { scene, warnings } = await decode(dir, [join(dir, "*.vtl")]);
    assert.deepEqual(warnings, []);
    const animations = scene.getRoot().listAnimations();
    // Sorted by file name: IDLE.VTL before walk.vtl.
    assert.deepEqual(animations.map((a) => a.getName()), ["IDLE", "walk"]);
    // Timed like a .car clip: AniTime = ⌊1000·F/KPS⌋ ms (3 frames at 8 → 375 ms; 5 at 10 → 500 ms).
    assert.deepEqual(animations.map((a) => a.listSamplers()[0].getInput()!.getMax([])[0]), [0.375, 0.5]);
    for (let k = 0; k < 3; k++) {
      assertFrame(scene, model, weightsAt(animations[0], (k * 0.375) / 2), 1, k);
    }
    for (let k = 0; k < 5; k++) assertFrame(scene, model, weightsAt(animations[1], k * 0.125), 0, k);
    // Halfway between walk frames 1 and 2: the game's linear blend of the two.
    const half = weightsAt(animations[1], 0.1875);
    assert.ok(half.some((w) => Math.abs(w - 0.5) < 1e-6));
    const summary = summaryOf(scene);
    assert.deepEqual(
      summary.animations.map((a: Record<string, unknown>) => [a.name, a.layout, a.frames, a.kps]),
      [["IDLE", "engine+1", 3, 8], ["walk", "animator", 5, 10]],
    );
    assert.equal(summary.animations[1].file, join(dir, "walk.vtl"));
    assert.equal(summary.morph_targets, 8);
    // The bone table is still there for constraints.resolve.
    assert.equal(summary.bones.length, LIMB_BONES.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graphs/carnivores.json: a .3df with its .vtl files becomes a valid skinned GLB with morph clips", async () => {
  const model = limbModel();
  const dir = await folder({
    "run.vtl": encodeVtl(animation("run", 12, 4, model.points, 0)),
    "eat.vtl": encodeVtl(animation("eat", 6, 2, model.points, 1), { layout: "engine" }),
  });
  try {
    const graph = new URL("../../../../graphs/carnivores.json", import.meta.url).pathname;
    const out = join(dir, "out");
    await runGraph(graph, {
      inputs: {
        model: join(dir, "limb.3df"),
        options: { animations: [join(dir, "run.vtl"), join(dir, "eat.vtl")] },
      },
      outDir: out,
      cacheDir: false,
    });
    const glb = await Deno.readFile(join(out, "model.glb"));
    const report = await validateGltf(glb);
    assert.equal(report.errors, 0, report.messages.join("\n"));
    const doc = await readGltf(glb);
    // Entry order, not name order, for a list of plain paths.
    assert.deepEqual(doc.getRoot().listAnimations().map((a) => a.getName()), ["run", "eat"]);
    assert.deepEqual(
      doc.getRoot().listSkins()[0].listJoints().map((j) => j.getName()),
      LIMB_BONES.map((b) => b.name),
    );
    assert.equal(doc.getRoot().listMeshes()[0].listPrimitives()[0].listTargets().length, 6);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a .vtl of another vertex count is skipped with a warning naming the file, the offset and both counts", async () => {
  const model = limbModel();
  const other = animation("walk", 10, 2, { ...model.points, count: 7 }, 0);
  const run = animation("run", 10, 3, model.points, 1);
  for (const [layout, offset] of [["animator", 0], ["engine", 4]] as const) {
    const dir = await folder({
      "walk.vtl": encodeVtl(other, { layout, vertexCount: 7 }),
      "run.vtl": encodeVtl(run),
    });
    try {
      // Before, the stale walk.vtl was a DecodeError and the model and its run clip were lost.
      const { scene, warnings } = await decode(dir, [join(dir, "*.vtl")]);
      assert.deepEqual(scene.getRoot().listAnimations().map((a) => a.getName()), ["run"]);
      const warning = warnings.find((w) => /walk\.vtl/.test(w)) ?? "";
      assert.match(
        warning,
        new RegExp(
          `a \\.vtl of 7 vertices \\(${layout} layout, byte ${offset}\\) for a model of ${model.points.count}`,
        ),
      );
      assert.match(warning, /the clip is skipped/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("parseVtl: a cut file of this model is skipped with a warning; a size no reading explains, a missing file and a glob matching nothing", async () => {
  const model = limbModel();
  const clip = encodeVtl(animation("walk", 10, 3, model.points, 0));
  const cut = clip.subarray(0, clip.length - 6);
  // Its header is this model's: cut short by an interrupted copy (before, a DecodeError lost the model).
  const warnings: string[] = [];
  assert.equal(parseVtl(cut, "cut.vtl", "cut", model.points.count, (m) => warnings.push(m)), undefined);
  assert.deepEqual(warnings, [
    `cut.vtl: the file ends at byte ${cut.length}, inside its 3 frames × 32 vertices (animator layout), which ` +
    `need ${clip.length} bytes: the file is cut short; the clip is skipped`,
  ]);
  // A header that is not this model's and a size that fits none: not a .vtl of it at all.
  const junk = clip.slice(0, clip.length - 6);
  new DataView(junk.buffer).setInt32(0, 31, true);
  const error = (() => {
    try {
      parseVtl(junk, "junk.vtl", "junk", model.points.count, () => {});
    } catch (e) {
      return e;
    }
  })();
  assert.ok(error instanceof DecodeError);
  assert.deepEqual(error.at, { offset: 0 });
  assert.match(
    error.message,
    new RegExp(
      `found ${junk.length} bytes; the Animator reading \\(vertices 31, KPS 10, frames 3\\) needs ${
        12 + 3 * 31 * 6
      }`,
    ),
  );
  // Too short for even the Animator header.
  assert.throws(() => parseVtl(new Uint8Array(8), "tiny.vtl", "tiny", 32, () => {}), DecodeError);

  const dir = await folder({});
  try {
    const missing = await decode(dir, [join(dir, "gone.vtl")]).then(() => undefined, (e) => e);
    assert.ok(missing instanceof DecodeError);
    assert.match(missing.message, /gone\.vtl/);
    const { scene, warnings } = await decode(dir, [join(dir, "*.vtl")]);
    assert.deepEqual(warnings, [`animations: '${join(dir, "*.vtl")}' matches no file`]);
    assert.equal(scene.getRoot().listAnimations().length, 0);
    assert.equal(summaryOf(scene).animations, undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseVtl: the engine layout keeps the second vertex count, warning when the first differs", () => {
  const model = limbModel();
  const clip = animation("walk", 10, 2, model.points, 0);
  const warnings: string[] = [];
  const parsed = parseVtl(
    encodeVtl(clip, { layout: "engine", firstVertexCount: 0 }),
    "w.vtl",
    "w",
    model.points.count,
    (m) => warnings.push(m),
  );
  assert.equal(parsed?.layout, "engine");
  assert.equal(parsed?.frameCount, 2);
  assert.deepEqual(parsed?.positions, clip.positions);
  assert.deepEqual(warnings, [
    "w.vtl: the first vertex count (0) differs from the second (32); the second is used, as the games' " +
    "LoadAnimation does",
  ]);
});
