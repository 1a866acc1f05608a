/**
 * A seeded generator of Carnivores files as community tools leave them (CarnivoresIO, io_carnivores,
 * C3Dit, the 3DF editors, hand edits): faces left pointing at a deleted vertex (the uint16 sentinel
 * 65535 or -1 written into the int32 index, or an index past a shortened point table), clips of 0
 * frames, a clip's frame count raised past the data, bones whose parent is themselves or that form a
 * cycle, `.vtl` files of another version of the model, and Carnivores 2 / Ice Age name fields as
 * controls. Each case says what a correct decoder gives: a scene with a warning naming the problem
 * and what the scene must hold, or a `DecodeError`.
 *
 * @module
 */
import { join } from "node:path";
import type { Document } from "@gltf-transform/core";
import { runNode, testContext } from "../../../support/context.ts";
import { tempDir } from "../../../support/temp.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { decodeCar } from "../../../../nodes/decode/carnivores/decode_car.ts";
import { decodeRsc } from "../../../../nodes/decode/carnivores/decode_rsc.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { encode3df, encodeCar } from "../../../support/carnivores/encode.ts";
import { encodeVtl } from "../../../support/carnivores/vtl.ts";
import type { Bone, CarModel, Model3df } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { encodeRsc } from "../../../support/carnivores/rsc.ts";
import { addBox, animation, type FaceSpec, faceTable, pointTable, rscArea, texture } from "./fixtures.ts";
import { seeded } from "./pictures.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";

/** Habits the generator reproduces. */
export const TOOL_HABITS = [
  "face_sentinel_65535",
  "face_minus_one",
  "face_past_points",
  "zero_frame_clip",
  "frames_past_file",
  "frames_off_by_one",
  "self_parent",
  "parent_cycle",
  "vtl_other_vertex_count",
  "vtl_cut",
  "rsc_face_sentinel",
  "rsc_animation_other_count",
  "ice_age_name",
  "c2_name",
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

/** One habit. */
export type ToolHabit = typeof TOOL_HABITS[number];

/** What a correct decode of a case gives. */
export type Expectation =
  | {
    readonly scene: true;
    /** A warning that must be given (none when undefined: the decode must be silent). */
    readonly warning?: RegExp;
    /** What the decoded (and resolved) scene must hold; a message when it does not. */
    readonly check: (doc: Document) => string | undefined;
  }
  | { readonly scene: false; readonly error: RegExp };

/** One generated file (and the `.vtl` files beside it). */
export interface ToolCase {
  readonly habit: ToolHabit;
  readonly seed: number;
  readonly format: "3df" | "car" | "rsc";
  readonly bytes: Uint8Array;
  /** `.vtl` files by name, read through `decode.3df`'s `animations` (all of them, in name order). */
  readonly vtls?: Record<string, Uint8Array>;
  readonly expect: Expectation;
}

const triangles = (doc: Document) =>
  doc.getRoot().listMeshes().flatMap((m) => m.listPrimitives()).reduce(
    (n, p) => n + (p.getIndices()?.getCount() ?? 0) / 3,
    0,
  );
const clips = (doc: Document) => doc.getRoot().listAnimations().map((a) => a.getName());
const nodeTriangles = (doc: Document, name: string) => {
  const mesh = doc.getRoot().listNodes().find((n) => n.getName() === name)?.getMesh();
  return mesh?.listPrimitives().reduce((n, p) => n + (p.getIndices()?.getCount() ?? 0) / 3, 0);
};
const keyframes = (doc: Document, clip: number) =>
  doc.getRoot().listAnimations()[clip]?.listSamplers()[0]?.getInput()?.getCount();
/** The Carnivores summary on the model's node (the first node). */
const summary = (doc: Document) =>
  getPartgraphExtras(doc.getRoot().listNodes()[0]).carnivores as
    | { sounds?: { name: string }[]; animations?: { sound: number | null }[] }
    | undefined;
const soundNames = (doc: Document) => summary(doc)?.sounds?.map((s) => s.name);
const clipSounds = (doc: Document) => summary(doc)?.animations?.map((a) => a.sound);
/** The time of clip `clip`'s last keyframe, in seconds (to the millisecond). */
const lastTime = (doc: Document, clip: number) => {
  const input = doc.getRoot().listAnimations()[clip]?.listSamplers()[0]?.getInput();
  return input ? Math.round(input.getScalar(input.getCount() - 1) * 1000) / 1000 : undefined;
};
const expectEqual = (what: string, found: unknown, expected: unknown) =>
  JSON.stringify(found) === JSON.stringify(expected)
    ? undefined
    : `${what}: ${JSON.stringify(found)}, expected ${JSON.stringify(expected)}`;

/** A model of 2–6 boxes, one per bone, bones chained or fanned at random. */
function boxes(
  random: () => number,
): { faces: FaceSpec[]; points: number[][]; owners: number[]; bones: Bone[] } {
  const n = 2 + Math.floor(random() * 5);
  const points: number[][] = [], owners: number[] = [], faces: FaceSpec[] = [], bones: Bone[] = [];
  for (let b = 0; b < n; b++) {
    const centre = [b * 6 - 10, 4 + random() * 10, random() * 8 - 4];
    addBox(points, owners, faces, centre, 1 + random() * 2, b, random() < 0.2 ? 1 : 0);
    bones.push({
      name: `bone${b}`,
      pivot: [centre[0], centre[1] - 2, centre[2]],
      parent: b === 0 ? -1 : Math.floor(random() * b),
      hide: 0,
    });
  }
  for (const face of faces) {
    face.uv = [[random() * 255 | 0, random() * 63 | 0], [random() * 255 | 0, random() * 63 | 0], [
      random() * 255 | 0,
      random() * 63 | 0,
    ]];
  }
  return { faces, points, owners, bones };
}

const TEXTURE = texture(64, (x, y) => ((x >> 3) << 10) | ((y >> 1) << 5) | 9);

/** Picks `k` distinct indices below `n`. */
function pick(random: () => number, n: number, k: number): number[] {
  const out = new Set<number>();
  while (out.size < Math.min(k, n)) out.add(Math.floor(random() * n));
  return [...out].sort((a, b) => a - b);
}

/** The case of `habit` for `seed`. */
export function toolCase(habit: ToolHabit, seed: number): ToolCase {
  const random = seeded(seed * 7919 + TOOL_HABITS.indexOf(habit) * 104729 + 1);
  const { faces, points, owners, bones } = boxes(random);
  const asCar = random() < 0.5;
  const model3df = (): Model3df => ({
    faces: faceTable(faces),
    points: pointTable(points, owners),
    bones,
    texture: TEXTURE,
  });
  const car = (animations: CarModel["animations"], name = "Raptor", msc = "msc: 2"): CarModel => ({
    name,
    msc,
    faces: faceTable(faces),
    points: pointTable(points, owners),
    texture: TEXTURE,
    animations,
    sounds: [],
    animSounds: new Int32Array(64).fill(-1),
  });
  const table = pointTable(points, owners);
  const clip = (name: string, c: number, frames = 2 + Math.floor(random() * 6)) =>
    animation(name, 8 + Math.floor(random() * 12), frames, table, c);
  const encode = (format: "3df" | "car") =>
    format === "3df" ? encode3df(model3df()) : encodeCar(car([clip("walk", 0), clip("run", 1)]));
  const base = { habit, seed };

  switch (habit) {
    case "face_sentinel_65535":
    case "face_minus_one":
    case "face_past_points": {
      // An editor deleted vertices and left the faces that used them pointing at the sentinel it uses
      // for "none" (uint16 65535, or int32 -1), or at their old indices past the shortened table.
      const bad = pick(random, faces.length, 1 + Math.floor(random() * 3));
      const value = habit === "face_sentinel_65535" ? 65535 : habit === "face_minus_one" ? -1 : undefined;
      for (const f of bad) {
        const corner = Math.floor(random() * 3);
        faces[f].v[corner] = value ?? points.length + Math.floor(random() * 40);
      }
      const format = asCar ? "car" : "3df";
      const kept = faces.length - bad.length;
      return {
        ...base,
        format,
        bytes: encode(format),
        expect: {
          scene: true,
          warning: /vertex ind(ex|ices)/,
          check: (doc) => expectEqual("triangles", triangles(doc), kept),
        },
      };
    }
    case "zero_frame_clip": {
      // CarnivoresIO writes an action with no keyframes as a clip of 0 frames.
      const at = Math.floor(random() * 3);
      const list = [clip("walk", 0), clip("run", 1), clip("idle", 2)];
      list.splice(at, 0, { name: "empty", kps: 10, frameCount: 0, positions: new Int16Array(0) });
      return {
        ...base,
        format: "car",
        bytes: encodeCar(car(list)),
        expect: {
          scene: true,
          warning: /no frames|0 frames/,
          check: (doc) => expectEqual("clips", clips(doc), ["walk", "run", "idle"]),
        },
      };
    }
    case "frames_past_file": {
      // The last clip's frame count edited by hand (or a tool's int16 frame count sign-extended) past
      // the data: the file ends inside it.
      const walk = clip("walk", 0);
      const bytes = encodeCar(car([walk, clip("run", 1)]));
      const lastClipHeader = 52 + faces.length * 64 + points.length * 16 + TEXTURE.words.length * 2 + 40 +
        walk.positions.length * 2;
      const raised = 1000 + Math.floor(random() * 100000);
      new DataView(bytes.buffer).setInt32(lastClipHeader + 36, raised, true);
      return {
        ...base,
        format: "car",
        bytes: bytes.subarray(0, bytes.length - 256),
        expect: {
          scene: true,
          warning: /ends? .*inside|past the (end|file)/,
          check: (doc) => expectEqual("clips", clips(doc), ["walk"]),
        },
      };
    }
    case "frames_off_by_one": {
      // A converter that stores the frame count as a .rsc does (one less), or one more, on the first
      // of two or three clips: the game reads the next clip's header from frame data.
      const list = [clip("walk", 0), clip("run", 1), clip("idle", 2)].slice(0, 2 + Math.floor(random() * 2));
      const bytes = encodeCar(car(list));
      const at = 52 + faces.length * 64 + points.length * 16 + TEXTURE.words.length * 2 + 36;
      new DataView(bytes.buffer).setInt32(at, list[0].frameCount + (random() < 0.5 ? -1 : 1), true);
      return {
        ...base,
        format: "car",
        bytes,
        expect: {
          scene: true,
          warning: /animation 0 stores \d+ frame/,
          // Every clip read whole: the first with the frames its data hold, no header from frame data.
          check: (doc) =>
            expectEqual("clips", clips(doc), list.map((c) => c.name)) ??
              expectEqual("walk keyframes", keyframes(doc, 0), list[0].frameCount),
        },
      };
    }
    case "self_parent":
    case "parent_cycle": {
      const b = 1 + Math.floor(random() * (bones.length - 1));
      if (habit === "self_parent") bones[b] = { ...bones[b], parent: b };
      else {
        // b's parent chain leads back to b: a → … → b → a.
        const a = Math.floor(random() * b);
        bones[a] = { ...bones[a], parent: b };
        bones[b] = { ...bones[b], parent: a };
      }
      return {
        ...base,
        format: "3df",
        bytes: encode3df(model3df()),
        expect: {
          scene: true,
          warning: habit === "self_parent" ? /itself|own parent/ : /cycle|loop/,
          check: (doc) =>
            expectEqual("joints", doc.getRoot().listSkins()[0]?.listJoints().length, bones.length),
        },
      };
    }
    case "vtl_other_vertex_count": {
      // One .vtl exported from another version of the mesh (a box added or removed since).
      const other = points.length + (random() < 0.5 ? -8 : 8);
      const otherTable = pointTable(
        Array.from({ length: other }, (_, i) => points[i % points.length]),
      );
      const layout = random() < 0.5 ? "animator" : "engine";
      return {
        ...base,
        format: "3df",
        bytes: encode3df(model3df()),
        vtls: {
          "a_walk.vtl": encodeVtl(clip("a_walk", 0), { layout }),
          "b_old.vtl": encodeVtl(animation("b_old", 10, 3, otherTable, 1), { layout }),
          "c_run.vtl": encodeVtl(clip("c_run", 2), { layout }),
        },
        expect: {
          scene: true,
          warning: new RegExp(`b_old\\.vtl.*${other}`),
          check: (doc) => expectEqual("clips", clips(doc), ["a_walk", "c_run"]),
        },
      };
    }
    case "vtl_cut": {
      // One .vtl cut short by an interrupted copy: its header is whole, its frames end early.
      const layout = random() < 0.5 ? "animator" : "engine";
      const whole = encodeVtl(clip("b_cut", 1), { layout });
      const header = layout === "animator" ? 12 : 16;
      const cutAt = header + 1 + Math.floor(random() * (whole.length - header - 2));
      return {
        ...base,
        format: "3df",
        bytes: encode3df(model3df()),
        vtls: {
          "a_walk.vtl": encodeVtl(clip("a_walk", 0), { layout }),
          "b_cut.vtl": whole.subarray(0, cutAt),
          "c_run.vtl": encodeVtl(clip("c_run", 2), { layout }),
        },
        expect: {
          scene: true,
          warning: /b_cut\.vtl: the file ends .* cut short; the clip is skipped/,
          check: (doc) => expectEqual("clips", clips(doc), ["a_walk", "c_run"]),
        },
      };
    }
    case "rsc_face_sentinel": {
      // An area whose first object went through a 3DF editor that deleted vertices (see above).
      const model = model3df();
      const bad = pick(random, faces.length, 1 + Math.floor(random() * 3));
      for (const f of bad) {
        model.faces.indices[f * 3 + Math.floor(random() * 3)] = random() < 0.5 ? 65535 : -1;
      }
      const area = rscArea(random() < 0.5 ? "c1" : "c2");
      return {
        ...base,
        format: "rsc",
        bytes: encodeRsc({ ...area, objects: [{ model }, ...area.objects.slice(1)] }),
        expect: {
          scene: true,
          warning: /^object 0: .* vertex index/,
          check: (doc) =>
            expectEqual("obj_00 triangles", nodeTriangles(doc, "obj_00"), faces.length - bad.length),
        },
      };
    }
    case "rsc_animation_other_count": {
      // An animated object re-exported with another vertex count, its old animation block kept.
      const area = rscArea(random() < 0.5 ? "c1" : "c2");
      const objects = area.objects.map((o) =>
        o.animation
          ? {
            ...o,
            animationVertexCount: 3,
            animation: animation("", 10, 2, pointTable([[0, 0, 0], [1, 0, 0], [0, 1, 0]]), 0),
          }
          : o
      );
      return {
        ...base,
        format: "rsc",
        bytes: encodeRsc({ ...area, objects }),
        expect: {
          scene: true,
          warning: /animation's vertex count 3 .* is not the object's/,
          check: (doc) =>
            expectEqual("animations", doc.getRoot().listAnimations().length, 0) ??
              expectEqual(
                "objects",
                doc.getRoot().listNodes().filter((n) => /^obj_\d+$/.test(n.getName())).length,
                3,
              ),
        },
      };
    }
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
        ...base,
        format: "car",
        bytes,
        expect: {
          scene: true,
          warning: new RegExp(`animation ${off[0]} stores \\d+ frame`),
          check: (doc) =>
            expectEqual("clips", clips(doc), list.map((c) => c.name)) ??
              expectEqual(
                "keyframes",
                list.map((_, i) => keyframes(doc, i)),
                list.map((c) => c.frameCount),
              ),
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
          ...base,
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
        ...base,
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
        ...base,
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
        ...base,
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
        ...base,
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
        ...base,
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
        ...base,
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
        ...base,
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
    case "ice_age_name":
    case "c2_name": {
      const name = habit === "ice_age_name"
        ? "Woolly Mammoth Bulls".slice(0, 14 + Math.floor(random() * 7))
        : "Velociraptor";
      const bytes = encodeCar(car([clip("walk", 0)], name, "msc: 4"));
      if (habit === "ice_age_name") {
        // Ice Age keeps 'msc: N' at byte 20.
        bytes.fill(0, 20, 32);
        bytes.set(new TextEncoder().encode(name.padEnd(20, "\0").slice(0, 20)), 0);
        bytes.set(new TextEncoder().encode("msc: 4\0: 5"), 20);
      }
      return {
        ...base,
        format: "car",
        bytes,
        expect: {
          scene: true,
          check: (doc) => expectEqual("node", doc.getRoot().listNodes()[0]?.getName(), name.trimEnd()),
        },
      };
    }
  }
}

/** Every habit for seeds `first` … `first + count − 1`. */
export function* toolCases(first: number, count: number): Generator<ToolCase> {
  for (const habit of TOOL_HABITS) for (let s = first; s < first + count; s++) yield toolCase(habit, s);
}

/** How a decode of a case came out. */
export type Outcome = "right" | "silent" | "wrong" | "refused" | "crash";

/**
 * Runs a case through `decode.3df`/`decode.car` → `constraints.resolve` → `export.gltf` and grades
 * it: `crash` (an error that is not a `DecodeError`), `refused` (a `DecodeError` where a scene was
 * due, or a scene where an error was), `silent` (a scene without the due warning, or with warnings
 * where none was due), `wrong` (a scene that misses what it must hold), `right`.
 */
export async function outcomeOf(c: ToolCase): Promise<{ outcome: Outcome; detail: string }> {
  const ctx = testContext();
  try {
    let input = { bytes: { bytes: c.bytes, name: `model.${c.format}` } };
    let params = {};
    if (c.vtls) {
      const dir = await tempDir();
      await Deno.writeFile(join(dir, input.bytes.name), c.bytes);
      for (const [name, bytes] of Object.entries(c.vtls)) await Deno.writeFile(join(dir, name), bytes);
      params = { animations: [join(dir, "*.vtl")] };
      input = { bytes: { bytes: c.bytes, name: join(dir, input.bytes.name) } };
    }
    const decoded = (await runNode(
      c.format === "3df" ? decode3df : c.format === "car" ? decodeCar : decodeRsc,
      input,
      params,
      ctx,
    ))
      .scene as Document;
    const resolved = (await runNode(constraintsResolve, { scene: decoded }, {}, ctx)).scene as Document;
    const warnings = ctx.warnings.map((w) => w.message);
    // Export runs for crashes only: its own notes (viewer compatibility) are not the decoder's.
    await runNode(exportGltf, { scene: resolved }, {}, testContext());
    if (!c.expect.scene) return { outcome: "refused", detail: "a scene where an error was due" };
    const { warning } = c.expect;
    if (warning ? !warnings.some((w) => warning.test(w)) : warnings.length) {
      return { outcome: "silent", detail: `${warning ?? "no warning"} in: ${warnings.join(" | ")}` };
    }
    const problem = c.expect.check(resolved);
    return problem ? { outcome: "wrong", detail: problem } : { outcome: "right", detail: "" };
  } catch (error) {
    if (!(error instanceof DecodeError)) return { outcome: "crash", detail: String(error) };
    if (c.expect.scene) return { outcome: "refused", detail: error.message };
    return c.expect.error.test(error.message)
      ? { outcome: "right", detail: "" }
      : { outcome: "wrong", detail: error.message };
  }
}
