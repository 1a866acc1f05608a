/**
 * Carnivores files the games never shipped, as community tools leave them: names in the modder's
 * Windows code page (Cyrillic Windows-1251 from the Russian and Ukrainian editors, Windows-1252
 * elsewhere), name fields with stale bytes after the NUL or no NUL at all, and `.car` files whose clip
 * and sound counts no longer match the sections they hold (a count edited by hand). Each file is built
 * in code, run through decode → constraints.resolve → export.gltf, and the GLB is validated; the
 * expected names are written here as text, and the bytes patched into the file are the code page's
 * own bytes (encoded by a table below, not by the decoder).
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { decodeCar } from "../../../../nodes/decode/carnivores/decode_car.ts";
import { decodeRsc } from "../../../../nodes/decode/carnivores/decode_rsc.ts";
import { encodeRsc } from "../../../support/carnivores/rsc.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { readGltf } from "../../../../runtime/scene/gltf_io.ts";
import { encode3df, encodeCar } from "../../../support/carnivores/encode.ts";
import { animatedCar, limbModel, rscArea } from "./fixtures.ts";
import { modelNode, summaryOf } from "./probe.ts";

/** Windows-1251 bytes of a Russian string: А..я are 0xC0..0xFF, Ё 0xA8, ё 0xB8 (the code page's table). */
function cp1251(text: string): number[] {
  return Array.from(text, (c) => {
    const code = c.codePointAt(0)!;
    if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
    if (c === "Ё") return 0xa8;
    if (c === "ё") return 0xb8;
    if (code < 0x80) return code;
    throw new Error(`no windows-1251 byte for ${c}`);
  });
}

/** Writes `bytes` into a 32-byte name field at `at`, zero-filled first unless `fill` is given. */
function setName(file: Uint8Array, at: number, bytes: number[], fill?: number[]): void {
  file.fill(0, at, at + 32);
  if (fill) file.set(fill, at);
  file.set(bytes, at);
}

/** Where bone `b` of an encoded `.3df` starts. */
function boneAt(faces: number, points: number, b: number): number {
  return 16 + 64 * faces + 16 * points + 48 * b;
}

/** decode → resolve → export; the GLB must validate. Returns the re-read scene and the warnings. */
async function pipeline(
  format: "3df" | "car" | "rsc",
  bytes: Uint8Array,
): Promise<{ out: Document; warnings: string[] }> {
  const ctx = testContext();
  const decode = format === "3df" ? decode3df : format === "car" ? decodeCar : decodeRsc;
  const input = { bytes: { bytes, name: `mod.${format}` } };
  const decoded = (await runNode(decode, input, {}, ctx)).scene as Document;
  const resolved = (await runNode(constraintsResolve, { scene: decoded }, {}, ctx)).scene as Document;
  // The export's own notes (what a viewer drops) are not the decoder's warnings.
  const glb = (await runNode(exportGltf, { scene: resolved }, {}, testContext())).bytes.bytes as Uint8Array;
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
  return { out: await readGltf(glb), warnings: ctx.warnings.map((w) => w.message) };
}

const jointNames = (out: Document) => out.getRoot().listSkins()[0].listJoints().map((j) => j.getName());

Deno.test("community .3df: Cyrillic (windows-1251) bone names become Cyrillic joint names, named in one warning", async () => {
  const model = limbModel();
  const bytes = encode3df(model);
  const [f, v] = [model.faces.count, model.points.count];
  setName(bytes, boneAt(f, v, 0), cp1251("Таз"));
  setName(bytes, boneAt(f, v, 1), cp1251("Лодыжка_Лев"));
  setName(bytes, boneAt(f, v, 2), cp1251("Колено ёЁ"));
  const { out, warnings } = await pipeline("3df", bytes);
  // Before: one character per byte, "Òàç", "Ëîäûæêà_Ëåâ", "Êîëåíî ¸¨".
  assert.deepEqual(jointNames(out), ["Таз", "Лодыжка_Лев", "Колено ёЁ", "tail"]);
  assert.deepEqual(summaryOf(out).bones.map((b: { name: string }) => b.name), [
    "Таз",
    "Лодыжка_Лев",
    "Колено ёЁ",
    "tail",
  ]);
  const named = warnings.filter((w) => /hold bytes past ASCII/.test(w));
  assert.equal(named.length, 1, warnings.join("\n"));
  assert.match(named[0], /^3 name\(s\)/);
  assert.match(
    named[0],
    new RegExp(`bone 0 name at byte ${boneAt(f, v, 0)} \\('Таз', windows-1251: d2 e0 e7\\)`),
  );
});

Deno.test("community .3df: a Western accented bone name is windows-1252, not Cyrillic", async () => {
  const model = limbModel();
  const bytes = encode3df(model);
  // "Müller_Fuß": single accented letters among ASCII, as a German modder's Windows writes them.
  setName(bytes, boneAt(model.faces.count, model.points.count, 3), [
    0x4d,
    0xfc,
    0x6c,
    0x6c,
    0x65,
    0x72,
    0x5f,
    0x46,
    0x75,
    0xdf,
  ]);
  const { out, warnings } = await pipeline("3df", bytes);
  assert.equal(jointNames(out)[3], "Müller_Fuß");
  assert.ok(
    warnings.some((w) => /bone 3 name .*'Müller_Fuß', windows-1252: 4d fc/.test(w)),
    warnings.join("\n"),
  );
});

Deno.test("community .3df: a bone name ends at its NUL (stale bytes after it) or fills all 32 bytes", async () => {
  const model = limbModel();
  const bytes = encode3df(model);
  const [f, v] = [model.faces.count, model.points.count];
  // C3Dit and Animator copy names into uncleared buffers: stale text (and a Cyrillic rest) after the NUL.
  const stale = [...Array.from("Bip01 Spine1 Spine2 Neck", (c) => c.charCodeAt(0)), ...cp1251("Шея")];
  setName(bytes, boneAt(f, v, 0), [...Array.from("hip", (c) => c.charCodeAt(0)), 0], stale);
  const full = "Bip01_L_Forearm_Twist_Helper_012"; // 32 characters, no NUL
  setName(bytes, boneAt(f, v, 3), Array.from(full, (c) => c.charCodeAt(0)));
  const { out, warnings } = await pipeline("3df", bytes);
  assert.equal(full.length, 32);
  assert.deepEqual(jointNames(out), ["hip", "ankle", "knee", full]);
  assert.deepEqual(warnings, [], "bytes after a NUL are not part of the name");
});

Deno.test("community .car: Cyrillic model, clip and sound names", async () => {
  const car = animatedCar();
  const bytes = encodeCar(car);
  setName(bytes, 0, [
    ...cp1251("Раптор"),
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    ...cp1251("msc: 2"),
  ]);
  const clipsAt = 52 + 64 * car.faces.count + 16 * car.points.count + 2 * 256 * car.texture!.height;
  setName(bytes, clipsAt, cp1251("Бег"));
  const idleAt = clipsAt + 40 + car.animations[0].positions.length * 2;
  setName(bytes, idleAt, cp1251("Стоит"));
  const soundAt = idleAt + 40 + car.animations[1].positions.length * 2;
  setName(bytes, soundAt, cp1251("Шаг"));
  const { out, warnings } = await pipeline("car", bytes);
  assert.equal(modelNode(out).getName(), "Раптор");
  assert.equal(summaryOf(out).msc, "msc: 2");
  assert.deepEqual(out.getRoot().listAnimations().map((a) => a.getName()), ["Бег", "Стоит"]);
  assert.deepEqual(summaryOf(out).sounds.map((s: { name: string }) => s.name), ["Шаг"]);
  assert.ok(
    warnings.some((w) => /^4 name\(s\) hold bytes past ASCII.*model name at byte 0 \('Раптор'/.test(w)),
  );
});

/** The two-clip, one-sound `.car` with its header's clip and sound counts overwritten. */
function recounted(animations: number, sounds: number, table = true): Uint8Array {
  const base = animatedCar();
  const bytes = encodeCar(table ? base : { ...base, animSounds: undefined });
  const view = new DataView(bytes.buffer);
  view.setInt32(32, animations, true);
  view.setInt32(36, sounds, true);
  return bytes;
}

for (
  const [animations, sounds, table] of [
    [1, 1, true], // a clip "removed" by lowering the count: before, 'idle' was read as a 7-byte sound
    [2, 0, true], // a sound "removed": before, its bytes were read as the anim→sound table
    [1, 0, true],
    [3, 1, true], // a count raised for a clip never added: before, the sound was read as a clip header
    [2, 2, true],
    [1, 1, false],
  ] as const
) {
  Deno.test(
    `community .car: ${animations} clip(s) and ${sounds} sound(s) declared, 2 and 1 stored${
      table ? "" : ", no anim→sound table"
    }`,
    async () => {
      const { out, warnings } = await pipeline("car", recounted(animations, sounds, table));
      assert.deepEqual(out.getRoot().listAnimations().map((a) => a.getName()), ["walk", "idle"]);
      const summary = summaryOf(out);
      assert.deepEqual(summary.sounds.map((s: { name: string; bytes: number }) => [s.name, s.bytes]), [[
        "step",
        6,
      ]]);
      assert.deepEqual(
        summary.animations.map((a: { sound: number | null }) => a.sound),
        table ? [null, 0] : [null, null],
      );
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(
        warnings[0],
        new RegExp(
          `declares ${animations} animation\\(s\\) and ${sounds} sound\\(s\\).*2 animation\\(s\\) and 1 sound\\(s\\) ` +
            `end exactly at ${table ? "the anim→sound table" : "the end"}: read so`,
        ),
      );
    },
  );
}

Deno.test("community .car: counts that fit the file stay as declared (retail layout, no warning)", async () => {
  const { out, warnings } = await pipeline("car", recounted(2, 1));
  assert.deepEqual(warnings, []);
  assert.equal(out.getRoot().listAnimations().length, 2);
});

Deno.test("community .3df: io_carnivores' 'Dark' flag (0x100, not the games' 0x8000) is named and ignored", async () => {
  const model = limbModel();
  model.faces.flags.fill(0x100, 5, 9);
  model.faces.flags[5] = 0x101;
  const { out, warnings } = await pipeline("3df", encode3df(model));
  // Face 5's flags sit at byte 16 + 5·64 + 36 = 372.
  assert.deepEqual(warnings.filter((w) => /flag bits/.test(w)).length, 1, warnings.join("\n"));
  assert.ok(
    warnings.some((w) =>
      /^4 face\(s\) carry flag bits no game defines \(0x0100; the first is face 5, flags at byte 372\) — io_carnivores/
        .test(w)
    ),
    warnings.join("\n"),
  );
  // Drawn as without the bit: face 5 (0x101) double-sided, faces 6–8 (0x100) opaque single-sided.
  const materials = modelNode(out).getMesh()!.listPrimitives().map((p) => p.getMaterial()!.getName());
  assert.deepEqual(materials, ["opaque", "opaque_double_sided"]);
});

Deno.test("community .3df: a 512×512 picture written at its own size (io_carnivores) is named as such", async () => {
  const model = limbModel();
  // io_carnivores' convert_image_to_A1R5G5B5 writes width × height × 2 bytes: 1,024 rows of 256.
  const words = new Uint16Array(512 * 512).map((_, i) => (i >> 9) & 0x7fff);
  const bytes = encode3df({ ...model, texture: { height: 1024, words } });
  const { warnings } = await pipeline("3df", bytes);
  assert.ok(
    warnings.some((w) =>
      /texture has 1024 rows; the engine holds 256 — decoded in full; (its 524288 bytes are as many as a 512×512 picture's|the texture's 1024 rows of 256 look like a 512×512 picture)/
        .test(w)
    ),
    warnings.join("\n"),
  );
  // One warning about the texture's size, not one per detector.
  assert.equal(warnings.filter((w) => /picture/.test(w)).length, 1, warnings.join("\n"));
});

Deno.test("community .rsc: an object's Cyrillic bone name is read as windows-1251, the warning names the object", async () => {
  const bytes = encodeRsc(rscArea("c2"));
  // The limb object's first bone is "hip": its 32-byte field is the only "hip\0" in the area file.
  const at = bytes.findIndex((_, i) =>
    bytes[i] === 0x68 && bytes[i + 1] === 0x69 && bytes[i + 2] === 0x70 && bytes[i + 3] === 0
  );
  assert.ok(at > 0);
  setName(bytes, at, cp1251("Таз"));
  const { out, warnings } = await pipeline("rsc", bytes);
  assert.deepEqual(jointNames(out)[0], "Таз");
  assert.ok(
    warnings.some((w) => new RegExp(`^object 0: 1 name\\(s\\).*bone 0 name at byte ${at} \\('Таз'`).test(w)),
    warnings.join("\n"),
  );
});

for (const version of ["c1", "c2"] as const) {
  Deno.test(`community .rsc: bytes a tool appended after a ${version.toUpperCase()} area are ignored, as the games ignore them`, async () => {
    const exact = encodeRsc(rscArea(version));
    const longer = new Uint8Array(exact.length + 37);
    longer.set(exact);
    longer.fill(0xcd, exact.length);
    // Before: a DecodeError (neither layout ended exactly at the end of the file).
    const { out, warnings } = await pipeline("rsc", longer);
    const reference = (await pipeline("rsc", exact)).out;
    const names = (doc: Document) => doc.getRoot().listNodes().map((n) => n.getName());
    assert.deepEqual(names(out), names(reference));
    assert.ok(
      warnings.some((w) =>
        new RegExp(
          `^37 byte\\(s\\) after the last section \\(byte ${exact.length}\\) are ignored.*only the ${version.toUpperCase()} layout`,
        ).test(w)
      ),
      warnings.join("\n"),
    );
  });
}

Deno.test("community .car: owners are group ids (CarnivoresIO writes them 1-based), any int16 kept silently", async () => {
  const car = animatedCar();
  // CarnivoresIO adds 1 to every owner of a .car; converters leave -1 or large group numbers.
  car.points.owners.set([-32768, 32767, -1, 1000, 1, 2]);
  const { out, warnings } = await pipeline("car", encodeCar(car));
  assert.deepEqual(warnings, []);
  assert.equal(out.getRoot().listSkins().length, 0, "a .car has no bone table: no skin");
});
