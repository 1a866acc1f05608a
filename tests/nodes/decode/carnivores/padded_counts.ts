/**
 * `.car` files a tool padded to a block, one clip's frame count off by one, seeded — the habits that left
 * `tool_saves.ts`'s padded files with a wrong count misread: older tools write no anim→sound table; a
 * count is stored one short as often as one long, most often the last clip's (the only one whose wrong
 * count leaves the stored sections ending in the padding); tools pad to 512-, 2,048- or 4,096-byte
 * blocks (nothing when the file already fills one) and some add a DOS end-of-file byte 0x1A; a tool that
 * zero-fills the table writes 256 zero bytes, a real table beside the padding's zeros; a recorded sound may
 * end in a few samples of silence, a frame on a point of the axes. {@link paddedCountOutcome} grades the
 * counts (as `car_reads.ts`) and, apart, each clip's sound as the file's table gives it.
 *
 * @module
 */
import { prng } from "../../../support/prng.ts";
import { encodeCar } from "../../../support/carnivores/encode.ts";
import { carClipsAt, clipHeaders, draws, frameCountAt } from "./car_layout.ts";
import { animation, gridCar } from "./fixtures.ts";
import { type CarParser, type CarRead, carReadOutcome } from "./car_reads.ts";

/** The anim→sound table a tool wrote: none, -1 throughout, 256 zero bytes, or clips naming sounds. */
export const TABLE_KINDS = ["none", "minus_ones", "zeros", "named"] as const;

/** One table habit. */
export type TableKind = typeof TABLE_KINDS[number];

/** A file written for a seed, with what it holds. */
export interface PaddedCountFile {
  readonly bytes: Uint8Array;
  readonly name: string;
  /** Each clip's true frame count, and the true sound count. */
  readonly frames: readonly number[];
  readonly sounds: number;
  readonly table: TableKind;
  /** The block the tool padded to, the padding's length and whether a 0x1A ends the file. */
  readonly block: number;
  readonly padding: number;
  readonly dosEof: boolean;
  /** The clip whose stored count is off, and by how much. */
  readonly clip: number;
  readonly change: -1 | 1;
  /** Each clip's sound as the table gives it (null: none), as `decode.car`'s extras read an entry. */
  readonly clipSounds: readonly (number | null)[];
}

/** The file of `seed`. */
export function paddedCountFile(seed: number): PaddedCountFile {
  const random = prng(seed * 6133 + 29);
  const { int, pick } = draws(random);
  const grid = gridCar(int(3, 12), int(3, 12), 0);
  const frames = Array.from({ length: int(1, 4) }, () => int(2, 10));
  const animations = frames.map((count, c) => animation(`clip${c}`, int(8, 25), count, grid.points, c));
  const sounds = Array.from({ length: int(0, 2) }, (_, s) => {
    const pcm = Uint8Array.from({ length: 2 * int(20, 300) }, (_, i) => 1 + ((i * 31 + s) % 255));
    // A recording that ends in a few samples of silence.
    if (random() < 0.3) pcm.fill(0, pcm.length - 2 * int(1, 3));
    return { name: `snd${s}`, pcm };
  });
  const roll = random();
  const table: TableKind = roll < 0.35 ? "none" : roll < 0.65 ? "minus_ones" : roll < 0.8 ? "zeros" : "named";
  const entries = table === "none" ? undefined : Int32Array.from(
    { length: 64 },
    (_, i) =>
      table === "zeros"
        ? 0
        : table === "named" && i < frames.length && sounds.length && random() < 0.7
        ? int(0, sounds.length - 1)
        : -1,
  );
  let bytes = encodeCar({ ...grid, name: "Raptor", msc: "msc: 3", animations, sounds, animSounds: entries });
  // Most often the last clip's count (the stored sections then still end in the padding).
  const clip = random() < 0.7 ? frames.length - 1 : int(0, frames.length - 1);
  const change = pick([-1, 1] as const);
  const headers = clipHeaders(carClipsAt(bytes), grid.points.count, frames);
  new DataView(bytes.buffer).setInt32(frameCountAt(headers[clip]), frames[clip] + change, true);
  const block = pick([512, 2048, 4096]);
  const padding = (block - bytes.length % block) % block;
  const dosEof = random() < 0.3;
  const out = new Uint8Array(bytes.length + padding + (dosEof ? 1 : 0));
  out.set(bytes);
  if (dosEof) out[out.length - 1] = 0x1a;
  bytes = out;
  const clipSounds = frames.map((_, c) => {
    const value = entries?.[c];
    return value !== undefined && value >= 0 && value < sounds.length ? value : null;
  });
  return {
    bytes,
    name: `padded${seed}.car`,
    frames,
    sounds: sounds.length,
    table,
    block,
    padding,
    dosEof,
    clip,
    change,
    clipSounds,
  };
}

/** A graded read of a padded file: the counts' grade, and whether each clip's sound was read as meant. */
export type PaddedCountRead = CarRead & { readonly soundsRight: boolean };

/** Parses `file` with `parse` and grades it (the counts as `car_reads.ts`, each clip's sound apart). */
export function paddedCountOutcome(parse: CarParser, file: PaddedCountFile): PaddedCountRead {
  const read = carReadOutcome(parse, file.bytes, file.name, file);
  if (read.outcome !== "right") return { ...read, soundsRight: false };
  const model = parse(file.bytes, file.name, () => {}) as ReturnType<CarParser> & { animSounds?: Int32Array };
  const soundsRight = file.clipSounds.every((meant, c) => {
    const value = model.animSounds?.[c];
    return (value !== undefined && value >= 0 && value < file.sounds ? value : null) === meant;
  });
  return { ...read, soundsRight };
}
