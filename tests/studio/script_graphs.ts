/**
 * Graphs as scripts write them: hundreds to thousands of nodes in the order a loop adds them, wired,
 * without positions (the studio lays them out).
 *
 * @module
 */
import { prng } from "../support/prng.ts";

/**
 * A script's graph of about `count` nodes: per model a read, a decode and an export, wired, each
 * export a graph output (by its `socket`: a script written for an older version may name one the
 * node no longer has), written in the order a loop writes them, without positions.
 */
export function scriptGraph(count: number, seed: number, socket = "bytes") {
  const random = prng(seed);
  const nodes: Record<string, unknown> = {};
  const outputs: Record<string, string> = {};
  for (let i = 0; nodes && Object.keys(nodes).length + 3 <= count; i++) {
    const name = `part_${Math.floor(random() * 1e6)}_${i}`;
    nodes[`read_${name}`] = { type: "io.read", params: { path: `models/${name}.glb` } };
    nodes[`decode_${name}`] = { type: "decode.auto", inputs: { bytes: `read_${name}.bytes` } };
    nodes[`export_${name}`] = { type: "export.gltf", inputs: { scene: `decode_${name}.scene` } };
    outputs[name] = `export_${name}.${socket}`;
  }
  return { version: 1, nodes, outputs };
}
