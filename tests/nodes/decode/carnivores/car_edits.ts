/**
 * `.car` files whose mesh was edited after their clips were made, as C3Dit and the 3DF editors leave
 * them, seeded: points deleted from the end (`points_removed`), points added at the end
 * (`points_added`), or one deleted from the middle (`point_removed_middle`), the clips (1–4, with 0–2
 * sounds, the anim→sound table or not) kept as they were, their frames of the old vertex count; and the
 * same files unedited (`intact`) as controls. {@link carEditOutcome} judges a decode against what the
 * file holds: each clip's frames for the model's points, or, where the file cannot tell which point went
 * (a point from the middle), a warning saying so.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { prng } from "../../../support/prng.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { decodeCar } from "../../../../nodes/decode/carnivores/decode_car.ts";
import { parseCar } from "../../../../nodes/decode/carnivores/codec/parse_car.ts";
import type { CarModel } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { carClipsAt, draws } from "./car_layout.ts";
import { encodeCar } from "../../../support/carnivores/encode.ts";
import { animation, type FaceSpec, faceTable, gridCar, pointTable } from "./fixtures.ts";
import { decodedOrRefused, type HabitOutcome, misreading } from "./habit_outcome.ts";

/** The edits. */
export const CAR_EDITS = ["points_removed", "points_added", "point_removed_middle", "intact"] as const;

/** One edit. */
export type CarEdit = typeof CAR_EDITS[number];

/** How a file came out. */
export type CarEditOutcome = HabitOutcome;

/** A file written with `edit` for `seed`, and each clip's frames for the model's points. */
export function carEditFile(edit: CarEdit, seed: number): { bytes: Uint8Array; frames: Int16Array[] | null } {
  const random = prng(seed * 4099 + CAR_EDITS.indexOf(edit));
  const { int } = draws(random);
  const grid = gridCar(int(4, 9), int(4, 9), 0);
  const clips = Array.from(
    { length: int(1, 4) },
    (_, c) => animation(`clip${c}`, int(8, 20), int(1, 12), grid.points, c),
  );
  const sounds = Array.from({ length: int(0, 2) }, (_, s) => ({
    name: `snd${s}`,
    pcm: Uint8Array.from({ length: 2 * int(10, 400) }, (_, i) => (i * 37 + s) & 0xff),
  }));
  const table = random() < 0.5
    ? Int32Array.from(
      { length: 64 },
      (_, i) => i < clips.length && sounds.length ? int(-1, sounds.length - 1) : -1,
    )
    : undefined;
  const original: CarModel = { ...grid, animations: clips, sounds, animSounds: table };
  const before = encodeCar(original);
  const v0 = grid.points.count;
  const base = Array.from(
    { length: v0 },
    (_, v) => Array.from(grid.points.positions.subarray(v * 3, v * 3 + 3)),
  );
  const owners = Array.from(grid.points.owners);
  let faces: FaceSpec[] = Array.from({ length: grid.faces.count }, (_, f) => ({
    v: Array.from(grid.faces.indices.subarray(f * 3, f * 3 + 3)) as [number, number, number],
    uv: [0, 1, 2].map((k) => [grid.faces.texels[f * 6 + k * 2], grid.faces.texels[f * 6 + k * 2 + 1]]) as [
      [number, number],
      [number, number],
      [number, number],
    ],
    flags: grid.faces.flags[f],
  }));
  let points = base, pointOwners = owners;
  let keep = (v: number) => v; // the original point behind each kept point
  if (edit === "points_removed") {
    const k = int(1, Math.min(8, v0 - 3));
    points = base.slice(0, v0 - k);
    pointOwners = owners.slice(0, v0 - k);
    faces = faces.filter((f) => f.v.every((v) => v < v0 - k));
  } else if (edit === "points_added") {
    const k = int(1, 6);
    points = [...base, ...Array.from({ length: k }, (_, i) => base[i].map((x, a) => x + (a === 2 ? 3 : 0)))];
    pointOwners = [...owners, ...Array.from({ length: k }, () => 0)];
    faces = [...faces, { v: [v0, 0, 1], uv: [[0, 0], [8, 0], [0, 8]] }];
  } else if (edit === "point_removed_middle") {
    const j = int(1, v0 - 2);
    points = base.filter((_, v) => v !== j);
    pointOwners = owners.filter((_, v) => v !== j);
    faces = faces.filter((f) => !f.v.includes(j)).map((f) => ({
      ...f,
      v: f.v.map((v) => v > j ? v - 1 : v) as [number, number, number],
    }));
    keep = (v) => v < j ? v : v + 1;
  }
  const edited: CarModel = {
    ...grid,
    faces: faceTable(faces),
    points: pointTable(points, pointOwners),
    animations: [],
    sounds: [],
  };
  const head = encodeCar(edited);
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  view.setInt32(32, clips.length, true);
  view.setInt32(36, sounds.length, true);
  const tailAt = carClipsAt(before);
  const tail = before.subarray(tailAt);
  const bytes = new Uint8Array(head.length + tail.length);
  bytes.set(head);
  bytes.set(tail, head.length);
  if (edit === "point_removed_middle") return { bytes, frames: null };
  const n = points.length;
  const frames = clips.map((clip) => {
    const out = new Int16Array(clip.frameCount * n * 3);
    for (let f = 0; f < clip.frameCount; f++) {
      for (let v = 0; v < n; v++) {
        for (let a = 0; a < 3; a++) {
          out[(f * n + v) * 3 + a] = keep(v) < v0
            ? clip.positions[(f * v0 + keep(v)) * 3 + a]
            : Math.round(points[v][a] * 16);
        }
      }
    }
    return out;
  });
  return { bytes, frames };
}

/** Writes the file of `edit` for `seed`, decodes it and judges the result. */
export async function carEditOutcome(
  edit: CarEdit,
  seed: number,
): Promise<{ outcome: CarEditOutcome; detail: string }> {
  const { bytes, frames } = carEditFile(edit, seed);
  const ctx = testContext();
  const refused = await decodedOrRefused(async () =>
    (await runNode(decodeCar, { bytes: { bytes, name: "m.car" } }, {}, ctx)).scene as Document
  );
  if ("outcome" in refused) return refused;
  const warnings = ctx.warnings.map((w) => w.message);
  const wrong = misreading(warnings);
  if (!frames) {
    // Which point went cannot be told: a warning must say the frames are read as if the last went.
    return warnings.some((w) => /right only if the points removed or added were the last/.test(w))
      ? { outcome: "right", detail: "" }
      : wrong("no warning says the clips' points may be shifted");
  }
  const model = parseCar(bytes, "m.car", () => {});
  if (model.animations.length !== frames.length) {
    return wrong(`${model.animations.length} clips read, ${frames.length} written`);
  }
  for (const [c, clip] of model.animations.entries()) {
    const expected = frames[c];
    if (clip.positions.length !== expected.length) {
      return wrong(
        `clip ${c}: ${clip.positions.length / 3} vertex frames read, ${expected.length / 3} written`,
      );
    }
    const off = expected.findIndex((value, i) => clip.positions[i] !== value);
    if (off >= 0) return wrong(`clip ${c}: value ${off} is ${clip.positions[off]}, ${expected[off]} written`);
  }
  if (edit === "intact" && warnings.length) return wrong(`warned on an intact file`);
  return { outcome: "right", detail: "" };
}
