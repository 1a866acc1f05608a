/**
 * `.3df` files as 3DF↔CAR converters and bone editors leave them, seeded (the C3Dit habits are in
 * `c3dit_habits.ts`, the community tools' in `community_tools*.ts`): a `.car` converted to `.3df`
 * (owners kept, bone table empty), faces whose corners repeat a vertex index, bones renamed alike
 * (`Leaf1` three times, as palm4b.3df has), pivots a converter scaled apart from the points, texel
 * coordinates rounded below 0, and bone tables listing children before their parents. Each file goes
 * decode → resolve → export; {@link converterOutcome} judges the GLB against what the file says.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { prng } from "../../../support/prng.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { gltfIO } from "../../../../runtime/scene/gltf_io.ts";
import { encode3df } from "../../../support/carnivores/encode.ts";
import type { Bone, Model3df } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { gridModel } from "./fixtures.ts";
import { decodedOrRefused, exportedGlb, type HabitOutcome, misreading } from "./habit_outcome.ts";

/** The habits. */
export const CONVERTER_HABITS = [
  "car_to_3df",
  "index_degenerate",
  "bone_names_alike",
  "pivots_scaled",
  "texels_below_0",
  "children_first",
] as const;

/** One habit. */
export type ConverterHabit = typeof CONVERTER_HABITS[number];

/** How a file came out. */
export type ConverterOutcome = HabitOutcome;

/** Builds the file of `habit` for `seed`, decodes it and judges the result. */
export async function converterOutcome(
  habit: ConverterHabit,
  seed: number,
): Promise<{ outcome: ConverterOutcome; detail: string }> {
  const random = prng(seed * 7727 + CONVERTER_HABITS.indexOf(habit));
  const int = (n: number) => Math.floor(random() * n);
  const m: Model3df = gridModel(5 + int(8), 8 + int(12), 2 + int(3));
  const { faces } = m;
  let bones: Bone[] = m.bones.map((b) => ({ ...b, pivot: [...b.pivot] as [number, number, number] }));
  const expect: RegExp[] = [];
  if (habit === "car_to_3df") {
    bones = [];
    expect.push(/no bone table/);
  }
  if (habit === "index_degenerate") {
    for (let k = 1 + int(4); k > 0; k--) {
      const f = int(faces.count);
      faces.indices[f * 3 + 1 + int(2)] = faces.indices[f * 3];
    }
  }
  if (habit === "bone_names_alike") bones = bones.map((b) => ({ ...b, name: "Leaf1" }));
  if (habit === "pivots_scaled") {
    const k = [16, 1 / 16, 100, 0.01][int(4)];
    bones = bones.map((b) => ({ ...b, pivot: b.pivot.map((v) => v * k) as [number, number, number] }));
    expect.push(/pivot/);
  }
  if (habit === "texels_below_0") {
    for (let k = 1 + int(4); k > 0; k--) faces.texels[int(faces.count) * 6 + int(6)] = -1 - int(3);
    expect.push(/clamped/);
  }
  if (habit === "children_first") {
    // The chain listed top bone first: each bone's parent comes after it in the table.
    const n = bones.length;
    bones = bones.map((_, i) => {
      const b = m.bones[n - 1 - i];
      return {
        ...b,
        pivot: [...b.pivot] as [number, number, number],
        parent: b.parent < 0 ? -1 : n - b.parent - 1,
      };
    });
    for (let v = 0; v < m.points.count; v++) m.points.owners[v] = n - 1 - m.points.owners[v];
  }
  const ctx = testContext();
  const doc = await decodedOrRefused(() => decoded({ ...m, bones }, ctx));
  if ("outcome" in doc) return doc;
  const wrong = misreading(ctx.warnings.map((w) => w.message));
  const { glb, invalid } = await exportedGlb(doc);
  if (invalid) return wrong(invalid);
  const out = await (await gltfIO()).readBinary(glb);
  const prims = out.getRoot().listMeshes().flatMap((mesh) => mesh.listPrimitives());
  const drawn = prims.reduce((n, p) => n + (p.getIndices()?.getCount() ?? 0) / 3, 0);
  if (drawn !== faces.count) return wrong(`${drawn} triangles drawn, ${faces.count} stored`);
  const skins = out.getRoot().listSkins();
  if (skins.length !== (bones.length ? 1 : 0)) return wrong(`${skins.length} skins, ${bones.length} bones`);
  if (bones.length) {
    const joints = skins[0].listJoints();
    if (joints.length !== bones.length) return wrong(`${joints.length} joints, ${bones.length} bones`);
    for (const [b, bone] of bones.entries()) {
      const parent = joints[b].getParentNode();
      const expected = bone.parent < 0 ? undefined : joints[bone.parent];
      if (expected ? parent !== expected : joints.includes(parent!)) {
        return wrong(
          `bone ${b} '${bone.name}' hangs from '${parent?.getName()}', stored parent ${bone.parent}`,
        );
      }
    }
    if (habit === "pivots_scaled") {
      // The joints stand where the unscaled pivots put them (the same file before the converter).
      const control = await decoded(m, testContext());
      const place = (d: Document) =>
        d.getRoot().listSkins()[0].listJoints().map((j) => j.getWorldTranslation());
      const [want, got] = [place(control), place(doc)];
      const size = Math.max(...want.flat().map(Math.abs), 1e-6);
      for (const [b, p] of got.entries()) {
        if (p.some((v, k) => Math.abs(v - want[b][k]) > 1e-4 * size)) {
          return wrong(
            `bone ${b}'s joint at ${p.map((v) => v.toFixed(3))}, not ${want[b].map((v) => v.toFixed(3))}`,
          );
        }
      }
    }
  } else if (!prims.every((p) => p.getAttribute("_OWNER"))) {
    return wrong("the owners are not kept (_OWNER)");
  }
  const missed = expect.filter((p) => !ctx.warnings.some((w) => p.test(w.message)));
  if (missed.length) return wrong(`no warning matching ${missed.join(", ")}`);
  return { outcome: "right", detail: "" };
}

/** `model` decoded and resolved (decode warnings in `ctx`). */
async function decoded(model: Model3df, ctx: ReturnType<typeof testContext>): Promise<Document> {
  const bytes = encode3df(model);
  const doc = (await runNode(decode3df, { bytes: { bytes, name: "m.3df" } }, {}, ctx)).scene as Document;
  return (await runNode(constraintsResolve, { scene: doc }, {}, ctx)).scene as Document;
}
