/**
 * Warnings that said nothing about one file: the `Cyl` limit order (disputed between the sources) is
 * named only for a record whose stored turn cannot be angles, with its part; bytes after meshes'
 * vertex buffers that no stride explains are one warning per file, counting meshes and bytes. Expected
 * ranges are worked out here from the stored floats.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import {
  compoundTree,
  type ConstraintSpec,
  materialLibrary,
} from "../../../support/freelancer/encode_model.ts";
import { encodeUtf, type UtfNode } from "../../../support/freelancer/encode_utf.ts";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { byName } from "./fixtures.ts";
import { refTo, triangleMesh } from "./triangle_models.ts";

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** A compound of Root and one part per record, every part drawing one triangle of its own mesh. */
function compound(records: readonly ConstraintSpec[], meshes?: { name: string; data: Uint8Array }[]) {
  const list = meshes ?? [{ name: "m.vms", data: triangleMesh(["hull"]) }];
  return compoundTree({
    meshes: list,
    extra: [materialLibrary([{ name: "hull", type: "DcDt", dc: [0.5, 0.5, 0.5] }])],
    parts: [
      { name: "Root", fileName: "root.3db", fragment: { lods: [refTo(list[0].name, 1)] } },
      ...records.map((r, i) => ({
        name: r.child,
        fileName: `${r.child}.3db`,
        fragment: { lods: [refTo(list[(i + 1) % list.length].name, 1)] },
      })),
    ],
    constraints: [...records],
  });
}

/** Decodes `root` with no library search, then resolves it when asked. */
async function decodeTree(root: UtfNode, name: string, resolve = false) {
  const ctx = testContext();
  const bytes = { bytes: encodeUtf(root), name };
  let { scene } = await runNode(decodeCmp, { bytes }, { libraries: "none" }, ctx);
  if (resolve) ({ scene } = await runNode(constraintsResolve, { scene }, {}, ctx));
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

const cyl = (child: string, limits: number[]): ConstraintSpec => ({
  kind: "cyl",
  parent: "Root",
  child,
  translation: [1, 0, 0],
  rotation: IDENTITY,
  axis: [0, 0, 1],
  limits,
});

const range = (scene: Document, pivot: string) => {
  const extras = byName(scene, pivot).getExtras() as { min: number; max: number };
  return [extras.min, extras.max];
};
const near = (actual: number[], expected: number[], label: string) =>
  assert.ok(actual.every((v, i) => Math.abs(v - expected[i]) < 1e-3), `${label}: ${actual} ≠ ${expected}`);
const deg = (r: number) => Math.fround(r) * 180 / Math.PI;

const WHOLE_45 = Math.PI / 4; // 45°, as a modelling tool stores a turn typed in degrees

Deno.test("a Cyl whose turn is whole degrees is read in that order without a warning, either order", async () => {
  const { scene, warnings } = await decodeTree(
    compound([cyl("Piston", [-WHOLE_45, WHOLE_45, 0, 2]), cyl("Ram", [0, 1.5, -WHOLE_45 / 3, WHOLE_45])]),
    "c.cmp",
    true,
  );
  // Before: "Cyl constraint: the order of its four limits is disputed", on every file with a Cyl.
  assert.deepEqual(warnings.filter((w) => w.includes("'Piston'")), []);
  near(range(scene, "Piston_joint"), [deg(-WHOLE_45), deg(WHOLE_45)], "turn");
  near(range(scene, "Piston_slide"), [0, 2], "slide");
  // Slide first (treewyrm's order), the whole degrees second: read so, and named.
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(warnings[0], /^Cyl constraint of part 'Ram'.*second pair are whole degrees.*treewyrm's/);
  near(range(scene, "Ram_joint"), [deg(-WHOLE_45 / 3), deg(WHOLE_45)], "Ram turn");
  near(range(scene, "Ram_slide"), [0, 1.5], "Ram slide");
});

Deno.test("a Cyl whose order nothing tells is read turn first, naming the part and both readings", async () => {
  const { scene, warnings } = await decodeTree(compound([cyl("Piston", [-0.5, 0.5, 0, 2])]), "c.cmp", true);
  // Before: silent; written slide first (treewyrm's order) it turned 0..115° where 0..2 units were meant.
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(warnings[0], /^Cyl constraint of part 'Piston'.*cannot tell the limit order/);
  assert.match(
    warnings[0],
    /turn first: turn -28\.6479\.\.28\.6479°, slide 0\.\.2;.*slide first.*turn 0\.\.114\.5916°/,
  );
  near(range(scene, "Piston_joint"), [deg(-0.5), deg(0.5)], "turn");
  near(range(scene, "Piston_slide"), [0, 2], "slide");
});

Deno.test("a Cyl whose stored turn is beyond a full turn is read slide first, and so is the file's other Cyl", async () => {
  const { scene, warnings } = await decodeTree(
    compound([cyl("Piston", [-0.5, 0.5, 0, 2]), cyl("Ram", [0, 12, -1, 1])]),
    "c.cmp",
    true,
  );
  // 12 rad is nearly two turns: no joint limit; treewyrm's order makes it a 12-unit slide. One tool wrote
  // the file, so Piston (which either order could be) is read slide first too, and named.
  assert.equal(warnings.length, 2, warnings.join("\n"));
  const ram = warnings.find((w) => w.startsWith("Cyl constraint of part 'Ram'"))!;
  assert.match(ram, /^Cyl constraint of part 'Ram' \(byte \d+\): limits \(0, 12, -1, 1\) read in/);
  assert.match(ram, /read in treewyrm's order \(slide min\/max, turn min\/max\)/);
  const piston = warnings.find((w) => w.startsWith("Cyl constraint of part 'Piston'"))!;
  assert.match(piston, /the limit order is read as that of the file's Cyl record\(s\) of 'Ram'/);
  near(range(scene, "Ram_joint"), [deg(-1), deg(1)], "Ram turn");
  near(range(scene, "Ram_slide"), [0, 12], "Ram slide");
  near(range(scene, "Piston_joint"), [0, deg(2)], "Piston turn");
  near(range(scene, "Piston_slide"), [-0.5, 0.5], "Piston slide");
});

Deno.test("a Cyl that is no angles in either order is read turn first, with a warning saying so", async () => {
  const { scene, warnings } = await decodeTree(compound([cyl("Ram", [-20, 20, 0, 30])]), "c.cmp", true);
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(warnings[0], /part 'Ram'.*and so is it in treewyrm's order.*read in MAXLancer's order$/);
  near(range(scene, "Ram_joint"), [deg(-20), deg(20)], "turn");
  near(range(scene, "Ram_slide"), [0, 30], "slide");
});

/** `mesh` with `extra` bytes of padding after its vertex buffer. */
const padded = (mesh: Uint8Array, extra: number) => {
  const out = new Uint8Array(mesh.length + extra).fill(0xcc);
  out.set(mesh);
  return out;
};

Deno.test("padding after several meshes' vertex buffers is one warning for the file, counting meshes and bytes", async () => {
  const meshes = [2, 4, 5].map((extra, i) => ({
    name: `m${i}.vms`,
    data: padded(triangleMesh(["hull"]), extra),
  }));
  const records = ["A", "B"].map((child): ConstraintSpec => ({
    kind: "fix",
    parent: "Root",
    child,
    translation: [0, 0, 0],
    rotation: IDENTITY,
  }));
  const { scene, warnings } = await decodeTree(compound(records, meshes), "pad.cmp", true);
  const about = warnings.filter((w) => w.includes("after their vertex buffer"));
  // Before: one warning per mesh (three here, every one the same finding).
  assert.equal(about.length, 1, warnings.join("\n"));
  assert.match(
    about[0],
    /^pad\.cmp: 3 mesh\(es\) have byte\(s\) after their vertex buffer, 11 in all, ignored/,
  );
  for (const [name, extra] of [["m0.vms", 2], ["m1.vms", 4], ["m2.vms", 5]] as const) {
    assert.match(about[0], new RegExp(`'${name.replace(".", "\\.")}' \\(${extra} at byte \\d+\\)`));
  }
  assert.equal(warnings.length, 1, warnings.join("\n"));
  // Every triangle is still drawn.
  for (const part of ["Root", "A", "B"]) {
    assert.equal(byName(scene, part).getMesh()!.listPrimitives()[0].getIndices()!.getCount(), 3, part);
  }
});

Deno.test("bytes a longer vertex stride would fill stay a warning of the mesh's own, beside the file's padding", async () => {
  // 3 vertices × 4 bytes: 36-byte vertices would fill the leaf, so the FVF may be wrong.
  const meshes = [
    { name: "m0.vms", data: padded(triangleMesh(["hull"]), 12) },
    { name: "m1.vms", data: padded(triangleMesh(["hull"]), 2) },
  ];
  const { warnings } = await decodeTree(compound([], meshes), "pad.cmp");
  const own = warnings.filter((w) => /^mesh 'm0\.vms'.*36-byte vertices would fill it exactly/.test(w));
  assert.equal(own.length, 1, warnings.join("\n"));
  assert.ok(
    warnings.some((w) =>
      /^pad\.cmp: 1 mesh\(es\) have byte\(s\) after their vertex buffer, 2 in all.*'m1\.vms'/.test(w)
    ),
    warnings.join("\n"),
  );
});
