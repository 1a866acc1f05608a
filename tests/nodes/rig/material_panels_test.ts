/**
 * A control surface never separated from its wing — one object, one mesh, the surface a primitive of
 * its own only by its material (`modeller_habits.ts` `material_split`: `Aileron_L`, `M_Aileron_L`,
 * `aileron_l_mat`, one `Aileron` on both wings; one vertex buffer or two) — is moved into a node of its
 * own, found, rigged right (5°, 5 % of chord, side, sense) and `good`, and named in a warning, as the
 * material might have been paint (`rig.detect_panels` v42). Before, such surfaces were never found,
 * and nothing said so. A primitive so named whose corners lie on the rest of its mesh (a stripe painted
 * on the fuselage's skin, or a surface welded to its wing) is named in a warning and left whole.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { judgeModeller, seedsOf } from "./modeller_habits_tally.ts";
import { boxMesh, sweptWingAircraft } from "./surface_classes.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { prng } from "../../support/prng.ts";
import { rig } from "./pipeline.ts";

Deno.test("surfaces told from their wing only by material are found, rigged right and good, and warned", async () => {
  const missed: string[] = [];
  let panels = 0, warned = 0;
  for (const seed of seedsOf("material_split", 8)) {
    const verdict = await judgeModeller(seed);
    panels += verdict.panels;
    warned += verdict.warned;
    for (const said of [...verdict.wrong, ...verdict.alarms]) missed.push(`${verdict.description}: ${said}`);
  }
  assertEquals(missed, [], `${missed.length} of ${panels} panels unrigged, wrong or not good`);
  // Each was named in a warning: the material might have been paint.
  assertEquals(warned, panels);
});

Deno.test("a primitive named for a surface welded to the rest of its mesh is named and left whole", async () => {
  // A swept-wing aircraft whose fuselage box draws its top face with a material `Aileron_Paint` (a
  // stripe, or a surface never cut loose: its corners are the box's).
  const sample = sweptWingAircraft(prng(7));
  const doc = newScene();
  for (const { name, mesh } of [...sample.fixed, ...sample.panels]) {
    if (name === "Fuselage") continue;
    addAircraftMesh(doc, name, mesh.positions, mesh.triangles);
  }
  const box = boxMesh([-4, -0.5, -0.5], [10, 0.5, 0.5]);
  const body = addAircraftMesh(doc, "Fuselage", box.positions, box.triangles);
  const primitive = body.getMesh()!.listPrimitives()[0];
  const indices = primitive.getIndices()!.getArray() as Uint32Array;
  // Face 3 of boxMesh is the top (y = max): its two triangles go to the paint.
  const top = indices.slice(18, 24), rest = new Uint32Array([...indices.slice(0, 18), ...indices.slice(24)]);
  primitive.setIndices(doc.createAccessor("rest").setType("SCALAR").setArray(rest)).setMaterial(
    doc.createMaterial("Metal"),
  );
  body.getMesh()!.addPrimitive(
    doc.createPrimitive().setAttribute("POSITION", primitive.getAttribute("POSITION"))
      .setIndices(doc.createAccessor("top").setType("SCALAR").setArray(top))
      .setMaterial(doc.createMaterial("Aileron_Paint")),
  );
  const { report, ctx } = await rig(doc);
  assertEquals(report.parts.map((p) => p.panel).sort(), ["Aileron_L", "Aileron_R"]);
  const said = ctx.warnings.filter((w) => w.message.includes("'Aileron_Paint'"));
  assertEquals(said.length, 1, ctx.warnings.map((w) => w.message).join("\n"));
  assertEquals(said[0].message.includes("'Fuselage'"), true);
});
