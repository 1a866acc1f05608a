/**
 * A seeded generator of Carnivores models for the client checks (three.js, Blender): `.3df` (with
 * bones), `.car` (with clips) and `.rsc` areas whose parts carry the render flags real files carry —
 * 0, double-sided (1), foliage (5: double-sided + colour key), binoculars and explosions (12: colour key
 * + translucent), kill zones (16), dark back (2, 3), sfDark (0x8000), a stored sfNeedVC (0x81) — on
 * textures of every height a file holds (2 to 256 rows, some not a power of two) with colour-key texels
 * (0x0000) in them, and clips of 1 to 9 frames at rates from 1 to 50,000 frames per second.
 *
 * Each model says, from its own faces and clips (not from the decoder), what a client must show: how
 * many triangles draw opaque, colour-keyed or translucent, one- or two-sided; whether texel 0 is cut
 * out; how long each clip lasts.
 *
 * @module
 */
import { encode3df, encodeCar } from "../../../support/carnivores/encode.ts";
import { encodeRsc } from "../../../support/carnivores/rsc.ts";
import type { Bone, CarAnimation, Model3df } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { prng } from "../../../support/prng.ts";
import { addBox, animation, type FaceSpec, faceTable, pointTable, texture } from "./fixtures.ts";

/** Face flags as real files carry them (the common 0 weighted up). */
const REAL_FLAGS = [0, 0, 0, 1, 1, 5, 12, 16, 2, 3, 0x8000, 4, 8, 9, 13, 0x81];
const HEIGHTS = [2, 16, 32, 48, 64, 100, 128, 256];
const RATES = [1, 4, 10, 15, 20, 30, 60, 1000, 50000];
const FRAMES = [1, 2, 3, 5, 9];

/** How a face draws, by the engine's rules (formats/carnivores-dson.md §A.3), written out here. */
export type DrawClass = "opaque" | "mask" | "blend";

/** What a client must show of one model (or of one `.rsc` object). */
export interface ClientTruth {
  /** Triangles per `class` + (`"_double_sided"` when both sides draw). */
  readonly triangles: Record<string, number>;
  /** True when some face has sfOpacity, so texel 0x0000 is transparent. */
  readonly colourKey: boolean;
  /** Texels (x, y) holding 0x0000. */
  readonly keyTexels: readonly [number, number][];
  /** Texture height in rows. */
  readonly height: number;
  /** Each clip's name and length in seconds (⌊1000·F/KPS⌋ ms, or F/KPS when that is 0), and its frames. */
  readonly clips: readonly { name: string; seconds: number; clip: CarAnimation }[];
  /** Rest positions of the points, file units (x, y, z per point). */
  readonly points: Float32Array;
}

/** A generated file. */
export interface ClientModel {
  readonly label: string;
  readonly format: "3df" | "car" | "rsc";
  readonly bytes: Uint8Array;
  /** The truth of the model (for a `.rsc`, of object 0, the generated one). */
  readonly truth: ClientTruth;
}

/** The class a face draws in, and whether both its sides draw. */
export function drawOf(flags: number): { cls: DrawClass; both: boolean } {
  const cls = flags & 8 ? "blend" : flags & 4 ? "mask" : "opaque";
  // sfDoubleSide counts only without sfDarkBack (2) and a stored sfNeedVC (0x80): the engine culls those.
  return { cls, both: (flags & 1) !== 0 && (flags & 0x82) === 0 };
}

/**
 * The client model of `seed`.
 *
 * @example
 * ```ts
 * const m = clientModel(3); // m.format, m.bytes, m.truth
 * ```
 */
export function clientModel(seed: number): ClientModel {
  const next = prng(seed * 7 + 3);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const format = pick(["3df", "car", "rsc"] as const);
  const points: number[][] = [];
  const owners: number[] = [];
  const faces: FaceSpec[] = [];
  const bones: Bone[] = [];
  const boxes = 2 + Math.floor(next() * 4);
  const height = pick(HEIGHTS);
  for (let b = 0; b < boxes; b++) {
    const centre: [number, number, number] = [b * 10, 5 + b * 3, (b % 2) * 6 - 3];
    addBox(points, owners, faces, centre, 2 + b, b, pick(REAL_FLAGS));
    bones.push({ name: `part${b}`, pivot: centre, parent: b - 1, hide: 0 });
  }
  // Corners across the texture's rows: each box samples its own band.
  for (const f of faces) {
    f.uv = f.uv?.map(([u, v]) => [u, Math.min(height - 1, v * (height - 1))]) as typeof f.uv;
  }
  const words = texture(
    height,
    (x, y) => ((x * 31 + y * 17 + seed) % 23 === 0 ? 0 : ((x >> 3) << 10) | (y % 32) << 5 | 7),
  );
  const model: Model3df = {
    faces: faceTable(faces),
    points: pointTable(points, owners),
    bones,
    texture: words,
  };
  const keyTexels: [number, number][] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < 256; x++) if (!words.words[y * 256 + x]) keyTexels.push([x, y]);
  }
  const triangles: Record<string, number> = {};
  for (const f of faces) {
    const { cls, both } = drawOf(f.flags ?? 0);
    const key = cls + (both ? "_double_sided" : "");
    triangles[key] = (triangles[key] ?? 0) + 1;
  }
  const colourKey = faces.some((f) => ((f.flags ?? 0) & 4) !== 0);
  const clipList: CarAnimation[] = [];
  const clipCount = format === "3df" ? 0 : format === "rsc" ? 1 : 1 + Math.floor(next() * 3);
  for (let c = 0; c < clipCount; c++) {
    clipList.push(animation(format === "rsc" ? "" : `clip${c}`, pick(RATES), pick(FRAMES), model.points, c));
  }
  const seconds = (a: CarAnimation) => {
    const ms = Math.floor((a.frameCount * 1000) / a.kps);
    // AniTime 0 ms the game divides by and cannot play: the clip is timed at 1 frame per second
    // (decode.car v15, clip_rate.ts), so a viewer shows each frame instead of all on one frame.
    return ms > 0 ? ms / 1000 : a.frameCount;
  };
  const truth: ClientTruth = {
    triangles,
    colourKey,
    keyTexels,
    height,
    clips: clipList.map((a) => ({ name: a.name, seconds: seconds(a), clip: a })),
    points: model.points.positions,
  };
  const bytes = format === "3df" ? encode3df(model) : format === "car"
    ? encodeCar({
      name: "Client",
      msc: "msc: 1",
      faces: model.faces,
      points: model.points,
      texture: words,
      animations: clipList,
      sounds: [],
      animSounds: new Int32Array(64).fill(-1),
    })
    : encodeRsc({
      version: next() < 0.5 ? "c1" : "c2",
      objects: [{ model: { ...model, bones: [] }, animation: clipList[0] }],
    });
  const flags = [...new Set(faces.map((f) => f.flags ?? 0))].map((f) => f.toString(16)).join(",");
  return {
    label: `seed ${seed}: ${format}, ${boxes} parts, flags ${flags}, ${height} rows, clips ${
      clipList.map((a) => `${a.frameCount}@${a.kps}`).join(" ")
    }`,
    format,
    bytes,
    truth,
  };
}
