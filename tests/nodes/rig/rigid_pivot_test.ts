/**
 * `rig.insert_pivot` under non-uniformly scaled parents: every pivot turns its panel rigidly about its
 * world hinge (≤ 1e-6 of the model's size) at several angles in its limits, nothing else moves, the
 * panel's rest pose is kept in memory and on disk, and a re-run changes nothing.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document, Node } from "@gltf-transform/core";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { getPart } from "../../../nodes/rig/part_extras.ts";
import type { Quat, Vec3 } from "../../../nodes/rig/transform.ts";
import {
  addGroup,
  addPanel,
  axisAngle,
  maxDisplacement,
  newScene,
  type PanelSpec,
  type Trs,
  worldVertices,
} from "./fixtures.ts";
import { aileron, checkCases, DOWN } from "./cases.ts";
import { nodeNamed, rig } from "./pipeline.ts";
import { measureTurns } from "./rigid_turns.ts";
import { validateGltf } from "../../support/validator.ts";

/** A right-wing aileron under `chain` (outermost first), with its own rotation. */
function sceneUnder(chain: Trs[]): { doc: Document; parent: Node } {
  const doc = newScene();
  let parent: Node | undefined;
  chain.forEach((trs, i) => parent = addGroup(doc, parent, `Group_${i}`, trs));
  const panel = addPanel(doc, parent!, aileron("Aileron_R"), {
    translation: [3, 0.1, 1],
    rotation: axisAngle([0.3, 1, 0.2], 17),
  });
  // An author's extras and a child (a light socket, say) that must survive the insertion.
  panel.setExtras({ author_note: "keep me" });
  addGroup(doc, panel, "Aileron_R_Socket", { translation: [0.1, 0, 0.2] });
  return { doc, parent: parent! };
}

const CHAINS: Record<string, Trs[]> = {
  "scale (1, 1, 3)": [{ translation: [0, 0.3, 5], rotation: axisAngle([1, 0.2, 0], 8), scale: [1, 1, 3] }],
  "scale (−1, 2, 1)": [{ translation: [0.2, 0, 1], rotation: axisAngle([0, 0.3, 1], -6), scale: [-1, 2, 1] }],
  "nested scales": [
    { translation: [1, 2, 3], rotation: axisAngle([0.2, 1, 0.1], 35), scale: [2, 1, 1] },
    { translation: [0.5, 0, -1], rotation: axisAngle([1, 0.4, 0.3], 25), scale: [1, 0.6, 3] },
  ],
  // As exporters write them: a float32 quaternion, a little off unit length, so the singular axes are too.
  "float32 rotation, scale (1, 1, 3)": [{
    translation: [0, 0.3, 5],
    rotation: Array.from(new Float32Array(axisAngle([1, 0.2, 0], 8))) as Quat,
    scale: [1, 1, 3],
  }],
  "scaled parent of a mirrored instance": [
    { translation: [0, -0.2, 0.4], rotation: axisAngle([1, 0, 0], 3), scale: [1.15, 0.85, 1] },
    { translation: [-0.75, 0, 0], rotation: axisAngle([0, 0, 1], -3), scale: [-1, 1, 1] },
  ],
};

for (const [label, chain] of Object.entries(CHAINS)) {
  for (const zeroRest of [false, true]) {
    Deno.test(`${label}${zeroRest ? ", zero_rest" : ""}: the pivot turns its panel rigidly`, async () => {
      const { doc, parent } = sceneUnder(chain);
      const before = worldVertices(nodeNamed(doc, "Aileron_R"));
      const result = zeroRest
        ? await rig(doc, {}, {}, { zero_rest: true })
        : await checkCases(doc, [{ spec: aileron("Aileron_R"), parent: parent.getName() }], () => DOWN);
      assert(
        !result.ctx.warnings.some((w) => w.message.includes("shears")),
        `no shear warning: ${result.ctx.warnings.map((w) => w.message)}`,
      );
      const reread = await readGltf(await writeGlb(result.scene, { generator: GENERATOR }));
      for (const scene of [result.scene, reread]) {
        const panel = nodeNamed(scene, "Aileron_R");
        assert(maxDisplacement(before, worldVertices(panel)) < 1e-5, "pose kept at rest");
        assertEquals(panel.getExtras().author_note, "keep me");
        assertEquals(panel.listChildren().map((n) => n.getName()), ["Aileron_R_Socket"]);
        const [turn] = measureTurns(scene);
        assertEquals(turn.pivot, "HINGE_auto_Aileron_R");
        assert(
          turn.offIdeal < 1e-6,
          `${label}: off the ideal rotation by ${turn.offIdeal} of the model size`,
        );
        assertEquals(turn.othersMoved, 0);
      }
      const pivot = nodeNamed(result.scene, "HINGE_auto_Aileron_R");
      const names = pathTo(pivot, "Aileron_R");
      assertEquals(names, [
        "HINGE_auto_Aileron_R_unscale",
        ...zeroRest ? ["HINGE_auto_Aileron_R_rest"] : [],
        "HINGE_auto_Aileron_R",
        "HINGE_auto_Aileron_R_rescale",
        "Aileron_R",
      ]);
      if (zeroRest) assertEquals([...pivot.getRotation(), ...pivot.getTranslation()], [0, 0, 0, 1, 0, 0, 0]);
      assertEquals(getPart(pivot)?.panel, "Aileron_R");
      assertEquals((await validateGltf(await writeGlb(result.scene, { generator: GENERATOR }))).errors, 0);
      // Re-running the rig on its output (read back from the file) changes no byte.
      const again = await rig(reread, {}, {}, { zero_rest: zeroRest });
      assertEquals(
        await writeGlb(again.scene, { generator: GENERATOR }),
        await writeGlb(reread, { generator: GENERATOR }),
      );
    });
  }
}

/** Names from the first inserted node above `pivot` down to the node named `leaf`. */
function pathTo(pivot: Node, leaf: string): string[] {
  let top = pivot;
  while (top.getParentNode()?.getName().startsWith("HINGE_auto_")) top = top.getParentNode()!;
  const names: string[] = [];
  for (let node: Node | undefined = top; node; node = node.listChildren()[0]) {
    names.push(node.getName());
    if (node.getName() === leaf) break;
  }
  return names;
}

Deno.test("uniformly scaled and mirrored parents get no unscale node", async () => {
  const { doc } = sceneUnder([{
    translation: [0, 0.3, 5],
    rotation: axisAngle([1, 0.2, 0], 8),
    scale: [-2, 2, 2],
  }]);
  const result = await rig(doc);
  assert(!result.scene.getRoot().listNodes().some((n) => n.getName().endsWith("_unscale")));
  const [turn] = measureTurns(result.scene);
  assert(turn.offIdeal < 1e-6, `off by ${turn.offIdeal}`);
});

Deno.test("an anisotropy below the writers' tolerance is still taken out exactly", async () => {
  const { doc } = sceneUnder([{ rotation: axisAngle([1, 0.2, 0], 8), scale: [1, 1.00002, 1] as Vec3 }]);
  const result = await rig(doc);
  const reread = await readGltf(await writeGlb(result.scene, { generator: GENERATOR }));
  const [turn] = measureTurns(reread);
  assert(turn.offIdeal < 1e-9, `off by ${turn.offIdeal}`);
});

for (const zeroRest of [false, true]) {
  Deno.test(
    `a trim tab beside its surface under a (1, 1, 3)-scaled parent rides on it rigidly${
      zeroRest ? " (zero_rest)" : ""
    }`,
    async () => {
      const doc = newScene();
      const tail = addGroup(doc, undefined, "Tail", {
        translation: [0, 0.4, 0.5],
        rotation: axisAngle([0.2, 1, 0], 25),
        scale: [1, 1, 3],
      });
      const elevator: PanelSpec = {
        ...aileron("Elevator_L"),
        root: [-0.3, 0, 1.6],
        tip: [-2, 0, 1.7],
        chordTip: 0.4,
      };
      const tab: PanelSpec = {
        ...aileron("Elevator_L_Trim_Tab"),
        root: [-0.6, 0, 1.75],
        tip: [-1.2, 0, 1.77],
        chordRoot: 0.03,
        chordTip: 0.03,
        thickness: 0.0015,
      };
      addPanel(doc, tail, elevator, { rotation: axisAngle([0, 1, 0], 10) });
      addPanel(doc, tail, tab, { translation: [-0.9, 0, 1.77] });
      const tabBefore = worldVertices(nodeNamed(doc, "Elevator_L_Trim_Tab"));
      const result = await rig(doc, {}, {}, { zero_rest: zeroRest });
      const tabMount = nodeNamed(result.scene, `HINGE_auto_Elevator_L_Trim_Tab${zeroRest ? "_rest" : ""}`);
      assertEquals(tabMount.getParentNode()?.getName(), "HINGE_auto_Elevator_L");
      // The tab's emptied unscale node is gone.
      assert(
        !result.scene.getRoot().listNodes().some((n) =>
          n.getName() === "HINGE_auto_Elevator_L_Trim_Tab_unscale"
        ),
      );
      const reread = await readGltf(await writeGlb(result.scene, { generator: GENERATOR }));
      for (const scene of [result.scene, reread]) {
        assert(maxDisplacement(tabBefore, worldVertices(nodeNamed(scene, "Elevator_L_Trim_Tab"))) < 1e-5);
        // Turning the elevator turns the tab rigidly with it; turning the tab moves only the tab.
        const turns = measureTurns(scene);
        assertEquals(turns.map((t) => t.pivot), ["HINGE_auto_Elevator_L", "HINGE_auto_Elevator_L_Trim_Tab"]);
        for (const turn of turns) assert(turn.offIdeal < 1e-6, `${turn.pivot}: ${turn.offIdeal}`);
        assertEquals(turns[1].othersMoved, 0);
      }
    },
  );
}

Deno.test("under an animated non-uniformly scaled parent the pivot is still unscaled, and the rest-only rigidity warned", async () => {
  const { doc, parent } = sceneUnder(CHAINS["scale (1, 1, 3)"]);
  const buffer = doc.getRoot().listBuffers()[0];
  const times = doc.createAccessor("times", buffer).setType("SCALAR").setArray(new Float32Array([0, 1]));
  const scales = doc.createAccessor("scales", buffer).setType("VEC3").setArray(
    new Float32Array([1, 1, 3, 1, 1, 2]),
  );
  const sampler = doc.createAnimationSampler().setInput(times).setOutput(scales);
  doc.createAnimation("Stretch").addSampler(sampler).addChannel(
    doc.createAnimationChannel().setTargetNode(parent).setTargetPath("scale").setSampler(sampler),
  );
  const result = await rig(doc);
  assert(
    result.ctx.warnings.some((w) =>
      w.message.includes("animated parent") && w.message.includes("at rest only")
    ),
    `warned: ${result.ctx.warnings.map((w) => w.message)}`,
  );
  const [turn] = measureTurns(result.scene);
  assert(turn.offIdeal < 1e-6, `rigid at rest: ${turn.offIdeal}`);
});
