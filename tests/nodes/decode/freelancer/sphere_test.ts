/**
 * Planets and suns (`.sph`): a `Sphere` directory (radius, side materials M0–M5, atmosphere M6)
 * becomes the sphere Librelancer draws — six cube faces pushed onto the sphere, one primitive per
 * side material on the face Librelancer gives it (+Z, +X, −Z, −X, +Y, −Y), and the atmosphere a
 * blended shell `Scale` times larger. Expected numbers come from the fixture's radius and scale and
 * from the face table, not from the decoder.
 */
import assert from "node:assert/strict";
import type { Document, Primitive } from "@gltf-transform/core";
import { DecodeError } from "../../../../runtime/errors.ts";
import { loadPngEncoder } from "../../../../runtime/scene/png.ts";
import { materialLibrary, type MaterialSpec } from "../../../support/freelancer/encode_model.ts";
import {
  encodeFloats,
  encodeI32,
  encodeString,
  utfDir,
  utfLeaf,
  type UtfNode,
} from "../../../support/freelancer/encode_utf.ts";
import { assertValid, decodeTree } from "./triangle_models.ts";

await loadPngEncoder();

const RADIUS = 3000;
const SIDES = ["planet_px", "planet_py", "planet_nz", "planet_nx", "planet_top", "planet_bottom"];
/** The axis and sign each side's face points along, per Librelancer's `SphFile.faces`. */
const FACE_OF = [[2, 1], [0, 1], [2, -1], [0, -1], [1, 1], [1, -1]] as const;

const sideMaterials: MaterialSpec[] = SIDES.map((name, i) => ({ name, dc: [i / 5, 0.5, 1 - i / 5] }));
const atmosphere = (scale?: number): MaterialSpec => ({
  name: "planet_atmo",
  type: "AtmosphereMaterial",
  dc: [0.4, 0.6, 1],
  leaves: [
    utfLeaf("Alpha", encodeFloats([0.5])),
    ...(scale === undefined ? [] : [utfLeaf("Scale", encodeFloats([scale]))]),
  ],
});

/** A `.sph` tree: the Sphere directory with `sides` (M0, M1, …) and `extra` leaves, then a material library. */
function sphTree(
  sides: readonly string[],
  materials: readonly MaterialSpec[],
  options: { radius?: number | null; count?: number; extra?: readonly UtfNode[] } = {},
): UtfNode {
  const radius = options.radius === undefined ? RADIUS : options.radius;
  return utfDir("\\", [
    utfDir("Sphere", [
      ...(radius === null ? [] : [utfLeaf("Radius", encodeFloats([radius]))]),
      utfLeaf("Sides", encodeI32(options.count ?? sides.length)),
      ...sides.map((name, i) => utfLeaf(`M${i}`, encodeString(name))),
      ...(options.extra ?? []),
    ]),
    materialLibrary(materials),
  ]);
}

function positions(prim: Primitive): number[][] {
  const a = prim.getAttribute("POSITION")!.getArray()!;
  return Array.from({ length: a.length / 3 }, (_, i) => [a[3 * i], a[3 * i + 1], a[3 * i + 2]]);
}

function primitives(scene: Document): Primitive[] {
  const nodes = scene.getRoot().getDefaultScene()!.listChildren();
  assert.deepEqual(nodes.map((n) => n.getName()), ["Root"]);
  return nodes[0].getMesh()!.listPrimitives();
}

Deno.test(".sph: six faces on the sphere with their side materials, the atmosphere a blended shell Scale × larger", async () => {
  const { scene, warnings } = await decodeTree(
    sphTree([...SIDES, "planet_atmo"], [...sideMaterials, atmosphere(1.25)]),
    "planet_test.sph",
  );
  const prims = primitives(scene);
  assert.deepEqual(prims.map((p) => p.getMaterial()!.getName()), [...SIDES, "planet_atmo"]);
  for (const [i, prim] of prims.entries()) {
    const r = i < 6 ? RADIUS : RADIUS * 1.25;
    const points = positions(prim);
    // (26 + 1)² points per face; the atmosphere is all six faces.
    assert.equal(points.length, (i < 6 ? 1 : 6) * 27 * 27);
    for (const p of points) assert.ok(Math.abs(Math.hypot(...p) / r - 1) < 1e-5, `${i}: ${p} on radius ${r}`);
    if (i < 6) {
      // Every point of the face lies in its face's sixth of the sphere.
      const [axis, sign] = FACE_OF[i];
      for (const p of points) {
        assert.ok(sign * p[axis] >= Math.max(...p.map(Math.abs)) - 1e-3, `${SIDES[i]}: ${p}`);
      }
    }
    // Counter-clockwise seen from outside: every triangle's normal points away from the centre.
    const idx = prim.getIndices()!.getArray()!;
    for (let t = 0; t < idx.length; t += 3) {
      const [a, b, c] = [idx[t], idx[t + 1], idx[t + 2]].map((k) => points[k]);
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      assert.ok(n[0] * a[0] + n[1] * a[1] + n[2] * a[2] > 0, `${i}: triangle ${t / 3} faces inwards`);
    }
    assert.equal(idx.length, (i < 6 ? 1 : 6) * 26 * 26 * 6);
  }
  // The +Z face (M0): u grows with x and v with y, from 0 to 1 (Librelancer's layout).
  const front = positions(prims[0]);
  const uv = prims[0].getAttribute("TEXCOORD_0")!.getArray()!;
  const at = (want: (p: number[]) => boolean) => {
    const k = front.findIndex(want);
    return [uv[2 * k], uv[2 * k + 1]];
  };
  const corner = RADIUS / Math.sqrt(3);
  const near = (p: number[], x: number, y: number) => Math.abs(p[0] - x) < 1 && Math.abs(p[1] - y) < 1;
  assert.deepEqual(at((p) => near(p, -corner, -corner)), [0, 0]);
  assert.deepEqual(at((p) => near(p, corner, -corner)), [1, 0]);
  assert.deepEqual(at((p) => near(p, -corner, corner)), [0, 1]);
  assert.equal(prims[6].getMaterial()!.getAlphaMode(), "BLEND");
  assert.equal(prims[0].getMaterial()!.getAlphaMode(), "OPAQUE");
  const info = (scene.getRoot().getDefaultScene()!.listChildren()[0].getExtras().partgraph as {
    freelancer: Record<string, unknown>;
  }).freelancer;
  assert.deepEqual(info.sphere, { radius: RADIUS, sides: [...SIDES, "planet_atmo"], atmosphere_scale: 1.25 });
  assert.ok(
    warnings.some((w) =>
      w.includes("planet_test.sph") && w.includes("generated") && w.includes("1.25 × larger")
    ),
    warnings.join("\n"),
  );
  await assertValid(scene);
});

Deno.test(".sph: an atmosphere without Scale is left out (Librelancer scales it to nothing), named in a warning", async () => {
  const { scene, warnings } = await decodeTree(
    sphTree([...SIDES, "planet_atmo"], [...sideMaterials, atmosphere()]),
    "noscale.sph",
  );
  assert.deepEqual(primitives(scene).map((p) => p.getMaterial()!.getName()), SIDES);
  assert.ok(warnings.some((w) => w.includes("'planet_atmo' has no Scale")), warnings.join("\n"));
  // A Scale whose shell is past a 32-bit float would make invalid positions: left out too.
  const huge = await decodeTree(
    sphTree([...SIDES, "planet_atmo"], [...sideMaterials, atmosphere(1e36)]),
    "huge.sph",
  );
  assert.equal(primitives(huge.scene).length, 6);
  assert.ok(huge.warnings.some((w) => w.includes("past a 32-bit float")), huge.warnings.join("\n"));
  await assertValid(huge.scene);
});

Deno.test(".sph: six sides without atmosphere; a Sides count that disagrees and a stray leaf are warned about", async () => {
  const { scene, warnings } = await decodeTree(
    sphTree(SIDES, sideMaterials, { count: 7, extra: [utfLeaf("Colour", encodeFloats([1]))] }),
    "six.sph",
  );
  assert.equal(primitives(scene).length, 6);
  assert.ok(warnings.some((w) => w.includes("Sides says 7 sides but M0–M5")), warnings.join("\n"));
  assert.ok(warnings.some((w) => w.includes("Sphere/Colour")), warnings.join("\n"));
  await assertValid(scene);
});

Deno.test(".sph: fewer than six sides, or no usable radius, is a typed error at the Sphere entry", async () => {
  const refused = async (tree: UtfNode, expected: RegExp) => {
    const error = await decodeTree(tree, "bad.sph").then(() => undefined, (e) => e);
    assert.ok(error instanceof DecodeError, String(error));
    assert.equal(error.format, "sph");
    assert.match(error.message, expected);
  };
  await refused(sphTree(SIDES.slice(0, 5), sideMaterials), /side materials M0–M5.*found M0–M4/);
  await refused(sphTree(SIDES, sideMaterials, { radius: null }), /a Radius leaf/);
  await refused(sphTree(SIDES, sideMaterials, { radius: -1 }), /a finite radius above 0.*-1/);
});
