/**
 * `.car` and `.3df` files as modding tools and users save them, seeded, for `decode.auto`: saved under
 * another extension (`.3df` for a `.car` and the reverse, `.bin`, `.dat`, none, upper case), padded
 * after their last byte (to a 512-, 2,048- or 4,096-byte block, a DOS end-of-file byte 0x1A, a few
 * bytes of junk), the model name field rewritten by a tool (32 characters without a NUL, space-padded,
 * Windows-1251), a clip or sound count edited by hand, one clip's frame count off by one — alone or
 * two at once. {@link toolSaveOutcome} grades the decode: right when the file is read as its own
 * format with its points and (for a `.car`) its clips; wrong when read as another format or with
 * other counts; refused when `decode.auto` or the decoder gives a `DecodeError`.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { prng } from "../../../support/prng.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { decodeAuto } from "../../../../nodes/decode/auto.ts";
import { getSourceInfo } from "../../../../runtime/scene/source.ts";
import { encode3df, encodeCar } from "../../../support/carnivores/encode.ts";
import { carClipsAt, draws, frameCountAt } from "./car_layout.ts";
import { animation, gridCar, gridModel } from "./fixtures.ts";
import { decodedOrRefused, type Graded, misreading } from "./habit_outcome.ts";
import { fillLongClipNames } from "./long_clip_names.ts";

/** How a tool or a user left the file. */
export const TOOL_SAVES = [
  "renamed_extension",
  "padded_block",
  "dos_eof",
  "junk_bytes",
  "name_rewritten",
  "count_edited",
  "frame_count_off",
] as const;

/** One habit. */
export type ToolSave = typeof TOOL_SAVES[number];

/** A file written for `seed`: its bytes, name, true format, point count and clip count. */
export interface ToolSaveFile {
  readonly bytes: Uint8Array;
  readonly name: string;
  readonly format: "car" | "3df";
  readonly points: number;
  readonly clips: number;
  /** Each clip's true frame count. */
  readonly frames: readonly number[];
  /** The true sound count. */
  readonly sounds: number;
  readonly habits: readonly ToolSave[];
}

/**
 * The file for `seed`: a `.car` (or, one time in four, a `.3df`) with one or two habits — or a `.car`
 * with the habits `forced` (the seed then draws the rest of the file alone). With `longNames`, some clips'
 * names fill their 32-byte field with no NUL (`long_clip_names.ts`; the file's other bytes unchanged).
 */
export function toolSaveFile(seed: number, forced?: readonly ToolSave[], longNames = false): ToolSaveFile {
  const random = prng(seed * 7919 + 17);
  const { int, pick } = draws(random);
  const format = forced ? "car" : random() < 0.25 ? "3df" : "car";
  const habits = forced ? [...forced] : [pick(TOOL_SAVES)];
  if (!forced && random() < 0.5) habits.push(pick(TOOL_SAVES.filter((h) => h !== habits[0])));
  const has = (h: ToolSave) => habits.includes(h);
  const [columns, rows] = [int(3, 12), int(3, 12)];
  let bytes: Uint8Array, clips = 0, frames: number[] = [], soundCount = 0;
  const grid = gridCar(columns, rows, 0);
  if (format === "3df") {
    bytes = encode3df(gridModel(columns, rows, int(2, 4)));
  } else {
    const animations = Array.from(
      { length: int(1, 5) },
      (_, c) => animation(`clip${c}`, int(8, 25), int(2, 10), grid.points, c),
    );
    clips = animations.length;
    frames = animations.map((a) => a.frameCount);
    const sounds = Array.from({ length: int(0, 2) }, (_, s) => ({
      name: `snd${s}`,
      pcm: Uint8Array.from({ length: 2 * int(20, 300) }, (_, i) => (i * 31 + s) & 0xff),
    }));
    soundCount = sounds.length;
    const table = random() < 0.6 ? Int32Array.from({ length: 64 }, () => -1) : undefined;
    bytes = encodeCar({ ...grid, name: "Raptor", msc: "msc: 3", animations, sounds, animSounds: table });
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const clipsAt = carClipsAt(bytes);
    if (longNames) fillLongClipNames(bytes, clipsAt, grid.points.count, frames, seed);
    if (has("name_rewritten")) {
      const field = pick([
        "Velociraptor_Female_Final_v2_xx", // 32 characters, no NUL
        "Raptor                          ",
        "\xd0\xe0\xef\xf2\xee\xf0", // "Раптор" in Windows-1251
      ]);
      bytes.fill(0, 0, 32);
      for (let i = 0; i < Math.min(32, field.length); i++) bytes[i] = field.charCodeAt(i);
    }
    if (has("count_edited")) {
      // A count raised for a clip never added, or lowered for a sound cut out by hand.
      if (random() < 0.5 || sounds.length === 0) view.setInt32(32, clips + 1, true);
      else view.setInt32(36, sounds.length - 1, true);
    }
    if (has("frame_count_off")) {
      view.setInt32(frameCountAt(clipsAt), animations[0].frameCount + pick([-1, 1]), true);
    }
  }
  let tail = new Uint8Array(0);
  if (has("padded_block")) {
    const block = pick([512, 2048, 4096]);
    tail = new Uint8Array((block - bytes.length % block) % block || block);
  }
  if (has("dos_eof")) tail = Uint8Array.of(...tail, 0x1a);
  if (has("junk_bytes")) {
    tail = Uint8Array.of(
      ...tail,
      ...Array.from({ length: int(1, 40) }, () => int(0, 255)),
    );
  }
  if (tail.length) {
    const padded = new Uint8Array(bytes.length + tail.length);
    padded.set(bytes);
    padded.set(tail, bytes.length);
    bytes = padded;
  }
  const other = format === "car" ? "3df" : "car";
  const ext = has("renamed_extension")
    ? pick([`.${other}`, ".bin", ".dat", "", `.${format.toUpperCase()}`, `.${format}.bak`])
    : `.${format}`;
  return {
    bytes,
    name: `model${seed}${ext}`,
    format,
    points: grid.points.count,
    clips,
    frames,
    sounds: soundCount,
    habits,
  };
}

/**
 * Decodes the file of `seed` (see {@link toolSaveFile}) with `decode.auto` and grades it; `said`: a file
 * named as the other format was told so.
 */
export async function toolSaveOutcome(
  seed: number,
  forced?: readonly ToolSave[],
  longNames = false,
): Promise<Graded & { said?: boolean; file: ToolSaveFile }> {
  const file = toolSaveFile(seed, forced, longNames);
  const ctx = testContext();
  const decoded = await decodedOrRefused(async () =>
    (await runNode(decodeAuto, { bytes: { bytes: file.bytes, name: file.name } }, {}, ctx)).scene as Document
  );
  if ("outcome" in decoded) return { ...decoded, file };
  const warnings = ctx.warnings.map((w) => w.message);
  const wrong = misreading(warnings);
  const format = getSourceInfo(decoded)?.format;
  const ext = file.name.slice(file.name.lastIndexOf(".") + 1).toLowerCase();
  // Named as the other format: a generic name (.bin, .dat, .bak, none) claims no format to disagree with.
  const renamed = ["car", "3df"].includes(ext) && ext !== file.format;
  const said = renamed ? warnings.some((w) => w.includes("named '.")) : undefined;
  if (format !== file.format) return { ...wrong(`read as ${format}, is ${file.format}`), said, file };
  const root = decoded.getRoot();
  const points = root.listMeshes().flatMap((m) => m.listPrimitives())
    .reduce((n, p) => n + (p.getAttribute("POSITION")?.getCount() ?? 0), 0);
  const clips = root.listAnimations().length;
  if (clips !== file.clips) return { ...wrong(`${clips} clips, file has ${file.clips}`), said, file };
  if (points < file.points) {
    return { ...wrong(`${points} points drawn, file has ${file.points}`), said, file };
  }
  return { outcome: "right", detail: "", said, file };
}
