/**
 * Odd real-world glTF as users have it (tests/nodes/user_gltf/files.ts: odd base64 in data: URIs,
 * exporters' file URIs, texture transforms, sparse and quantized accessors, UV sets, scenes, an emptied
 * mesh) decodes right — positions, UVs, texture, scenes as the file means them — with a warning where
 * something was read past a fault. Seeds 1-3 of each kind here; scripts measured 1-40 and 1001-1200.
 */
import { ok as assert, rejects } from "node:assert/strict";
import { decodeGltf } from "../../nodes/decode/gltf/decode_gltf.ts";
import { DecodeError } from "../../runtime/errors.ts";
import { runNode } from "../support/context.ts";
import { tempDir } from "../support/temp.ts";
import { USER_GLTF_KINDS, userGltf } from "./user_gltf/files.ts";
import { judgeUserGltf } from "./user_gltf/judge.ts";

for (const kind of USER_GLTF_KINDS) {
  Deno.test(`user glTF: ${kind} decodes right`, async () => {
    for (const seed of [1, 2, 3]) {
      const file = userGltf(kind, seed);
      const judged = await judgeUserGltf(file, await tempDir());
      assert(
        judged.outcome === "right",
        `seed ${seed} (${file.detail}): ${judged.outcome}: ${judged.why}\n${judged.warnings.join("\n")}`,
      );
    }
  });
}

Deno.test("user glTF: the judge calls a wrong answer wrong (a moved corner, another UV set)", async () => {
  const file = userGltf("texcoord-1", 5);
  const moved = {
    ...file,
    truth: { ...file.truth, positions: file.truth.positions.map((v, i) => i === 4 ? v + 1 : v) },
  };
  assert((await judgeUserGltf(moved, await tempDir())).outcome.startsWith("wrong"));
  const otherSet = { ...file, truth: { ...file.truth, texCoord: 0 } };
  assert((await judgeUserGltf(otherSet, await tempDir())).outcome.startsWith("wrong"));
});

Deno.test("user glTF: base64 mixing both alphabets is refused at its URI, naming the mix", async () => {
  const json = {
    asset: { version: "2.0" },
    buffers: [{ uri: "data:application/octet-stream;base64,AB+C-D__", byteLength: 6 }],
  };
  const bytes = new TextEncoder().encode(JSON.stringify(json));
  await rejects(
    runNode(decodeGltf, { bytes: { bytes, name: "mixed.gltf" } }),
    (error: unknown) =>
      error instanceof DecodeError && /\/buffers\/0\/uri/.test(error.message) &&
      /mixing the standard/.test(error.message),
  );
});
