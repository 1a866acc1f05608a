/**
 * Models at other sizes than life, as web models scaled to fit a unit box and scale-model kits are:
 * the demo fighter rigged at 1/1000, 1/100, 100 and 1000 times its size gives the same parts, sides
 * and hinge directions, its hinge points scaled with it. Before, a glTF's centre band was 5 cm
 * whatever the model's size, and the 15 cm fighter's left tail surfaces were rigged as centre ones.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { copyScene } from "../../../runtime/scene/copy.ts";
import { runNode } from "../../support/context.ts";
import { type ReportPart, rig } from "./pipeline.ts";

const source = (await runNode(demoFighter, {})).scene;
const life = await rig(source, { forward: "auto", up: "auto" });

/** `v` to `digits` decimals, −0 as 0. */
const rounded = (v: number, digits: number) => +v.toFixed(digits) || 0;

/** What must not depend on the model's size, its hinge point measured in the model's own size. */
const facts = (part: ReportPart, size: number) => ({
  name: part.name,
  kind: part.kind,
  side: part.side,
  axis: part.hinge?.aircraft.axis.map((v) => rounded(v, 4)),
  origin: part.hinge?.aircraft.origin.map((v) => rounded(v / size, 3)),
});

for (const size of [0.001, 0.01, 100, 1000]) {
  Deno.test(`the demo fighter at ${size} times its size rigs to the same parts, sides and hinges`, async () => {
    const scene = copyScene(source);
    for (const root of scene.getRoot().listScenes().flatMap((s) => s.listChildren())) {
      root.setScale(root.getScale().map((v) => v * size) as [number, number, number]);
      root.setTranslation(root.getTranslation().map((v) => v * size) as [number, number, number]);
    }
    const scaled = await rig(scene, { forward: "auto", up: "auto" });
    assertEquals(
      scaled.report.parts.map((part) => facts(part, size)),
      life.report.parts.map((part) => facts(part, 1)),
    );
  });
}
