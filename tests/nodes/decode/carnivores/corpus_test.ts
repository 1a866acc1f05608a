/**
 * The shared corpus fixtures `synthetic_quad.3df` / `.car` decode to the values in `expected.json`,
 * field by field: first as parsed records, then as the glTF scene the nodes produce.
 */
import assert from "node:assert/strict";
import { decode as decodePng } from "fast-png";
import { corpusFile, withoutCorpus } from "../../../support/corpus.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { parse3df, parseCar } from "./parse.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { decodeAuto } from "../../../../nodes/decode/auto.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { getSourceInfo } from "../../../../runtime/scene/source.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import type { MeshData } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { DEFAULT_SCALE } from "../../../../nodes/decode/carnivores/params.ts";
import { faceCorners, modelNode, morphedPosition, near, summaryOf, weightsAt } from "./probe.ts";

const QUAD_3DF = "carnivores/synthetic_quad.3df";
const QUAD_CAR = "carnivores/synthetic_quad.car";
const EXPECTED = "carnivores/expected.json";
const missing = withoutCorpus(QUAD_3DF) || withoutCorpus(QUAD_CAR) || withoutCorpus(EXPECTED);

// deno-lint-ignore no-explicit-any
async function load(rel: string): Promise<any> {
  const path = corpusFile(rel)!;
  return rel.endsWith(".json") ? JSON.parse(await Deno.readTextFile(path)) : await Deno.readFile(path);
}

/** The parsed mesh blocks both files share, checked against expected.json. */
// deno-lint-ignore no-explicit-any
function assertMeshMatches(model: MeshData, expected: any): void {
  assert.equal(model.points.count, expected.vertices_file_units.length);
  expected.vertices_file_units.forEach((xyz: number[], v: number) => {
    assert.deepEqual(Array.from(model.points.positions.subarray(v * 3, v * 3 + 3)), xyz, `vertex ${v}`);
  });
  assert.deepEqual(Array.from(model.points.owners), expected.owners);
  assert.equal(model.faces.count, expected.faces.length);
  // deno-lint-ignore no-explicit-any
  expected.faces.forEach((face: any, f: number) => {
    assert.deepEqual(Array.from(model.faces.indices.subarray(f * 3, f * 3 + 3)), face.v, `face ${f} v`);
    assert.deepEqual(
      Array.from(model.faces.texels.subarray(f * 6, f * 6 + 6)),
      face.uv_texels.flat(),
      `face ${f} uv`,
    );
    assert.equal(model.faces.flags[f], face.flags, `face ${f} flags`);
  });
  assert.equal(model.texture?.height, expected.texture.height);
  assert.equal(model.texture!.words.length, expected.texture.width * expected.texture.height);
}

Deno.test({
  name: "corpus synthetic_quad.3df parses to expected.json",
  ignore: missing,
  async fn() {
    const expected = await load(EXPECTED);
    const { model, warnings } = parse3df(await load(QUAD_3DF), "synthetic_quad.3df");
    assert.deepEqual(warnings, []);
    assertMeshMatches(model, expected);
    assert.equal(model.bones.length, expected.bones.length);
    // deno-lint-ignore no-explicit-any
    expected.bones.forEach((bone: any, b: number) => {
      assert.equal(model.bones[b].name, bone.name);
      assert.deepEqual([...model.bones[b].pivot], bone.pos);
      assert.equal(model.bones[b].parent, bone.parent);
    });
  },
});

Deno.test({
  name: "corpus synthetic_quad.car parses to expected.json",
  ignore: missing,
  async fn() {
    const expected = await load(EXPECTED);
    const { model, warnings } = parseCar(await load(QUAD_CAR), "synthetic_quad.car");
    assert.deepEqual(warnings, []);
    assertMeshMatches(model, expected);
    assert.equal(model.animations.length, 1);
    const clip = model.animations[0];
    assert.equal(clip.name, expected.car.anim);
    assert.equal(clip.kps, expected.car.kps);
    assert.equal(clip.frameCount, expected.car.frames);
    const at = (1 * model.points.count + 2) * 3;
    assert.deepEqual(
      Array.from(clip.positions.subarray(at, at + 3), (v) => v / 16),
      expected.car.frame1_vertex2,
    );
    assert.equal(model.sounds.length, 1);
    assert.equal(model.sounds[0].name, expected.car.sound.name);
    assert.equal(model.sounds[0].pcm.byteLength, expected.car.sound.bytes);
    assert.equal(model.animSounds?.[0], expected.car.anim_sound_table_0);
  },
});

Deno.test({
  name: "corpus synthetic_quad.3df decodes to a scene with expected positions, UVs, texture and bones",
  ignore: missing,
  async fn() {
    const expected = await load(EXPECTED);
    const ctx = testContext();
    const { scene } = await runNode(
      decode3df,
      { bytes: { bytes: await load(QUAD_3DF), name: "q.3df" } },
      {},
      ctx,
    );
    assert.deepEqual(ctx.warnings, []);
    const mesh = modelNode(scene).getMesh()!;
    const height = expected.texture.height;
    // deno-lint-ignore no-explicit-any
    expected.faces.forEach((face: any, f: number) => {
      const corners = faceCorners(mesh, f);
      corners.forEach((corner, k) => {
        const [x, y, z] = expected.vertices_file_units[face.v[k]];
        // The default scale: life size, DEFAULT_SCALE metres per file unit (float32 positions).
        const life = [x, y, -z].map((v) => v * DEFAULT_SCALE);
        near(corner.position, life, 1e-6, `face ${f} corner ${k} position`);
        const [u, v] = face.uv_texels[k];
        near(corner.uv!, [u / 256, v / height], 1e-7, `face ${f} corner ${k} uv`);
      });
    });
    // Face 0 has sfDoubleSide, face 1 sfOpacity: two primitives with matching materials.
    const [first, second] = [faceCorners(mesh, 0)[0].primitive, faceCorners(mesh, 1)[0].primitive];
    assert.equal(first.getMaterial()!.getDoubleSided(), true);
    assert.equal(first.getMaterial()!.getAlphaMode(), "OPAQUE");
    assert.equal(second.getMaterial()!.getAlphaMode(), "MASK");
    assert.equal(second.getMaterial()!.getDoubleSided(), false);

    const image = scene.getRoot().listTextures()[0].getImage()!;
    const png = decodePng(image);
    assert.equal(png.width, expected.texture.width);
    assert.equal(png.height, height);
    assert.equal(png.channels, 4);
    expected.texture.rgb8_of_first_4_texels.forEach((rgb: number[], i: number) => {
      assert.deepEqual(Array.from(png.data.subarray(i * 4, i * 4 + 3)), rgb, `texel ${i}`);
    });
    // Texel 0 is 0x0000 and face 1 has sfOpacity: colour key.
    assert.equal(png.data[3], 0);
    assert.equal(png.data[7], 255);

    const bones = summaryOf(scene).bones;
    // deno-lint-ignore no-explicit-any
    expected.bones.forEach((bone: any, b: number) => {
      assert.equal(bones[b].name, bone.name);
      assert.deepEqual(bones[b].pivot_file, bone.pos);
      assert.equal(bones[b].parent, bone.parent);
    });
    assert.deepEqual(getSourceInfo(scene), {
      format: "3df",
      forward: "+Z",
      up: "+Y",
      metresPerUnit: 1,
      notes: getSourceInfo(scene)!.notes,
    });
  },
});

Deno.test({
  name: "corpus synthetic_quad.car: decode.auto → resolve → GLB; frame 1 vertex 2 is at expected.json",
  ignore: missing,
  async fn() {
    const expected = await load(EXPECTED);
    const ctx = testContext();
    // An unknown extension: decode.auto must recognise the bytes themselves.
    const { scene } = await runNode(
      decodeAuto,
      { bytes: { bytes: await load(QUAD_CAR), name: "q.bin" } },
      {},
      ctx,
    );
    const resolved = (await runNode(constraintsResolve, { scene }, {}, ctx)).scene;
    assert.deepEqual(ctx.warnings, []);
    assert.equal(getSourceInfo(resolved)?.format, "car");
    const [animation] = resolved.getRoot().listAnimations();
    assert.equal(animation.getName(), expected.car.anim);
    // Two frames at KPS 10: AniTime 200 ms, frame 1 at 0.2 s.
    const weights = weightsAt(animation, 0.2);
    const mesh = modelNode(resolved).getMesh()!;
    const faceWithVertex2 = expected.faces.findIndex((f: { v: number[] }) => f.v.includes(2));
    const k = expected.faces[faceWithVertex2].v.indexOf(2);
    const corner = faceCorners(mesh, faceWithVertex2)[k];
    const [x, y, z] = expected.car.frame1_vertex2;
    const life = [x, y, -z].map((v) => v * DEFAULT_SCALE);
    near(morphedPosition(corner.primitive, corner.vertex, weights), life, 1e-6, "frame 1 vertex 2");
    assert.deepEqual(
      summaryOf(resolved).sounds.map((s: { name: string; bytes: number }) => [s.name, s.bytes]),
      [[
        expected.car.sound.name,
        expected.car.sound.bytes,
      ]],
    );
    assert.equal(summaryOf(resolved).animations[0].sound, expected.car.anim_sound_table_0);
    const report = await validateGltf(await writeGlb(resolved, { generator: GENERATOR }));
    assert.equal(report.errors, 0, report.messages.join("\n"));
  },
});
