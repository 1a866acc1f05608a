/**
 * Hinge-fitting throughput: the fit core (edges from the surface: triangles sliced at the span
 * stations) on a panel set of 100,000 and 1,000,000 vertices (ten panels each; cost should be linear), and the whole `rig.fit_hinge` node (scene copy, gathering
 * in the aircraft frame, fit and signing) on the 1,000,000-vertex set; frame detection (what
 * `forward`/`up: "auto"` adds when nothing is recorded) on the same set; and the rig's cost per node on
 * a scene of many nodes: the demo fighter beside 30,000 empty nodes through every rig node, each node
 * given the scene as the CLI hands it over (owned, changed in place) and as a memory tier shares it (copied);
 * and station cutting on copies of one hostile 65,535-vertex panel (many nodes drawing one mesh), each copy
 * cut afresh against kept (from the second cut) and reused (`station_memo.ts`).
 *
 * Run: deno bench --frozen --allow-read --allow-write tests/bench/rig_bench.ts
 */
import { fitHinge, HINGE_FIT_DEFAULTS } from "../../nodes/rig/hinge_fit.ts";
import { rigDetectPanels } from "../../nodes/rig/detect_panels.ts";
import { rigFitHinge } from "../../nodes/rig/fit_hinge.ts";
import { detectFrame } from "../../nodes/rig/frame_detect.ts";
import { addPanel, newScene, panelMesh, type PanelSpec } from "../nodes/rig/fixtures.ts";
import { runNode, testContext } from "../support/context.ts";
import type { JsonValue } from "../../runtime/node.ts";
import { buildFighterScene } from "../../nodes/demo/fighter_run.ts";
import { rigParts } from "../../nodes/rig/parts.ts";
import { rigAssignSide } from "../../nodes/rig/assign_side.ts";
import { rigInsertPivot } from "../../nodes/rig/insert_pivot.ts";
import { rigReport } from "../../nodes/rig/report.ts";
import { STATION_MEMO } from "../../nodes/rig/station_memo.ts";
import { prng } from "../support/prng.ts";

/** Ten swept, tapered panels with about `perPanel` vertices each (aircraft coordinates). */
function panelSet(perPanel: number): PanelSpec[] {
  const divisions = 99;
  const stations = Math.max(2, Math.round(perPanel / (2 * (divisions + 1))));
  return Array.from({ length: 10 }, (_, i) => ({
    name: `Flap_${i}_L`,
    root: [i * 0.3, 0.1 * i, 1 + i],
    tip: [i * 0.3 + 0.4, 0.1 * i + 0.05, 2 + i],
    aft: [1, 0, 0],
    normal: [0, 1, 0],
    chordRoot: 0.5,
    chordTip: 0.3,
    thickness: 0.03,
    stations,
    divisions,
    horn: i % 3 === 0 ? { fromSpan: 0.85, depth: 0.1 } : undefined,
  }));
}

const small = panelSet(10_000).map(panelMesh);
const large = panelSet(100_000).map(panelMesh);
type Meshes = ReturnType<typeof panelMesh>[];
const count = (set: Meshes) => set.reduce((sum, m) => sum + m.positions.length / 3, 0);
console.log(`panel sets: ${count(small)} and ${count(large)} vertices`);

/** Fits every panel from its surface (triangles sliced at the stations), as the node does. */
function fitAll(set: Meshes): number {
  let sum = 0;
  for (const { positions, indices } of set) {
    sum += fitHinge(positions, positions.length / 3, HINGE_FIT_DEFAULTS, indices).origin[0];
  }
  return sum;
}

Deno.bench({
  name: "fitHinge, 100k-vertex panel set",
  group: "fit",
  baseline: true,
  fn: () => void fitAll(small),
});
Deno.bench({ name: "fitHinge, 1M-vertex panel set", group: "fit", fn: () => void fitAll(large) });

// The same million vertices as a scene: panels in the default frame (−Z forward: aft is +Z).
const scene = newScene();
for (const spec of panelSet(100_000)) {
  addPanel(scene, undefined, {
    ...spec,
    aft: [0, 0, 1],
    root: [-spec.root[2], spec.root[1], spec.root[0]],
    tip: [-spec.tip[2], spec.tip[1], spec.tip[0]],
  });
}
const detected = (await runNode(rigDetectPanels, { scene })).scene;
Deno.bench({
  name: "rig.fit_hinge node (copy, gather, fit, sign), 1M vertices",
  group: "node",
  async fn() {
    await runNode(rigFitHinge, { scene: detected });
  },
});

Deno.bench({
  name: 'frame detection ("auto", nothing recorded), 1M vertices',
  group: "node",
  fn: () => void detectFrame(detected),
});

/** The demo fighter beside 30,000 empty nodes (a CAD export's or a game rip's bare transforms). */
function manyNodes() {
  const doc = buildFighterScene(2);
  const scene = doc.getRoot().listScenes()[0];
  for (let i = 0; i < 30_000; i++) scene.addChild(doc.createNode(""));
  return doc;
}

/** Every rig node in graph order, the scene owned by each (`owned`) or shared and copied. */
async function rigAll(owned: boolean): Promise<void> {
  const ctx = { ...testContext("bench"), owns: () => owned };
  let scene = manyNodes();
  for (const node of [rigParts, rigDetectPanels, rigFitHinge, rigAssignSide, rigInsertPivot]) {
    // As graphs/aircraft_file.json runs it: the frame found from the geometry.
    const params: Record<string, JsonValue> = node === rigFitHinge ? { forward: "auto", up: "auto" } : {};
    scene = (await runNode(node, { scene }, params, ctx)).scene;
  }
  await runNode(rigReport, { scene }, {}, ctx);
}

Deno.bench({
  name: "rig nodes, demo fighter + 30,000 empty nodes, scene handed over",
  group: "many nodes",
  baseline: true,
  fn: () => rigAll(true),
});
Deno.bench({
  name: "rig nodes, demo fighter + 30,000 empty nodes, scene shared (copied)",
  group: "many nodes",
  fn: () => rigAll(false),
});

/** A hostile panel as `deno task shapes` draws one: triangles joining random points of a thin box. */
function hostilePanel(): { positions: Float64Array; triangles: Uint32Array } {
  const next = prng(12), vertices = 65535;
  const positions = new Float64Array(vertices * 3);
  for (let i = 0; i < vertices; i++) positions.set([next() * 10, next() * 2, next() * 0.3], i * 3);
  const triangles = new Uint32Array(21845 * 3).map(() => Math.floor(next() * vertices));
  return { positions, triangles };
}
const hostile = hostilePanel();

/** Fits ten copies of the hostile panel, each with arrays of its own (as each node gathers them). */
function fitCopies(afresh: boolean): void {
  for (let copy = 0; copy < 10; copy++) {
    if (afresh) STATION_MEMO.clear();
    const positions = hostile.positions.slice();
    fitHinge(positions, positions.length / 3, HINGE_FIT_DEFAULTS, hostile.triangles.slice());
  }
}

Deno.bench({
  name: "fitHinge, 10 copies of a hostile 65,535-vertex panel, each cut afresh",
  group: "copies",
  baseline: true,
  fn: () => fitCopies(true),
});
Deno.bench({
  name: "fitHinge, 10 copies of a hostile 65,535-vertex panel, cut kept and reused",
  group: "copies",
  fn: () => fitCopies(false),
});
