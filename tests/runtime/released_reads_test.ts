import assert from "node:assert/strict";
import { join } from "node:path";
import { createRecorder, TrackedFiles } from "../../runtime/execute/files.ts";
import { sha256Hex } from "../../runtime/canonical.ts";
import { tempDir } from "../support/temp.ts";

Deno.test("a read the run has let go is still served, with its digest recorded, while its bytes live", async () => {
  const dir = await tempDir();
  try {
    await Deno.writeFile(join(dir, "model.bin"), new Uint8Array([1, 2, 3]));
    const files = new TrackedFiles(dir, join(dir, "out"));
    const first = await files.readFile("model.bin", createRecorder());
    assert.equal(await files.readFile("model.bin", createRecorder()), first, "one read per file per run");
    files.release([{ bytes: first, name: "model.bin" }]);
    await Promise.resolve(); // a release settles on the read's promise
    // Something still holds the array (`first`): the run serves it rather than reading the file again,
    // and records the digest it first saw, even though the file has changed since.
    await Deno.writeFile(join(dir, "model.bin"), new Uint8Array([9, 9, 9]));
    const record = createRecorder();
    assert.equal(await files.readFile("model.bin", record), first);
    assert.equal(record.reads.get("model.bin"), sha256Hex(new Uint8Array([1, 2, 3])));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
