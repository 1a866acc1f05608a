/**
 * Frame-disagreement warnings: with the wrong frame, a rudder lies flat, left/right panels sit on the
 * other side, or ailerons stretch along the flow — each warned about, naming the frame to try; with
 * the right frame, none of them.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { addAircraftMesh, sheet } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { rig } from "./pipeline.ts";

/** Ailerons and a rudder in the default frame (−Z forward, +Y up). */
function aircraft(rudder = "Rudder") {
  const doc = newScene();
  const left = sheet([0, 1.5], [0, 0.2], 0.4, { z0: 2 });
  addAircraftMesh(doc, "Aileron_L", left.positions, left.triangles);
  const right = sheet([0, -1.5], [0, 0.2], 0.4, { z0: -2 });
  addAircraftMesh(doc, "Aileron_R", right.positions, right.triangles);
  // A rudder standing up: sections along aircraft up (positions given as aft, up, left).
  addAircraftMesh(doc, rudder, [5, 1, 0, 5.6, 1, 0, 5.3, 2.2, 0, 5.7, 2.2, 0], [0, 2, 1, 1, 2, 3]);
  return doc;
}

const frameWarnings = (messages: string[]) =>
  messages.filter((m) => m.includes("lies flat") || m.includes("other side") || m.includes("stretch along"));

Deno.test("the right frame raises no frame warning", async () => {
  const { ctx } = await rig(aircraft());
  assertEquals(frameWarnings(ctx.warnings.map((w) => w.message)), []);
});

Deno.test("facing the other way: left and right panels on the other side", async () => {
  const { ctx } = await rig(aircraft(), { forward: "+Z" });
  const messages = frameWarnings(ctx.warnings.map((w) => w.message));
  assert(
    messages.some((m) =>
      m.includes("2 of 2 panels named left or right sit on the other side") &&
      m.includes("try forward -Z")
    ),
    messages.join("\n"),
  );
});

Deno.test("up wrong: the rudder lies flat; forward along the wing: ailerons stretch along the flow", async () => {
  const flat = frameWarnings(
    (await rig(aircraft(), { forward: "-Z", up: "+X" })).ctx.warnings.map((w) => w.message),
  );
  assert(
    flat.some((m) => m.includes("rudder 'Rudder' lies flat") && m.includes("try up +Y or -Y")),
    flat.join("\n"),
  );
  const along = frameWarnings(
    (await rig(aircraft(), { forward: "+X", up: "+Y" })).ctx.warnings.map((w) => w.message),
  );
  assert(
    along.some((m) => m.includes("stretch along the flow") && m.includes("try forward +Z or -Z")),
    along.join("\n"),
  );
});

Deno.test("a panel named left or right on the centre line is warned about by name", async () => {
  const { ctx, report } = await rig(aircraft("Rudder_L"));
  const messages = ctx.warnings.map((w) => w.message).filter((m) => m.includes("sits on the centre line"));
  assertEquals(messages.length, 1, messages.join("\n"));
  // The ailerons lie apart along the span, so the frame is fine and the name is the suspect.
  assert(
    messages[0].startsWith(
      "panel 'Rudder_L' is named left but sits on the centre line in the frame " +
        "(forward -Z, up +Y); its side name is probably wrong",
    ),
    messages[0],
  );
  // The side the name states is kept (rig.assign_side's rule): the warning is the user's cue.
  assertEquals(report.parts.find((p) => p.panel === "Rudder_L")?.side, "left");
});

Deno.test("left/right-named panels apart along up: the model is rolled, the up to try is named", async () => {
  // The same aircraft read with up along its span: the rudder lies flat, and the sides lie apart
  // along the given up.
  const { ctx } = await rig(aircraft("Rudder_L"), { forward: "-Z", up: "-X" });
  const messages = ctx.warnings.map((w) => w.message).filter((m) => m.includes("sits on the centre line"));
  assert(messages.length >= 1, ctx.warnings.map((w) => w.message).join("\n"));
  assert(messages.every((m) => m.includes("so the span runs there; try up +Y or -Y")), messages.join("\n"));
});
