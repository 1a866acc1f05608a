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
function aircraft() {
  const doc = newScene();
  const left = sheet([0, 1.5], [0, 0.2], 0.4, { z0: 2 });
  addAircraftMesh(doc, "Aileron_L", left.positions, left.triangles);
  const right = sheet([0, -1.5], [0, 0.2], 0.4, { z0: -2 });
  addAircraftMesh(doc, "Aileron_R", right.positions, right.triangles);
  // A rudder standing up: sections along aircraft up (positions given as aft, up, left).
  addAircraftMesh(doc, "Rudder", [5, 1, 0, 5.6, 1, 0, 5.3, 2.2, 0, 5.7, 2.2, 0], [0, 2, 1, 1, 2, 3]);
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
