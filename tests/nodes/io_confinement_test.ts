/**
 * A .gltf's relative links resolve only inside the model's folder (issue 10): `../`, its
 * percent-encoded form and symlinks leading out are refused, unless `io.read`'s `resource_roots`
 * names the folder they lead to; of an absolute path only the file name is looked for, beside the model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runGraph } from "../../mod.ts";
import { DecodeError, RunError } from "../../runtime/errors.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { tempDir } from "../support/temp.ts";

const SECRET = new Uint8Array([0x73, 0x65, 0x63, 0x72, 0x65, 0x74, 0x21, 0x21]);

/** A folder with `private/secret.bin` and `model/plane.gltf` whose buffer URI is `uri`. */
async function layout(uri: string): Promise<{ dir: string; model: string }> {
  const dir = await tempDir();
  await Deno.mkdir(join(dir, "private"));
  await Deno.mkdir(join(dir, "model"));
  await Deno.writeFile(join(dir, "private", "secret.bin"), SECRET);
  const json = { asset: { version: "2.0" }, buffers: [{ uri, byteLength: SECRET.length }] };
  const model = join(dir, "model", "plane.gltf");
  await Deno.writeTextFile(model, JSON.stringify(json));
  return { dir, model };
}

function readGraph(model: string, roots: string[] = []): GraphFile {
  return {
    version: 1,
    nodes: { read: { type: "io.read", params: { path: model, resource_roots: roots } } },
    outputs: { bytes: "read.bytes" },
  };
}

async function refusal(graph: GraphFile): Promise<DecodeError> {
  const error = await runGraph(graph, { cacheDir: false }).catch((e) => e);
  assert.ok(error instanceof RunError, String(error));
  const cause = error.failures[0].cause;
  assert.ok(cause instanceof DecodeError, String(cause));
  return cause;
}

for (const uri of ["../private/secret.bin", "%2e%2e/private/secret.bin", "..%2Fprivate%2Fsecret.bin"]) {
  Deno.test(`a buffer link '${uri}' out of the model's folder is refused`, async () => {
    const { model } = await layout(uri);
    const error = await refusal(readGraph(model));
    assert.deepEqual(error.at, { jsonPath: "/buffers/0/uri" });
    assert.match(error.expected, /inside the model's folder/);
  });
}

Deno.test("an absolute path is never followed (its file name is looked for beside the model); a symlink out is refused", async () => {
  const { dir, model } = await layout("placeholder");
  const absolute = join(dir, "private", "secret.bin");
  await Deno.writeTextFile(
    model,
    JSON.stringify({ asset: { version: "2.0" }, buffers: [{ uri: absolute, byteLength: 8 }] }),
  );
  const missing = await refusal(readGraph(model));
  assert.match(missing.expected, /a readable file beside the \.gltf/);
  assert.match(missing.found, /NotFound|No such file/, "secret.bin is not beside the model");
  await Deno.symlink(join(dir, "private"), join(dir, "model", "linked"));
  await Deno.writeTextFile(
    model,
    JSON.stringify({ asset: { version: "2.0" }, buffers: [{ uri: "linked/secret.bin", byteLength: 8 }] }),
  );
  assert.match((await refusal(readGraph(model))).expected, /inside the model's folder/);
});

Deno.test("resource_roots names a folder links may lead into; the file is then embedded", async () => {
  const { dir, model } = await layout("../private/secret.bin");
  const run = await runGraph(readGraph(model, [join(dir, "private")]), { cacheDir: false });
  const json = JSON.parse(new TextDecoder().decode((run.outputs.bytes as { bytes: Uint8Array }).bytes));
  assert.equal(json.buffers[0].uri, `data:application/octet-stream;base64,${SECRET.toBase64()}`);
});

Deno.test("null entries where buffers and images belong are left for decode.gltf to report (was a TypeError)", async () => {
  const dir = await tempDir();
  const model = join(dir, "a.gltf");
  await Deno.writeTextFile(
    model,
    JSON.stringify({ asset: { version: "2.0" }, images: [null], buffers: [null, 3] }),
  );
  const run = await runGraph(readGraph(model), { cacheDir: false });
  assert.ok(run.outputs.bytes);
});

Deno.test("a buffer link to a pipe or a folder beside the .gltf is refused, never waited on", async () => {
  const { dir, model } = await layout("pipe.bin");
  assert.equal(
    (await new Deno.Command("mkfifo", { args: [join(dir, "model", "pipe.bin")] }).output()).code,
    0,
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const error = await Promise.race([
      refusal(readGraph(model)),
      new Promise<never>((_, reject) =>
        timer = setTimeout(() => reject(new Error("the read blocked")), 20_000)
      ),
    ]);
    assert.deepEqual([error.at, error.expected], [
      { jsonPath: "/buffers/0/uri" },
      "a regular file beside the .gltf",
    ]);
    assert.match(error.found, /'pipe\.bin' is a pipe/);
  } finally {
    clearTimeout(timer);
  }
  await Deno.mkdir(join(dir, "model", "folder.bin"));
  await Deno.writeTextFile(
    model,
    JSON.stringify({ asset: { version: "2.0" }, buffers: [{ uri: "folder.bin", byteLength: 8 }] }),
  );
  assert.match((await refusal(readGraph(model))).found, /'folder\.bin' is a folder/);
  await Deno.remove(dir, { recursive: true });
});
