/**
 * Compound layouts mod tools write that retail never does: `Cmpnd` entries named `Root_0`,
 * `RootPart` or `PartGun` (retail: `Root` and `Part_<name>`), which treewyrm/freelancer's reader
 * takes as parts by their first four letters.
 */
import assert from "node:assert/strict";
import {
  encodeI32,
  encodeString,
  utfDir,
  utfLeaf,
  type UtfNode,
} from "../../../support/freelancer/encode_utf.ts";
import {
  encodeConstraints,
  fragmentChildren,
  materialLibrary,
  meshLibrary,
} from "../../../support/freelancer/encode_model.ts";
import { assertValid, decodeTree, refTo, triangleMesh } from "./triangle_models.ts";

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** A `Cmpnd` entry `entry` for part `name`, whose fragment is `<name>.3db`. */
const cmpndEntry = (entry: string, name: string, index: number): UtfNode =>
  utfDir(entry, [
    utfLeaf("Object name", encodeString(name)),
    utfLeaf("Index", encodeI32(index)),
    utfLeaf("File name", encodeString(`${name}.3db`)),
  ]);

/**
 * A compound of three parts (Root, Gun on a Fix joint, Turret on a Rev joint), each one triangle,
 * its `Cmpnd` entries named `entries` (in that order), plus any `extra` entries.
 */
function compound(entries: readonly [string, string][], extra: UtfNode[] = []): UtfNode {
  const fix = encodeConstraints("fix", [{
    kind: "fix",
    parent: "Root",
    child: "Gun",
    translation: [1, 0, 0],
    rotation: IDENTITY,
  }]);
  const rev = encodeConstraints("rev", [{
    kind: "rev",
    parent: "Root",
    child: "Turret",
    translation: [0, 2, 0],
    rotation: IDENTITY,
    axis: [0, 1, 0],
    min: -1,
    max: 1,
  }]);
  return utfDir("\\", [
    meshLibrary([{ name: "m.vms", data: triangleMesh(["hull"]) }]),
    materialLibrary([{ name: "hull" }]),
    utfDir("Cmpnd", [
      ...entries.map(([entry, name], i) => cmpndEntry(entry, name, i)),
      ...extra,
      utfDir("Cons", [utfLeaf("Fix", fix), utfLeaf("Rev", rev)]),
    ]),
    ...entries.map(([, name]) => utfDir(`${name}.3db`, fragmentChildren({ lods: [refTo("m.vms", 1)] }))),
  ]);
}

const partNames = (scene: Awaited<ReturnType<typeof decodeTree>>["scene"]) =>
  scene.getRoot().listNodes().filter((n) => n.getMesh()).map((n) => n.getName()).sort();

Deno.test("Cmpnd entries named Root_0 and PartGun are read as parts, each named (before: dropped)", async () => {
  const { scene, warnings } = await decodeTree(
    compound([["Root_0", "Root"], ["PartGun", "Gun"], ["Part_Turret", "Turret"]]),
    "mod.cmp",
    true,
  );
  assert.deepEqual(partNames(scene), ["Gun", "Root", "Turret"]);
  // The hierarchy is whole: both joints found their parts.
  const byName = (name: string) => scene.getRoot().listNodes().find((n) => n.getName() === name)!;
  assert.equal(byName("Gun").getParentNode()?.getName(), "Root");
  assert.equal(byName("Turret").getParentNode()?.getName(), "Turret_joint");
  for (const entry of ["Root_0", "PartGun"]) {
    assert.ok(
      warnings.some((w) => w.includes(`Cmpnd entry '${entry}'`) && w.includes("read as a part")),
      warnings.join("\n"),
    );
  }
  assert.ok(!warnings.some((w) => w.includes("'Part_Turret'")), "a retail name gives no warning");
  await assertValid(scene);
});

Deno.test("retail Cmpnd names give no warning; a name neither Root* nor Part* is still ignored, named", async () => {
  const retail = await decodeTree(
    compound([["Root", "Root"], ["Part_Gun", "Gun"], ["Part_Turret", "Turret"]]),
    "r.cmp",
  );
  assert.deepEqual(retail.warnings, []);
  const stray = await decodeTree(
    compound([["RootPart", "Root"], ["part_gun", "Gun"], ["Part_Turret", "Turret"]], [
      cmpndEntry("Extra", "Spare", 9),
    ]),
    "mod.cmp",
  );
  assert.deepEqual(partNames(stray.scene), ["Gun", "Root", "Turret"]);
  assert.ok(stray.warnings.some((w) => w.includes("'Extra' is neither Root")), stray.warnings.join("\n"));
  assert.ok(stray.warnings.some((w) => w.includes("'RootPart'") && w.includes("read as a part")));
  assert.ok(!stray.warnings.some((w) => w.includes("'part_gun'")), "Part_ in any case is retail's name");
});
