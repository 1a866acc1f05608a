/**
 * `.rsc` objects whose texture size field is not the texture written (rsc_texture_fix.ts): the one
 * height with which the area's sections end at the end of the file is read, the object named; what no
 * single height explains stays a `DecodeError`; the search stays quick on a large area cut short.
 */
import assert from "node:assert/strict";
import { encodeRsc, type RscObjectSpec } from "../../../support/carnivores/rsc.ts";
import { parseRsc } from "../../../../nodes/decode/carnivores/codec/parse_rsc.ts";
import { walkRsc } from "../../../../nodes/decode/carnivores/codec/rsc_layout.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { boxModel, rscArea } from "./fixtures.ts";

/** The area's bytes and each object's texture size field offset (from the layout of the good file). */
function area(version: "c1" | "c2", objectCount = 3) {
  const spec = rscArea(version);
  const objects: readonly RscObjectSpec[] = objectCount === 3
    ? spec.objects
    : Array.from({ length: objectCount }, (_, i) => ({ model: boxModel(3 + (i % 5), 0x1234) }));
  const bytes = encodeRsc({ ...spec, objects });
  const layout = walkRsc(bytes, version);
  if (!("objects" in layout)) throw new Error("the fixture's own layout does not fit");
  return { bytes, fields: layout.objects.map((o) => o.body + 12), objects };
}

for (const version of ["c1", "c2"] as const) {
  Deno.test(`rsc texture size (${version}): a field of another height is read at the written one, named`, () => {
    const { bytes, fields } = area(version);
    const stored = new DataView(bytes.buffer).getInt32(fields[1], true);
    new DataView(bytes.buffer).setInt32(fields[1], stored * 4, true);
    const warnings: string[] = [];
    const rsc = parseRsc(bytes, "area.rsc", "auto", (m) => void warnings.push(m));
    assert.equal(rsc.layout.version, version);
    assert.equal(rsc.objects.length, 3);
    assert.equal(rsc.objects[1].model.texture?.height, stored / 512);
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(
      warnings[0],
      new RegExp(
        `^object 1: texture size ${stored * 4} \\(${stored * 4 / 512} rows of 512 bytes\\) at byte ${
          fields[1]
        } .* with ${stored / 512} rows`,
      ),
    );
  });
}

Deno.test("rsc texture size: two objects' fields wrong is not guessed — a DecodeError", () => {
  const { bytes, fields } = area("c2");
  const view = new DataView(bytes.buffer);
  for (const field of [fields[0], fields[2]]) view.setInt32(field, view.getInt32(field, true) + 1024, true);
  assert.throws(() => parseRsc(bytes, "area.rsc", "auto", () => {}), DecodeError);
});

// How long the refusal takes is measured in tests/bench/carnivores_bench.ts, not asserted here.
Deno.test("rsc texture size: a 200-object area cut short is refused", () => {
  const { bytes } = area("c2", 200);
  assert.throws(
    () => parseRsc(bytes.subarray(0, bytes.length - 1000), "area.rsc", "auto", () => {}),
    DecodeError,
  );
});

Deno.test("rsc animation frame count stored as a .car stores it (the frames, not one less): read right, named", () => {
  const { bytes, objects } = area("c2");
  const layout = walkRsc(bytes, "c2");
  if (!("objects" in layout)) throw new Error("the fixture's own layout does not fit");
  const o = objects.findIndex((x) => x.animation);
  const frames = objects[o].animation!.frameCount;
  new DataView(bytes.buffer).setInt32(layout.objects[o].animation + 12, frames, true);
  const warnings: string[] = [];
  const rsc = parseRsc(bytes, "area.rsc", "auto", (m) => void warnings.push(m));
  assert.equal(rsc.objects[o].animation?.frameCount, frames);
  assert.deepEqual(rsc.objects[o].animation?.positions, objects[o].animation!.positions);
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(
    warnings[0],
    new RegExp(`^object ${o}: the animation's stored frame count ${frames} .* stored as ${frames - 1}`),
  );
});
