/**
 * `.car` repairs on files a tool padded after their last section (car_section_ends.ts `sectionEnds`): zero
 * bytes up to a 512- to 4,096-byte block, or a DOS end-of-file byte 0x1A. The searches for a clip's
 * frame count or the clip and sound counts take "the sections end the file" to mean the end of the
 * file or where its padding begins; before, a padded file with a wrong frame count read the next
 * clip's header from frame data, and one with an edited count was refused. Junk appended where no
 * anim→sound table was written is read where the table goes, as the game reads it: one warning says
 * the bytes are no table (before, one warning per entry, 64).
 */
import assert from "node:assert/strict";
import { encodeCar } from "../../../support/carnivores/encode.ts";
import { animatedCar } from "./fixtures.ts";
import { parseCar } from "./parse.ts";

const car = animatedCar();
const textureEnd = 52 + 64 * car.faces.count + 16 * car.points.count + car.texture!.words.length * 2;

/** `bytes` followed by `tail`. */
const padded = (bytes: Uint8Array, tail: Uint8Array) => {
  const out = new Uint8Array(bytes.length + tail.length);
  out.set(bytes);
  out.set(tail, bytes.length);
  return out;
};

for (
  const [label, tail] of [
    ["zeros to a 512-byte block", (n: number) => new Uint8Array(512 - n % 512)],
    ["zeros to a 4,096-byte block", (n: number) => new Uint8Array(4096 - n % 4096)],
    ["a DOS end-of-file byte", () => Uint8Array.of(0x1a)],
  ] as const
) {
  Deno.test(`car padding: a frame count off by one is repaired in a file padded with ${label}`, () => {
    const bytes = encodeCar(car);
    new DataView(bytes.buffer).setInt32(textureEnd + 36, car.animations[0].frameCount + 1, true);
    const { model, warnings } = parseCar(padded(bytes, tail(bytes.length)));
    assert.deepEqual(
      model.animations.map((a) => [a.name, a.frameCount]),
      car.animations.map((a) => [a.name, a.frameCount]),
    );
    assert.ok(warnings.some((w) => w.offset === textureEnd + 36 && /stores \d+ frame/.test(w.message)));
  });

  Deno.test(`car padding: a clip count raised by hand is read at the file's in a file padded with ${label}`, () => {
    const bytes = encodeCar(car);
    new DataView(bytes.buffer).setInt32(32, car.animations.length + 1, true);
    const { model, warnings } = parseCar(padded(bytes, tail(bytes.length)));
    assert.equal(model.animations.length, car.animations.length);
    assert.equal(model.sounds.length, car.sounds.length);
    assert.ok(warnings.some((w) => w.offset === 32 && /header declares 3 animation/.test(w.message)));
  });
}

Deno.test("car padding: junk appended where no anim→sound table was written is one warning, not 64", () => {
  const bytes = encodeCar({ ...car, animSounds: undefined });
  let x = 12345;
  const junk = Uint8Array.from({ length: 300 }, () => (x = (x * 1103515245 + 12345) >>> 0) >>> 24);
  const { model, warnings } = parseCar(padded(bytes, junk));
  assert.equal(model.animations.length, car.animations.length);
  const tableWarnings = warnings.filter((w) => /names? (no )?sound/.test(w.message));
  assert.equal(tableWarnings.length, 1, tableWarnings.map((w) => w.message).join("\n"));
  assert.match(tableWarnings[0].message, /name no sound of the file's 1 in (6[0-4]) of 64 entries/);
  assert.equal(tableWarnings[0].offset, bytes.length);
});

Deno.test("car padding: a sound shorter than the anim→sound table, its count lowered by hand, is read as a sound", () => {
  // Sound count lowered with the sound's bytes left, the file padded to a block: the sound sits where
  // the table goes and the table's 256 bytes run into the padding, so the stored counts fit (seed 90107
  // of tool_saves.ts's padded_block+count_edited read the sound as a table naming no sound).
  let x = 777;
  const next = () => (x = (x * 1103515245 + 12345) >>> 0) >>> 16;
  for (let round = 0; round < 12; round++) {
    const length = 2 * (10 + next() % 100); // 36 + length < 256: shorter than the table
    const bytes = encodeCar({
      ...car,
      sounds: [
        { name: "step", pcm: new Uint8Array([1, 2, 3, 4, 5, 6]) },
        { name: `roar${round}`, pcm: Uint8Array.from({ length }, (_, i) => 1 + ((i * 31 + round) % 255)) },
      ],
      animSounds: undefined,
    });
    new DataView(bytes.buffer).setInt32(36, 1, true);
    const block = [512, 2048, 4096][round % 3];
    const { model, warnings } = parseCar(padded(bytes, new Uint8Array(block - bytes.length % block)));
    const label = `round ${round}: ${length} bytes, ${block}-byte block`;
    assert.deepEqual(
      model.sounds.map((s) => [s.name, s.pcm.length]),
      [["step", 6], [`roar${round}`, length]],
      label,
    );
    assert.deepEqual(
      model.animations.map((a) => a.frameCount),
      car.animations.map((a) => a.frameCount),
      label,
    );
    assert.ok(
      warnings.some((w) => w.offset === 36 && /no table: they are a sound header/.test(w.message)),
      `${label}: ${warnings.map((w) => w.message).join("\n")}`,
    );
  }
});
