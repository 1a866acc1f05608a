/**
 * `.3df` and `.car` files as C3Dit and old converters leave them, seeded: vertex owners past the bone
 * table (bones deleted, owners kept), the face flags the games use (double-sided 1, foliage 5,
 * binoculars 12, sfMortal 16, Phong and env-map 0x30/0x50, sfDark 0x8000, sfDarkBack 2), Ice Age sized
 * meshes past the engine's 1024 vertices, zero-area faces (a point dragged onto an edge), texels past the
 * 256-texel width, and textures of 128 or 512 rows (hi-res mods). Each file goes decode → resolve →
 * export; {@link c3ditOutcome} judges the GLB against what the file says (`carnivores-dson.md` A.3–A.5).
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { runNode, testContext } from "../../../support/context.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { decodeCar } from "../../../../nodes/decode/carnivores/decode_car.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { encode3df, encodeCar } from "../../../support/carnivores/encode.ts";
import type { CarModel, Model3df } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { gridCar, gridModel, texture } from "./fixtures.ts";
import { faceCorners, modelNode, summaryOf } from "./probe.ts";
import { prng } from "../../../support/prng.ts";
import { decodedOrRefused, exportedGlb, type HabitOutcome, misreading } from "./habit_outcome.ts";

/** The habits. */
export const C3DIT_HABITS = [
  "owners_past_bones",
  "game_flags",
  "ice_age_1200",
  "zero_area_faces",
  "texels_past_256",
  "texture_128_rows",
  "texture_512_rows",
  "car_flags_other_height",
] as const;

/** One habit. */
export type C3ditHabit = typeof C3DIT_HABITS[number];

/** Flag words the games and editors write (`carnivores-dson.md` A.3). */
const GAME_FLAGS = [0, 1, 2, 4, 5, 8, 12, 16, 17, 0x30, 0x50, 0x8000];
const alphaOf = (flags: number) => flags & 8 ? "BLEND" : flags & 4 ? "MASK" : "OPAQUE";

/** How a file came out. */
export type C3ditOutcome = HabitOutcome;

/** Builds the file of `habit` for `seed`, decodes it and judges the result. */
export async function c3ditOutcome(
  habit: C3ditHabit,
  seed: number,
): Promise<{ outcome: C3ditOutcome; detail: string }> {
  const random = prng(seed * 31 + C3DIT_HABITS.indexOf(habit));
  const int = (n: number) => Math.floor(random() * n);
  const isCar = habit === "car_flags_other_height";
  const big = habit === "ice_age_1200";
  const [cols, rows] = big ? [40, 32] : [6 + int(6), 6 + int(6)];
  const m: Model3df | CarModel = isCar ? gridCar(cols, rows, 3) : gridModel(cols, rows);
  const { faces, points } = m;
  const expect: RegExp[] = [];
  let picture = m.texture!;
  let height = picture.height;
  const retexture = (h: number) => {
    height = h;
    picture = texture(h, (x, y) => (x * 31 + y) & 0x7fff);
    for (let i = 0; i < faces.count * 3; i++) faces.texels[i * 2 + 1] = int(h + 1);
  };
  if (habit === "owners_past_bones") {
    const bones = (m as Model3df).bones.length;
    for (let k = 1 + int(5); k > 0; k--) points.owners[int(points.count)] = bones + int(300);
    expect.push(/name no bone/);
  }
  if (habit === "game_flags" || isCar) {
    for (let f = 0; f < faces.count; f++) faces.flags[f] = GAME_FLAGS[int(GAME_FLAGS.length)];
  }
  if (big) expect.push(/exceed the engine's 1024/);
  if (habit === "zero_area_faces") {
    for (let k = 1 + int(5); k > 0; k--) {
      const f = int(faces.count);
      const [a, b, c] = faces.indices.subarray(f * 3, f * 3 + 3);
      for (let q = 0; q < 3; q++) {
        points.positions[c * 3 + q] = (points.positions[a * 3 + q] + points.positions[b * 3 + q]) / 2;
      }
    }
  }
  if (habit === "texels_past_256") {
    for (let k = 1 + int(5); k > 0; k--) faces.texels[int(faces.count) * 6 + int(3) * 2] = 257 + int(200);
    expect.push(/clamped/);
  }
  if (habit === "texture_128_rows" || (isCar && random() < 0.5)) retexture(128);
  else if (habit === "texture_512_rows" || isCar) {
    retexture(512);
    expect.push(/has 512 rows; the engine holds 256/);
  }
  const ctx = testContext();
  const doc = await decodedOrRefused(async () => {
    const node = isCar ? decodeCar : decode3df;
    const bytes = isCar
      ? encodeCar({ ...m as CarModel, texture: picture })
      : encode3df({ ...m as Model3df, texture: picture });
    const decoded = (await runNode(node, { bytes: { bytes, name: `m.${isCar ? "car" : "3df"}` } }, {}, ctx))
      .scene as Document;
    return (await runNode(constraintsResolve, { scene: decoded }, {}, ctx)).scene as Document;
  });
  if ("outcome" in doc) return doc;
  const wrong = misreading(ctx.warnings.map((w) => w.message));
  const { invalid } = await exportedGlb(doc);
  if (invalid) return wrong(invalid);
  const mesh = modelNode(doc).getMesh()!;
  for (const primitive of mesh.listPrimitives()) {
    // deno-lint-ignore no-explicit-any
    const extras = getPartgraphExtras(primitive).carnivores as any;
    const material = primitive.getMaterial()!;
    for (const [i, f] of (extras.faces as number[]).entries()) {
      const flags = faces.flags[f];
      if (extras.flags[i] !== flags) {
        return wrong(`face ${f}: flags ${extras.flags[i]} kept, ${flags} stored`);
      }
      if (material.getAlphaMode() !== alphaOf(flags)) {
        return wrong(`face ${f} (0x${flags.toString(16)}) drawn ${material.getAlphaMode()}`);
      }
      if (material.getDoubleSided() !== ((flags & 1) === 1)) {
        return wrong(`face ${f} (0x${flags.toString(16)}): sides`);
      }
    }
    const n = primitive.getAttribute("NORMAL")!.getArray()!;
    for (let i = 0; i < n.length; i += 3) {
      const length = Math.hypot(n[i], n[i + 1], n[i + 2]);
      if (!(Math.abs(length - 1) < 1e-3)) return wrong(`a normal of length ${length}`);
    }
  }
  const summary = summaryOf(doc);
  if (summary.texture.height !== height) {
    return wrong(`texture of ${summary.texture.height} rows, ${height} stored`);
  }
  const imageHeight = summary.texture.image_height ?? summary.texture.height;
  for (let f = 0; f < faces.count; f++) {
    const corners = faceCorners(mesh, f);
    for (let k = 0; k < 3; k++) {
      const [u, v] = corners[k].uv!;
      const tu = Math.min(Math.max(faces.texels[f * 6 + k * 2], 0), 256),
        tv = faces.texels[f * 6 + k * 2 + 1];
      if (Math.abs(u - tu / 256) > 1e-6 || Math.abs(v - tv / imageHeight) > 1e-6) {
        return wrong(`face ${f} corner ${k}: UV (${u}, ${v}), texel (${tu}, ${tv}) of 256×${imageHeight}`);
      }
    }
  }
  if (!isCar && (m as Model3df).bones.length && doc.getRoot().listSkins().length !== 1) {
    return wrong("no skin");
  }
  const missed = expect.filter((p) => !ctx.warnings.some((w) => p.test(w.message)));
  if (missed.length) return wrong(`no warning matching ${missed.join(", ")}`);
  return { outcome: "right", detail: "" };
}
