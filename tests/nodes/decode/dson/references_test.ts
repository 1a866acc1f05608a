import assert from "node:assert/strict";
import { join } from "node:path";
import type { Document } from "@gltf-transform/core";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { describeDson } from "../../../../nodes/decode/dson/codec/describe.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { INSTANCED_NODE_SLACK } from "../../../../nodes/decode/dson/codec/load_nodes.ts";
import { runNode, type TestContext, testContext } from "../../../support/context.ts";
import {
  dsonBytes,
  generateFigure,
  gzipDsonBytes,
  type Json,
  libraryFigure,
  sceneReferencing,
} from "./generate.ts";
import { tempDir } from "../../../support/temp.ts";

/** Counts reads per path on top of the test context. */
function countingContext(): TestContext & { reads: string[] } {
  const ctx = testContext();
  const reads: string[] = [];
  return { ...ctx, reads, readFile: (path: string) => (reads.push(path), ctx.readFile(path)) };
}

async function decode(json: Json, roots: string[], ctx: TestContext = testContext()): Promise<Document> {
  return (await runNode(decodeDson, { bytes: { bytes: dsonBytes(json), name: "user.duf" } }, {
    content_roots: roots,
  }, ctx))
    .scene;
}

Deno.test("dson references: a figure in a content root is loaded lazily (gzip, mixed case) with its bones and skin", async () => {
  const root = await tempDir();
  try {
    await Deno.mkdir(join(root, "data", "Gen Stuff"), { recursive: true });
    await Deno.writeFile(join(root, "data", "Gen Stuff", "Figure.DSF"), await gzipDsonBytes(libraryFigure()));
    const ctx = countingContext();
    // The scene writes the path in another case, as Windows-authored content does.
    const doc = await decode(sceneReferencing("/data/gen stuff/figure.dsf"), [root], ctx);
    const summary = describeDson(doc);
    assert.deepEqual(summary.bones, ["gen_figure_bone0", "gen_figure_bone1", "gen_figure_bone2"]);
    assert.equal((summary.geometries as Json[])[0].skinned, true);
    assert.deepEqual(ctx.warnings, []);
    // Referenced twice (node and geometry) but read once: the per-run cache.
    assert.equal(ctx.reads.length, 1);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("dson references: content roots are searched in order", async () => {
  const first = await tempDir();
  const second = await tempDir();
  try {
    for (const [root, label] of [[first, "first"], [second, "second"]]) {
      await Deno.mkdir(join(root, "data"), { recursive: true });
      const figure = libraryFigure();
      (figure.node_library as Json[])[0].label = label;
      await Deno.writeFile(join(root, "data", "fig.dsf"), dsonBytes(figure));
    }
    const doc = await decode(sceneReferencing("/data/fig.dsf"), [first, second]);
    assert.equal((describeDson(doc).figures as Json[])[0].label, "first");
    const onlySecond = await decode(sceneReferencing("/data/fig.dsf"), [join(first, "nowhere"), second]);
    assert.equal((describeDson(onlySecond).figures as Json[])[0].label, "second");
  } finally {
    await Deno.remove(first, { recursive: true });
    await Deno.remove(second, { recursive: true });
  }
});

Deno.test("dson references: missing content is a warning naming the URI and a best-effort scene", async () => {
  const root = await tempDir();
  try {
    const ctx = testContext();
    const doc = await decode(
      sceneReferencing("/data/DAZ 3D/Genesis 9/Base/Genesis9.dsf", "Genesis9"),
      [root],
      ctx,
    );
    assert.ok(
      ctx.warnings.some((w) => w.message.includes("/data/DAZ%203D/Genesis%209/Base/Genesis9.dsf#Genesis9")),
    );
    const unresolved = describeDson(doc).unresolved as Json[];
    assert.equal(unresolved[0].path, "/scene/nodes/0/url");
    // The instance still exists as a node, so children and poses have somewhere to go.
    assert.equal(doc.getRoot().listNodes()[0].getName(), "Genesis9-1");
    const noRoots = testContext();
    await decode(sceneReferencing("/data/x.dsf"), [], noRoots);
    assert.match(noRoots.warnings[0].message, /no content roots given/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("dson references: a path-traversal reference is refused with a clear error and nothing outside is read", async () => {
  const root = await tempDir();
  try {
    const ctx = countingContext();
    const error = await decode(sceneReferencing("/data/../../etc/passwd", "x"), [root], ctx).catch((e) => e);
    assert.ok(error instanceof DecodeError, String(error));
    assert.deepEqual(error.at, { jsonPath: "/scene/nodes/0/url" });
    assert.match(error.message, /without '\.\.' segments/);
    assert.match(error.message, /etc\/passwd/);
    assert.deepEqual(ctx.reads, []);
    // Percent-encoded dots are decoded before the check.
    const encoded = sceneReferencing("/data/x", "x");
    ((encoded.scene as Json).nodes as Json[])[0].url = "/data/%2E%2E/%2E%2E/etc/passwd#x";
    await assert.rejects(() => decode(encoded, [root]), DecodeError);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("dson references: a symbolic link leading out of the content root is treated as missing", async () => {
  const root = await tempDir();
  const outside = await tempDir();
  try {
    await Deno.writeFile(join(outside, "secret.dsf"), dsonBytes(libraryFigure()));
    await Deno.mkdir(join(root, "data"));
    await Deno.symlink(join(outside, "secret.dsf"), join(root, "data", "secret.dsf"));
    const ctx = countingContext();
    await decode(sceneReferencing("/data/secret.dsf"), [root], ctx);
    assert.deepEqual(ctx.reads, []);
    assert.ok(ctx.warnings.some((w) => w.message.includes("/data/secret.dsf")));
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("dson references: a texture in the content roots is embedded; the GLB keeps it", async () => {
  const root = await tempDir();
  try {
    // A 1×1 PNG, written by hand: signature, IHDR, IDAT, IEND.
    const png = Uint8Array.from(
      atob(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      ),
      (c) => c.charCodeAt(0),
    );
    await Deno.mkdir(join(root, "Runtime", "Textures"), { recursive: true });
    await Deno.writeFile(join(root, "Runtime", "Textures", "skin.png"), png);
    const json = generateFigure({ side: 3, bones: 1 });
    (json.scene as Json).materials = [{
      id: "Skin-1",
      url: "#Skin",
      geometry: "#gen_figure_geo-1",
      groups: ["Skin"],
      diffuse: {
        channel: { id: "diffuse", current_value: [0.5, 0.25, 1], image_file: "/Runtime/Textures/skin.png" },
      },
    }];
    json.material_library = [{ id: "Skin" }];
    const ctx = testContext();
    const doc = await decode(json, [root], ctx);
    assert.deepEqual(ctx.warnings, []);
    const material = doc.getRoot().listMaterials()[0];
    assert.deepEqual(material.getBaseColorFactor(), [0.5, 0.25, 1, 1]);
    assert.deepEqual(material.getBaseColorTexture()?.getImage(), png);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("dson references: bones of a library file whose parents loop are a DecodeError in that file (was a hang)", async () => {
  const root = await tempDir();
  try {
    await Deno.mkdir(join(root, "data"));
    const looped = {
      file_version: "0.6.1.0",
      asset_info: { id: "/data/loop.dsf", type: "figure" },
      node_library: [
        { id: "A", name: "A", type: "node", parent: "#B" },
        { id: "B", name: "B", type: "node", parent: "#A" },
      ],
    };
    await Deno.writeFile(join(root, "data", "loop.dsf"), dsonBytes(looped));
    // A's instance has a parent, so no copy of A counts as already present: each brought along B, A, B, …
    const scene = {
      file_version: "0.6.1.0",
      asset_info: { id: "/scenes/user.duf", type: "scene" },
      node_library: [{ id: "holder", name: "holder", type: "node" }],
      scene: {
        nodes: [{ id: "holder-1", url: "#holder" }, {
          id: "A-1",
          url: "/data/loop.dsf#A",
          parent: "#holder-1",
        }],
      },
    };
    const error = await decode(scene, [root]).then(() => undefined, (e) => e);
    assert.ok(error instanceof DecodeError, String(error));
    assert.equal(error.found, "a cycle through 'A' → 'B'");
    assert.deepEqual(error.at, { jsonPath: "/node_library/0/parent" });
    assert.match(error.file ?? "", /loop\.dsf$/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("dson references: instances may not bring a figure's bones out of proportion (2,000 of a 500-bone figure made a million nodes)", async () => {
  const root = await tempDir();
  try {
    await Deno.mkdir(join(root, "data"));
    const figure = generateFigure({ side: 3, bones: 200, assetId: "/data/crowd.dsf" }) as Json & {
      node_library: Json[];
    };
    delete figure.scene;
    await Deno.writeFile(join(root, "data", "crowd.dsf"), dsonBytes(figure));
    const crowd = (count: number) => ({
      file_version: "0.6.1.0",
      asset_info: { id: "/scenes/crowd.duf", type: "scene" },
      scene: {
        nodes: Array.from({ length: count }, (_, k) => ({ id: `f-${k}`, url: "/data/crowd.dsf#gen_figure" })),
      },
    });
    // 50 figures of 201 nodes, as a crowd scene has: each with its own bones.
    const fifty = await decode(crowd(50), [root]);
    assert.ok(fifty.getRoot().listNodes().length >= 50 * 201);
    const error = await decode(crowd(400), [root]).then(() => undefined, (e) => e);
    assert.ok(error instanceof DecodeError, String(error));
    assert.match(
      error.expected,
      new RegExp(
        `at most \\d+ nodes in all \\(16 × the \\d+ node definitions \\+ ${INSTANCED_NODE_SLACK}\\)`,
      ),
    );
    assert.match(error.file ?? "", /crowd\.dsf$/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
