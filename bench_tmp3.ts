import { sliceStations } from "./nodes/rig/edge_stations.ts";
import { panelMesh, type PanelSpec } from "./tests/nodes/rig/fixtures.ts";
const spec: PanelSpec = { name: "F", root: [0, 0, 1], tip: [0.4, 0.05, 2], aft: [1, 0, 0], normal: [0, 1, 0], chordRoot: 0.5, chordTip: 0.3, thickness: 0.03, stations: 50, divisions: 99 };
const { positions, indices } = panelMesh(spec);
const count = positions.length / 3;
const u = new Float64Array(count);
let uMin = Infinity, uMax = -Infinity;
for (let i = 0; i < count; i++) { u[i] = positions[3 * i + 2]; uMin = Math.min(uMin, u[i]); uMax = Math.max(uMax, u[i]); }
const coords = { u, chordAt: (i: number) => positions[3 * i], thicknessAt: (i: number) => positions[3 * i + 1] };
for (let round = 0; round < 6; round++) {
  let best = Infinity;
  for (let r = 0; r < 200; r++) {
    const t0 = performance.now();
    sliceStations(coords, indices, uMin, uMax, 12, 0.04);
    best = Math.min(best, performance.now() - t0);
  }
  console.log("slice best", best.toFixed(3), "ms", indices.length / 3, "triangles");
}
// cell pass only
let best = Infinity;
for (let r = 0; r < 200; r++) {
  const t0 = performance.now();
  const width = (uMax - uMin) / 12; const cell = new Int32Array(u.length);
  for (let i = 0; i < u.length; i++) cell[i] = Math.ceil((u[i] - uMin) / width - 0.5) - 1;
  let c = 0;
  for (let t = 0; t < indices.length; t += 3) { const a = indices[t], b = indices[t + 1], cc = indices[t + 2]; if (cell[a] === cell[b] && cell[b] === cell[cc]) continue; c++; }
  best = Math.min(best, performance.now() - t0);
  if (r === 0) console.log("crossing", c);
}
console.log("cell pass", best.toFixed(3));

for (let round = 0; round < 4; round++) {
  let best = Infinity;
  for (let r = 0; r < 300; r++) {
    const t0 = performance.now();
    sliceStations(coords, indices, uMin, uMax, 12, 0.04);
    best = Math.min(best, performance.now() - t0);
  }
  console.log("cut only best", best.toFixed(3));
}
