/**
 * The third wave of community-tool habits (see `community_tools.ts`): files from Carnivores 2, Ice Age
 * and Carnivores Triple Threat era tools and fan remakes — a `.rsc` object's texture size field of
 * another height than the texture written, a `.car` clip with both a damaged (negative) KPS and a
 * wrong frame count, one frame count far off (a count left from another version of the clip), every
 * clip's count stored one less (the `.rsc` habit carried into a `.car` converter), 16-bit textures of
 * odd heights, sound blocks cut out or cut short, `.3df` vertices that belong to no bone
 * (`owner = 0xFFFF`) with the root not first in the bone table, and faces with flags, DMask and
 * scratch words the games ignore.
 *
 * @module
 */
import { encode3df, encodeCar } from "../../../support/carnivores/encode.ts";
import { encodeRsc } from "../../../support/carnivores/rsc.ts";
import { walkRsc } from "../../../../nodes/decode/carnivores/codec/rsc_layout.ts";
import type { Bone } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { animation, faceTable, pointTable, rscArea, texture } from "./fixtures.ts";
import {
  clips,
  clipsWhole,
  type Expectation,
  expectEqual,
  keyframes,
  lastTime,
  pick,
  soundNames,
  TEXTURE,
  triangles,
} from "./community_checks.ts";
import type { CaseKit } from "./community_tools_wave2.ts";
import type { Document } from "@gltf-transform/core";

/** Habits of this wave, in the order `TOOL_HABITS` lists them (their seeds depend on it). */
export const WAVE3_HABITS = [
  "rsc_object_texture_size_wrong",
  "car_kps_negative_frames_off",
  "frames_off_far",
  "frames_off_every_clip",
  "car_texture_odd_height",
  "car_sounds_cut",
  "owner_ffff",
  "face_flags_ignored",
  "rsc_animation_frames_off",
] as const;

/** One habit of this wave. */
export type Wave3Habit = typeof WAVE3_HABITS[number];

/** A generated file of this wave: its format, bytes and what a correct decode gives. */
export interface Wave3File {
  readonly format: "3df" | "car" | "rsc";
  readonly bytes: Uint8Array;
  readonly expect: Expectation;
}

/** Byte of the first clip header of a `.car` made by the kit with a texture of `textureWords`. */
const clipsAt = (kit: CaseKit, textureWords = TEXTURE.words.length) =>
  52 + kit.faces.length * 64 + kit.points.length * 16 + textureWords * 2;

/** The size of the texture of node `name`'s first primitive. */
const nodeTextureSize = (doc: Document, name: string) =>
  doc.getRoot().listNodes().find((n) => n.getName() === name)?.getMesh()?.listPrimitives()[0]?.getMaterial()
    ?.getBaseColorTexture()?.getSize();

/** Each vertex's joint, by name, over every primitive (with its weight). */
const vertexJoints = (doc: Document) => {
  const joints = doc.getRoot().listSkins()[0]?.listJoints().map((j) => j.getName()) ?? [];
  return doc.getRoot().listMeshes().flatMap((m) => m.listPrimitives()).flatMap((p) => {
    const a = p.getAttribute("JOINTS_0"), w = p.getAttribute("WEIGHTS_0");
    return a
      ? Array.from(
        { length: a.getCount() },
        (_, i) => `${joints[a.getElement(i, [])[0]]}:${w?.getElement(i, [])[0]}`,
      )
      : [];
  });
};

/** The file of `habit` made from `kit`. */
export function wave3Case(habit: Wave3Habit, kit: CaseKit): Wave3File {
  const { random, faces, points, bones, car, clip } = kit;
  const int = (n: number) => Math.floor(random() * n);
  switch (habit) {
    case "rsc_object_texture_size_wrong": {
      // A map tool that writes an object's texture size field from the source picture (another
      // height) but the texture at the height it converted to: the area's later sections no longer
      // start where the field says. The faces sample the rows written.
      const version = random() < 0.5 ? "c1" : "c2";
      const area = rscArea(version);
      const o = int(area.objects.length);
      const rows = [8, 16, 24, 40, 64][int(5)];
      const model = area.objects[o].model;
      const texels = Int32Array.from(model.faces.texels, (t, i) => i % 2 ? (t * 37 + i) % rows : t);
      texels[1] = rows - 1;
      const tall = texture(rows, (x, y) => ((x >> 3) << 10) | ((y & 31) << 5) | 5);
      const objects = area.objects.map((obj, i) =>
        i === o ? { ...obj, model: { ...model, faces: { ...model.faces, texels }, texture: tall } } : obj
      );
      const bytes = encodeRsc({ ...area, objects });
      const walked = walkRsc(bytes, version);
      if (!("objects" in walked)) throw new Error("the generator wrote an .rsc its own layout does not fit");
      const written = [rows / 2, rows * 2, 128, 256, rows + 1 + int(6)].filter((h) => h !== rows)[int(4)];
      new DataView(bytes.buffer).setInt32(walked.objects[o].body + 12, written * 512, true);
      return {
        format: "rsc",
        bytes,
        expect: {
          scene: true,
          warning: new RegExp(`^object ${o}: texture size ${written * 512} .*${rows} rows`),
          check: (doc) =>
            expectEqual(
              "objects",
              doc.getRoot().listNodes().filter((n) => /^obj_\d+$/.test(n.getName())).length,
              area.objects.length,
            ) ?? expectEqual(`obj_0${o} texture size`, nodeTextureSize(doc, `obj_0${o}`), [256, rows]),
        },
      };
    }
    case "car_kps_negative_frames_off":
    case "frames_off_far": {
      // A damaged clip header: its KPS negative (no tool writes one) and its frame count off, or one
      // count far off (left from another version of the clip by a tool that replaced the frames).
      const n = 1 + int(4);
      const names = ["walk", "run", "idle", "eat", "die"];
      const list = names.slice(0, n).map((name, c) => clip(name, c % 3, 3 + int(20)));
      const damaged = int(n);
      const kps = -1 - int(1000);
      if (habit === "car_kps_negative_frames_off") list[damaged] = { ...list[damaged], kps };
      const frames = list[damaged].frameCount;
      const stored = habit === "frames_off_far"
        ? [0, frames * 2, frames + 3 + int(40), Math.max(0, frames - 3 - int(10))][int(4)]
        : frames + [-2, -1, 1, 2][int(4)];
      const sounds = Array.from({ length: int(3) }, (_, i) => ({
        name: `snd${i}`,
        pcm: Uint8Array.from({ length: 2 * (40 + int(300)) }, () => int(256)),
      }));
      const model = { ...car(list), sounds };
      const bytes = encodeCar(random() < 0.5 ? model : { ...model, animSounds: undefined });
      let at = clipsAt(kit);
      for (let c = 0; c < damaged; c++) at += 40 + list[c].positions.length * 2;
      new DataView(bytes.buffer).setInt32(at + 36, stored, true);
      return {
        format: "car",
        bytes,
        expect: {
          scene: true,
          warning: new RegExp(`animation ${damaged} stores ${stored} frame`),
          check: (doc) =>
            clipsWhole(doc, list) ??
              (habit === "car_kps_negative_frames_off"
                ? expectEqual("last keyframe time", lastTime(doc, damaged), frames)
                : undefined),
        },
      };
    }
    case "frames_off_every_clip": {
      // A converter that carries the .rsc habit (the stored count one less than the frames) into every
      // clip of a .car of 5 to 10 clips, or one that stores one more.
      const n = 5 + int(6);
      const list = Array.from({ length: n }, (_, c) => clip(`clip${c}`, c % 3, 2 + int(8)));
      const change = random() < 0.7 ? -1 : 1;
      const bytes = encodeCar(car(list));
      const view = new DataView(bytes.buffer);
      let at = clipsAt(kit);
      for (const c of list) {
        view.setInt32(at + 36, c.frameCount + change, true);
        at += 40 + c.positions.length * 2;
      }
      return {
        format: "car",
        bytes,
        expect: {
          scene: true,
          // One warning for the whole file (clip_warnings.ts), naming the change and clip 0's byte.
          warning: /\d+ animations' stored frame counts .* read at their stored count [-+]\d \(animation 0 /,
          check: (doc) => clipsWhole(doc, list),
        },
      };
    }
    case "car_texture_odd_height": {
      // Carnivores 2 / Ice Age era converters crop a texture to the rows its faces use: heights that are
      // not powers of two. The faces sample inside them; nothing is wrong with the file.
      const rows = [17, 37, 100, 181, 255, 3][int(6)];
      for (const face of faces) face.uv = face.uv?.map(([u, v]) => [u, v % rows]) as typeof face.uv;
      const tall = texture(rows, (x, y) => ((x >> 3) << 10) | ((y & 31) << 5) | 3);
      const list = [clip("walk", 0), clip("run", 1)];
      const withSounds = random() < 0.5;
      const model = {
        ...car(list),
        texture: tall,
        faces: faceTable(faces),
        sounds: withSounds ? [{ name: "roar", pcm: new Uint8Array(2 * (20 + int(200))).fill(9) }] : [],
      };
      return {
        format: "car",
        bytes: encodeCar(model),
        expect: {
          scene: true,
          check: (doc) =>
            expectEqual("clips", clips(doc), ["walk", "run"]) ??
              expectEqual("texture size", doc.getRoot().listTextures()[0]?.getSize(), [256, rows]),
        },
      };
    }
    case "car_sounds_cut": {
      // Sound blocks a tool or a hand edit removed while SfxCount (and the anim→sound table) stayed,
      // or a download that stops inside the last sound's PCM.
      const list = [clip("walk", 0), clip("run", 1), clip("roar", 2)].slice(0, 2 + int(2));
      const sounds = Array.from({ length: 1 + int(3) }, (_, i) => ({
        name: `snd${i}`,
        pcm: Uint8Array.from({ length: 2 * (60 + int(400)) }, () => int(256)),
      }));
      const animSounds = new Int32Array(64).fill(-1);
      const removed = random() < 0.5;
      if (removed) {
        // The table names no sound: a tool that deleted them reset it (else it names deleted sounds).
        const bytes = encodeCar({ ...car(list), sounds: [], animSounds });
        new DataView(bytes.buffer).setInt32(36, sounds.length, true);
        return {
          format: "car",
          bytes,
          expect: {
            scene: true,
            warning: new RegExp(`declares ${list.length} animation\\(s\\) and ${sounds.length} sound`),
            check: (doc) => clipsWhole(doc, list),
          },
        };
      }
      const whole = encodeCar({ ...car(list), sounds, animSounds: undefined });
      const last = sounds[sounds.length - 1].pcm.length;
      const bytes = whole.subarray(0, whole.length - 1 - int(last - 1));
      return {
        format: "car",
        bytes,
        expect: {
          scene: true,
          warning: new RegExp(`inside sound ${sounds.length - 1}`),
          check: (doc) =>
            clipsWhole(doc, list) ??
              expectEqual("sounds", soundNames(doc), sounds.map((s) => s.name)),
        },
      };
    }
    case "owner_ffff": {
      // A fan remake's exporter writes 0xFFFF as the owner of vertices outside every bone (props,
      // a base plate), and lists bones in its own order, the root not first. Such vertices move with
      // no limb: they must follow the skeleton's root, not whichever bone is first in the table.
      const n = bones.length;
      const order = Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i > 0; i--) {
        const j = int(i + 1);
        [order[i], order[j]] = [order[j], order[i]];
      }
      // order[k] = old index of the bone written at k; where[old] = new index.
      const where = order.map((_, k) => order.indexOf(k));
      // Parents after children are repaired elsewhere: keep parents first, the root anywhere else.
      const shuffled: Bone[] = order.map((old) => ({
        ...bones[old],
        parent: bones[old].parent < 0 ? -1 : where[bones[old].parent],
      }));
      const owners = kit.model3df().points.owners;
      const loose = pick(random, n, 1)[0];
      const remapped = Array.from(owners, (o) => o === loose ? -1 : where[o]);
      const rootIndex = shuffled.findIndex((b) => b.parent < 0);
      const model = { ...kit.model3df(), bones: shuffled, points: pointTable(points, remapped) };
      const control = { ...model, points: pointTable(points, remapped.map((o) => o < 0 ? rootIndex : o)) };
      const controlBytes = encode3df(control);
      return {
        format: "3df",
        bytes: encode3df(model),
        expect: {
          scene: true,
          warning: /owner.*(0xFFFF|-1)/,
          control: { format: "3df", bytes: controlBytes },
          check: (doc, control) =>
            expectEqual("triangles", triangles(doc), faces.length) ??
              expectEqual("vertex joints", vertexJoints(doc), control && vertexJoints(control)),
        },
      };
    }
    case "rsc_animation_frames_off": {
      // A converter that stores an object animation's frame count as a .car does (the frames, not one
      // less as .rsc stores it), or one edited by hand: the sky, fogs and sounds after it are read from
      // the wrong bytes, and the frames from another section.
      const version = random() < 0.5 ? "c1" : "c2";
      const area = rscArea(version);
      const frames = 2 + int(6);
      const objects = area.objects.map((o) =>
        o.animation ? { ...o, animation: animation("", 10, frames, o.model.points, 0) } : o
      );
      const bytes = encodeRsc({ ...area, objects });
      const walked = walkRsc(bytes, version);
      if (!("objects" in walked)) throw new Error("the generator wrote an .rsc its own layout does not fit");
      const o = objects.findIndex((x) => x.animation);
      const stored = frames - 1 + (random() < 0.7 ? 1 : [-1, 2, -2][int(3)]);
      new DataView(bytes.buffer).setInt32(walked.objects[o].animation + 12, Math.max(0, stored), true);
      return {
        format: "rsc",
        bytes,
        expect: {
          scene: true,
          warning: new RegExp(`^object ${o}: the animation's stored frame count ${Math.max(0, stored)} `),
          check: (doc) =>
            expectEqual(
              "objects",
              doc.getRoot().listNodes().filter((n) => /^obj_\d+$/.test(n.getName())).length,
              area.objects.length,
            ) ?? expectEqual("keyframes", keyframes(doc, 0), frames),
        },
      };
    }
    case "face_flags_ignored": {
      // Editors leave bits no game defines in Flags (and DMask, Distant, Next and group words with
      // their own scratch values); the games draw the faces by the bits they know.
      const model = kit.model3df();
      const f = model.faces;
      const marked = pick(random, f.count, 1 + int(f.count));
      for (const i of marked) {
        f.flags[i] |= [0x100, 0x200, 0x400, 0x1000, 0x4000][int(5)];
        f.dmask[i] = int(65536);
        f.distant[i] = int(1 << 30) - (1 << 29);
        f.next[i] = int(f.count);
        f.group[i] = int(40);
      }
      const asCar = random() < 0.5;
      const bytes = asCar ? encodeCar({ ...car([clip("walk", 0)]), faces: f }) : encode3df(model);
      return {
        format: asCar ? "car" : "3df",
        bytes,
        expect: {
          scene: true,
          warning: /bits? no game defines/,
          check: (doc) =>
            expectEqual("triangles", triangles(doc), faces.length) ??
              (asCar ? expectEqual("clips", clips(doc), ["walk"]) : undefined),
        },
      };
    }
  }
}
