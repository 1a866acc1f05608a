/**
 * `.3df`/`.car` parsing: encoder round trips, exact-size sniffing, and every kind of bad input —
 * a typed DecodeError at the right byte offset, or a warning where the game tolerates it.
 */
import assert from "node:assert/strict";
import { DecodeError } from "../../../../runtime/errors.ts";
import { encode3df, encodeCar } from "../../../support/carnivores/encode.ts";
import { is3df } from "../../../../nodes/decode/carnivores/codec/parse_3df.ts";
import { parse3df, parseCar } from "./parse.ts";
import { isCar } from "../../../../nodes/decode/carnivores/codec/parse_car.ts";
import { decodeAuto } from "../../../../nodes/decode/auto.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { animatedCar, limbModel } from "./fixtures.ts";
import { summaryOf } from "./probe.ts";

/** Offsets computed from the layout in the format notes, independently of the parser. */
function layout3df(v: number, f: number, b: number) {
  const faces = 16;
  const points = faces + 64 * f;
  const bones = points + 16 * v;
  const texture = bones + 48 * b;
  return { faces, points, bones, texture };
}

function setI32(bytes: Uint8Array, offset: number, value: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setInt32(offset, value, true);
  return copy;
}

function setF32(bytes: Uint8Array, offset: number, value: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setFloat32(offset, value, true);
  return copy;
}

function assertDecodeError(fn: () => unknown, format: string, offset: number, pattern?: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof DecodeError, `expected DecodeError, got ${e}`);
    assert.equal(e.format, format);
    assert.deepEqual(e.at, { offset }, e.message);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}

Deno.test("3df: encode → parse gives the model back, without warnings", () => {
  const model = limbModel();
  const { model: back, warnings } = parse3df(encode3df(model));
  assert.deepEqual(warnings, []);
  assert.deepEqual(back, model);
});

Deno.test("car: encode → parse gives the model back, sounds and anim→sound table included", () => {
  const model = animatedCar();
  const { model: back, warnings } = parseCar(encodeCar(model));
  assert.deepEqual(warnings, []);
  assert.equal(back.name, "Boxes");
  assert.equal(back.msc, "msc: 2");
  assert.deepEqual(back.faces, model.faces);
  assert.deepEqual(back.points, model.points);
  assert.deepEqual(back.texture, model.texture);
  assert.deepEqual(back.animations, model.animations);
  assert.deepEqual(back.sounds.map((s) => [s.name, Array.from(s.pcm)]), [["step", [1, 2, 3, 4, 5, 6]]]);
  assert.deepEqual(back.animSounds, model.animSounds);
});

Deno.test("car: a 24-character name runs into its 'msc: N' tail with no NUL; the two are split at byte 24", () => {
  // The name field is name[24] + "msc: N"[8] by convention (the format notes, A.8): a name that fills
  // its 24 bytes reads on into the tail as one C string.
  const car = { ...animatedCar(), name: "Tyrannosaurus Rex Female", msc: "msc: 3" };
  const bytes = encodeCar(car);
  assert.equal(new TextDecoder().decode(bytes.subarray(0, 30)), "Tyrannosaurus Rex Femalemsc: 3");
  const { model, warnings } = parseCar(bytes);
  assert.deepEqual([model.name, model.msc], ["Tyrannosaurus Rex Female", "msc: 3"]);
  assert.deepEqual(warnings, []);
  // A long name without the tail stays whole.
  const long = parseCar(encodeCar({ ...car, name: "A name of thirty characters!!!", msc: "" })).model;
  assert.deepEqual([long.name, long.msc], ["A name of thirty characters!!!", ""]);
});

/** The `.car` with its 32-byte name field replaced by `field` (latin1, `\0` for NUL, zero-padded). */
function withNameField(field: string): Uint8Array {
  const bytes = encodeCar(animatedCar());
  bytes.fill(0, 0, 32);
  bytes.set(Uint8Array.from(field, (c) => c.charCodeAt(0)), 0);
  return bytes;
}

Deno.test("car: Ice Age's 'msc: N' at byte 20, stray bytes after NULs and junk tails, as retail files hold them", () => {
  // CarnivoresIO's format notes (doc/formats/specifications.md): "msc:" starts at byte 24 in C1/C2
  // files but at byte 20 in many Ice Age ones (Bear.car: "msc: 4\0: 5"); PAR2.CAR's name is
  // "Par2\0e"; X_BOW.CAR's tail "msc: 4\06"; EXPLO.CAR's tail is binary, not an msc string.
  const cases: [string, string, string][] = [
    ["Bear\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0msc: 4\0: 5", "Bear", "msc: 4"],
    // A 20-character Ice Age name runs into its tail with no NUL between.
    ["Woolly Mammoth Bullsmsc: 4", "Woolly Mammoth Bulls", "msc: 4"],
    ["Par2\0e\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0msc: 4\x006", "Par2", "msc: 4"],
    ["Explo\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\xfa\x0f\0\0D\x02", "Explo", ""],
  ];
  for (const [field, name, msc] of cases) {
    const { model, warnings } = parseCar(withNameField(field));
    assert.deepEqual([model.name, model.msc], [name, msc], JSON.stringify(field));
    assert.deepEqual(warnings, []);
  }
});

Deno.test("sniffing is exact: 16 + 64F + 16V + 48B + T == size for 3df, the section walk for car", () => {
  const model = limbModel();
  const bytes = encode3df(model);
  const { faces, points, bones } = model;
  assert.equal(bytes.byteLength, 16 + 64 * faces.count + 16 * points.count + 48 * bones.length + 512 * 2);
  assert.equal(is3df(bytes), true);
  assert.equal(is3df(bytes.subarray(0, bytes.length - 1)), false);
  assert.equal(is3df(new Uint8Array([...bytes, 0])), false);
  assert.equal(is3df(new Uint8Array(16)), false, "an all-zero header is no model");
  assert.equal(is3df(new TextEncoder().encode("glTF\x02\0\0\0...............")), false);
  assert.equal(isCar(bytes), false);

  const car = animatedCar();
  const withTable = encodeCar(car);
  const withoutTable = encodeCar({ ...car, animSounds: undefined });
  assert.equal(withTable.byteLength - withoutTable.byteLength, 256);
  assert.equal(isCar(withTable), true);
  assert.equal(isCar(withoutTable), true);
  assert.equal(isCar(withTable.subarray(0, withTable.length - 3)), false);
  // A damaged (negative) KPS moves nothing: the sections still end exactly, so it is still a .car.
  const kpsAt = 52 + 64 * car.faces.count + 16 * car.points.count + car.texture!.words.length * 2 + 32;
  assert.equal(isCar(setI32(withTable, kpsAt, -5)), true);
  assert.equal(isCar(setI32(withTable, kpsAt + 4, 6)), false); // a wrong frame count: not certain
  assert.equal(is3df(withTable), false);
});

Deno.test("decode.auto picks the Carnivores decoders by size sniff, then by extension", async () => {
  const bytes3df = encode3df(limbModel());
  const byBytes = await runNode(decodeAuto, { bytes: { bytes: bytes3df, name: "model.dat" } });
  assert.equal(summaryOf(byBytes.scene).format, "3df");
  const carBytes = encodeCar(animatedCar());
  const byCarBytes = await runNode(decodeAuto, { bytes: { bytes: carBytes, name: "model.dat" } });
  assert.equal(summaryOf(byCarBytes.scene).format, "car");
  // A trailing byte defeats the sniff; the extension still finds the decoder, which warns.
  const ctx = testContext();
  const trailing = new Uint8Array([...bytes3df, 7]);
  const byName = await runNode(decodeAuto, { bytes: { bytes: trailing, name: "MODEL.3DF" } }, {}, ctx);
  assert.equal(summaryOf(byName.scene).format, "3df");
  assert.equal(ctx.warnings.length, 1);
  assert.match(ctx.warnings[0].message, /1 byte\(s\) after the texture are ignored/);
  assert.equal(ctx.warnings[0].detail?.offset, bytes3df.byteLength);
});

Deno.test("3df: truncation before the texture is a DecodeError at the block that runs past the end", () => {
  const model = limbModel();
  const bytes = encode3df(model);
  const at = layout3df(model.points.count, model.faces.count, model.bones.length);
  assertDecodeError(() => parse3df(bytes.subarray(0, 10)), "3df", 0, /3df header/);
  assertDecodeError(() => parse3df(bytes.subarray(0, at.faces + 100)), "3df", at.faces, /faces/);
  assertDecodeError(() => parse3df(bytes.subarray(0, at.points + 5)), "3df", at.points, /points/);
  assertDecodeError(() => parse3df(bytes.subarray(0, at.bones + 47)), "3df", at.bones, /bones/);
});

Deno.test("3df: a texture the file ends inside keeps its height, the missing texels 0x0000 (the engine's zeroed buffer)", () => {
  // LoadModelEx allocates TextureHeight × 512 zeroed bytes and reads what the file holds; C3Dit reads on
  // too. The 2-row limb texture (512 texels) cut 300 bytes in: 150 texels stored, 362 zero.
  const model = limbModel();
  const bytes = encode3df(model);
  const at = layout3df(model.points.count, model.faces.count, model.bones.length);
  const { model: back, warnings } = parse3df(bytes.subarray(0, at.texture + 300));
  assert.equal(back.texture?.height, 2);
  assert.deepEqual(back.texture?.words.subarray(0, 150), model.texture!.words.subarray(0, 150));
  assert.ok(back.texture!.words.subarray(150).every((w) => w === 0));
  assert.deepEqual(back.faces, model.faces);
  assert.deepEqual(back.bones, model.bones);
  assert.deepEqual(warnings.map((w) => w.offset), [at.texture + 300]);
  assert.match(
    warnings[0].message,
    /ends 300 byte\(s\) into the 1024-byte texture at byte 3792: the last 362 of 512 texels are 0x0000/,
  );
  // Cut where the texture starts: no texel, but the texture keeps its 2 rows, all 0x0000 — the
  // engine's zeroed buffer, which it draws black.
  const none = parse3df(bytes.subarray(0, at.texture));
  assert.equal(none.model.texture?.height, 2);
  assert.ok(none.model.texture!.words.every((w) => w === 0));
  assert.deepEqual(none.warnings.map((w) => w.offset), [at.texture]);
  assert.match(none.warnings[0].message, /there is no texel: all 512 texels are 0x0000 \(black\)/);
  // A height past the engine's 256 rows that the file cannot hold is a damaged size field, not a cut.
  assertDecodeError(
    () => parse3df(setI32(bytes, 12, 257 * 512).subarray(0, at.texture + 1024)),
    "3df",
    at.texture,
    /131584 bytes of texture/,
  );
});

Deno.test("3df: an Animator 3DF ('Kiev' magic) is refused at byte 0 as what it is", () => {
  // Action Forms' Animator saves its own "3DF" that starts with the magic 0x7665694B ("Kiev") and a
  // version (Animator's Load3df; webcarnivores' loader tells the two apart the same way). The games
  // read those four bytes as the vertex count (1,986,357,579) and cannot load it.
  const kiev = setI32(setI32(encode3df(limbModel()), 0, 0x7665694b), 4, 0x100);
  assert.equal(new TextDecoder().decode(kiev.subarray(0, 4)), "Kiev");
  assertDecodeError(
    () => parse3df(kiev),
    "3df",
    0,
    /expected a game \.3df \(vertex count\), found the magic 'Kiev' \(0x7665694B\) of an Animator 3DF/,
  );
});

Deno.test("3df: counts past the file or negative fail before any allocation", () => {
  const bytes = encode3df(limbModel());
  assertDecodeError(() => parse3df(setI32(bytes, 0, -1)), "3df", 0, /vertex count ≥ 0/);
  assertDecodeError(() => parse3df(setI32(bytes, 8, -5)), "3df", 8, /bone count ≥ 0/);
  // 2^31-1 faces would need 128 GiB: refused from the size check alone.
  assertDecodeError(() => parse3df(setI32(bytes, 4, 0x7fffffff)), "3df", 16, /2147483647 faces/);
  const model = limbModel();
  const at = layout3df(model.points.count, model.faces.count, model.bones.length);
  assertDecodeError(() => parse3df(setI32(bytes, 0, 0x7fffffff)), "3df", at.points, /points/);
  assertDecodeError(() => parse3df(setI32(bytes, 12, 0x7ffffe00)), "3df", at.texture, /texture/);
});

Deno.test("3df: a face naming no point is kept but not drawn, with a warning at its byte; most faces so is an error", () => {
  const model = limbModel();
  const bytes = encode3df(model);
  const at = layout3df(model.points.count, model.faces.count, model.bones.length);
  const faceField = at.faces + 3 * 64 + 4; // face 3, second index
  // What a 3DF editor leaves when it deletes a vertex but not its faces: uint16 65535 or -1.
  for (const value of [model.points.count, 65535, -1]) {
    const { model: back, warnings } = parse3df(setI32(bytes, faceField, value));
    assert.deepEqual(Array.from(back.faces.broken ?? []).flatMap((b, f) => b ? [f] : []), [3]);
    assert.equal(back.faces.indices[3 * 3 + 1], value);
    assert.equal(warnings.length, 1, warnings.map((w) => w.message).join("\n"));
    assert.equal(warnings[0].offset, faceField);
    assert.match(
      warnings[0].message,
      new RegExp(
        `^1 of 48 face\\(s\\) name a vertex index outside \\[0, 32\\) \\(${value}; .* not drawn .* face 3, index at byte ${faceField}$`,
      ),
    );
  }
  // More than half the faces: a damaged table, not an editor's leftovers.
  let broken = bytes;
  for (let f = 0; f < 25; f++) broken = setI32(broken, at.faces + f * 64, -1);
  assertDecodeError(
    () => parse3df(broken),
    "3df",
    at.faces,
    /face 0 vertex index in \[0, 32\) \(25 of 48 faces/,
  );
  const coordinate = at.points + 5 * 16 + 8; // point 5, z
  assertDecodeError(() => parse3df(setF32(bytes, coordinate, NaN)), "3df", coordinate, /point 5 finite/);
  assertDecodeError(() => parse3df(setF32(bytes, coordinate, -Infinity)), "3df", coordinate);
});

Deno.test("3df: a texture size that is not a multiple of 512 keeps whole rows and warns (like the game)", () => {
  const model = limbModel();
  const bytes = encode3df(model);
  // Declare 600 texture bytes: one whole row + 88 bytes, and cut the file to match.
  const at = layout3df(model.points.count, model.faces.count, model.bones.length);
  const cut = setI32(bytes, 12, 600).subarray(0, at.texture + 600);
  const { model: back, warnings } = parse3df(cut);
  assert.equal(back.texture?.height, 1);
  assert.deepEqual(back.texture?.words, model.texture!.words.subarray(0, 256));
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].offset, 12);
  assert.match(warnings[0].message, /600 is not a multiple of 512; the last 88 byte\(s\) are ignored/);
  // Less than a row: no texture at all (and the scene builder then draws the faces black, as the
  // game's hardware renderers do from their zeroed 256-row buffer).
  const tiny = setI32(bytes, 12, 100).subarray(0, at.texture + 100);
  const { model: untextured, warnings: tinyWarnings } = parse3df(tiny);
  assert.equal(untextured.texture, undefined);
  assert.deepEqual(tinyWarnings.map((w) => w.offset), [12, 12]);
  assert.match(tinyWarnings[1].message, /texture size 100 at byte 12 holds no whole row: the game draws/);
  // A texture size of 0 says the same, once.
  const empty = parse3df(encode3df({ ...model, texture: undefined }));
  assert.deepEqual(empty.warnings.map((w) => [w.offset, w.message.slice(0, 46)]), [
    [12, "texture size 0 at byte 12 holds no whole row: "],
  ]);
});

Deno.test("car: negative counts and cuts before the texture are errors at their offsets; KPS -1 a warning", () => {
  const car = animatedCar();
  const bytes = encodeCar(car);
  const v = car.points.count;
  const animAt = 52 + 64 * car.faces.count + 16 * v + car.texture!.words.length * 2;
  // KPS -1: the frames are whole (the count sizes them), so the clip is kept at 1 frame per second.
  const negative = parseCar(setI32(bytes, animAt + 32, -1));
  assert.deepEqual(negative.model.animations.map((a) => [a.kps, a.frameCount]), [[1, 5], [
    car.animations[1].kps,
    3,
  ]]);
  assert.deepEqual(
    negative.warnings.map((
      w,
    ) => [w.offset, /has -1 frames per second .* timed at 1 frame per second/.test(w.message)]),
    [[animAt + 32, true]],
  );
  // A negative frame count in a whole file: the data's size decides the count (named); cut short as
  // well, nothing decides it and it is an error at the field.
  const minus = parseCar(setI32(bytes, animAt + 36, -2));
  assert.deepEqual(minus.model.animations.map((a) => a.frameCount), [5, 3]);
  assert.match(minus.warnings[0].message, /animation 0 stores -2 frame\(s\)/);
  assertDecodeError(
    () => parseCar(setI32(bytes, animAt + 36, -2).subarray(0, bytes.length - 300)),
    "car",
    animAt + 36,
    /frame count ≥ 0/,
  );
  const soundAt = animAt + 40 + 5 * v * 6 + 40 + 3 * v * 6;
  assertDecodeError(
    () => parseCar(setI32(bytes, soundAt + 32, -1)),
    "car",
    soundAt + 32,
    /sound 0 length ≥ 0/,
  );
  assertDecodeError(() => parseCar(setI32(bytes, 40, -3)), "car", 40, /vertex count/);
  assertDecodeError(() => parseCar(bytes.subarray(0, 51)), "car", 0, /car header/);
  assertDecodeError(() => parseCar(bytes.subarray(0, 52 + 64 * 5)), "car", 52, /24 faces/);
  assertDecodeError(() => parseCar(bytes.subarray(0, 52 + 64 * 24 + 100)), "car", 52 + 64 * 24, /16 points/);
});

Deno.test("car: a file cut short after its points keeps what comes whole before the cut, with one warning", () => {
  // The engine and C3Dit read a short file into zeroed buffers; CarnivoresIO skips a cut clip and keeps
  // a cut sound's samples. Here: mesh and texture always, clips that end before the cut, the sound's
  // bytes present; never bytes read from past a clip's end.
  const car = animatedCar();
  const bytes = encodeCar(car);
  const v = car.points.count;
  const textureAt = 52 + 64 * car.faces.count + 16 * v;
  const animAt = textureAt + car.texture!.words.length * 2;
  const secondAt = animAt + 40 + 5 * v * 6;
  const soundAt = secondAt + 40 + 3 * v * 6;
  const cases: [number, number[], number[], number, RegExp][] = [
    // Inside the second clip's frames: the first clip whole, the second dropped, the sound missing.
    [
      secondAt + 40 + 100,
      [5],
      [],
      secondAt,
      /inside animation 1 \('idle'\) at byte 4412: its 3 frames × 16 vertices need 288 bytes, 100 are left; the clip is dropped; the 1 sound\(s\) declared after it are missing/,
    ],
    // Inside the first clip's header.
    [
      animAt + 20,
      [],
      [],
      animAt,
      /inside the header of animation 0 at byte 3892: it is missing; the 1 animation\(s\) and 1 sound\(s\)/,
    ],
    // Inside the sound's PCM: 4 of its 6 bytes kept.
    [
      soundAt + 36 + 4,
      [5, 3],
      [4],
      soundAt,
      /inside sound 0 \('step'\) at byte 4740: 4 of its 6 bytes are there and kept/,
    ],
  ];
  for (const [cut, frames, sounds, offset, pattern] of cases) {
    const { model, warnings } = parseCar(bytes.subarray(0, cut));
    assert.deepEqual(model.animations.map((a) => a.frameCount), frames, `cut at ${cut}`);
    model.animations.forEach((a, i) => assert.deepEqual(a.positions, car.animations[i].positions));
    assert.deepEqual(model.sounds.map((s) => s.pcm.length), sounds);
    assert.equal(model.animSounds, undefined);
    assert.deepEqual(model.faces, car.faces);
    assert.deepEqual(model.texture, car.texture);
    assert.equal(warnings.length, 1, warnings.map((w) => w.message).join("\n"));
    assert.equal(warnings[0].offset, offset);
    assert.match(warnings[0].message, pattern);
  }
  // A frame count far past the file in a whole file (a wrong count, not a cut): the data's size
  // decides it — the one count with which every section ends at the end of the file — named.
  const huge = parseCar(setI32(bytes, animAt + 36, 1 << 24));
  assert.deepEqual(huge.model.animations.map((a) => a.frameCount), [5, 3]);
  huge.model.animations.forEach((a, i) => assert.deepEqual(a.positions, car.animations[i].positions));
  assert.match(
    huge.warnings[0].message,
    /animation 0 stores 16777216 frame\(s\) at byte \d+.* with 5 frames/,
  );
  // Cut short as well, no count makes the sections end there: the clip is dropped, nothing after it
  // read as frames.
  const hugeCut = parseCar(setI32(bytes, animAt + 36, 1 << 24).subarray(0, secondAt + 40 + 100));
  assert.deepEqual(hugeCut.model.animations, []);
  assert.match(hugeCut.warnings.at(-1)!.message, /16777216 frames × 16 vertices need 1610612736 bytes/);
  // Cut inside the texture: its missing texels are zero and every clip is missing.
  const inTexture = parseCar(bytes.subarray(0, textureAt + 1000));
  assert.equal(inTexture.model.texture?.height, 4);
  assert.equal(inTexture.model.animations.length, 0);
  assert.deepEqual(inTexture.warnings.map((w) => w.offset), [textureAt + 1000, textureAt]);
});

Deno.test("car: a short or odd anim→sound table, unknown sounds and empty clips are warnings", () => {
  const car = animatedCar();
  const full = encodeCar(car);
  const tableAt = full.byteLength - 256;
  const short = parseCar(full.subarray(0, tableAt + 100));
  assert.equal(short.model.animSounds, undefined);
  assert.deepEqual(short.warnings.map((w) => w.offset), [tableAt]);
  const longer = parseCar(new Uint8Array([...full, 1, 2]));
  assert.deepEqual(longer.warnings.map((w) => w.offset), [tableAt + 256]);
  const unknown = parseCar(setI32(full, tableAt + 8, 5));
  assert.deepEqual(unknown.warnings.map((w) => w.offset), [tableAt + 8]);
  assert.match(unknown.warnings[0].message, /entry 2 names sound 5, but the file has 1/);

  const empty = {
    ...car,
    animations: [{ name: "none", kps: 10, frameCount: 0, positions: new Int16Array(0) }],
  };
  const parsed = parseCar(encodeCar(empty));
  assert.equal(parsed.model.animations[0].frameCount, 0);
  assert.match(parsed.warnings[0].message, /'none' has no frames; it is skipped/);
});

Deno.test("car: sounds of any length (odd, empty) never shift the anim→sound table that follows", () => {
  const car = animatedCar();
  const sounds = [
    { name: "odd", pcm: new Uint8Array([9, 8, 7]) },
    { name: "silent", pcm: new Uint8Array(0) },
  ];
  const animSounds = Int32Array.from({ length: 64 }, (_, i) => (i < 2 ? 1 - i : -1));
  const { model, warnings } = parseCar(encodeCar({ ...car, sounds, animSounds }));
  assert.deepEqual(warnings, []);
  assert.deepEqual(model.sounds.map((s) => [s.name, Array.from(s.pcm)]), [["odd", [9, 8, 7]], [
    "silent",
    [],
  ]]);
  assert.deepEqual(model.animSounds, animSounds);
});
