import assert from "node:assert/strict";
import { DecodeError } from "../../../../runtime/errors.ts";
import {
  archetypeLibraries,
  normalizeGamePath,
  readIni,
} from "../../../../nodes/decode/freelancer/codec/ini.ts";

type Value = number | string | { float: number };

/** Writes a BINI file (the binary ini retail ships) from sections of `key = values` entries. */
function encodeBini(
  sections: readonly { name: string; entries: readonly [string, ...Value[]][] }[],
): Uint8Array {
  const table: string[] = [];
  const offsets = new Map<string, number>();
  let tableSize = 0;
  const str = (s: string) => {
    if (!offsets.has(s)) offsets.set(s, tableSize), table.push(s), tableSize += s.length + 1;
    return offsets.get(s)!;
  };
  const body: number[] = [];
  const u16 = (v: number) => body.push(v & 0xff, v >> 8);
  const word = (bytes: Uint8Array) => body.push(...bytes);
  for (const section of sections) {
    u16(str(section.name));
    u16(section.entries.length);
    for (const [key, ...values] of section.entries) {
      u16(str(key));
      body.push(values.length);
      for (const value of values) {
        const four = new DataView(new ArrayBuffer(4));
        if (typeof value === "number") four.setInt32(0, value, true), body.push(1);
        else if (typeof value === "string") four.setUint32(0, str(value), true), body.push(3);
        else four.setFloat32(0, value.float, true), body.push(2);
        word(new Uint8Array(four.buffer));
      }
    }
  }
  const strings = new TextEncoder().encode(table.map((s) => s + "\0").join(""));
  const out = new Uint8Array(12 + body.length + strings.length);
  const view = new DataView(out.buffer);
  out.set([0x42, 0x49, 0x4e, 0x49]);
  view.setUint32(4, 1, true);
  view.setUint32(8, 12 + body.length, true);
  out.set(body, 12);
  out.set(strings, 12 + body.length);
  return out;
}

const RETAIL_LIKE = [
  {
    name: "Ship",
    entries: [["nickname", "li_elite"], ["DA_archetype", "ships\\liberty\\li_elite\\li_elite.cmp"]],
  },
  {
    name: "Ship",
    entries: [
      ["nickname", "rh_fighter"],
      ["ids_name", 237015],
      ["mass", { float: 130.5 }],
      ["DA_archetype", "ships\\rheinland\\rh_fighter\\rh_fighter.cmp"],
      ["material_library", "ships\\rheinland\\rh_playerships.mat"],
      ["material_library", "fx\\shared.mat"],
    ],
  },
] as const;

Deno.test("BINI: sections, repeated keys and all three value types, as the text form reads", () => {
  const sections = readIni(encodeBini(RETAIL_LIKE as never), "shiparch.ini");
  assert.equal(sections.length, 2);
  assert.deepEqual(sections[1].entries.map((e) => [e.key, ...e.values]), [
    ["nickname", "rh_fighter"],
    ["ids_name", "237015"],
    ["mass", "130.5"],
    ["DA_archetype", "ships\\rheinland\\rh_fighter\\rh_fighter.cmp"],
    ["material_library", "ships\\rheinland\\rh_playerships.mat"],
    ["material_library", "fx\\shared.mat"],
  ]);
  assert.deepEqual(
    archetypeLibraries(sections).get(normalizeGamePath("SHIPS/Rheinland/rh_fighter/RH_FIGHTER.cmp")),
    [
      "ships\\rheinland\\rh_playerships.mat",
      "fx\\shared.mat",
    ],
  );
  assert.deepEqual(archetypeLibraries(sections).get("ships/liberty/li_elite/li_elite.cmp"), []);
});

Deno.test("BINI: 0xFFFF at every position and a bad value type end in sections or a DecodeError inside the file", () => {
  const bytes = encodeBini(RETAIL_LIKE as never);
  const outcomes = { ok: 0, error: 0 };
  for (let at = 0; at + 2 <= bytes.length; at++) {
    const broken = bytes.slice();
    broken.set([0xff, 0xff], at);
    try {
      readIni(broken, "broken.ini");
      outcomes.ok++;
    } catch (error) {
      assert.ok(error instanceof DecodeError, `at ${at}: ${error}`);
      const offset = (error.at as { offset: number }).offset;
      assert.ok(offset >= 0 && offset < bytes.length, `at ${at}: offset ${offset}`);
      outcomes.error++;
    }
  }
  assert.ok(outcomes.ok > 0 && outcomes.error > 0, JSON.stringify(outcomes));
  const badType = bytes.slice();
  badType[12 + 4 + 3] = 9; // first value of the first entry
  assert.throws(
    () => readIni(badType, "bad.ini"),
    (e) => e instanceof DecodeError && /value type/.test(e.message),
  );
});

Deno.test("text ini: Freelancer's dialect — comments, case, repeats, stray lines, CRLF", () => {
  const text = [
    "; header comment",
    "stray = before any section",
    "[ship] ; trailing comment",
    "DA_ARCHETYPE = Ships\\X\\x.cmp ; comment after a value",
    "not a key line",
    "Material_Library = a.mat",
    "[Ship]",
    "da_archetype = ships/x/x.cmp",
    "material_library = b.mat, ignored second value",
  ].join("\r\n");
  const sections = readIni(new TextEncoder().encode(text), "x.ini");
  assert.deepEqual(sections.map((s) => s.name), ["ship", "Ship"]);
  assert.deepEqual(archetypeLibraries(sections).get(normalizeGamePath("ships\\x\\X.CMP")), [
    "a.mat",
    "b.mat",
  ]);
});
