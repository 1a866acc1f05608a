/**
 * `export.gltf` asks the Khronos validator to skip the messages of issues below Error severity. These
 * tests prove it still refuses what it refused before: every ignored code is a non-error in the
 * validator's own list, every error of invalid outputs (JSON and binary data alike) is reported as
 * without the ignore list, and a graph whose export is refused writes no file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Document, NodeIO } from "@gltf-transform/core";
import validator from "gltf-validator";
import { NON_ERROR_ISSUES } from "../../../nodes/export/gltf.ts";
import { runGraph } from "../../../mod.ts";

const ISSUES_MD = new URL("../../../node_modules/gltf-validator/ISSUES.md", import.meta.url);
const issuesList = await Deno.readTextFile(ISSUES_MD).catch(() => undefined);

Deno.test({
  name: `every ignored issue code is one the validator lists below Error severity${
    issuesList ? "" : " (skipped: node_modules/gltf-validator/ISSUES.md absent)"
  }`,
  ignore: !issuesList,
  fn() {
    const severity = new Map<string, string>();
    for (const row of issuesList!.matchAll(/^\|([A-Z0-9_]+)\|.*\|(\w+)\|$/gm)) severity.set(row[1], row[2]);
    assert.ok(severity.size > 150, `read the validator's issue table (${severity.size} codes)`);
    const errors = NON_ERROR_ISSUES.filter((code) =>
      severity.get(code) !== "Warning" &&
      severity.get(code) !== "Information" && severity.get(code) !== "Hint"
    );
    assert.deepEqual(errors, [], "codes that are errors, or unknown to the validator");
  },
});

/** A one-triangle scene with a node animated over `times`. */
function animatedScene(times: number[], positions = [0, 0, 0, 1, 0, 0, 0, 1, 0], indices = [0, 1, 2]) {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const position = doc.createAccessor("position", buffer).setType("VEC3")
    .setArray(new Float32Array(positions));
  const primitive = doc.createPrimitive().setAttribute("POSITION", position)
    .setIndices(doc.createAccessor("indices", buffer).setArray(new Uint16Array(indices)));
  const node = doc.createNode("part").setMesh(doc.createMesh("m").addPrimitive(primitive));
  doc.createScene("s").addChild(node);
  const sampler = doc.createAnimationSampler()
    .setInput(doc.createAccessor("t", buffer).setArray(new Float32Array(times)))
    .setOutput(doc.createAccessor("v", buffer).setType("VEC3").setArray(new Float32Array(times.length * 3)));
  doc.createAnimation("a").addSampler(sampler)
    .addChannel(
      doc.createAnimationChannel().setTargetNode(node).setTargetPath("translation").setSampler(sampler),
    );
  return doc;
}

async function errors(bytes: Uint8Array, ignoredIssues?: readonly string[]): Promise<string[]> {
  const report = await validator.validateBytes(bytes, {
    maxIssues: 0,
    ...(ignoredIssues ? { ignoredIssues } : {}),
    externalResourceFunction: (uri: string) => Promise.reject(new Error(`external resource ${uri}`)),
  });
  return report.issues.messages.filter((m: { severity: number }) => m.severity === 0)
    .map((m: { code: string; pointer?: string }) => `${m.code} ${m.pointer}`);
}

Deno.test("the ignore list keeps every error of invalid files, in their binary data too", async () => {
  const io = new NodeIO();
  const invalid = [
    animatedScene([0, 1, 0.5]), // ACCESSOR_ANIMATION_INPUT_NON_INCREASING: found by scanning data
    animatedScene([0, 1], [0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 7]), // ACCESSOR_INDEX_OOB
    animatedScene([0, 1], [0, 0, NaN, 1, 0, 0, 0, 1, 0]), // ACCESSOR_INVALID_FLOAT
  ];
  for (const doc of invalid) {
    const bytes = await io.writeBinary(doc);
    const all = await errors(bytes);
    assert.ok(all.length > 0, "the file is invalid");
    assert.deepEqual(await errors(bytes, NON_ERROR_ISSUES), all);
  }
});

Deno.test("a graph whose export the validator refuses writes no file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const model = join(dir, "bad.glb");
    await Deno.writeFile(model, await new NodeIO().writeBinary(animatedScene([0, 1, 0.5])));
    const outDir = join(dir, "out");
    const graph = new URL("../../../graphs/gltf.json", import.meta.url).pathname;
    await assert.rejects(
      runGraph(graph, { inputs: { model }, outDir, cacheDir: false }),
      /ACCESSOR_ANIMATION_INPUT_NON_INCREASING/,
    );
    const written = await Array.fromAsync(Deno.readDir(outDir)).catch(() => []);
    assert.deepEqual(written.map((entry) => entry.name), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
