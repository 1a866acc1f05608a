/**
 * Messy Carnivores files as they exist in users' hands — retail C1/C2/Ice Age models and ones written
 * by community editors and converters (C3Dit, CarnivoresIO, Animator) — each built in code and run
 * through `decode.3df`/`decode.car` → `constraints.resolve` → `export.gltf`: the GLB validates, every
 * repair is named in a warning, and what is damage rather than mess stays a `DecodeError` with its
 * byte offset. Evidence for each case is in its comment (the engine's loaders, `Resources.cpp`;
 * the C2 MEE port's loader tests; CarnivoresIO's validator).
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { decodeCar } from "../../../../nodes/decode/carnivores/decode_car.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { readGltf } from "../../../../runtime/scene/gltf_io.ts";
import { encode3df, encodeCar } from "../../../support/carnivores/encode.ts";
import type { Bone, CarModel, Model3df } from "../../../../nodes/decode/carnivores/codec/model.ts";
import {
  addBox,
  animatedCar,
  animation,
  type FaceSpec,
  faceTable,
  limbModel,
  pointTable,
  texture,
} from "./fixtures.ts";
import { faceCorners, modelNode, summaryOf } from "./probe.ts";

/** One messy file: its bytes, the warnings it must give (none when absent), and what the output holds. */
interface MessyCase {
  readonly name: string;
  readonly format: "3df" | "car";
  readonly bytes: () => Uint8Array;
  /** Each pattern must match one warning; with none, the decode must be silent. */
  readonly warning?: RegExp | RegExp[];
  /** When set, the file is damage: a `DecodeError` whose message matches. */
  readonly error?: RegExp;
  readonly check?: (out: Document) => void;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
/** A `.3df` model whose fields and bones a case may overwrite. */
type Editable3df = Mutable<Omit<Model3df, "bones">> & { bones: Mutable<Bone>[] };
/** A `.car` model whose fields a case may overwrite. */
type EditableCar = Mutable<Omit<CarModel, "animations" | "sounds">> & {
  animations: CarModel["animations"][number][];
  sounds: CarModel["sounds"][number][];
};

/** The limb `.3df` with its own copy of the bone table, edited. */
function limb(edit: (m: Editable3df) => void): Uint8Array {
  const model = limbModel();
  const copy: Editable3df = { ...model, bones: model.bones.map((b) => ({ ...b })) };
  edit(copy);
  return encode3df(copy);
}

/** The two-box `.car`, edited. */
function car(edit: (m: EditableCar) => void): Uint8Array {
  const base = animatedCar();
  const model: EditableCar = { ...base, animations: [...base.animations], sounds: [...base.sounds] };
  edit(model);
  return encodeCar(model);
}

/** Bytes with `extra` zero bytes appended, or the last `-extra` bytes cut. */
function resized(bytes: Uint8Array, extra: number): Uint8Array {
  const out = new Uint8Array(bytes.length + extra);
  out.set(extra >= 0 ? bytes : bytes.subarray(0, out.length));
  return out;
}

const joints = (out: Document) => out.getRoot().listSkins()[0].listJoints();
const animationNames = (out: Document) => out.getRoot().listAnimations().map((a) => a.getName());
const times = (out: Document, clip: number) =>
  Array.from(out.getRoot().listAnimations()[clip].listSamplers()[0].getInput()!.getArray()!);

const CASES: MessyCase[] = [
  // Face flags: real files hold 0, 1, 4, 5, 12, 16; editors set any bit (C3Dit's flag editor,
  // CarnivoresIO's face-flag panel), and some write the loader's own sfNeedVC (0x80). The game culls
  // a back face when Flags & (sfDarkBack | sfNeedVC), so 0x3, 0x81 and 0xffff are single-sided.
  ...([
    [0x5, "MASK", true],
    [0xc, "BLEND", false],
    [0x9, "BLEND", true],
    [0xd, "BLEND", true],
    [0x2, "OPAQUE", false],
    [0x3, "OPAQUE", false],
    [0x80, "OPAQUE", false],
    [0x81, "OPAQUE", false],
    [0x8001, "OPAQUE", true],
    [0x8000, "OPAQUE", false],
    [0x30, "OPAQUE", false],
    [0x51, "OPAQUE", true],
    [0xffff, "BLEND", false],
  ] as const).map(([flags, alpha, doubleSided]): MessyCase => ({
    name: `every face with flags 0x${flags.toString(16)}`,
    format: "3df",
    bytes: () => limb((m) => m.faces.flags.fill(flags)),
    // Bits 8–14 have no meaning in any game (io_carnivores writes its "Dark" as 0x100): named, ignored.
    warning: flags & 0x7f00 ? /48 face\(s\) carry flag bits no game defines \(0x7f00;/ : undefined,
    check: (out) => {
      const material = modelNode(out).getMesh()!.listPrimitives()[0].getMaterial()!;
      assert.equal(material.getAlphaMode(), alpha);
      assert.equal(material.getDoubleSided(), doubleSided);
    },
  })),
  {
    // CarnivoresIO treats owner -1 as "unowned"; the game ignores bones altogether.
    name: "a point whose owner is -1",
    format: "3df",
    bytes: () => limb((m) => m.points.owners[0] = -1),
    warning: /1 vertex owner\(s\) are -1 \(0xFFFF, 'no bone'.*bound to the root bone '\w+' \(bone 0\)/,
  },
  {
    name: "a point whose owner is past the bone count",
    format: "3df",
    bytes: () => limb((m) => m.points.owners[3] = 9),
    warning: /1 vertex owner\(s\) name no bone/,
  },
  {
    name: "owners -1 and 7 without a bone table: a static mesh",
    format: "3df",
    bytes: () =>
      limb((m) => {
        m.bones = [];
        m.points.owners[0] = -1;
        m.points.owners[1] = 7;
      }),
    // Owner -1 is "no bone"; the others name bones the file lacks (decode.3df v21 names them).
    warning: /25 point\(s\) name bones \(1, 2, 3, 7\) but the file has no bone table/,
    check: (out) => assert.equal(out.getRoot().listSkins().length, 0),
  },
  {
    name: "a bone that is its own parent",
    format: "3df",
    bytes: () => limb((m) => m.bones[1].parent = 1),
    warning: /bone 1 'ankle': parent 1 is itself; made a root/,
  },
  ...[-2, 4, 32767].map((parent): MessyCase => ({
    name: `a bone whose parent index is ${parent}`,
    format: "3df",
    bytes: () => limb((m) => m.bones[3].parent = parent),
    warning: new RegExp(`bone 3 'tail': parent ${parent} is out of range; made a root`),
    check: (out) => assert.equal(joints(out).length, 4),
  })),
  {
    name: "bone parents in a cycle",
    format: "3df",
    bytes: () => limb((m) => m.bones[0].parent = 2),
    warning: /cycle \(0 'hip' → 2 'knee' → 0 'hip'\); bone 0 made a root/,
  },
  {
    // Names repeat in retail files (palm4b.3df has three "Leaf1"); editors leave them empty.
    name: "empty and repeated bone names",
    format: "3df",
    bytes: () =>
      limb((m) => {
        m.bones[0].name = "";
        m.bones[1].name = "knee";
      }),
    check: (out) => {
      const names = joints(out).map((j) => j.getName());
      assert.deepEqual(names.slice(1), ["knee_1", "knee", "tail"]);
      // export.gltf (v26) gives an unnamed node a stable derived name of its own, apart from the others.
      assert.ok(names[0] !== "" && !names.slice(1).includes(names[0]), names[0]);
    },
  },
  {
    name: "a bone pivot that is NaN",
    format: "3df",
    bytes: () => limb((m) => m.bones[1].pivot = [NaN, 0, 0]),
    warning: /1 bone pivot\(s\) missing or far from their vertices.*1 'ankle'/,
  },
  // Texture heights: retail files hold 32–256 rows; converters write any whole number of rows.
  ...[1, 3, 255].map((height): MessyCase => ({
    name: `a texture of ${height} row(s)`,
    format: "3df",
    bytes: () => limb((m) => m.texture = texture(height, (x, y) => (x + y) & 0x7fff)),
    check: (out) => assert.equal(summaryOf(out).texture.height, height),
  })),
  {
    name: "a texture of 257 rows (past the engine's 256)",
    format: "3df",
    bytes: () => limb((m) => m.texture = texture(257, (x) => x)),
    warning: /texture has 257 rows; the engine holds 256/,
  },
  {
    name: "a texture size that is not whole rows (the engine's >> 9)",
    format: "3df",
    bytes: () => {
      const bytes = resized(limb(() => {}), 100);
      new DataView(bytes.buffer).setInt32(12, 2 * 512 + 100, true);
      return bytes;
    },
    warning: /texture size 1124 is not a multiple of 512; the last 100 byte\(s\) are ignored/,
  },
  {
    // A retail .car has faces whose v texel equals the height; the D3D path divides texels by 256
    // with no half-texel offset, so 256 and H are the image's right and bottom edges.
    name: "texels on the right and bottom edges (u = 256, v = H)",
    format: "3df",
    bytes: () =>
      limb((m) => {
        m.faces.texels[0] = 256;
        m.faces.texels[1] = 2;
      }),
    check: (out) => {
      const uv = faceCorners(modelNode(out).getMesh()!, 0)[0].uv!;
      assert.deepEqual(uv, [1, 1]);
    },
  },
  {
    name: "texels past the edges are clamped to them",
    format: "3df",
    bytes: () =>
      limb((m) => {
        m.faces.texels[0] = -3;
        m.faces.texels[1] = -9;
      }),
    warning: /1 face corner\(s\) have texel coordinates outside \[0, 256\]×\[0, 2\]; clamped/,
    check: (out) => assert.deepEqual(faceCorners(modelNode(out).getMesh()!, 0)[0].uv!, [0, 0]),
  },
  {
    // A converter cropped the texture to 64 rows, the UVs still reach row 128. The hardware renderers
    // pad every texture with zero rows to 256: those faces show texel 0x0000, keyed here (the model
    // has an sfOpacity face), so transparent. Before v7 they were clamped to the last stored row.
    name: "a .car whose faces sample rows past its cropped 64-row texture",
    format: "car",
    bytes: () =>
      car((m) => {
        m.texture = texture(64, () => 0x7fff);
        m.faces.flags[2] = 0x4;
        m.faces.texels[5 * 6 + 3] = 128; // face 5, corner 2, v: byte 52 + 5·64 + 28 = 400
      }),
    warning:
      /1 face corner\(s\) sample texture rows past the texture's 64 \(v up to 128; the first is face 5 corner 2 at byte 400\).* rows 64–127 are added/,
    check: (out) => {
      assert.deepEqual(summaryOf(out).texture, {
        width: 256,
        height: 64,
        image_height: 128,
        colour_key: true,
      });
      const uv = faceCorners(modelNode(out).getMesh()!, 5)[1].uv!;
      assert.equal(uv[1], 1);
    },
  },
  {
    name: "a degenerate face (a vertex index repeated)",
    format: "3df",
    bytes: () => limb((m) => m.faces.indices[1] = m.faces.indices[0]),
  },
  {
    name: "points with the editor's hide flag set",
    format: "3df",
    bytes: () => limb((m) => m.points.hides.fill(1)),
  },
  {
    name: "bytes after the texture",
    format: "3df",
    bytes: () => resized(limb(() => {}), 7),
    warning: /7 byte\(s\) after the texture are ignored/,
  },
  {
    // LoadModelEx reads what there is into a zeroed buffer of the declared height; C3Dit reads on.
    name: "a texture the file ends inside (an old tool or a download cut it)",
    format: "3df",
    bytes: () => resized(limb(() => {}), -100),
    warning:
      /ends 924 byte\(s\) into the 1024-byte texture at byte 3792: the last 50 of 512 texels are 0x0000/,
    check: (out) => assert.equal(summaryOf(out).texture.height, 2),
  },
  // No texture (size 0, or under one row): LoadModel / LoadCharacterInfo read every texture into a
  // zeroed 256-row buffer in the hardware renderers, so the faces show texel 0x0000 — black, and
  // nothing where GenerateAlphaFlags keys it (any sfOpacity face). Before v7: white, silently.
  ...([
    ["3df", 0x0, [0, 0, 0, 1]],
    ["3df", 0x4, [0, 0, 0, 0]],
    ["car", 0x0, [0, 0, 0, 1]],
  ] as const).map(([format, flags, factor]): MessyCase => ({
    name: `a ${format} without a texture (size 0), faces flagged 0x${flags.toString(16)}`,
    format,
    bytes: () =>
      format === "3df"
        ? limb((m) => Object.assign(m, { texture: undefined }).faces.flags.fill(flags))
        : car((m) => Object.assign(m, { texture: undefined }).faces.flags.fill(flags)),
    warning: new RegExp(
      `texture size 0 at byte ${format === "3df" ? 12 : 48} holds no whole row: the game draws the faces ` +
        "from its zeroed 256-row texture buffer, black",
    ),
    check: (out) => {
      assert.equal(out.getRoot().listTextures().length, 0);
      for (const primitive of modelNode(out).getMesh()!.listPrimitives()) {
        assert.deepEqual(primitive.getMaterial()!.getBaseColorFactor(), factor);
      }
    },
  })),
  {
    name: "a cut texture whose declared height is past the engine's 256 rows (a wrong size field)",
    format: "3df",
    bytes: () => {
      const bytes = resized(limb(() => {}), -100);
      new DataView(bytes.buffer).setInt32(12, 300 * 512, true);
      return bytes;
    },
    error: /3df .*at byte 3792: expected 153600 bytes of texture/,
  },
  {
    // The engine's TModel arrays hold 1024; CarnivoresIO and the C2 MEE port accept more.
    name: "a model over the engine's 1024 vertices and faces",
    format: "3df",
    bytes: () => {
      const points: number[][] = [];
      const owners: number[] = [];
      const faces: FaceSpec[] = [];
      for (let i = 0; i < 130; i++) addBox(points, owners, faces, [i * 5, 0, 0], 2, i % 4);
      return limb((m) => Object.assign(m, { faces: faceTable(faces), points: pointTable(points, owners) }));
    },
    warning: [/1040 vertices exceed the engine's 1024/, /1560 faces exceed the engine's 1024/],
  },
  // .car
  {
    name: "a clip with no frames",
    format: "car",
    bytes: () =>
      car((m) => m.animations[1] = { ...m.animations[1], frameCount: 0, positions: new Int16Array(0) }),
    warning: /animation 'idle' has no frames; it is skipped/,
    check: (out) => assert.deepEqual(animationNames(out), ["walk"]),
  },
  {
    // AniTime = 1000/KPS ms in the game; the C2 MEE port repeats the frame to play it.
    name: "a clip of one frame lasts 1000/KPS ms",
    format: "car",
    bytes: () => car((m) => m.animations[1] = animation("idle", 20, 1, m.points, 1)),
    check: (out) => {
      assert.deepEqual(times(out, 1).map((t) => Math.round(t * 1e6) / 1e6), [0, 0.05]);
      const output = out.getRoot().listAnimations()[1].listSamplers()[0].getOutput()!;
      const targets = output.getCount() / 2;
      assert.equal(output.getScalar(5), 1, "frame 0 at the start");
      assert.equal(output.getScalar(targets + 5), 1, "and still at the end");
    },
  },
  ...[1, 1000, 5000].map((kps): MessyCase => ({
    name: `KPS ${kps} (the C2 MEE port accepts any KPS giving AniTime ≥ 1 ms)`,
    format: "car",
    bytes: () => car((m) => m.animations[0] = { ...m.animations[0], kps }),
    // 5 frames in 5 ms or 1 ms: shorter than a 24 fps viewer's frame, so named, but timed as the game.
    warning: Math.floor(5000 / kps) < 1000 / 24
      ? /animation 0 \('walk'\): 5 frames at \d+ frames per second \(byte 3924\) last \d+ ms, less than one frame/
      : undefined,
    check: (out) => {
      const ms = Math.floor(5000 / kps);
      assert.ok(Math.abs(times(out, 0)[4] - ms / 1000) < 1e-6);
    },
  })),
  {
    // ⌊1000·F / KPS⌋ = 0: the engine divides by AniTime, the C2 MEE port refuses the file.
    name: "a KPS so high that the clip lasts under 1 ms",
    format: "car",
    bytes: () => car((m) => m.animations[0] = { ...m.animations[0], kps: 0x7fffffff }),
    warning:
      /animation 0 \('walk'\) has 2147483647 frames per second at byte 3924: .* = 0 ms, .* timed at 1 frame per second/,
    // The game cannot play it: timed at 1 frame per second, like KPS 0, so each frame shows.
    check: (out) => assert.ok(Math.abs(times(out, 0)[4] - 5) < 1e-6),
  },
  {
    // Damage (no tool writes a negative KPS), but the frames are whole: kept at 1 frame per second.
    name: "KPS -5: the clip timed at 1 frame per second",
    format: "car",
    bytes: () => car((m) => m.animations[0] = { ...m.animations[0], kps: -5 }),
    warning: /animation 0 \('walk'\) has -5 frames per second at byte 3924: .* timed at 1 frame per second/,
    check: (out) => assert.ok(Math.abs(times(out, 0)[4] - 5) < 1e-6),
  },
  {
    // CarnivoresIO stores a KPS property of 0 as is, and bakes that clip's frames 1 s apart.
    name: "KPS 0 (CarnivoresIO): timed at 1 frame per second",
    format: "car",
    bytes: () => car((m) => m.animations[0] = { ...m.animations[0], kps: 0 }),
    warning: /animation 0 \('walk'\) has 0 frames per second at byte 3924: .* timed at 1 frame per second/,
    // As for any KPS: the clip lasts ⌊1000·F / KPS⌋ ms = 5 s.
    check: (out) => assert.ok(Math.abs(times(out, 0)[4] - 5) < 1e-6),
  },
  ...[3, 0, 11025 * 2 + 1].map((length): MessyCase => ({
    // The C2 MEE port's loader tests play sounds of 0, 10, 11 and 4097 bytes.
    name: `a sound of ${length} bytes`,
    format: "car",
    bytes: () => car((m) => m.sounds[0] = { name: "odd", pcm: new Uint8Array(length) }),
    check: (out) => {
      assert.equal(summaryOf(out).sounds[0].bytes, length);
      assert.equal(summaryOf(out).anim_sound_table.length, 64, "the table after it is read in step");
    },
  })),
  {
    name: "no anim→sound table",
    format: "car",
    bytes: () => car((m) => m.animSounds = undefined),
    check: (out) => assert.equal(summaryOf(out).anim_sound_table, null),
  },
  {
    name: "a short anim→sound table (the engine then uses -1)",
    format: "car",
    bytes: () => resized(car(() => {}), -100),
    warning: /156 byte\(s\) after the sounds are too few for the anim→sound table/,
  },
  {
    name: "anim→sound entries naming missing sounds",
    format: "car",
    bytes: () =>
      car((m) => {
        m.animSounds![0] = 5;
        m.animSounds![1] = -7;
      }),
    warning: [/entry 0 names sound 5, but the file has 1/, /entry 1 names sound -7/],
    check: (out) =>
      assert.deepEqual(summaryOf(out).animations.map((a: { sound: unknown }) => a.sound), [null, null]),
  },
  {
    // The engine reads a short .car into zeroed buffers, CarnivoresIO skips the cut clip: the whole
    // clip before the cut plays, the cut one and the sound after it are gone.
    name: "a .car cut inside its second clip",
    format: "car",
    bytes: () => resized(car(() => {}), -(256 + 42 + 100)),
    warning:
      /inside animation 1 \('idle'\) at byte 4412: .* 188 are left; the clip is dropped; the 1 sound\(s\)/,
    check: (out) => {
      assert.deepEqual(animationNames(out), ["walk"]);
      assert.deepEqual(summaryOf(out).sounds, []);
      assert.equal(summaryOf(out).anim_sound_table, null);
    },
  },
  {
    name: "a .car cut inside its texture: no clip, the missing texels black",
    format: "car",
    bytes: () => resized(car(() => {}), -(5038 - 1844 - 1000)),
    warning: [
      /the last 524 of 1024 texels are 0x0000/,
      /inside the texture at byte 1844: nothing follows it; the 2 animation/,
    ],
    check: (out) => {
      assert.deepEqual(animationNames(out), []);
      assert.equal(summaryOf(out).texture.height, 4);
    },
  },
  {
    name: "bytes after the anim→sound table",
    format: "car",
    bytes: () => resized(car(() => {}), 9),
    warning: /9 byte\(s\) after the anim→sound table are ignored/,
  },
  {
    // CarnivoresIO imports empty clip names as placeholders.
    name: "clips with empty names",
    format: "car",
    bytes: () => car((m) => m.animations.forEach((a, i) => m.animations[i] = { ...a, name: "" })),
    warning: [/animation 0 has an empty name; it is called 'anim0'/, /animation 1 has an empty name/],
    check: (out) => {
      assert.deepEqual(animationNames(out), ["anim0", "anim1"]);
      assert.deepEqual(
        summaryOf(out).animations.map((a: { name: string }) => a.name),
        ["", ""],
        "stored names",
      );
    },
  },
  {
    name: "a 24-character model name running into its 'msc: N' tail",
    format: "car",
    bytes: () =>
      car((m) => {
        m.name = "Tyrannosaurus Rex Female";
        m.msc = "msc: 3";
      }),
    check: (out) => {
      assert.equal(modelNode(out).getName(), "Tyrannosaurus Rex Female");
      assert.equal(summaryOf(out).msc, "msc: 3");
    },
  },
  {
    // Many Ice Age characters keep "msc: N" at byte 20, not 24 (CarnivoresIO's format notes).
    name: "an Ice Age 20-character name running into 'msc: 4' at byte 20",
    format: "car",
    bytes: () => {
      const bytes = car(() => {});
      bytes.fill(0, 0, 32);
      bytes.set(new TextEncoder().encode("Woolly Mammoth Bullsmsc: 4"));
      return bytes;
    },
    check: (out) => {
      assert.equal(modelNode(out).getName(), "Woolly Mammoth Bulls");
      assert.equal(summaryOf(out).msc, "msc: 4");
    },
  },
  {
    name: "a model name of 0xFF bytes: the file's base name",
    format: "car",
    bytes: () => {
      const bytes = car(() => {});
      bytes.fill(0xff, 0, 32);
      return bytes;
    },
    // Not Cyrillic (0xFF is 'я', but no name is a run of one letter): read as windows-1252, and named.
    warning: /1 name\(s\) hold bytes past ASCII.*model name at byte 0 \('ÿ{32}', windows-1252: ff ff/,
    check: (out) => assert.equal(modelNode(out).getName(), "m"),
  },
  {
    name: "a point whose owner is -1 (a .car keeps owners as group ids)",
    format: "car",
    bytes: () => car((m) => m.points.owners[0] = -1),
  },
  {
    // The C2 MEE port loads a character with no faces.
    name: "a character without faces",
    format: "car",
    bytes: () => car((m) => m.faces = faceTable([])),
    warning: /the model has no faces; the scene has no mesh/,
  },
  {
    name: "65 clips, past the engine's 64",
    format: "car",
    bytes: () =>
      car((m) => m.animations = Array.from({ length: 65 }, (_, i) => animation(`a${i}`, 10, 1, m.points, 0))),
    warning: /65 animations \/ 1 sounds exceed the engine's 64/,
    check: (out) => assert.equal(out.getRoot().listAnimations().length, 65),
  },
  {
    name: "frame positions at the int16 extremes",
    format: "car",
    bytes: () => car((m) => m.animations[0].positions.fill(-32768)),
  },
];

for (const messy of CASES) {
  Deno.test(`messy Carnivores: ${messy.name}`, async () => {
    const ctx = testContext();
    const decode = messy.format === "3df" ? decode3df : decodeCar;
    const input = { bytes: { bytes: messy.bytes(), name: `m.${messy.format}` } };
    if (messy.error) {
      await assert.rejects(() => runNode(decode, input, {}, ctx), (e: unknown) => {
        assert.ok(e instanceof DecodeError, String(e));
        assert.match(e.message, messy.error!);
        return true;
      });
      return;
    }
    const decoded = (await runNode(decode, input, {}, ctx)).scene as Document;
    const resolved = (await runNode(constraintsResolve, { scene: decoded }, {}, ctx)).scene as Document;
    // The export's own notes (what a viewer drops) are not the decoder's warnings.
    const out = (await runNode(exportGltf, { scene: resolved }, {}, testContext())).bytes.bytes as Uint8Array;
    const report = await validateGltf(out);
    assert.equal(report.errors, 0, report.messages.join("\n"));
    const warnings = ctx.warnings.map((w) => w.message);
    const patterns = [messy.warning ?? []].flat();
    if (!patterns.length) assert.deepEqual(warnings, []);
    for (const pattern of patterns) {
      assert.ok(warnings.some((w) => pattern.test(w)), `${pattern} in\n${warnings.join("\n")}`);
    }
    // Parser repairs name their byte offset.
    for (const w of ctx.warnings) {
      if (/byte\(s\)|texture size|exceed|empty name|frames per second|no frames|file ends/.test(w.message)) {
        assert.equal(typeof w.detail?.offset, "number", `offset of '${w.message}'`);
      }
    }
    messy.check?.(await readGltf(out));
  });
}
