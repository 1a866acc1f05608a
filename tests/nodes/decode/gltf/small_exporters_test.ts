/**
 * Node rotations written [w, x, y, z] (`small_exporters.ts`), on held-out seeds (development used 1-20):
 * named when the file's rotations together show the habit, with the node paths and the fix; a clean file,
 * one with a part meant upside down among them, reads with no warning. Before decode.gltf v63 every
 * case read silently (seeds 501-530: 60 of 60).
 */
import assert from "node:assert/strict";
import { rotationOrderNotes } from "../../../../nodes/decode/gltf/codec/rotation_order.ts";
import { smallExport } from "./small_exporters.ts";
import { judge } from "./small_exporters_judge.ts";

const SEEDS = [601, 602, 603, 604, 605, 606, 607, 608];

Deno.test("an aircraft whose every rotation is written [w, x, y, z] is named, with its nodes and the fix", async () => {
  let aircraft = 0;
  for (const seed of SEEDS) {
    const c = smallExport("wxyz-file", seed);
    if (!c.aircraft) continue;
    aircraft++;
    const { said } = await judge(c);
    const note = said.find((w) => /probably written \[w, x, y, z\]/.test(w));
    assert.ok(note, `${c.name}: ${said.join(" | ")}`);
    assert.match(note, /move each one's first number to the end/);
    const named = [...note.matchAll(/\/nodes\/(\d+)\/rotation/g)].map((m) => Number(m[1]));
    assert.ok(named.length >= 2 && named.every((i) => c.changed.includes(i)), `${c.name}: ${note}`);
  }
  assert.ok(aircraft >= 4, `${aircraft} aircraft among the seeds`);
});

Deno.test("a propeller written [w, x, y, z] by another tool, unturned parts given, is named", async () => {
  let cases = 0;
  for (let seed = 601; cases < 4; seed++) {
    const c = smallExport("wxyz-subtree", seed);
    if (!c.allTrs || !c.habitOn.includes("prop_hub")) continue;
    cases++;
    const { said } = await judge(c);
    assert.ok(said.some((w) => /exactly \[1, 0, 0, 0\].*probably written \[w, x, y, z\]/.test(w)), c.name);
  }
});

Deno.test("clean files, some with a part meant upside down, read with no warning", async () => {
  let upsideDown = 0;
  for (let seed = 601; seed <= 620; seed++) {
    const c = smallExport("clean", seed);
    if (new TextDecoder().decode(c.bytes).includes("antenna_belly")) upsideDown++;
    const { said, falsePositive } = await judge(c);
    assert.ok(!falsePositive, `${c.name}: ${said.join(" | ")}`);
  }
  assert.ok(upsideDown > 0);
});

Deno.test("one part meant upside down, or a few among many unturned, is not named", () => {
  const unturned = { rotation: [0, 0, 0, 1] };
  const halfX = { rotation: [1, 0, 0, 0] };
  assert.deepEqual(rotationOrderNotes({ nodes: [halfX, { rotation: [0, 0.1, 0, 0.995] }] }), []);
  assert.deepEqual(rotationOrderNotes({ nodes: [halfX, { rotation: [0.99, 0.1, 0, 0] }, unturned] }), []);
  // Two parts written [1, 0, 0, 0] beside unturned ones: an unturned part in the habit's order.
  const notes = rotationOrderNotes({ nodes: [unturned, halfX, unturned, { rotation: [-1, 0, 0, 0] }] });
  assert.equal(notes.length, 1);
  assert.match(notes[0], /^\/nodes\/1\/rotation: 2 node rotations .*\/nodes\/3\/rotation/);
});

Deno.test("a gear leg written [w, x, y, z] is named against its mirror twin", async () => {
  let cases = 0;
  for (let seed = 601; cases < 3 && seed < 700; seed++) {
    const c = smallExport("wxyz-subtree", seed);
    // A door turned 90° always has an axis: the pair of doors shows the habit whatever the legs' angles.
    if (!c.habitOn.includes("gear_door_L")) continue;
    cases++;
    const { said } = await judge(c);
    assert.ok(
      said.some((w) => /its twin 'gear_door_R' \(node \d+\) only when read\s+\[w, x, y, z\]/.test(w)),
      `${c.name}: ${said.join(" | ")}`,
    );
  }
  assert.equal(cases, 3);
});

Deno.test("mirror twins turned alike, or placed other than mirror-wise, are not named", () => {
  const twin = (name: string, x: number, rotation: number[]) => ({ name, translation: [x, 0, 1], rotation });
  const s = Math.SQRT1_2;
  // Gear legs turned out both ways about Z: mirror twins as written.
  assert.deepEqual(
    rotationOrderNotes({ nodes: [twin("leg_L", 1, [0, 0, s, s]), twin("leg_R", -1, [0, 0, -s, s])] }),
    [],
  );
  // Not placed mirror-wise: no plane to judge by.
  assert.deepEqual(
    rotationOrderNotes({ nodes: [twin("leg_L", 1, [s, 0, 0, s]), twin("leg_R", 2, [0, 0, -s, s])] }),
    [],
  );
  const notes = rotationOrderNotes({
    nodes: [twin("leg_L", 1, [s, 0, 0, s]), twin("leg_R", -1, [0, 0, -s, s])],
  });
  assert.equal(notes.length, 1);
  assert.match(notes[0], /^\/nodes\/0\/rotation: .*twin 'leg_R'/);
});
