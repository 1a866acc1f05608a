/**
 * Glider airbrakes (`glider_brakes.ts`): a Schempp-Hirth blade standing upright in the wing slides out
 * of its skin (`slide_blades.ts`, `slid_part.ts`), its cap drawn apart slides with it
 * (`slide_caps.ts`); flat spoiler plates lying in the skin stay hinged. Before, every blade was hinged
 * along its top or bottom edge like a fighter's air brake (0–60°), weak or judged good, a cap drawn
 * apart hinged on its own; blades named `SH_brake`, `Schempp_Hirth`, `Bremsklappen`, Polish
 * `hamulec_aerodynamiczny` or Czech `brzdici_klapka` (read as a flap) were not found as brakes.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { prng } from "../../support/prng.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { runNode } from "../../support/context.ts";
import { axisErrorDegrees, worldVertices } from "./fixtures.ts";
import { hingeError } from "./coarse_panels.ts";
import { gliderSample } from "./glider_brakes.ts";
import { nodeNamed, rig } from "./pipeline.ts";

type Slide = { surface: string; pose: string; travel: number };
type Fit = { confidence: string; rule: string; rule_why?: string; slide?: Slide };

Deno.test("glider airbrake blades slide out of the wing's skin, their caps with them; flat plates hinge", async () => {
  const next = prng(5);
  const tally: Record<string, number> = {}, wrong: string[] = [];
  for (let i = 0; i < 32; i++) {
    const sample = gliderSample(next, i);
    const { report, ctx, scene } = await rig(sample.scene);
    // Nothing else is found by its shape: not the wheel's brake disc named by the brakes' word.
    const extra = report.parts.filter((p) =>
      p.found_by === "shape" && !sample.brakes.some((b) => b.name === p.panel)
    );
    assertEquals(extra.map((p) => p.name), [], `#${i}`);
    for (const brake of sample.brakes) {
      const truth = brake.truth;
      if (truth.motion !== "slide") continue;
      const part = report.parts.find((p) => p.panel === brake.name);
      const fit = part?.fit as unknown as Fit | undefined;
      const range = fit?.slide?.travel ?? 0;
      const right = part?.ctrl_type === "translation" && part.hinge !== null &&
        axisErrorDegrees(part.hinge.aircraft.axis, truth.direction) <= 10 &&
        Math.sign(part.hinge.aircraft.axis[1]) === Math.sign(truth.direction[1]) &&
        range >= 0.5 * truth.travel && range <= 1.6 * truth.travel &&
        fit?.slide?.pose === truth.pose &&
        (truth.pose === "retracted" ? part.min === 0 && part.max! > 0 : part.max === 0 && part.min! < 0);
      const key = `${right ? "right" : "wrong"} ${fit?.confidence}`;
      tally[key] = (tally[key] ?? 0) + 1;
      if (!right) wrong.push(`#${i} ${brake.name} ${sample.description}: ${JSON.stringify(part)}`);
      if (!right) continue;
      assertEquals([part!.kind === "air_brake" || part!.kind === "spoiler", fit!.rule], [true, "slide"]);
      assert(fit!.rule_why && /slides/.test(fit!.rule_why), `#${i} ${brake.name}: no reason`);
      // A tool's default name, or a word for any brake alone (a wheel's too), says no airbrake: found by
      // its shape on a glider (a mirror-image pair of upright blades in the wings), warned, the evidence
      // in its rule_why (shape_brakes.ts).
      const warned = ctx.warnings.some((w) => w.message.includes(`'${brake.name}'`));
      if (sample.naming !== "named") {
        assertEquals([part!.found_by, warned], ["shape", true], `#${i} ${brake.name}`);
        assert(/found by its shape/.test(fit!.rule_why!), `#${i} ${brake.name}: ${fit!.rule_why}`);
      } else {
        // A blade drawn only as far as it shows (its root on the skin, as a dive brake's hinged edge sits)
        // slides on a glider, warned as unsure.
        const shown = /drawn as shown/.test(sample.description);
        assertEquals([part!.found_by, warned], ["name", shown], `#${i} ${brake.name}`);
      }
      tally[sample.naming] = (tally[sample.naming] ?? 0) + 1;
      // Sliding the pivot by its travel moves the blade along the wing's normal by that travel (world).
      const pivot = nodeNamed(scene, part!.name), panel = nodeNamed(scene, brake.name);
      const before = worldVertices(panel);
      const t = pivot.getTranslation(), x = truth.pose === "retracted" ? part!.max! : part!.min!;
      const q = pivot.getRotation();
      // The pivot's local X in its parent's space (a unit quaternion turning [1, 0, 0]).
      const ax = [
        1 - 2 * (q[1] * q[1] + q[2] * q[2]),
        2 * (q[0] * q[1] + q[2] * q[3]),
        2 * (q[0] * q[2] - q[1] * q[3]),
      ];
      pivot.setTranslation([t[0] + ax[0] * x, t[1] + ax[1] * x, t[2] + ax[2] * x]);
      const after = worldVertices(panel);
      pivot.setTranslation(t);
      const moved = [0, 1, 2].map((k) => after[k] - before[k]);
      const travel = Math.hypot(...moved), sign = truth.pose === "retracted" ? 1 : -1;
      assert(
        Math.abs(travel - range) <= 1e-3 * range + 1e-4,
        `#${i} ${brake.name}: slid ${travel}, not ${range}`,
      );
      // Scene axes (−Z forward, +Y up) to aircraft (aft, up, left); out of the skin from rest.
      const out = [moved[2], moved[1], -moved[0]].map((v) => sign * v / travel);
      const along = out.reduce((sum, v, k) => sum + v * truth.direction[k], 0);
      assert(along > Math.cos(10 * Math.PI / 180), `#${i} ${brake.name}: slides ${out}`);
    }
  }
  assertEquals(wrong, []);
  assert((tally["right good"] ?? 0) > 40, JSON.stringify(tally));
  assert(tally.default > 4 && tally.brake_word > 4, JSON.stringify(tally));
  // Flat spoiler plates lying in the skin (a Ka 8's) stay hinged at their forward edge.
  const plates = prng(6);
  for (let i = 0; i < 6; i++) {
    const sample = gliderSample(plates, i, { plates: true });
    const { report } = await rig(sample.scene);
    for (const brake of sample.brakes) {
      const part = report.parts.find((p) => p.panel === brake.name)!;
      assert(brake.truth.motion === "hinge");
      assertEquals([part.ctrl_type, (part.fit as unknown as Fit).rule], ["rotation", "forward_edge"]);
      const { degrees, offset } = hingeError(brake.truth, part.hinge!.aircraft);
      assert(
        degrees <= 2 && offset <= 0.05 * brake.truth.chord,
        `#${i} ${brake.name}: ${degrees}°, ${offset}`,
      );
    }
  }
  // Drawn raised 70° by a posed model, a plate still turns (its faces lean off square to the flow).
  for (let i = 0; i < 6; i++) {
    const sample = gliderSample(plates, i, { plates: true, raised: 70 });
    const { report } = await rig(sample.scene);
    for (const brake of sample.brakes) {
      assertEquals(report.parts.find((p) => p.panel === brake.name)!.ctrl_type, "rotation");
    }
  }
});

Deno.test("unnamed upright blades are found by shape on gliders only: not where an engine is named", async () => {
  const next = prng(8);
  let gliders = 0;
  for (let i = 0; i < 24; i++) {
    const sample = gliderSample(next, i, { engine: i % 2 === 0 });
    if (sample.naming === "named") continue;
    const { report } = await rig(sample.scene);
    const found = report.parts.filter((p) => p.found_by === "shape").length;
    // A powered aircraft with long wings: its unnamed blades are left alone, as before; a motor glider
    // named a glider (`Glider` over a centimetre file) has them found.
    if (i % 2 === 0 && !/under '/.test(sample.description)) {
      assertEquals(found, 0, `#${i} ${sample.description}`);
    } else assertEquals(found, sample.brakes.length, `#${i} ${sample.description}`), gliders++;
  }
  assert(gliders >= 3, `${gliders}`);
});

Deno.test("a sliding brake's pivot is exported as a translation along its X, in metres", async () => {
  const sample = gliderSample(prng(7), 0);
  const { scene, report } = await rig(sample.scene);
  const doc = await readGltf((await runNode(exportGltf, { scene }, {})).bytes.bytes);
  const brake = sample.brakes[0];
  const part = report.parts.find((p) => p.panel === brake.name)!;
  const pivot = doc.getRoot().listNodes().find((n) => n.getName() === part.name)!;
  const extras = pivot.getExtras() as Record<string, unknown>;
  assertEquals(
    [extras.ctrl_type, extras.axis, extras.unit, extras.min, extras.max, extras.positive, extras.group],
    ["translation", "X", "m", part.min, part.max, "open", part.group],
  );
  assert((part.max as number) > 0);
});
