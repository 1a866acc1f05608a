/**
 * Files as the mod tools write them (`mod_tools.ts`), through `graphs/freelancer.json`: every habit
 * gives the geometry, hardpoints and turret ranges the file holds, and a habit the game or another
 * reader takes differently is named in a warning. Judged against each file's truth by
 * `mod_tools_judge.ts`; the seeds here are not those the decoder was measured on while it was changed.
 */
import assert from "node:assert/strict";
import { modToolFile, type Quirk, QUIRKS } from "./mod_tools.ts";
import { judge } from "./mod_tools_judge.ts";

const SEEDS = [201, 202, 203];

/** What a warning of each habit says (a habit read without a word has none). */
const NAMED: Partial<Record<Quirk, RegExp>> = {
  exclusive_vertex_end: /vertex end \d+ at byte \d+ is one past the \d+ vertices \(an exclusive end\)/,
  vertex_end_unfilled: /vertex end 0 at byte \d+ is below its start \d+|VMeshRef at byte \d+ disagrees/,
  stray_index: /index count \d+ at byte \d+ is not divisible by 3; its \d+ whole triangle\(s\) are drawn/,
  milkshape_levels: /MultiLevel has no Level0; its lowest level, Level[12], is drawn as LOD 0/,
  switch2: /Switch2/,
  file_name_spelling: /the same name with the other path separator/,
  self_constraint:
    /fix constraint 'Root' → 'Root' \(byte \d+\) attaches part 'Root' to itself; constraint dropped/,
  fragment_damage:
    /Level1\/VMeshPart\/VMeshRef does not decode \(.*expected 60 bytes of VMeshRef.*\); it and the later levels are left out/,
  separate_libraries:
    /^texture 'trim_gone\.dds' not found in any loaded texture library; its material is untextured; used by material 'trim' \(part 'Root' LOD 0/,
  non_finite_vertices:
    /1 triangle\(s\) through 1 vertex position\(s\) that are not finite \(NaN or infinity\) left out/,
  split_hardpoints:
    /has 2 Hardpoints directories \('Hardpoints', 'hardpoints'\); the hardpoints of all are read/,
  texture_spelling:
    /^texture '[^']+' not found in any loaded texture library \(a library has '[^']+', the same name (with the other path separator|without the leading '\.[\\/]')/,
  misspelt_entry:
    /entry '(VMeshPart |VMeshLib|Hardpoint)' is not read; it is probably '(VMeshPart|VMeshLibrary|Hardpoints)' \((a trailing space|'(VMeshLibrary|Hardpoints)' cut short)\)/,
};

/** Habits read as the file means them with nothing to say. */
const SILENT: readonly Quirk[] = ["retail", "null_ref", "no_groups", "several_libraries", "utf_xml"];

for (const quirk of QUIRKS) {
  Deno.test(`mod tools, ${quirk}: the file's geometry, hardpoints and turret ranges, named when odd`, async () => {
    for (const seed of SEEDS) {
      const file = modToolFile(quirk, seed);
      const { outcome, problems, warnings } = await judge(file);
      const label = `${quirk} seed ${seed}`;
      assert.ok(outcome === "right" || outcome === "right-warned", `${label}: ${outcome} ${problems}`);
      if (SILENT.includes(quirk)) assert.deepEqual(warnings, [], label);
      const named = NAMED[quirk];
      const text = new TextDecoder().decode(file.bytes);
      // `VmeshPart` in another case is the entry to the game (and here): nothing to say.
      const caseOnly = quirk === "misspelt_entry" && text.includes("VmeshPart");
      if (caseOnly) assert.deepEqual(warnings, [], label);
      if (named && !caseOnly && (quirk !== "file_name_spelling" || /models[\\/]/.test(text))) {
        assert.ok(warnings.some((w) => named.test(w)), `${label}: ${warnings.join("\n")}`);
      }
      if (quirk === "non_finite_vertices") {
        // The wireframe through the NaN vertex loses those lines in the decoder; nothing is left for
        // export.gltf to set to 0.
        assert.ok(
          warnings.some((w) => /^wireframe of part '.*': 2 line\(s\) through 1 vertex/.test(w)),
          label,
        );
        assert.ok(!warnings.some((w) => w.includes("non-finite value(s) in accessor")), warnings.join("\n"));
      }
      if (quirk === "texture_spelling") {
        // Two textures spelt apart from their entries (each named once), one only in another case.
        assert.equal(warnings.filter((w) => named!.test(w)).length, 2, `${label}: ${warnings.join("\n")}`);
        assert.ok(!warnings.some((w) => /trim_a/i.test(w)), label);
        // Each is named once: the library search (which read shared.txm) says nothing of its own.
        assert.ok(
          !warnings.some((w) => /is in no library searched/.test(w)),
          `${label}: ${warnings.join("\n")}`,
        );
      }
      if (quirk === "fragment_damage") {
        assert.ok(
          warnings.some((w) => /VMeshWire\/VWireData does not decode .*the wireframe is left out/.test(w)),
          label,
        );
      }
      if (quirk === "mirrored_limits") {
        const limitWarnings = warnings.filter((w) => w.includes("limits stored as Min"));
        // A turret holding the range negated explains the reversed pair: nothing to say then.
        const partnered = "HpTurret02" in file.truth.limits;
        assert.equal(limitWarnings.length, partnered ? 0 : 1, `${label}: ${limitWarnings}`);
      }
    }
  });
}

Deno.test("mod tools: the exclusive vertex end's warning gives the byte of the field that holds it", async () => {
  const file = modToolFile("exclusive_vertex_end", 7);
  const { warnings } = await judge(file);
  const match = warnings.map((w) => /vertex end (\d+) at byte (\d+)/.exec(w)).find((m) => m);
  assert.ok(match, warnings.join("\n"));
  const [end, at] = [Number(match[1]), Number(match[2])];
  assert.equal(new DataView(file.bytes.buffer).getUint16(at, true), end, "the byte named holds the end");
});

Deno.test("mod tools: files that went through several tools (three habits at once) come out right", async () => {
  const pool = QUIRKS.filter((q) => q !== "retail");
  for (let seed = 501; seed < 513; seed++) {
    // Three distinct habits per seed, chosen by a fixed stride through the list.
    const habits = [0, 5, 11].map((step) => pool[(seed * 7 + step) % pool.length]);
    const file = modToolFile([...new Set(habits)], seed);
    const { outcome, problems } = await judge(file);
    assert.ok(
      outcome === "right" || outcome === "right-warned",
      `${file.quirk} seed ${seed}: ${outcome} ${problems}`,
    );
  }
});
