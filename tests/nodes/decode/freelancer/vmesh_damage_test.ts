/**
 * A damaged `VMeshData` (counts past its leaf, a truncated leaf, an FVF without position, a group
 * past the vertices, a directory where the leaf belongs) costs only the geometry drawn from it: the
 * model decodes, the parts stay with their hardpoints and attached parts, and one warning names the
 * mesh's entry, the byte offset, what was expected and what was found. Fixtures are built by code;
 * expected offsets are found in the encoded bytes, not taken from the decoder.
 */
import assert from "node:assert/strict";
import type { Document, Node } from "@gltf-transform/core";
import { DecodeError } from "../../../../runtime/errors.ts";
import { flCrc32, formatId } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { indexLibrary } from "../../../../nodes/decode/freelancer/library/index.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { compoundTree, materialLibrary, meshLibrary } from "../../../support/freelancer/encode_model.ts";
import { encodeUtf, utfDir, utfLeaf, type UtfNode } from "../../../support/freelancer/encode_utf.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { assertValid, decodeTree, refTo, triangleMesh } from "./triangle_models.ts";
import { writeGameTree } from "./game_tree.ts";

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** The readable two-triangle mesh every fixture starts from: FVF 0x112, 6 vertices, 244 bytes. */
const GOOD = triangleMesh(["hull", "hull"]);

/** `GOOD` with little-endian u16 `value` written at `at`. */
function patched(at: number, value: number): Uint8Array {
  const bytes = GOOD.slice();
  new DataView(bytes.buffer).setUint16(at, value, true);
  return bytes;
}

/** `GOOD` cut to `length` bytes, with a mark in the mesh type word (which no reader uses) so that
 * the cut payload is not a prefix of `GOOD`'s own. */
function cut(length: number): Uint8Array {
  const bytes = GOOD.slice(0, length);
  bytes[2] = 0xab;
  return bytes;
}

/** Kinds of damage, each with where it sits in the leaf and the expected / found the warning must name. */
const DAMAGE: readonly { what: string; data: Uint8Array; at: number; expected: string; found: string }[] = [
  {
    what: "an index count past the leaf",
    data: patched(10, 60000),
    at: 8,
    expected: `${16 + 24 + 120000 + 192} bytes for 2 groups, 60000 indices, 6 × 32-byte vertices`,
    found: "a 244-byte VMeshData",
  },
  {
    what: "a leaf cut inside its vertices",
    data: cut(100),
    at: 8,
    expected: "244 bytes for 2 groups, 6 indices, 6 × 32-byte vertices",
    found: "a 100-byte VMeshData",
  },
  {
    what: "a leaf cut inside its header",
    data: cut(10),
    at: 0,
    expected: "16 bytes of VMeshData header",
    found: "10 bytes left in a 10-byte utf block",
  },
  {
    what: "an FVF without position",
    data: patched(12, 0x110),
    at: 12,
    expected: "a supported FVF",
    found: "FVF without XYZ position",
  },
  {
    what: "a group ending past the vertices",
    data: patched(16 + 12 + 6, 100),
    at: 16 + 12 + 6,
    expected: "a vertex end below the 6 vertices",
    found: "100",
  },
];

/** Where `needle` starts in `bytes` (it must occur exactly once). */
function offsetOf(bytes: Uint8Array, needle: Uint8Array): number {
  const found: number[] = [];
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let k = 0; k < needle.length; k++) if (bytes[i + k] !== needle[k]) continue outer;
    found.push(i);
  }
  assert.equal(found.length, 1, "the damaged payload occurs once in the file");
  return found[0];
}

/** Decodes with `decode.cmp` (and `constraints.resolve` when asked); the warnings but the note that
 * `libraries: "auto"` had no folder to search. */
async function decode(root: UtfNode, name: string, resolve = false) {
  const { scene, warnings } = await decodeTree(root, name, resolve);
  return { scene, warnings: warnings.filter((w) => !w.includes("no model_path was given")) };
}

const node = (scene: Document, name: string): Node => {
  const found = scene.getRoot().listNodes().find((n) => n.getName() === name);
  assert.ok(found, `node '${name}'`);
  return found;
};

/**
 * Root and Flap draw `good.vms`; Wing (between them) draws `bad.vms` in both LODs and its wireframe,
 * and carries a hardpoint.
 */
function wingCompound(bad: UtfNode | Uint8Array): UtfNode {
  const badDir = bad instanceof Uint8Array ? utfDir("bad.vms", [utfLeaf("VMeshData", bad)]) : bad;
  return compoundTree({
    parts: [
      { name: "Root", fileName: "root.3db", fragment: { lods: [refTo("good.vms", 2)] } },
      {
        name: "Wing",
        fileName: "wing.3db",
        fragment: {
          lods: [refTo("bad.vms", 2), refTo("bad.vms", 1)],
          wire: { meshId: flCrc32("bad.vms"), vertexStart: 0, indices: [0, 1, 1, 2] },
          hardpoints: [{ name: "HpWingtip", kind: "fix", position: [3, 0, 0], orientation: IDENTITY }],
        },
      },
      { name: "Flap", fileName: "flap.3db", fragment: { lods: [refTo("good.vms", 1)] } },
    ],
    constraints: [
      { kind: "fix", parent: "Root", child: "Wing", translation: [5, 0, 0], rotation: IDENTITY },
      { kind: "fix", parent: "Wing", child: "Flap", translation: [0, 0, -1], rotation: IDENTITY },
    ],
    extra: [
      utfDir("VMeshLibrary", [utfDir("good.vms", [utfLeaf("VMeshData", GOOD)]), badDir]),
      materialLibrary([{ name: "hull" }]),
    ],
  });
}

const WING_USERS = "part 'Wing' LOD 0 (wing.3db/MultiLevel/Level0/VMeshPart/VMeshRef in wing.cmp), " +
  "part 'Wing' LOD 1 (wing.3db/MultiLevel/Level1/VMeshPart/VMeshRef in wing.cmp), " +
  "the wireframe of part 'Wing' (wing.3db/VMeshWire/VWireData in wing.cmp)";

for (const damage of DAMAGE) {
  Deno.test(`a VMeshData with ${damage.what} costs only the geometry drawn from it`, async () => {
    const tree = wingCompound(damage.data);
    const leafAt = offsetOf(encodeUtf(tree), damage.data);
    const { scene, warnings } = await decode(tree, "wing.cmp", true);
    const wing = node(scene, "Wing");
    assert.equal(wing.getMesh(), null);
    const meshNames = scene.getRoot().listMeshes().map((m) => m.getName());
    assert.deepEqual(meshNames.filter((n) => n.startsWith("Wing")), [], "no LOD or wireframe of Wing");
    assert.deepEqual(wing.getTranslation(), [5, 0, 0]);
    assert.ok(wing.listChildren().some((c) => c.getName() === "HpWingtip"), "the hardpoint stays");
    assert.equal(node(scene, "Flap").getParentNode(), wing, "the attached part stays attached");
    assert.deepEqual(node(scene, "Flap").getWorldTranslation(), [5, 0, -1]);
    assert.equal(node(scene, "Root").getMesh()?.listPrimitives().length, 2);
    assert.equal(node(scene, "Flap").getMesh()?.listPrimitives().length, 1);
    assert.deepEqual(warnings, [
      `mesh 'bad.vms': VMeshLibrary/bad.vms/VMeshData in wing.cmp does not decode (at byte ${
        leafAt + damage.at
      }: expected ${damage.expected}, found ${damage.found}); the geometry drawn from it is left out ` +
      `(${WING_USERS}); the parts, their hardpoints and the parts attached to them are kept`,
    ]);
    await assertValid(scene);
  });
}

Deno.test("a VMeshData that is a directory is damage of that mesh too", async () => {
  const tree = wingCompound(utfDir("bad.vms", [utfDir("VMeshData", [utfLeaf("x", new Uint8Array(4))])]));
  const { scene, warnings } = await decode(tree, "wing.cmp");
  assert.equal(node(scene, "Wing").getMesh(), null);
  assert.ok(node(scene, "Root").getMesh());
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(
    warnings[0],
    /^mesh 'bad.vms': VMeshLibrary\/bad.vms\/VMeshData in wing.cmp does not decode \(at byte \d+: expected a VMeshData leaf, found directory 'VMeshData'\)/,
  );
  await assertValid(scene);
});

Deno.test("every mesh damaged: a .cmp still gives its parts, hardpoints and joints; a .vms is a DecodeError", async () => {
  const bad = patched(12, 0x110);
  const tree = compoundTree({
    parts: [
      { name: "Root", fileName: "root.3db", fragment: { lods: [refTo("bad.vms", 2)] } },
      {
        name: "Turret",
        fileName: "turret.3db",
        fragment: {
          lods: [refTo("bad.vms", 1)],
          hardpoints: [{ name: "HpGun", kind: "fix", position: [0, 1, 0], orientation: IDENTITY }],
        },
      },
    ],
    constraints: [{
      kind: "fix",
      parent: "Root",
      child: "Turret",
      translation: [0, 2, 0],
      rotation: IDENTITY,
    }],
    extra: [meshLibrary([{ name: "bad.vms", data: bad }])],
  });
  const { scene, warnings } = await decode(tree, "all.cmp", true);
  assert.equal(scene.getRoot().listMeshes().length, 0);
  assert.deepEqual(node(scene, "HpGun").getWorldTranslation(), [0, 3, 0]);
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.ok(
    warnings[0].includes("(part 'Root' LOD 0 (root.3db/VMeshPart/VMeshRef in all.cmp), part 'Turret' LOD 0"),
  );
  await assertValid(scene);

  // A bare .vms is nothing but its meshes: with none readable, the first damage is the error.
  const vms = utfDir("\\", [
    meshLibrary([{ name: "a.vms", data: bad }, { name: "b.vms", data: GOOD.slice(0, 50) }]),
  ]);
  const bytes = encodeUtf(vms);
  const error = await runNode(decodeCmp, { bytes: { bytes, name: "all.vms" } }, {}, testContext())
    .then(() => undefined, (e) => e);
  assert.ok(error instanceof DecodeError, String(error));
  assert.deepEqual(error.at, { offset: offsetOf(bytes, bad) + 12 });
  assert.equal(error.found, "FVF without XYZ position");
});

Deno.test("a damaged mesh many parts draw: the warning names the first eight and counts them all", async () => {
  const names = Array.from({ length: 11 }, (_, i) => `Panel${String(i).padStart(2, "0")}`);
  const tree = compoundTree({
    parts: [
      { name: "Root", fileName: "root.3db", fragment: { lods: [refTo("good.vms", 2)] } },
      ...names.map((name) => ({ name, fileName: `${name}.3db`, fragment: { lods: [refTo("bad.vms", 1)] } })),
    ],
    constraints: names.map((name, i) => ({
      kind: "fix" as const,
      parent: "Root",
      child: name,
      translation: [i, 0, 0],
      rotation: IDENTITY,
    })),
    extra: [
      meshLibrary([{ name: "good.vms", data: GOOD }, { name: "bad.vms", data: patched(12, 0x110) }]),
      materialLibrary([{ name: "hull" }]),
    ],
  });
  const { scene, warnings } = await decode(tree, "many.cmp", true);
  assert.equal(warnings.length, 1, warnings.join("\n"));
  const user = (name: string) => `part '${name}' LOD 0 (${name}.3db/VMeshPart/VMeshRef in many.cmp)`;
  assert.ok(
    warnings[0].includes(`(${names.slice(0, 8).map(user).join(", ")} and 3 more); the parts`),
    warnings[0],
  );
  assert.ok(!warnings[0].includes("Panel08"), "the ninth user is counted, not named");
  for (const [i, name] of names.entries()) {
    assert.equal(node(scene, name).getMesh(), null);
    assert.deepEqual(node(scene, name).getWorldTranslation(), [i, 0, 0]);
  }
  await assertValid(scene);
});

Deno.test("a .vms with one damaged mesh: the readable one is drawn, the damaged one an empty node", async () => {
  const root = utfDir("\\", [
    meshLibrary([{ name: "a.vms", data: patched(10, 60000) }, { name: "b.vms", data: GOOD }]),
    materialLibrary([{ name: "hull" }]),
  ]);
  const { scene, warnings } = await decode(root, "lib.vms");
  assert.deepEqual(scene.getRoot().listScenes()[0].listChildren().map((n) => n.getName()), [
    "b.vms",
    "a.vms",
  ]);
  assert.equal(node(scene, "b.vms").getMesh()?.listPrimitives().length, 2);
  assert.equal(node(scene, "a.vms").getMesh(), null);
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.ok(warnings[0].startsWith("mesh 'a.vms': VMeshLibrary/a.vms/VMeshData in lib.vms does not decode"));
  assert.ok(warnings[0].includes("(part 'a.vms' LOD 0 (lib.vms))"), warnings[0]);
  await assertValid(scene);
});

Deno.test("a readable copy in a library given later is drawn, with a warning naming the damaged one passed over and the parts drawing it", async () => {
  const own = wingCompound(patched(12, 0x110));
  const extra = encodeUtf(utfDir("\\", [meshLibrary([{ name: "bad.vms", data: GOOD }])]));
  const ctx = testContext();
  const { scene } = await runNode(
    decodeCmp,
    { bytes: { bytes: encodeUtf(own), name: "wing.cmp" }, library: { bytes: extra, name: "extra.vms" } },
    { libraries: "none" },
    ctx,
  );
  const doc = scene as Document;
  assert.equal(node(doc, "Wing").getMesh()?.listPrimitives().length, 2);
  assert.deepEqual(ctx.warnings.map((w) => w.message), [
    "mesh 'bad.vms': VMeshLibrary/bad.vms/VMeshData in wing.cmp does not decode (at byte " +
    `${offsetOf(encodeUtf(own), patched(12, 0x110)) + 12}: expected a supported FVF, found FVF without XYZ ` +
    "position); the readable copy at VMeshLibrary/bad.vms/VMeshData in extra.vms is used; drawn on part " +
    "'Wing' LODs 0, 1",
  ]);
  await assertValid(doc);
});

Deno.test("library search: a damaged mesh no longer fails its library; one found only damaged is named, not missing", async () => {
  const tree = await writeGameTree();
  try {
    // The family .mat also carries a damaged mesh the fighter does not use: before, the whole
    // library failed and every material in it was missing.
    const mat = encodeUtf(utfDir("\\", [
      materialLibrary([{ name: "rh_paint", dc: [1, 0, 0] }, { name: "rh_glass", type: "DcDtOcOt", oc: 0.5 }]),
      meshLibrary([{ name: "junk.vms", data: GOOD.slice(0, 20) }]),
    ]));
    await tree.write("SHIPS/RHEINLAND/rh_playerships.mat", mat);
    assert.deepEqual([...indexLibrary(mat, "rh_playerships.mat").damagedMeshes], [flCrc32("junk.vms")]);
    // A second model whose mesh lives only in a damaged .vms beside it.
    const cmp = encodeUtf(compoundTree({
      parts: [{ name: "Root", fileName: "root.3db", fragment: { lods: [refTo("rh_other.lod0.vms", 2)] } }],
      constraints: [],
    }));
    const model = await tree.write("SHIPS/RHEINLAND/rh_other/rh_other.cmp", cmp);
    await tree.write(
      "SHIPS/RHEINLAND/rh_other/rh_other.vms",
      encodeUtf(utfDir("\\", [meshLibrary([{ name: "rh_other.lod0.vms", data: patched(12, 0x110) }])])),
    );

    const decode = async (path: string) => {
      const ctx = testContext();
      const { scene } = await runNode(
        decodeCmp,
        { bytes: { bytes: await Deno.readFile(path), name: path.split("/").pop()! } },
        { model_path: path },
        ctx,
      );
      const doc = scene as Document;
      const report = getPartgraphExtras(doc.getRoot().getDefaultScene()!).libraries as Record<string, never>;
      return { doc, report, warnings: ctx.warnings.map((w) => w.message) };
    };

    const fighter = await decode(tree.fighter);
    assert.deepEqual(fighter.report.failed, []);
    const paint = fighter.doc.getRoot().listMaterials().find((m) => m.getName() === "rh_paint");
    assert.deepEqual(paint?.getBaseColorFactor().slice(0, 3), [1, 0, 0]);
    assert.ok(!fighter.warnings.some((w) => w.includes("junk.vms")), fighter.warnings.join("\n"));

    const other = await decode(model);
    const label = "SHIPS/RHEINLAND/rh_other/rh_other.vms";
    assert.ok((other.report.used as string[]).includes(label));
    assert.deepEqual((other.report.missing as { meshes: string[] }).meshes, []);
    const damaged =
      (other.report.damaged as { meshes: { id: string; name: string; library: string }[] }).meshes;
    assert.deepEqual(damaged.map(({ id, name, library }) => ({ id, name, library })), [
      { id: formatId(flCrc32("rh_other.lod0.vms")), name: "rh_other.lod0.vms", library: label },
    ]);
    assert.ok(
      other.warnings.some((w) =>
        w.startsWith(
          `mesh 'rh_other.lod0.vms': VMeshLibrary/rh_other.lod0.vms/VMeshData in ${label} does not decode`,
        )
      ),
      other.warnings.join("\n"),
    );
    assert.equal(other.doc.getRoot().listMeshes().length, 0);
    await assertValid(other.doc);

    // A readable copy farther away is found and drawn.
    await tree.write(
      "SHIPS/shared.vms",
      encodeUtf(utfDir("\\", [meshLibrary([{ name: "rh_other.lod0.vms", data: GOOD }])])),
    );
    const fixed = await decode(model);
    assert.equal(fixed.doc.getRoot().listMeshes()[0]?.listPrimitives().length, 2);
    assert.equal(fixed.report.damaged, undefined);
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
});
