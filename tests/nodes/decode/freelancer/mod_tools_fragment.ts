/**
 * The fragment habits of `mod_tools.ts`'s files: the MilkShape/3ds Max exporter's `Level<k>` without a
 * `Level0` and 8-byte limit leaves, LancerEdit's null `VMeshRef`, refs selecting no group, a damaged
 * `Switch2`, a hardpoint editor's own `hardpoints` directory, damage past LOD 0 and a wireframe through
 * a vertex at NaN.
 *
 * @module
 */
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import { ByteWriter } from "../../../support/byte_writer.ts";
import { encodeVMeshRef, encodeVWireData } from "../../../support/freelancer/encode_model.ts";
import { encodeFloats, utfDir, utfLeaf, type UtfNode } from "../../../support/freelancer/encode_utf.ts";
import type { Has, PartPlan } from "./mod_tools.ts";

/** The children of a part's fragment directory as `quirk`'s tool writes them. */
export function fragment(part: PartPlan, has: Has): UtfNode[] {
  const triangles = part.groups.reduce((a, b) => a + b, 0);
  const ref = encodeVMeshRef({
    meshId: flCrc32(part.mesh),
    vertexStart: 0,
    vertexCount: 3 * triangles,
    indexStart: 0,
    indexCount: 3 * triangles + (has("stray_index") ? 1 : 0),
    groupStart: 0,
    groupCount: part.groups.length,
  });
  if (has("null_ref") && part.name !== "Root") ref.fill(0, 4);
  if (has("no_groups") && part.name === "Root") ref.fill(0, 16, 20);
  const milkshape = has("milkshape_levels");
  const limit = (value: number) => encodeFloats(milkshape ? [value, 0] : [value]);
  const hardpoint = (hp: PartPlan["hardpoints"][number]) =>
    utfDir(hp.name, [
      ...(hp.rev
        ? [
          utfLeaf("Axis", encodeFloats([0, 1, 0])),
          utfLeaf("Max", limit(hp.rev.max)),
          utfLeaf("Min", limit(hp.rev.min)),
        ]
        : []),
      utfLeaf("Orientation", encodeFloats([1, 0, 0, 0, 1, 0, 0, 0, 1])),
      utfLeaf("Position", encodeFloats(hp.position)),
    ]);
  const hardpoints = utfDir(part.hardpointsDir, [
    utfDir("Fixed", part.hardpoints.filter((hp) => !hp.rev).map(hardpoint)),
    utfDir("Revolute", part.hardpoints.filter((hp) => hp.rev).map(hardpoint)),
  ]);
  const vmeshPart = utfDir(part.meshPart, [utfLeaf("VMeshRef", ref)]);
  if (has("split_hardpoints")) {
    // A hardpoint editor that adds its hardpoints in a directory of its own beside the exporter's,
    // spelt in its own case, rather than merging them in.
    const added = utfDir("hardpoints", [
      utfDir("fixed", []),
      utfDir("revolute", part.hardpoints.filter((hp) => hp.rev).map(hardpoint)),
    ]);
    const first = utfDir("Hardpoints", [
      utfDir("Fixed", part.hardpoints.filter((hp) => !hp.rev).map(hardpoint)),
    ]);
    return [vmeshPart, first, added];
  }
  if (has("fragment_damage")) {
    // Damage past LOD 0: a later level's VMeshRef cut to 56 bytes, and a wireframe whose header size
    // was never filled in or whose index list has a stray index (a line list needs pairs).
    const lines = [0, 1, 1, 2, 2, 0];
    const wire = new Uint8Array(16 + 2 * (lines.length + 1));
    const w = new ByteWriter(wire);
    const odd = part.name.length % 2 === 0;
    w.u32(odd ? 16 : 0, 0);
    w.u32(flCrc32(part.mesh), 4);
    w.u16(0, 8);
    w.u16(3, 10);
    w.u16(lines.length + (odd ? 1 : 0), 12);
    w.u16(3, 14);
    [...lines, 0].forEach((v, i) => w.u16(v, 16 + 2 * i));
    return [
      utfDir("MultiLevel", [
        utfDir("Level0", [vmeshPart]),
        utfDir("Level1", [utfDir("VMeshPart", [utfLeaf("VMeshRef", ref.subarray(0, 56))])]),
      ]),
      utfDir("VMeshWire", [utfLeaf("VWireData", odd ? wire : wire.subarray(0, wire.length - 2))]),
      hardpoints,
    ];
  }
  if (has("switch2")) {
    const level = (n: number) => utfDir(`Level${n}`, [utfDir(part.meshPart, [utfLeaf("VMeshRef", ref)])]);
    // Two levels drawing the same mesh, and a Switch2 as hand edits and converters leave it.
    const junk = [
      utfLeaf("Switch2", encodeFloats([0, Number.NaN, 400])), // a float of garbage bytes
      utfDir("Switch2", []), // a directory where the leaf belongs
      utfLeaf("Switch2", encodeFloats([0, 250, 1000]).subarray(0, 10)), // cut inside a float
      utfLeaf("Switch2", encodeFloats([0, 1e-41, 1000])), // retail's denormal junk
      utfLeaf("Switch2", encodeFloats([0, Number.POSITIVE_INFINITY])),
    ][part.name.length % 5];
    return [
      utfDir("MultiLevel", [level(0), level(1), junk]),
      hardpoints,
    ];
  }
  if (milkshape) {
    // The exporter names the level by the LOD it was told to write: Level1, Level2 … with no Level0.
    const level = 1 + (part.name.length % 2);
    return [hardpoints, utfDir("MultiLevel", [utfDir(`Level${level}`, [vmeshPart])])];
  }
  if (has("non_finite_vertices")) {
    // A HUD wireframe round the last triangle, through its vertex at NaN: two of its three lines.
    const n = 3 * triangles;
    const wire = encodeVWireData(flCrc32(part.mesh), 0, [n - 3, n - 2, n - 2, n - 1, n - 1, n - 3]);
    return [vmeshPart, utfDir("VMeshWire", [utfLeaf("VWireData", wire)]), hardpoints];
  }
  return [vmeshPart, hardpoints];
}
