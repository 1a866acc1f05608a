/**
 * The second wave of community-tool habits (see `community_tools.ts`): KPS 0 or negative on `.rsc`
 * object animations, `.car` clips and `.vtl` files; frame counts off on several clips; names without a
 * NUL or padded; anim→sound entries naming deleted sounds; texture size fields of another height than
 * the texture written.
 *
 * @module
 */
import { encode3df, encodeCar } from "../../../support/carnivores/encode.ts";
import { encodeVtl } from "../../../support/carnivores/vtl.ts";
import { encodeRsc } from "../../../support/carnivores/rsc.ts";
import type { Bone, CarModel, Model3df } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { type FaceSpec, rscArea, texture } from "./fixtures.ts";
import {
  clips,
  clipSounds,
  clipsWhole,
  type Expectation,
  expectEqual,
  keyframes,
  lastTime,
  pick,
  soundNames,
  TEXTURE,
} from "./community_checks.ts";

/** Habits of this wave, in the order `TOOL_HABITS` lists them (their seeds depend on it). */
export const WAVE2_HABITS = [
  "rsc_kps_zero",
  "rsc_kps_negative",
  "car_kps_negative",
  "frames_off_several",
  "names_no_nul",
  "names_space_padded",
  "anim_sound_past_sounds",
  "car_texture_size_wrong",
  "texture_size_short",
  "vtl_kps_zero",
] as const;

/** One habit of this wave. */
export type Wave2Habit = typeof WAVE2_HABITS[number];

/** The seeded model and makers `toolCase` builds every case from. */
export interface CaseKit {
  readonly random: () => number;
  readonly faces: FaceSpec[];
  readonly points: number[][];
  readonly bones: Bone[];
  readonly asCar: boolean;
  readonly model3df: () => Model3df;
  readonly car: (animations: CarModel["animations"], name?: string, msc?: string) => CarModel;
  readonly clip: (name: string, c: number, frames?: number) => CarModel["animations"][number];
}

/** A generated file of this wave: its format, bytes, `.vtl` files and what a correct decode gives. */
export interface Wave2File {
  readonly format: "3df" | "car" | "rsc";
  readonly bytes: Uint8Array;
  readonly vtls?: Record<string, Uint8Array>;
  readonly expect: Expectation;
}

/** The file of `habit` made from `kit`. */
export function wave2Case(habit: Wave2Habit, kit: CaseKit): Wave2File {
  const { random, faces, points, bones, asCar, model3df, car, clip } = kit;
  switch (habit) {
    case "frames_off_several": {
      // A converter (or hand edits) leaving several clips' frame counts off by one or two — the count
      // stored as a .rsc stores it, one less — in a file of 3 to 6 clips, with or without sounds and the
      // anim→sound table: every clip must be read with the frames its data hold.
      const names = ["walk", "run", "idle", "eat", "die", "swim"];
      const list = names.slice(0, 3 + Math.floor(random() * 4)).map((n, c) => clip(n, c % 3));
      const off = pick(random, list.length, 2 + Math.floor(random() * Math.min(2, list.length - 2)));
      const sounds = Array.from({ length: Math.floor(random() * 3) }, (_, i) => ({
        name: `snd${i}`,
        pcm: Uint8Array.from({ length: 2 * (50 + Math.floor(random() * 400)) }, () => random() * 256 | 0),
      }));
      const model = { ...car(list), sounds };
      const bytes = encodeCar(random() < 0.5 ? model : { ...model, animSounds: undefined });
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      let at = 52 + faces.length * 64 + points.length * 16 + TEXTURE.words.length * 2;
      list.forEach((c, i) => {
        const wrong = c.frameCount + [-1, 1, -2, 2, -1, 1][Math.floor(random() * 6)];
        if (off.includes(i)) view.setInt32(at + 36, Math.max(0, wrong), true);
        at += 40 + c.positions.length * 2;
      });
      return {
        format: "car",
        bytes,
        expect: {
          scene: true,
          warning: new RegExp(`animation ${off[0]} stores \\d+ frame`),
          check: (doc) => clipsWhole(doc, list),
        },
      };
    }
    case "names_no_nul":
    case "names_space_padded": {
      // C3Dit and the Delphi editors copy a name into its 32-byte field without a NUL when it fills
      // the field; VB and Delphi tools pad a shorter one with spaces, others leave bytes of an earlier
      // name after its NUL. Names are bones' (.3df) or clips' and sounds' (.car).
      const full = (stem: string) => (stem + "_" + "abcdefghijklmnopqrstuvwxyz0123456789").slice(0, 32);
      const named = (stem: string) => habit === "names_no_nul" ? full(stem) : stem;
      const pad = (bytes: Uint8Array, stem: string, at: number) => {
        // The test encoder keeps a NUL in the field's last byte; a tool that fills the field does not.
        if (habit === "names_no_nul") return void (bytes[at + 31] = full(stem).charCodeAt(31));
        if (random() < 0.5) bytes.fill(0x20, at + stem.length, at + 32);
        else {bytes.set(
            new TextEncoder().encode("\0" + "OLDNAME_leftover".slice(0, 31 - stem.length)),
            at + stem.length,
          );}
      };
      if (asCar) {
        const list = [clip(named("walk"), 0), clip(named("run"), 1)];
        const sounds = [{ name: named("roar"), pcm: new Uint8Array(64).fill(7) }];
        const bytes = encodeCar({ ...car(list), sounds });
        let at = 52 + faces.length * 64 + points.length * 16 + TEXTURE.words.length * 2;
        for (const [i, c] of list.entries()) {
          pad(bytes, ["walk", "run"][i], at);
          at += 40 + c.positions.length * 2;
        }
        pad(bytes, "roar", at);
        return {
          format: "car",
          bytes,
          expect: {
            scene: true,
            check: (doc) =>
              expectEqual("clips", clips(doc), [named("walk"), named("run")]) ??
                expectEqual("sounds", soundNames(doc), [named("roar")]),
          },
        };
      }
      const renamed = bones.map((b) => ({ ...b, name: named(b.name) }));
      const bytes = encode3df({ ...model3df(), bones: renamed });
      const bonesAt = 16 + faces.length * 64 + points.length * 16;
      bones.forEach((b, i) => pad(bytes, b.name, bonesAt + i * 48));
      return {
        format: "3df",
        bytes,
        expect: {
          scene: true,
          check: (doc) =>
            expectEqual(
              "joints",
              doc.getRoot().listSkins()[0]?.listJoints().map((j) => j.getName()),
              renamed.map((b) => b.name),
            ),
        },
      };
    }
    case "anim_sound_past_sounds": {
      // A sound deleted in an editor that kept the anim→sound table: entries name sounds past the end.
      const list = [clip("walk", 0), clip("run", 1), clip("roar", 2)];
      const sounds = [{ name: "step", pcm: new Uint8Array(80).fill(3) }];
      const animSounds = new Int32Array(64).fill(-1);
      animSounds[0] = 0;
      animSounds[1 + Math.floor(random() * 2)] = 1 + Math.floor(random() * 3);
      return {
        format: "car",
        bytes: encodeCar({ ...car(list), sounds, animSounds }),
        expect: {
          scene: true,
          warning: /anim→sound entry [12] names sound [1-3], but the file has 1/,
          check: (doc) =>
            expectEqual("clips", clips(doc), ["walk", "run", "roar"]) ??
              expectEqual("clip sounds", clipSounds(doc), [0, null, null]),
        },
      };
    }
    case "car_texture_size_wrong": {
      // A converter that writes the texture's size field from the source picture (another height) but
      // the texture at the height it converted to: the field no longer says where the clips start.
      const rows = 64;
      const written = [32, 128, 256][Math.floor(random() * 3)];
      const list = [clip("walk", 0), clip("run", 1)];
      const bytes = encodeCar(car(list));
      new DataView(bytes.buffer).setInt32(48, written * 512, true);
      return {
        format: "car",
        bytes,
        expect: {
          scene: true,
          warning: new RegExp(`texture size ${written * 512} .* with ${rows} rows`),
          check: (doc) =>
            expectEqual("clips", clips(doc), ["walk", "run"]) ??
              expectEqual("keyframes", [keyframes(doc, 0), keyframes(doc, 1)], list.map((c) => c.frameCount)),
        },
      };
    }
    case "texture_size_short": {
      // A .3df whose size field was written from a smaller picture than the 128-row texture written
      // after it; the faces' texel rows span all 128.
      const declared = [32, 64][Math.floor(random() * 2)];
      const tall = texture(128, (x, y) => ((x >> 3) << 10) | ((y >> 2) << 5) | 9);
      faces[0].uv = [[10, 0], [200, 127], [20, 100]];
      const bytes = encode3df({ ...model3df(), texture: tall });
      new DataView(bytes.buffer).setInt32(12, declared * 512, true);
      return {
        format: "3df",
        bytes,
        expect: {
          scene: true,
          warning: new RegExp(`texture size ${declared * 512} at byte 12 .* read with 128 rows`),
          check: (doc) => expectEqual("texture size", doc.getRoot().listTextures()[0]?.getSize(), [256, 128]),
        },
      };
    }
    case "vtl_kps_zero": {
      // An exporter that writes an unset KPS property as 0 into one .vtl of three.
      const layout = random() < 0.5 ? "animator" : "engine";
      const zero = clip("b_zero", 1);
      return {
        format: "3df",
        bytes: encode3df(model3df()),
        vtls: {
          "a_walk.vtl": encodeVtl(clip("a_walk", 0), { layout }),
          "b_zero.vtl": encodeVtl({ ...zero, kps: 0 }, { layout }),
          "c_run.vtl": encodeVtl(clip("c_run", 2), { layout }),
        },
        expect: {
          scene: true,
          warning: /b_zero\.vtl: the animation has 0 frames per second .* 1 frame per second/,
          check: (doc) =>
            expectEqual("clips", clips(doc), ["a_walk", "b_zero", "c_run"]) ??
              expectEqual("last keyframe time", lastTime(doc, 1), zero.frameCount),
        },
      };
    }
    case "rsc_kps_zero":
    case "rsc_kps_negative": {
      // A map editor that leaves an animated object's KPS 0 (its default), or a damaged negative one:
      // the games divide by it on loading the area. The area, the object and its frames are all there.
      const kps = habit === "rsc_kps_zero" ? 0 : -1 - Math.floor(random() * 1000);
      const area = rscArea(random() < 0.5 ? "c1" : "c2");
      const objects = area.objects.map((o) => o.animation ? { ...o, animation: { ...o.animation, kps } } : o);
      const frames = area.objects.find((o) => o.animation)!.animation!.frameCount;
      return {
        format: "rsc",
        bytes: encodeRsc({ ...area, objects }),
        expect: {
          scene: true,
          warning: new RegExp(
            `^object \\d+: the animation has ${kps} frames per second .* 1 frame per second`,
          ),
          // Every object, the animation whole, its frames 1 s apart.
          check: (doc) =>
            expectEqual(
              "objects",
              doc.getRoot().listNodes().filter((n) => /^obj_\d+$/.test(n.getName())).length,
              area.objects.length,
            ) ?? expectEqual("keyframes", keyframes(doc, 0), frames) ??
              expectEqual("last keyframe time", lastTime(doc, 0), frames),
        },
      };
    }
    case "car_kps_negative": {
      // A damaged KPS field (no tool writes a negative one) on one clip of two or three.
      const list = [clip("walk", 0), clip("run", 1), clip("idle", 2)].slice(0, 2 + Math.floor(random() * 2));
      const damaged = Math.floor(random() * list.length);
      const kps = -1 - Math.floor(random() * 1000);
      list[damaged] = { ...list[damaged], kps };
      return {
        format: "car",
        bytes: encodeCar(car(list)),
        expect: {
          scene: true,
          warning: new RegExp(
            `animation ${damaged} \\('${list[damaged].name}'\\) has ${kps} frames per second`,
          ),
          check: (doc) =>
            expectEqual("clips", clips(doc), list.map((c) => c.name)) ??
              expectEqual("last keyframe time", lastTime(doc, damaged), list[damaged].frameCount),
        },
      };
    }
  }
}
