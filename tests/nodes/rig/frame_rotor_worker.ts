/**
 * Runs `rotorLayer` off the test's thread, so a search that never ends fails the test by its time
 * limit instead of hanging the suite: posts back whether a layer was found.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { rotorLayer } from "../../../nodes/rig/frame_rotor.ts";

self.onmessage = (event: MessageEvent<{ points: Float64Array; min: number[]; extent: number[] }>) => {
  const { points, min, extent } = event.data;
  const layer = rotorLayer(points, min as [number, number, number], extent);
  self.postMessage(layer ? { axis: layer.axis, sign: layer.sign } : null);
};
