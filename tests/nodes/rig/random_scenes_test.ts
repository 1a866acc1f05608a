/**
 * The rig on seeded random scenes: panels, groups, loose points and lines under random (mirrored,
 * non-uniformly scaled, zero-scale, far-off) transforms, with surface names and decoys, declared
 * parts, morph targets and skins, in random frames. Whatever it makes of them, it never throws,
 * never writes an invalid GLB or a non-finite report number, never moves a mesh, and adds nothing
 * when run again on its own output.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document, Node } from "@gltf-transform/core";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { linearDeterminant, type Vec3 } from "../../../nodes/rig/transform.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { prng } from "../../support/prng.ts";
import { validateGltf } from "../../support/validator.ts";
import {
  addGroup,
  addPanel,
  axisAngle,
  maxDisplacement,
  newScene,
  type Trs,
  worldVertices,
} from "./fixtures.ts";
import { addMorphTarget, rawMeshNode, skinToJoints } from "./export_fixtures.ts";
import { rig } from "./pipeline.ts";

const NAMES = [
  "Aileron_L",
  "Aileron_R",
  "Elevator_L",
  "Rudder",
  "Flap_R",
  "Airbrake",
  "Spoiler_Lower",
  "LEF_L",
  "Canard_R",
  "Stab_L",
  "Elevon_R",
  "Tab",
  "Rudder_Tab",
  "DragRudder_L_Upper",
  "Slat_1_R",
  "Ruddervator_L",
  "Flaps",
  "Fuselage",
  "Wing_L",
  "Object_3",
  "Tablet",
];
const FRAMES = [["-Z", "+Y"], ["+Z", "+Y"], ["+X", "+Y"], ["-Y", "+Z"], ["auto", "auto"]];

function randomScene(next: () => number): Document {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  const doc = newScene();
  const parents: (Node | undefined)[] = [undefined];
  const count = 1 + Math.floor(next() * 8);
  for (let i = 0; i < count; i++) {
    const parent = pick(parents);
    const name = pick(NAMES);
    const far = next() < 0.1 ? 1e5 : 1;
    const trs: Trs = {
      translation: [(next() * 10 - 5) * far, next() * 4 - 2, next() * 10 - 5],
      rotation: axisAngle([next() - 0.5, next() - 0.5, next() - 0.5], next() * 360),
      scale: pick<Vec3>([[1, 1, 1], [1, 1, 1], [-1, 1, 1], [1, 3, 0.5], [0, 1, 1]]),
    };
    const what = next();
    if (what < 0.25) {
      const group = addGroup(doc, parent, name, trs);
      if (next() < 0.2) group.setExtras({ ctrl_type: "rotation", min: -10, max: 10 });
      parents.push(group);
    } else if (what < 0.35) {
      const points = Array.from(
        { length: 3 * (1 + Math.floor(next() * 4)) },
        () => next() < 0.5 ? 0 : next(),
      );
      const node = rawMeshNode(doc, name, points, pick([0, 1, 4] as const));
      if (parent) parent.addChild(node);
      else doc.getRoot().getDefaultScene()!.addChild(node);
    } else {
      const span = 0.1 + next() * 3, chord = 0.05 + next();
      const root: Vec3 = [next() * 4 - 2, next() - 0.5, next() * 4 - 2];
      const direction: Vec3 = [next() - 0.5, next() - 0.5, next() - 0.5];
      const length = Math.hypot(...direction) || 1;
      const tip = root.map((v, k) => v + (direction[k] / length) * span) as Vec3;
      const spec = {
        name,
        root,
        tip,
        aft: pick<Vec3>([[0, 0, 1], [1, 0, 0], [0, 1, 0]]),
        normal: pick<Vec3>([[0, 1, 0], [1, 0, 0], [0, 0, 1]]),
        chordRoot: chord,
        chordTip: chord * next(),
        thickness: next() * 0.1,
        stations: 2 + Math.floor(next() * 10),
        divisions: 1 + Math.floor(next() * 5),
      };
      // A zero scale (its own or above) cannot hold the panel's local mesh: such a panel is not made.
      const parentWorld = parent?.getWorldMatrix();
      if (trs.scale![0] === 0 || (parentWorld && linearDeterminant(parentWorld) === 0)) continue;
      const panel = addPanel(doc, parent, spec, trs);
      if (next() < 0.1) addMorphTarget(doc, panel, [next(), next(), next()], next());
      // The bone is named after the panel, so a surface name makes it a skin-driven panel of its own.
      if (next() < 0.05) skinToJoints(doc, panel, [addGroup(doc, undefined, `${name}_bone`)]);
      parents.push(panel);
    }
  }
  return doc;
}

/** World vertices of every mesh node, in document order (the rig adds nodes, never reorders). */
function meshVertices(doc: Document): Float64Array[] {
  return doc.getRoot().listNodes().filter((n) => n.getMesh()).map(worldVertices);
}

Deno.test("seeded random scenes: no throw, valid GLB, finite report, meshes kept, idempotent", async () => {
  const next = prng(2026);
  for (let i = 0; i < 120; i++) {
    const [forward, up] = FRAMES[Math.floor(next() * FRAMES.length)];
    const input = await writeGlb(randomScene(next), { generator: GENERATOR });
    const file = await readGltf(input);
    const before = meshVertices(file);
    const result = await rig(file, { forward, up });
    const output = await writeGlb(result.scene, { generator: GENERATOR });
    const [validIn, validOut] = [await validateGltf(input), await validateGltf(output)];
    assert(validOut.errors <= validIn.errors, `scene ${i}: ${validOut.messages.join("; ")}`);
    const json = JSON.stringify(
      result.report,
      (_, v) => typeof v === "number" && !Number.isFinite(v) ? "!" : v,
    );
    assert(!json.includes('"!"'), `scene ${i}: non-finite report number`);
    const after = meshVertices(await readGltf(output));
    assertEquals(after.length, before.length);
    before.forEach((vertices, k) => {
      const moved = maxDisplacement(vertices, after[k]);
      assert(moved <= 1e-6 * Math.max(1, ...vertices.map(Math.abs)), `scene ${i}, mesh ${k} moved ${moved}`);
    });
    const again = await rig(await readGltf(output), { forward, up });
    assertEquals(
      await writeGlb(again.scene, { generator: GENERATOR }),
      output,
      `scene ${i}: a re-run changed it`,
    );
  }
});
