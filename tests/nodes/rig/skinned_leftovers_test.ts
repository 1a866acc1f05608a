/**
 * Skinned surfaces read what is drawn: vertices left by deleted faces keep their bone weights
 * (Blender's Delete › Only Faces; written in the triangles' vertex list, as a primitive of points or
 * of lines, or in a rip's one buffer shared by every skinned mesh — `skinned_leftovers.ts`), and
 * neither a bone's geometry (its hinge fit, side, tab riding) nor the frame cloud counts them.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { gatherBonePositions, gatherSkinnedRest, SkinPoses } from "../../../nodes/rig/bone_geometry.ts";
import { skinDrawnWork, undrawnSkinned } from "../../../nodes/rig/skinned_drawn.ts";
import { IDENTITY } from "./fixtures.ts";
import { nodeNamed } from "./pipeline.ts";
import { SKINNED_SURFACES, skinnedAircraft } from "./skinned_aircraft.ts";
import { giveWeightedLeftovers, SKINNED_LEFTOVER_HABITS } from "./skinned_leftovers.ts";
import { tallySkinned } from "./skinned_leftovers_tally.ts";

/** Positions as sorted xyz strings: the same vertices whichever mesh of a shared buffer gave them. */
const sorted = (p: Float64Array) =>
  Array.from(
    { length: p.length / 3 },
    (_, i) => [...p.subarray(3 * i, 3 * i + 3)].map((x) => x.toFixed(9)).join(),
  )
    .sort();

for (const habit of SKINNED_LEFTOVER_HABITS) {
  Deno.test(`${habit}: a bone's geometry is what the clean aircraft's is, leftovers weighted to it left out`, () => {
    const clean = skinnedAircraft().doc;
    const { doc } = skinnedAircraft();
    giveWeightedLeftovers(doc, habit, 11);
    for (const { bone } of SKINNED_SURFACES) {
      const want = gatherBonePositions(clean, nodeNamed(clean, bone), IDENTITY, { triangles: true });
      const got = gatherBonePositions(doc, nodeNamed(doc, bone), IDENTITY, { triangles: true });
      assertEquals(got.count, want.count, bone);
      assertEquals(sorted(got.positions), sorted(want.positions), bone);
      assertEquals(got.triangles!.length, want.triangles!.length, bone);
    }
  });
}

Deno.test("a skinned mesh's rest leaves out the leftovers, counting them", () => {
  const clean = skinnedAircraft();
  const { doc, mesh } = skinnedAircraft();
  giveWeightedLeftovers(doc, "weighted_leftovers", 5);
  const added = mesh.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!.getCount() -
    clean.mesh.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!.getCount();
  assert(added > 0);
  const want = gatherSkinnedRest(clean.mesh, IDENTITY, { triangles: true })!;
  const got = gatherSkinnedRest(mesh, IDENTITY, { triangles: true })!;
  assertEquals(got.undrawn, added);
  // The frame cloud's count of what it skips, read without placing a vertex.
  assertEquals(undrawnSkinned(mesh.getMesh()!), added);
  assertEquals(want.undrawn, 0);
  assertEquals(got.positions, want.positions);
  assertEquals(got.dominant, want.dominant);
  assertEquals(got.triangles, want.triangles);
});

// Seeds 201-203: neither the development seeds (1-12) nor the held-out ones measured (501-540).
for (const family of ["hinges", "frames"] as const) {
  Deno.test(`skinned modeller aircraft given leftovers rig their surfaces (${family}) as without them`, async () => {
    const { notes: _, ...clean } = await tallySkinned(family, 201, 3, "clean");
    for (const habit of SKINNED_LEFTOVER_HABITS) {
      const { notes, ...t } = await tallySkinned(family, 201, 3, habit);
      assertEquals(t, clean, `${habit}: ${notes.join("; ")}`);
    }
  });
}

Deno.test("a skinned mesh's drawn vertices are judged once for all its bones, and again once it changes", () => {
  const { doc, mesh } = skinnedAircraft();
  giveWeightedLeftovers(doc, "loose_points", 3);
  const poses = new SkinPoses(IDENTITY);
  const before = skinDrawnWork.judged;
  for (let pass = 0; pass < 3; pass++) {
    for (const { bone } of SKINNED_SURFACES) {
      gatherBonePositions(doc, nodeNamed(doc, bone), IDENTITY, { poses });
    }
    gatherSkinnedRest(mesh, IDENTITY, { poses });
  }
  assertEquals(skinDrawnWork.judged - before, 1);
  // A tool writing the mesh again gives it new arrays: judged anew, not read from the old ones.
  const position = mesh.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!;
  position.setArray(position.getArray()!.slice());
  gatherSkinnedRest(mesh, IDENTITY);
  assertEquals(skinDrawnWork.judged - before, 2);
});
