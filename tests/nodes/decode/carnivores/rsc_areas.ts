/**
 * Carnivores `.rsc` areas as map makers leave them, for the texture-size search (`rsc_texture_fix.ts`):
 * 3 to 60 objects of several sizes (some animated, in the middle of the area as well as last), C1 or
 * C2, billboards mostly transparent (zero words, as a tree's far picture is) or filled, and one habit:
 *
 * - `texture_field`: one object's texture size field written from another picture than the texture
 *   written (wave 3's habit: the faces sample the rows written);
 * - `frames_off`: one animated object's stored frame count off by one or two;
 * - `cut`: the file cut short (a download or a copy stopped), anywhere from one byte to most of it;
 * - `intact`: the area as written.
 *
 * `rscOutcome` says whether the parser read it right (the repaired object at the height or count
 * written, named in a warning; a cut file refused) and counts the search's work when it reports it.
 *
 * @module
 */
import { encodeRsc, type RscObjectSpec } from "../../../support/carnivores/rsc.ts";
import { parseRsc } from "../../../../nodes/decode/carnivores/codec/parse_rsc.ts";
import { walkRsc } from "../../../../nodes/decode/carnivores/codec/rsc_layout.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { prng } from "../../../support/prng.ts";
import { animation, boxModel, texture } from "./fixtures.ts";

/** The habits generated. */
export const RSC_HABITS = ["texture_field", "frames_off", "cut", "intact"] as const;
export type RscHabit = typeof RSC_HABITS[number];

/** One generated area and what reading it right means. */
export interface RscCase {
  readonly bytes: Uint8Array;
  readonly habit: RscHabit;
  readonly version: "c1" | "c2";
  readonly objects: number;
  /** The object repaired (`texture_field`, `frames_off`) and its height in rows or its stored count. */
  readonly object?: number;
  readonly written?: number;
  /** `cut`: the area before it was cut. */
  readonly whole?: Uint8Array;
}

/** An area with `habit`, from `seed`. */
export function rscCase(habit: RscHabit, seed: number): RscCase {
  const random = prng(seed * 7919 + RSC_HABITS.indexOf(habit));
  const int = (n: number) => Math.floor(random() * n);
  const version = random() < 0.5 ? "c1" : "c2";
  const count = 3 + int(58);
  const specs: RscObjectSpec[] = Array.from({ length: count }, (_, i) => {
    const model = boxModel(2 + int(40), int(0x8000));
    const billboardWord = random() < 0.7 ? 0 : int(0x8000);
    const animated = random() < 0.15 || (habit === "frames_off" && i === count >> 1);
    return {
      model,
      billboardWord,
      flags: [0, 2, 0x12, 0x40][int(4)],
      ...(animated ? { animation: animation("", 10, 2 + int(5), model.points, 0) } : {}),
    };
  });
  let object: number | undefined, written: number | undefined;
  if (habit === "texture_field") {
    object = int(count);
    const rows = [8, 16, 24, 40, 64][int(5)];
    const model = specs[object].model;
    const texels = Int32Array.from(model.faces.texels, (t, i) => i % 2 ? (t * 37 + i) % rows : t);
    texels[1] = rows - 1;
    const tall = texture(rows, (x, y) => ((x >> 3) << 10) | ((y & 31) << 5) | 5);
    specs[object] = {
      ...specs[object],
      model: { ...model, faces: { ...model.faces, texels }, texture: tall },
    };
    written = rows;
  }
  const bytes = encodeRsc({
    version,
    textures: int(3),
    objects: specs,
    fogs: int(4),
    randomSounds: Array.from({ length: int(4) }, () => 100 + int(5000)),
    ambientSounds: Array.from({ length: int(3) }, () => 100 + int(5000)),
    waters: version === "c2" ? int(3) : 0,
  });
  const walked = walkRsc(bytes, version);
  if (!("objects" in walked)) throw new Error("the generator wrote an .rsc its own layout does not fit");
  const view = new DataView(bytes.buffer);
  if (habit === "texture_field") {
    const field = [written! / 2, written! * 2, 128, 256, written! + 1 + int(6)].filter((h) =>
      h !== written
    )[int(4)];
    view.setInt32(walked.objects[object!].body + 12, field * 512, true);
  }
  if (habit === "frames_off") {
    object = specs.findIndex((s, i) => s.animation && i >= count >> 1);
    const at = walked.objects[object].animation + 12;
    written = view.getInt32(at, true);
    view.setInt32(at, Math.max(0, written + [1, 1, 1, -1, 2, -2][int(6)]), true);
  }
  const cut = habit === "cut" ? 1 + int(Math.min(bytes.length - 1, [100, 5000, 200_000][int(3)])) : 0;
  const kept = bytes.subarray(0, bytes.length - cut);
  return { bytes: kept, habit, version, objects: count, object, written, ...(cut ? { whole: bytes } : {}) };
}

/** How the parser read a case: `right`, `refused` (a DecodeError where a repair was due), `misread`. */
export function rscOutcome(c: RscCase): { outcome: "right" | "refused" | "misread"; detail: string } {
  const warnings: string[] = [];
  let rsc;
  try {
    rsc = parseRsc(c.bytes, "area.rsc", "auto", (m) => void warnings.push(m));
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    return { outcome: c.habit === "cut" ? "right" : "refused", detail: error.message.slice(0, 200) };
  }
  if (c.habit === "cut") return { outcome: "misread", detail: `read ${rsc.objects.length} objects` };
  const objects = rsc.objects.length === c.objects && rsc.layout.version === c.version;
  if (c.habit === "intact") {
    return { outcome: objects && !warnings.length ? "right" : "misread", detail: warnings.join("\n") };
  }
  const named = warnings.length === 1 && warnings[0].startsWith(`object ${c.object}: `);
  const read = c.habit === "texture_field"
    ? rsc.objects[c.object!]?.model.texture?.height === c.written
    : rsc.layout.textureFix?.storedFrames === c.written;
  return { outcome: objects && named && read ? "right" : "misread", detail: warnings.join("\n") };
}
