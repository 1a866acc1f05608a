/**
 * Carnivores models with counts near their limits, as modders' tools leave them: grids of about
 * 65,536 vertices (the engine's 16-bit limit either side), clips of hundreds of frames, face indices
 * at and just past the vertex count, bone parents pointing at themselves or in a loop, point owners
 * past the bone table. Each file is consistent with its header, so the decoder meets the counts
 * themselves rather than a size mismatch.
 *
 * @module
 */
import { gridCar, gridModel, limbModel } from "../nodes/decode/carnivores/fixtures.ts";
import { encode3df, encodeCar } from "../support/carnivores/encode.ts";
import type { Bone, Model3df } from "../../nodes/decode/carnivores/codec/model.ts";

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];
const int = (random: Random, n: number) => Math.floor(random() * n);

/** A limb model whose tables can be edited (copies of the fixture's arrays). */
function editableLimb(): Model3df {
  const model = limbModel();
  return {
    ...model,
    faces: { ...model.faces, indices: model.faces.indices.slice() },
    points: { ...model.points, owners: model.points.owners.slice() },
    bones: model.bones.map((b) => ({ ...b })),
  };
}

/** The families: each makes one file of its kind from the random stream. */
export const CARNIVORES_FAMILIES: Record<string, (random: Random) => { name: string; bytes: Uint8Array }> = {
  /** A grid of 65,535 to 65,537 vertices (about 130,000 faces), one bone per band of rows. */
  "grid-near-limit"(random) {
    const [columns, rows] = pick(random, [[255, 257], [256, 256], [257, 255], [128, 512], [65_537, 1]]);
    return { name: "hostile-grid.3df", bytes: encode3df(gridModel(columns, rows, pick(random, [4, 1, 64]))) };
  },
  /** A `.car` clip of hundreds of frames over a few thousand vertices. */
  "car-many-frames"(random) {
    const [columns, rows, frames] = pick(random, [[64, 64, 300], [16, 16, 4000], [181, 181, 20]]);
    return { name: "hostile-frames.car", bytes: encodeCar(gridCar(columns, rows, frames)) };
  },
  /** A face corner at the vertex count, at 65,535, at −1 or at 2³¹−1. */
  "face-index-edge"(random) {
    const model = editableLimb();
    const at = int(random, model.faces.indices.length);
    model.faces.indices[at] = pick(random, [
      model.points.count,
      model.points.count - 1,
      65_535,
      -1,
      0x7fffffff,
    ]);
    return { name: "hostile-faces.3df", bytes: encode3df(model) };
  },
  /** Bone parents at themselves, in a loop, past the table; point owners past it or negative. */
  "bone-refs"(random) {
    const model = editableLimb();
    const bones = model.bones as Bone[];
    const b = int(random, bones.length);
    const kind = int(random, 5);
    if (kind === 0) bones[b] = { ...bones[b], parent: b };
    else if (kind === 1) bones.forEach((bone, i) => bones[i] = { ...bone, parent: (i + 1) % bones.length });
    else if (kind === 2) bones[b] = { ...bones[b], parent: pick(random, [bones.length, 32_767, -2]) };
    else if (kind === 3) model.points.owners.fill(pick(random, [bones.length, -1, 32_767, -32_768]));
    else {
      // 1,024 bones, each the child of the one before: a chain far past the engine's 32.
      for (let i = bones.length; i < 1024; i++) {
        bones.push({ name: `b${i}`, pivot: [i, i, i], parent: i - 1, hide: 0 });
      }
    }
    return { name: "hostile-bones.3df", bytes: encode3df(model) };
  },
  /**
   * 64 one-frame clips of zeros, then 0.1–1 MB of zeros or junk after them, with or without the
   * anim→sound table: frame data read as clip headers of 0 frames kept the count searches busy.
   */
  "car-64-clips-tail"(random) {
    const grid = gridCar(pick(random, [4, 8, 16]), 8, 0);
    const animations = Array.from({ length: 64 }, (_, c) => ({
      name: pick(random, [`clip${c}`, ""]),
      kps: 10,
      frameCount: 1,
      positions: new Int16Array(grid.points.count * 3),
    }));
    const table = random() < 0.5 ? new Int32Array(64).fill(-1) : undefined;
    const car = encodeCar({ ...grid, animations, sounds: [], animSounds: table });
    const tail = new Uint8Array(pick(random, [100_000, 600_000, 1_000_000]));
    if (random() < 0.5) tail.forEach((_, i) => tail[i] = int(random, 256));
    const bytes = new Uint8Array(car.length + tail.length);
    bytes.set(car);
    bytes.set(tail, car.length);
    return { name: "hostile-clips-tail.car", bytes };
  },
};
