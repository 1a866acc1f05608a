/**
 * The mesh-data habits of `mod_tools.ts`'s files: a group's vertex end one past its last vertex or
 * never filled in, a stray index after a group's triangles, and vertices a converter left at NaN or
 * infinity.
 *
 * @module
 */
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import { vertexLayout } from "../../../../nodes/decode/freelancer/codec/vmesh.ts";
import { ByteWriter } from "../../../support/byte_writer.ts";
import { packVertices } from "../../../support/freelancer/encode_model.ts";
import type { Has, PartPlan } from "./mod_tools.ts";

/** The mesh of one part: one group per entry of `groups`, each its own triangles and vertices. */
export function meshData(part: PartPlan, has: Has, materials: readonly string[]): Uint8Array {
  const layout = vertexLayout(part.fvf);
  if (typeof layout === "string") throw new Error(layout);
  const groupCount = part.groups.length;
  const vertexCount = part.groups.reduce((a, t) => a + 3 * t, 0);
  const stray = has("stray_index") ? 1 : 0;
  const indexCount = 3 * vertexCount / 3 + stray;
  const positions: number[] = [], normals: number[] = [], uvs: number[] = [];
  for (let v = 0; v < vertexCount; v++) {
    const t = Math.floor(v / 3), k = v % 3;
    positions.push(k === 1 ? 1 : 0, k === 2 ? 1 : 0, t);
    normals.push(0, 0, 1);
    uvs.push(k === 1 ? 1 : 0, k === 2 ? 1 : 0);
  }
  if (has("non_finite_vertices")) {
    // A converter's division by zero: the last vertex's position is NaN, the first's UVs infinite.
    positions[3 * vertexCount - 2] = Number.NaN;
    uvs[0] = Number.POSITIVE_INFINITY;
  }
  const vertices = packVertices(part.fvf, vertexCount, {
    positions,
    normals,
    diffuse: Array.from({ length: vertexCount }, () => 0xff808080),
    uvs: Array.from({ length: layout.uvCount }, () => uvs),
  });
  const indexAt = 16 + 12 * groupCount;
  const out = new Uint8Array(indexAt + 2 * indexCount + vertices.length);
  const w = new ByteWriter(out);
  w.u32(1, 0);
  w.u32(4, 4);
  w.u16(groupCount, 8);
  w.u16(indexCount, 10);
  w.u16(part.fvf, 12);
  w.u16(vertexCount, 14);
  let vertexStart = 0, at = indexAt;
  part.groups.forEach((count, g) => {
    const span = 3 * count;
    const end = has("exclusive_vertex_end")
      ? vertexStart + span
      : has("vertex_end_unfilled")
      ? 0
      : vertexStart + span - 1;
    const extra = g === 0 ? stray : 0;
    w.u32(flCrc32(materials[g % materials.length]), 16 + 12 * g);
    w.u16(vertexStart, 16 + 12 * g + 4);
    w.u16(end, 16 + 12 * g + 6);
    w.u16(span + extra, 16 + 12 * g + 8);
    w.u16(0xcc, 16 + 12 * g + 10);
    for (let i = 0; i < span; i++, at += 2) w.u16(i, at);
    // The stray index repeats the group's first vertex: in range, but no whole triangle.
    for (let i = 0; i < extra; i++, at += 2) w.u16(0, at);
    vertexStart += span;
  });
  out.set(vertices, at);
  return out;
}
