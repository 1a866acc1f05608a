/**
 * A fragment with several mesh references (two `VMeshRef` leaves, a `VMeshPart` beside a
 * `MultiLevel`, two `MultiLevel`s) draws the first as before and names the part and both entries;
 * byte-identical copies draw the same mesh and say nothing. Mirrored `Sphere`/`Cyl` records read
 * their reversed pairs without a warning, an unexplained reversed pair still warns.
 */
import assert from "node:assert/strict";
import { readFragment } from "../../../../nodes/decode/freelancer/codec/fragment.ts";
import { mirroredRecords } from "../../../../nodes/decode/freelancer/codec/reversed_limits.ts";
import type { ConstraintRecord } from "../../../../nodes/decode/freelancer/codec/constraints.ts";
import { readUtf } from "../../../../nodes/decode/freelancer/codec/utf.ts";
import { encodeVMeshRef, oneTriangleRef } from "../../../support/freelancer/encode_model.ts";
import { encodeUtf, utfDir, utfLeaf, type UtfNode } from "../../../support/freelancer/encode_utf.ts";

const ref = (meshId: number) => encodeVMeshRef(oneTriangleRef(meshId));

function read(children: UtfNode[]) {
  const warnings: string[] = [];
  const root = readUtf(encodeUtf(utfDir("\\", [utfDir("gun.3db", children)]), { shareData: false }));
  const fragment = readFragment(root.children![0], (w) => warnings.push(w), "Gun");
  return { fragment, warnings };
}

Deno.test("two VMeshRef leaves: the first is drawn, the part and both leaves are named", () => {
  const { fragment, warnings } = read([
    utfDir("VMeshPart", [utfLeaf("VMeshRef", ref(11)), utfLeaf("VMeshRef", ref(22))]),
  ]);
  assert.equal(fragment.lods[0].meshId, 11);
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(
    warnings[0],
    /^part 'Gun' \(fragment 'gun\.3db'\): VMeshPart holds 2 VMeshRef leaves \('VMeshRef' at byte \d+, 'VMeshRef' at byte \d+\); the first is drawn/,
  );
});

Deno.test("identical VMeshRef copies draw one mesh: nothing to say", () => {
  const { fragment, warnings } = read([
    utfDir("VMeshPart", [utfLeaf("VMeshRef", ref(11)), utfLeaf("VMeshRef", ref(11))]),
  ]);
  assert.equal(fragment.lods[0].meshId, 11);
  assert.deepEqual(warnings, []);
});

Deno.test("a VMeshPart beside a MultiLevel, and two MultiLevels, are named with the part", () => {
  const level = (id: number) =>
    utfDir("MultiLevel", [utfDir("Level0", [utfDir("VMeshPart", [utfLeaf("VMeshRef", ref(id))])])]);
  const beside = read([utfDir("VMeshPart", [utfLeaf("VMeshRef", ref(11))]), level(22)]);
  assert.equal(beside.fragment.lods[0].meshId, 22, "the MultiLevel is read, as before");
  assert.equal(beside.warnings.length, 1);
  assert.match(beside.warnings[0], /part 'Gun' .*VMeshPart beside its MultiLevel.*the MultiLevel is drawn/);
  const two = read([level(33), level(44)]);
  assert.equal(two.fragment.lods[0].meshId, 33);
  assert.equal(two.warnings.length, 1);
  assert.match(two.warnings[0], /part 'Gun' .*has 2 MultiLevel directories.*the first is drawn/);
});

function record(kind: "sphere" | "cyl", child: string, limits: number[]): ConstraintRecord {
  return {
    kind,
    parent: "Root",
    child,
    at: 0,
    translation: [0, 0, 0],
    rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1],
    offset: [0, 0, 0],
    axis: [0, 0, 1],
    limits,
  } as ConstraintRecord;
}

Deno.test("a Sphere or Cyl mirrored from another (some pairs negated, not swapped) is recognised", () => {
  const right = record("sphere", "R", [-0.5, 0.5, -0.2, 0.7, -0.1, 0.3]);
  const left = record("sphere", "L", [-0.5, 0.5, 0.2, -0.7, 0.1, -0.3]);
  const odd = record("sphere", "O", [-0.5, 0.5, 0.9, -0.7, 0.1, -0.3]); // no record explains 0.9
  const door = record("cyl", "D", [-1, 0.25, 0, 2]);
  const mirror = record("cyl", "M", [1, -0.25, 0, 2]);
  const found = mirroredRecords([right, left, odd, door, mirror]);
  assert.ok(found.has(left) && found.has(mirror));
  assert.ok(!found.has(odd) && !found.has(right) && !found.has(door));
  // A Sphere does not explain a Cyl (other kind, other pairs).
  assert.ok(!mirroredRecords([right, record("cyl", "X", [0.5, -0.5, 0.2, -0.7])]).size);
});
