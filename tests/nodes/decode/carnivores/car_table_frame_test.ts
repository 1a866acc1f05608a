/**
 * A `.car` whose only clip's frame count is stored one too high over the anim→sound table of no sounds
 * and a tool's padding (car_table_frame.ts): the extra "frame" is the table's 256 bytes of 0xFF and the
 * padding's zeros. Before, the stored sections ended inside the padding, no repair ran and the clip
 * was read one frame too long (the table then warned as "not a table"); with junk appended after the
 * padding, the appended-bytes pass took that frame as tracking the points (a grid's -1 rows and zero
 * rows line up with its points). The files are `tool_saves.ts`'s, drawn from seeds until enough have
 * the table after the clip; a frame starting with the 0xFF run and going on with other bytes is warned
 * naming both readings.
 */
import assert from "node:assert/strict";
import { type ToolSave, toolSaveFile } from "./tool_saves.ts";
import { carClipsAt } from "./car_layout.ts";
import { carReadOutcome } from "./car_reads.ts";
import { parseCar as parseCarTo } from "../../../../nodes/decode/carnivores/codec/parse_car.ts";
import { parseCar } from "./parse.ts";
import { encodeCar } from "../../../support/carnivores/encode.ts";
import { animation, gridCar } from "./fixtures.ts";

/** Files of `habits` from seed 5001 on whose one clip stores a count one too high over a -1 table. */
function overTable(habits: readonly ToolSave[], wanted: number) {
  const files = [];
  for (let seed = 5001; files.length < wanted && seed < 9000; seed++) {
    const file = toolSaveFile(seed, habits);
    if (file.clips !== 1 || file.sounds !== 0) continue;
    const view = new DataView(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
    const clipAt = carClipsAt(file.bytes);
    const countAt = clipAt + 36;
    if (view.getInt32(countAt, true) !== file.frames[0] + 1) continue;
    const tableAt = clipAt + 40 + file.frames[0] * file.points * 6;
    if (view.getInt32(tableAt, true) !== -1) continue;
    files.push({ seed, file, countAt });
  }
  assert.equal(files.length, wanted, `only ${files.length} of ${wanted} such files in seeds 5001-8999`);
  return files;
}

for (
  const habits of [
    ["padded_block", "frame_count_off"],
    ["padded_block", "dos_eof", "frame_count_off"],
    ["padded_block", "junk_bytes", "frame_count_off"],
  ] as ToolSave[][]
) {
  Deno.test(`car table frame: ${habits.join("+")}: a count one too high over the table is read one lower`, () => {
    for (const { seed, file, countAt } of overTable(habits, 6)) {
      const read = carReadOutcome(parseCarTo, file.bytes, file.name, file);
      assert.equal(read.outcome, "right", `seed ${seed}: ${read.detail}`);
      const { warnings } = parseCar(file.bytes, file.name);
      const named = warnings.find((w) => w.offset === countAt || w.message.includes(`byte ${countAt}`));
      assert.ok(named, `seed ${seed}: no warning names the count at byte ${countAt}`);
      assert.match(named.message, new RegExp(`${file.frames[0]}\\b`), `seed ${seed}: ${named.message}`);
    }
  });
}

Deno.test("car table frame: a last frame of the 0xFF run and other bytes keeps its count, naming both", () => {
  const grid = gridCar(8, 8, 0);
  const frames = 4;
  const bytes = encodeCar({
    ...grid,
    name: "Raptor",
    msc: "",
    animations: [animation("walk", 12, frames, grid.points, 0)],
    sounds: [],
    animSounds: Int32Array.from({ length: 64 }, () => -1),
  });
  const frameBytes = grid.points.count * 6;
  // After the table, a frame's worth of bytes that are no padding (a trailer), then zeros to a block.
  const trailer = Uint8Array.from({ length: frameBytes - 256 }, (_, i) => 0x41 + (i % 26));
  const size = Math.ceil((bytes.length + trailer.length + 1) / 512) * 512;
  const file = new Uint8Array(size);
  file.set(bytes);
  file.set(trailer, bytes.length);
  const countAt = carClipsAt(file) + 36;
  new DataView(file.buffer).setInt32(countAt, frames + 1, true);
  const { model, warnings } = parseCar(file);
  assert.equal(model.animations[0].frameCount, frames + 1);
  const both = warnings.find((w) => w.offset === countAt);
  assert.ok(both, warnings.map((w) => w.message).join("\n"));
  assert.match(
    both.message,
    new RegExp(`read as ${frames + 1} frames, or as ${frames} frames and the table`),
  );
});
