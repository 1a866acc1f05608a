/**
 * Code-built Carnivores fixtures: small helpers to write face/point tables and textures, plus the
 * models the tests share (a rigged limb `.3df`, an animated `.car`, and a benchmark-sized character).
 *
 * @module
 */
import type { RscSpec } from "../../../support/carnivores/rsc.ts";
import type {
  Bone,
  CarAnimation,
  CarModel,
  FaceTable,
  Model3df,
  PointTable,
  Texture16,
} from "../../../../nodes/decode/carnivores/codec/model.ts";

/** One face: vertex indices, texel per corner and flags. */
export interface FaceSpec {
  v: [number, number, number];
  uv?: [[number, number], [number, number], [number, number]];
  flags?: number;
}

/** A face table from specs (editor/scratch words zero, `next` -1 as the game writes it). */
export function faceTable(specs: readonly FaceSpec[]): FaceTable {
  const n = specs.length;
  const table: FaceTable = {
    count: n,
    indices: new Int32Array(n * 3),
    texels: new Int32Array(n * 6),
    flags: new Uint16Array(n),
    dmask: new Uint16Array(n),
    distant: new Int32Array(n),
    next: new Int32Array(n).fill(-1),
    group: new Int32Array(n),
  };
  specs.forEach((spec, f) => {
    table.indices.set(spec.v, f * 3);
    if (spec.uv) table.texels.set(spec.uv.flat(), f * 6);
    table.flags[f] = spec.flags ?? 0;
  });
  return table;
}

/** A point table from positions (file units) and owners. */
export function pointTable(
  positions: readonly (readonly number[])[],
  owners?: readonly number[],
): PointTable {
  return {
    count: positions.length,
    positions: Float32Array.from(positions.flat()),
    owners: Int16Array.from(owners ?? positions.map(() => 0)),
    hides: new Uint16Array(positions.length),
  };
}

/** A 256 × height texture whose texel (x, y) is `word(x, y)`. */
export function texture(height: number, word: (x: number, y: number) => number): Texture16 {
  const words = new Uint16Array(256 * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < 256; x++) words[y * 256 + x] = word(x, y);
  return { height, words };
}

/** Bone specs of the limb model (file units). "ankle" is listed before its parent "knee". */
export const LIMB_BONES: Bone[] = [
  { name: "hip", pivot: [0, 0, 0], parent: -1, hide: 0 },
  { name: "ankle", pivot: [2, 20, 6], parent: 2, hide: 0 },
  { name: "knee", pivot: [0, 10, 4], parent: 0, hide: 0 },
  { name: "tail", pivot: [-3, 2, -8], parent: 0, hide: 0 },
];

/**
 * A box of 8 points around `centre` (half-size `h`) owned by `owner`, and its 12 faces.
 * Points are appended to `points`/`owners`, faces to `faces`.
 */
export function addBox(
  points: number[][],
  owners: number[],
  faces: FaceSpec[],
  centre: readonly number[],
  h: number,
  owner: number,
  flags = 0,
): void {
  const base = points.length;
  for (let i = 0; i < 8; i++) {
    points.push([centre[0] + (i & 1 ? h : -h), centre[1] + (i & 2 ? h : -h), centre[2] + (i & 4 ? h : -h)]);
    owners.push(owner);
  }
  // Outward-facing quads, counter-clockwise seen from outside in the file's own (right-handed) reading.
  const quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  for (const [a, b, c, d] of quads) {
    const uv = (i: number): [number, number] => [(i & 1) * 255, i >> 1 & 1];
    faces.push({ v: [base + a, base + b, base + c], uv: [uv(a), uv(b), uv(c)], flags });
    faces.push({ v: [base + a, base + c, base + d], uv: [uv(a), uv(c), uv(d)], flags });
  }
}

/**
 * The limb `.3df`: one box per bone, just above `anchors[b]` (by default the bone's pivot), owned by
 * that bone; 2-row texture.
 */
export function limbModel(
  bones: Bone[] = LIMB_BONES,
  anchors: readonly (readonly number[])[] = bones.map((b) => b.pivot),
): Model3df {
  const points: number[][] = [];
  const owners: number[] = [];
  const faces: FaceSpec[] = [];
  anchors.forEach(([x, y, z], b) => addBox(points, owners, faces, [x, y + 3, z], 2, b));
  return {
    faces: faceTable(faces),
    points: pointTable(points, owners),
    bones,
    texture: texture(2, (x, y) => (x + y * 7) & 0x7fff),
  };
}

/**
 * Frame `k` of a clip: every point moves by a distinct, clip-specific offset (×16, int16).
 * Exported so tests compute expected positions independently of the decoder.
 */
export function framePosition(
  base: readonly number[],
  point: number,
  clip: number,
  frame: number,
): [number, number, number] {
  return [
    // The clip term keeps every clip's frame 0 distinct too: identical frames share a morph target.
    Math.round(base[0] * 16 + (clip + 1) * frame * 5 + point + clip * 3),
    Math.round(base[1] * 16 - frame * 3 * (point % 4)),
    Math.round(base[2] * 16 + frame * (clip + 2) * 7),
  ];
}

/** An animation whose frames follow {@link framePosition}. */
export function animation(
  name: string,
  kps: number,
  frameCount: number,
  points: PointTable,
  clip: number,
): CarAnimation {
  const positions = new Int16Array(frameCount * points.count * 3);
  for (let k = 0; k < frameCount; k++) {
    for (let p = 0; p < points.count; p++) {
      const base = Array.from(points.positions.subarray(p * 3, p * 3 + 3));
      positions.set(framePosition(base, p, clip, k), (k * points.count + p) * 3);
    }
  }
  return { name, kps, frameCount, positions };
}

/** A `.car` made of two boxes (16 distinct points), two clips and one sound. */
export function animatedCar(): CarModel {
  const points: number[][] = [];
  const owners: number[] = [];
  const faces: FaceSpec[] = [];
  addBox(points, owners, faces, [0, 5, 0], 3, 0);
  addBox(points, owners, faces, [10, 5, -6], 2, 1, 0x1);
  const table = pointTable(points, owners);
  return {
    name: "Boxes",
    msc: "msc: 2",
    faces: faceTable(faces),
    points: table,
    texture: texture(4, (x, y) => ((x >> 3) << 10) | (y << 5) | 7),
    animations: [animation("walk", 10, 5, table, 0), animation("idle", 7, 3, table, 1)],
    sounds: [{ name: "step", pcm: new Uint8Array([1, 2, 3, 4, 5, 6]) }],
    animSounds: Int32Array.from({ length: 64 }, (_, i) => (i === 1 ? 0 : -1)),
  };
}

/**
 * The benchmark character: a `columns × rows` grid of points (file units), two triangles per cell
 * (every second one double-sided), a 256×256 texture and one clip of `frames` frames. Points are
 * owned by horizontal bands of `bandRows` rows, for the skinned variant {@link gridModel}.
 */
export function gridCar(columns: number, rows: number, frames: number, bandRows = 4): CarModel {
  const points: number[][] = [];
  const owners: number[] = [];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++) {
      points.push([x * 2, y * 2, (x * y) % 5]);
      owners.push(Math.floor(y / bandRows));
    }
  }
  const uv = (i: number): [number, number] => [(i % columns) * 8 % 256, Math.floor(i / columns) * 8 % 256];
  const faces: FaceSpec[] = [];
  for (let y = 0; y + 1 < rows; y++) {
    for (let x = 0; x + 1 < columns; x++) {
      const a = y * columns + x;
      const [b, c, d] = [a + 1, a + columns + 1, a + columns];
      faces.push({ v: [a, b, c], uv: [uv(a), uv(b), uv(c)] });
      faces.push({ v: [a, c, d], uv: [uv(a), uv(c), uv(d)], flags: 1 });
    }
  }
  const table = pointTable(points, owners);
  return {
    name: "Grid",
    msc: "",
    faces: faceTable(faces),
    points: table,
    texture: texture(256, (x, y) => (x * 31 + y) & 0x7fff),
    animations: [animation("wave", 20, frames, table, 0)],
    sounds: [],
  };
}

/** The grid as a `.3df` with one bone per band, chained bottom to top. */
export function gridModel(columns: number, rows: number, bandRows = 4): Model3df {
  const { faces, points, texture } = gridCar(columns, rows, 0, bandRows);
  const bands = Math.ceil(rows / bandRows);
  const bones: Bone[] = Array.from({ length: bands }, (_, b) => ({
    name: `band${b}`,
    pivot: [columns, b * bandRows * 2, 0],
    parent: b - 1,
    hide: 0,
  }));
  return { faces, points, bones, texture };
}

/** A box of half-size `h` standing on the ground, no bones, its texture one 16-bit colour `word`. */
export function boxModel(h: number, word: number): Model3df {
  const points: number[][] = [];
  const owners: number[] = [];
  const faces: FaceSpec[] = [];
  addBox(points, owners, faces, [0, h, 0], h, 0);
  return {
    faces: faceTable(faces),
    points: pointTable(points, owners),
    bones: [],
    texture: texture(2, () => word),
  };
}

/**
 * A Carnivores area: a boned limb (skinned once resolved), a tree box, an animated box (3 frames,
 * a morph clip `obj_02`) and two ground textures.
 */
export function rscArea(version: "c1" | "c2"): RscSpec {
  return {
    version,
    textures: 2,
    ground: (t, x, y) => (t === 0 ? (x << 10) >> 2 : y),
    objects: [
      { model: limbModel(), flags: 0x2 | 0x10 },
      { model: boxModel(30, 0x03e0), info: [64, 0, 60, 512, 20, 96, 30] },
      { model: boxModel(5, 0x7c00), animation: animation("", 10, 3, boxModel(5, 0).points, 0) },
    ],
    fogs: 1,
    randomSounds: [6],
    ambientSounds: [4],
    waters: version === "c2" ? 2 : 0,
  };
}
