/**
 * Near misses of the names the game reads: texture names spelt apart from their library entry by path
 * separators or a leading `.\` (other textures to the game), and misspelt UTF entry names.
 */
import assert from "node:assert/strict";
import { spelledAlike } from "../../../../nodes/decode/freelancer/codec/texture_names.ts";
import { warnMisspeltEntries } from "../../../../nodes/decode/freelancer/codec/entry_names.ts";
import { readUtf } from "../../../../nodes/decode/freelancer/codec/utf.ts";
import {
  encodeI32,
  encodeString,
  encodeUtf,
  utfDir,
  utfLeaf,
} from "../../../support/freelancer/encode_utf.ts";
import { fragmentChildren } from "../../../support/freelancer/encode_model.ts";
import { decodeModel } from "../../../../nodes/decode/freelancer/codec/model.ts";

Deno.test("texture near misses: separators and a leading .\\ are named, case alone is the same texture", () => {
  assert.match(
    spelledAlike("textures\\hull.dds", ["glass.dds", "Textures/Hull.dds"])!,
    /^'Textures\/Hull\.dds', the same name with the other path separator$/,
  );
  assert.match(spelledAlike(".\\glass.tga", ["glass.tga"])!, /without the leading '\.\\'/);
  assert.match(spelledAlike("glass.tga", ["./glass.tga"])!, /with a leading '\.\/'/);
  assert.equal(spelledAlike("HULL.DDS", ["hull.dds"]), undefined, "case: the game's own match");
  assert.equal(spelledAlike("hull.dds", ["hull2.dds", "hull.tga"]), undefined);
});

/** The warnings `warnMisspeltEntries` gives a fragment holding `names`. */
function fragmentWarnings(names: readonly string[]): string[] {
  const dir = readUtf(
    encodeUtf(utfDir("\\", names.map((name) => utfDir(name, [utfLeaf("x", encodeString("x"))])))),
  );
  const warnings: string[] = [];
  warnMisspeltEntries(
    dir,
    ["VMeshPart", "MultiLevel", "Hardpoints"],
    "fragment 'f.3db'",
    (w) => warnings.push(w),
  );
  return warnings;
}

Deno.test("misspelt entries: near misses of an absent entry are named with the entry meant", () => {
  const [space] = fragmentWarnings(["VMeshPart "]);
  assert.match(
    space,
    /^fragment 'f\.3db': entry 'VMeshPart ' is not read; it is probably 'VMeshPart' \(a trailing space\)/,
  );
  assert.match(fragmentWarnings(["Hardpoint"])[0], /probably 'Hardpoints' \('Hardpoints' cut short\)/);
  assert.match(fragmentWarnings(["MultiLevle"])[0], /probably 'MultiLevel' \(one letter off\)/);
  assert.match(fragmentWarnings(["Multi_Level"])[0], /spaces or underscores inside it/);
});

Deno.test("misspelt entries: the game's own matches and retail's other entries say nothing", () => {
  assert.deepEqual(fragmentWarnings(["VmeshPart", "HARDPOINTS"]), [], "case is the game's own match");
  // A near miss beside the entry it resembles is some other entry: the real one is read.
  assert.deepEqual(fragmentWarnings(["VMeshPart", "VMeshPart "]), []);
  assert.deepEqual(
    fragmentWarnings([
      "Exporter Version",
      "Mass properties",
      "Extent tree",
      "Rigid body",
      "openFLAME 3D N-mesh",
      "VMeshWire",
      "Camera",
      "bw_freighter_lod1030109103849.3db",
    ]),
    [],
  );
});

Deno.test("a File name spelt apart from its fragment by a leading .\\ names the fragment it resembles", () => {
  const fragment = (name: string) =>
    utfDir(
      name,
      fragmentChildren({
        lods: [],
        hardpoints: [{
          name: "HpA",
          kind: "fix",
          position: [0, 0, 0],
          orientation: [1, 0, 0, 0, 1, 0, 0, 0, 1],
        }],
      }),
    );
  const entry = (dir: string, name: string, fileName: string, index: number) =>
    utfDir(dir, [
      utfLeaf("Object name", encodeString(name)),
      utfLeaf("Index", encodeI32(index)),
      utfLeaf("File name", encodeString(fileName)),
    ]);
  const bytes = encodeUtf(utfDir("\\", [
    utfDir("Cmpnd", [entry("Root", "Root", "root.3db", 0), entry("Part_Gun", "Gun", ".\\gun.3db", 1)]),
    fragment("root.3db"),
    fragment("gun.3db"),
  ]));
  const warnings: string[] = [];
  const model = decodeModel({ bytes, name: "s.cmp" }, [], (w) => warnings.push(w));
  assert.deepEqual(model.parts.map((p) => p.name), ["Root"], "the part is dropped, as the readers drop it");
  assert.ok(
    warnings.some((w) =>
      w.startsWith(
        "part 'Gun': fragment '.\\gun.3db' not found in the file (it has 'gun.3db', the same name " +
          "without the leading '.\\'",
      )
    ),
    warnings.join("\n"),
  );
});
