/**
 * One connected V across the centre line (`v_planforms.ts`) is cut at the plane of symmetry into a
 * left and a right panel, each hinged within the tolerances; a piece that is not a mirror
 * image, or whose halves lie on one hinge line, is left whole — warned where its halves could move
 * apart (ailerons, stabilators), not where they never do (an elevator, a flap, a centre speed brake).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document, Node } from "@gltf-transform/core";
import { writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { cross, length, sub, transformPoint } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { validateGltf } from "../../support/validator.ts";
import { addAircraftMesh, hingeError } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { nodeNamed, rig } from "./pipeline.ts";
import { type VOptions, vPlanform } from "./v_planforms.ts";

/** Total area of a node's triangles in world space. */
function worldArea(node: Node): number {
  let area = 0;
  const world = node.getWorldMatrix();
  for (const primitive of node.getMesh()!.listPrimitives()) {
    const position = primitive.getAttribute("POSITION")!;
    const indices = primitive.getIndices()!.getArray()!;
    const at = (i: number) => transformPoint(world, position.getElement(indices[i], [0, 0, 0]));
    for (let t = 0; t < indices.length; t += 3) {
      area += length(cross(sub(at(t + 1), at(t)), sub(at(t + 2), at(t)))) / 2;
    }
  }
  return area;
}

function vScene(
  name: string,
  options: VOptions,
  seed = 1,
): { doc: Document; v: ReturnType<typeof vPlanform> } {
  const doc = newScene();
  const v = vPlanform(options, prng(seed));
  addAircraftMesh(doc, name, v.positions, v.triangles);
  return { doc, v };
}

Deno.test("V planforms at several sweeps, dihedrals and coarseness are cut in two, each half hinged within 1° and 2 % of chord", async () => {
  const names = ["Ruddervator", "Elevons", "Elevator"];
  let cases = 0, worst = { degrees: 0, offset: 0 };
  for (const sweepDegrees of [0, 25, 50]) {
    for (const dihedralDegrees of [0, 30, 45]) {
      if (sweepDegrees === 0 && dihedralDegrees === 0) continue;
      for (const sections of [2, 3, 6]) {
        for (const thickness of [0, 0.08]) {
          for (const centreSection of [true, false]) {
            const name = names[cases % names.length];
            const options = { sweepDegrees, dihedralDegrees, sections, thickness, centreSection };
            const what = `${name} ${JSON.stringify(options)}`;
            const { doc, v } = vScene(name, options, cases);
            const area = worldArea(nodeNamed(doc, name));
            const result = await rig(doc);
            assertEquals(
              result.report.parts.map((p) => [p.panel, p.side]),
              [[`${name}_L`, "left"], [`${name}_R`, "right"]],
              what,
            );
            assert(
              result.ctx.warnings.some((w) => w.message.includes("cut at the plane of symmetry")),
              what,
            );
            // The cut keeps the surface: the halves' areas add up to the whole.
            const halves = worldArea(nodeNamed(result.scene, `${name}_L`)) +
              worldArea(nodeNamed(result.scene, `${name}_R`));
            assert(Math.abs(halves - area) < 1e-6 * area, `${what}: area ${area} became ${halves}`);
            for (const part of result.report.parts) {
              const truth = part.side === "left" ? v.halves.left : v.halves.right;
              const { degrees, offset } = hingeError(truth, part.hinge!.aircraft);
              const confidence = (part.fit as unknown as { confidence: string }).confidence;
              assert(
                confidence === "good" && degrees <= 1 && offset <= 0.02 * truth.chord,
                `${what} ${part.panel}: ${confidence}, ${degrees.toFixed(2)}°, ${
                  (offset / truth.chord * 100).toFixed(2)
                } %`,
              );
              worst = {
                degrees: Math.max(worst.degrees, degrees),
                offset: Math.max(worst.offset, offset / truth.chord),
              };
            }
            cases++;
          }
        }
      }
    }
  }
  console.log(
    `${cases} V planforms cut; worst half ${worst.degrees.toFixed(3)}°, ${
      (worst.offset * 100).toFixed(2)
    } % of chord`,
  );
});

Deno.test("a V whose halves are not mirror images, or a straight piece through the centre that could move apart, is warned about and left whole", async () => {
  const base = { sweepDegrees: 30, dihedralDegrees: 0, sections: 4, thickness: 0.05, centreSection: false };
  for (
    const [name, options, why] of [
      ["Elevator", { ...base, leftStretch: 1.6 }, "not mirror images"],
      ["Ailerons", { ...base, sweepDegrees: 0 }, "lie on one hinge line"],
      ["Stabilator", { ...base, sweepDegrees: 0 }, "lie on one hinge line"],
    ] as const
  ) {
    const { doc } = vScene(name, options);
    const result = await rig(doc);
    assertEquals(result.report.parts.map((p) => p.panel), [name], why);
    const warned = result.ctx.warnings.map((w) => w.message).filter((m) => m.includes("one connected piece"));
    assertEquals(warned.length, 1, why);
    assert(warned[0].startsWith(`panel '${name}' (`) && warned[0].includes(why), warned[0]);
  }
});

Deno.test("a straight piece through the centre of a kind that only moves as a whole is one panel, unwarned", async () => {
  const straight = {
    sweepDegrees: 0,
    dihedralDegrees: 0,
    sections: 4,
    thickness: 0.05,
    centreSection: false,
  };
  for (const name of ["Elevator", "Flaps", "SpeedBrake"]) {
    const { doc } = vScene(name, straight);
    const result = await rig(doc);
    assertEquals(result.report.parts.map((p) => [p.panel, p.side]), [[name, "centre"]]);
    const warned = result.ctx.warnings.map((w) => w.message).filter((m) => m.includes(name));
    assertEquals(warned, [], name);
  }
});

Deno.test("cutting a V keeps materials, extras and interpolates every attribute; the output is valid", async () => {
  const { doc } = vScene("Elevons", {
    ...{ sweepDegrees: 40, dihedralDegrees: 10, sections: 3 },
    thickness: 0.06,
    centreSection: false,
  });
  const node = nodeNamed(doc, "Elevons");
  node.setExtras({ author: "kept" });
  const primitive = node.getMesh()!.listPrimitives()[0];
  const position = primitive.getAttribute("POSITION")!;
  // A UV that is a linear function of the position: a cut vertex's must be that function's value there.
  const uvOf = (p: number[]) => [0.25 * p[0] + 0.5, 0.1 * p[2] - 0.2 * p[1]];
  const uv = new Float32Array(position.getCount() * 2);
  for (let i = 0; i < position.getCount(); i++) uv.set(uvOf(position.getElement(i, [0, 0, 0])), i * 2);
  primitive.setAttribute("TEXCOORD_0", doc.createAccessor("uv").setType("VEC2").setArray(uv))
    .setMaterial(doc.createMaterial("Paint"));
  const result = await rig(doc);
  let cutVertices = 0;
  for (const name of ["Elevons_L", "Elevons_R"]) {
    const half = nodeNamed(result.scene, name);
    assertEquals((half.getExtras() as { author?: string }).author, "kept");
    const [p] = half.getMesh()!.listPrimitives();
    assertEquals(p.getMaterial()?.getName(), "Paint");
    const positions = p.getAttribute("POSITION")!, uvs = p.getAttribute("TEXCOORD_0")!;
    for (let i = 0; i < positions.getCount(); i++) {
      const at = positions.getElement(i, [0, 0, 0]);
      if (Math.abs(at[0]) < 1e-6) cutVertices++; // scene X is the aircraft's lateral axis
      const expected = uvOf(at), got = uvs.getElement(i, [0, 0]);
      assert(Math.hypot(got[0] - expected[0], got[1] - expected[1]) < 1e-5, `${name} vertex ${i}: uv ${got}`);
    }
  }
  // The straddling strip of diamond sections has four edges and four quad diagonals across the plane:
  // each half gets the eight new vertices.
  assertEquals(cutVertices, 16);
  const report = await validateGltf(await writeGlb(result.scene, { generator: GENERATOR }));
  assertEquals(report.errors, 0, report.messages.join("\n"));
});
