/**
 * `frame_rotor.ts` on clouds with a vertex NaN across (a coordinate the cloud's own checks would
 * drop, reaching the exported function as it stands): the rotor search ends. Before, a NaN width
 * inside the layer's run left no core bin and `while (!core(firstWide))` ran for ever.
 */
import { positionBounds } from "../../../nodes/rig/geometry.ts";
import { prng } from "../../support/prng.ts";

/** A helicopter as a point cloud: `blades` blades at the top of axis `up`, a mast, a long body. */
function helicopter(seed: number): Float64Array {
  const random = prng(seed);
  const up = seed % 3, sign = seed % 2 ? 1 : -1;
  const [a, b] = [0, 1, 2].filter((k) => k !== up);
  const out: number[] = [];
  const put = (x: number, y: number, z: number) => {
    const p = [0, 0, 0];
    p[a] = x, p[b] = y, p[up] = sign * z;
    out.push(...p);
  };
  const blades = 2 + (seed % 4), radius = 5 + random() * 3;
  for (let i = 0; i < 400 + (seed % 40) * 20; i++) {
    const r = random() * radius, angle = (2 * Math.PI * (i % blades)) / blades + random() * 0.05;
    put(r * Math.cos(angle), r * Math.sin(angle), 3 + random() * 0.1);
  }
  for (let i = 0; i < 50; i++) put(random() * 0.1, random() * 0.1, 2 + random());
  for (let i = 0; i < 800; i++) put((random() - 0.5) * 2, (random() - 0.3) * 9, random() * 2 - 0.2);
  // One vertex NaN across, at a height within the body's, then each other way.
  out.push(1, NaN, 2, NaN, 0.5, 1, 0.5, 1, NaN);
  return Float64Array.from(out);
}

/** `rotorLayer` in a worker: its answer, or "timeout" after `ms`. */
async function layerWithin(points: Float64Array, ms: number): Promise<unknown> {
  const finite = points.filter((_, i) =>
    Number.isFinite(points[i - (i % 3)]) &&
    Number.isFinite(points[i - (i % 3) + 1]) && Number.isFinite(points[i - (i % 3) + 2])
  );
  const box = positionBounds({ positions: finite, count: finite.length / 3 })!;
  const extent = [0, 1, 2].map((k) => box.max[k] - box.min[k]);
  const worker = new Worker(new URL("./frame_rotor_worker.ts", import.meta.url), { type: "module" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      new Promise((resolve) => {
        worker.onmessage = (event) => resolve(event.data);
        worker.postMessage({ points, min: box.min, extent });
      }),
      new Promise((resolve) => timer = setTimeout(() => resolve("timeout"), ms)),
    ]);
  } finally {
    clearTimeout(timer);
    worker.terminate();
  }
}

Deno.test("rotor layer: a vertex NaN across ends the search, on every helicopter (held-out seeds)", async () => {
  const hung: number[] = [];
  for (const seed of [2201, 2202, 2203, 2204, 2205, 2206, 2207, 2208, 2209, 2210, 2211, 2212]) {
    if (await layerWithin(helicopter(seed), 10_000) === "timeout") hung.push(seed);
  }
  if (hung.length) throw new Error(`the rotor search did not end on seeds ${hung.join(", ")}`);
});
