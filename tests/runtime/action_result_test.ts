import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { actionResultOf, recordOfActionResult } from "../../runtime/cache/action_result.ts";
import { ActionResult, decodeActionResult } from "../support/bazel_cache.ts";
import { prng } from "../support/prng.ts";

const encoder = new TextEncoder();
const record = encoder.encode(JSON.stringify({ version: 1, type: "decode.cmp", outputs: { scene: "…" } }));
const blobs = [
  { path: "scene", digest: "ab".repeat(32), size: 300_000 },
  // A size past 32 bits, which a varint of int64 must carry whole.
  { path: "bytes", digest: "0f".repeat(32), size: 6_000_000_000 },
];

Deno.test("action result: an independent protobuf reader sees an ActionResult listing every blob", () => {
  const decoded = decodeActionResult(actionResultOf(record, blobs));
  assertEquals(
    decoded.outputFiles.map((f) => ({ path: f.path, digest: f.digest.hash, size: f.digest.sizeBytes })),
    blobs,
  );
  assertEquals(decoded.stdoutRaw, record);
});

Deno.test("action result: the record is read back from a message a server rewrote and extended", () => {
  // What bazel-remote stores: the message decoded and encoded again with the uploader's address, plus
  // fields partgraph never writes, which a reader must skip.
  const message = ActionResult.fromObject({
    ...decodeActionResult(actionResultOf(record, blobs)),
    exitCode: 3,
    stderrRaw: encoder.encode("x".repeat(300)),
    stderrDigest: { hash: "cd".repeat(32), sizeBytes: 7 },
    outputDirectories: [{ path: "dir", treeDigest: { hash: "ef".repeat(32), sizeBytes: 9 } }],
    executionMetadata: { worker: "10.0.0.7" },
  });
  const rewritten = Uint8Array.from(ActionResult.encode(message).finish());
  assert(rewritten.length > actionResultOf(record, blobs).length + 300);
  assertEquals(recordOfActionResult(rewritten), record);
  assertEquals(recordOfActionResult(actionResultOf(record, [])), record);
});

Deno.test("action result: an earlier release's JSON record is taken as it is", () => {
  assertEquals(recordOfActionResult(record), record);
});

Deno.test("action result: a body that is not a well-formed message is named, never thrown on", () => {
  const message = actionResultOf(record, blobs);
  // Every proper prefix ends inside a field or before stdout_raw (written last).
  for (let end = 0; end < message.length; end++) {
    const found = recordOfActionResult(message.subarray(0, end));
    assertEquals(typeof found, "string", `prefix of ${end} bytes`);
  }
  assertEquals(
    recordOfActionResult(Uint8Array.of(0x2a, 0xff, 0xff, 0xff, 0xff, 0x0f)), // 4 GB claimed
    "field 5 at byte 1 is 4294967295 bytes long, past the end (6 bytes)",
  );
  assertEquals(
    recordOfActionResult(Uint8Array.of(0x5b, 0x5b)), // '[[': a group
    "wire type 3 (field 11) at byte 0, which ActionResult does not use",
  );
  assertEquals(
    recordOfActionResult(new Uint8Array(12).fill(0x80)),
    "a varint at byte 0 is longer than 8 bytes",
  );
  const random = prng(7);
  for (let i = 0; i < 3000; i++) {
    const bytes = Uint8Array.from(message);
    for (let flips = 1 + Math.floor(random() * 4); flips > 0; flips--) {
      bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
    }
    const found = recordOfActionResult(bytes.subarray(0, Math.floor(random() * (bytes.length + 1))));
    assert(typeof found === "string" || found.length <= bytes.length);
  }
});
