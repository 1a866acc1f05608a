/**
 * Names Deno cannot open — bytes that are not UTF-8, as a Latin-1 or CP1251 name from an old game's
 * disc unpacked on Linux has — are named as such, never passed over in silence: a file the glob
 * matches fails with the reason and the rename to make, and a folder the walk cannot enter is a
 * warning of the selection (its files might have been inputs). Before, the file failed with a bare
 * "No such file or directory" for a file plainly there, and the folder was skipped without a word.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { runBatch } from "../../batch/batch.ts";
import { expandEach } from "../../batch/inputs.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";
import { tempDir } from "../support/temp.ts";

const GRAPH = new URL("../../graphs/freelancer.json", import.meta.url).pathname;

/** Writes `bytes` under `dir` at a name given as raw bytes (`\xfc`: Latin-1 ü), through the shell. */
async function writeRawName(dir: string, rawName: string, bytes: Uint8Array): Promise<void> {
  const temp = join(dir, "staging.tmp");
  await Deno.writeFile(temp, bytes);
  const { success } = await new Deno.Command("sh", {
    args: ["-c", `mkdir -p "$(dirname "$(printf '${rawName}')")" && mv staging.tmp "$(printf '${rawName}')"`],
    cwd: dir,
  }).output();
  assert(success, `could not make ${rawName}`);
}

Deno.test("batch inputs: a file or folder whose name is not UTF-8 is named with the reason, not failed as missing or skipped", async () => {
  const dir = await tempDir({ prefix: "partgraph-batch-names-" });
  try {
    await Deno.mkdir(join(dir, "ships"));
    await Deno.writeFile(join(dir, "ships/liberty.cmp"), realisticCmp(1, { parts: 3, maxGroupVertices: 60 }));
    await writeRawName(dir, "ships/sch\\374tz.cmp", realisticCmp(2, { parts: 3, maxGroupVertices: 60 }));
    await writeRawName(
      dir,
      "ships/d\\351p\\364t/bretonia.cmp",
      realisticCmp(3, { parts: 3, maxGroupVertices: 60 }),
    );

    const selection = await expandEach(`model=${dir}/ships/**/*.cmp`);
    assertEquals(selection.inputs.map((input) => input.rel), ["liberty.cmp", "sch\uFFFDtz.cmp"]);
    assertEquals(selection.unread?.map((folder) => folder.rel), ["d\uFFFDp\uFFFDt"]);
    assert(selection.unread![0].reason.startsWith("its name is not UTF-8"), selection.unread![0].reason);

    const { manifest, summary } = await runBatch({
      graph: GRAPH,
      selection,
      outDir: join(dir, "out"),
      cacheDir: false,
      jobs: 1,
    });
    assertEquals([summary.ok, summary.failed], [1, 1]);
    const failed = manifest.inputs["sch\uFFFDtz.cmp"];
    const message = JSON.stringify(failed.error);
    assert(message.includes("its name is not UTF-8") && message.includes("convmv"), message);
    assertEquals(manifest.inputs["liberty.cmp"].ok, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
