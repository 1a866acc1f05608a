/**
 * Three material fidelity questions, each settled from Librelancer's source (see docs/freelancer.md):
 * `flip u` / `flip v` (mirrored texture coordinates, only where Librelancer's shader applies them:
 * `IllumDetailMapMaterial`) as KHR_texture_transform; an `Oc` leaf on a type without `Oc`/`Ot`
 * (stays opaque, as the type's shader reads no opacity); and LancerEdit's tangents in UV sets as a
 * glTF `TANGENT` when the material has a normal map. Fixtures are built by code; the expected texels
 * and tangents follow from the numbers written, not from the decoder.
 */
import assert from "node:assert/strict";
import * as THREE from "three";
import { load } from "../../../support/threejs_client.ts";
import { decodePng } from "./png_pixels.ts";
import type { Document, Primitive } from "@gltf-transform/core";
import type { Transform } from "@gltf-transform/extensions";
import { loadPngEncoder } from "../../../../runtime/scene/png.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import type { MaterialSpec } from "../../../support/freelancer/encode_model.ts";
import { encodeU32, utfDir, utfLeaf, type UtfNode } from "../../../support/freelancer/encode_utf.ts";
import { validateGltf } from "../../../support/validator.ts";
import { decodeTree as decode, materialNamed as material, triangleModel } from "./triangle_models.ts";

interface MeshSpec {
  readonly fvf: number;
  /** Per material, the UV sets of its three vertices. */
  readonly uvs: (materialIndex: number) => readonly (readonly number[])[];
}

/** A .3db drawing one triangle per material (normals +Z), with its libraries. */
const model3db = (materials: readonly MaterialSpec[], mesh: MeshSpec, textures: readonly UtfNode[] = []) =>
  triangleModel(materials, { textures, fvf: mesh.fvf, uvs: (i, set) => mesh.uvs(i)[set] });

await loadPngEncoder();

/**
 * A 4×4 DXT1 texture: columns 0–1 red (colour 0 = 0xF800), columns 2–3 blue (colour 1 = 0x001F);
 * each row's index byte 0b01010000 puts index 0 on pixels 0–1 and index 1 on pixels 2–3.
 */
function redBlueDds(): Uint8Array {
  const out = new Uint8Array(128 + 8);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x20534444, true); // "DDS "
  view.setUint32(4, 124, true);
  view.setUint32(8, 0x1007, true);
  view.setUint32(12, 4, true); // height
  view.setUint32(16, 4, true); // width
  view.setUint32(76, 32, true);
  view.setUint32(80, 0x4, true); // DDPF_FOURCC
  out.set([..."DXT1"].map((c) => c.charCodeAt(0)), 84);
  view.setUint16(128, 0xf800, true);
  view.setUint16(130, 0x001f, true);
  out.fill(0x50, 132, 136);
  return out;
}

/** Writes and validates: no errors, and `warnings` warnings. */
async function validGlb(scene: Document, warnings = 0): Promise<Uint8Array> {
  const glb = await writeGlb(scene, { generator: GENERATOR });
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, JSON.stringify(report.messages));
  assert.equal(report.warnings, warnings, JSON.stringify(report.messages));
  return glb;
}

const primitiveOf = (scene: Document, materialName: string): Primitive => {
  const found = scene.getRoot().listMeshes().flatMap((m) => m.listPrimitives())
    .find((p) => p.getMaterial()?.getName() === materialName);
  assert.ok(found, `primitive of '${materialName}'`);
  return found;
};

/** Three.js's parse of a GLB, textures stubbed (images are not decoded in Deno). */
async function loadThree(glb: Uint8Array): Promise<THREE.Group> {
  return (await load(glb)).scene;
}

const threeMaterials = (scene: THREE.Object3D): Map<string, THREE.MeshStandardMaterial> => {
  const out = new Map<string, THREE.MeshStandardMaterial>();
  scene.traverse((o) => {
    const mesh = o as THREE.Mesh;
    if (mesh.isMesh) {
      const m = mesh.material as THREE.MeshStandardMaterial;
      out.set(m.name, m);
    }
  });
  return out;
};

// ---------------------------------------------------------------------------------------------
// flip u / flip v

Deno.test("flip u on an IllumDetailMapMaterial mirrors its texture (KHR_texture_transform), three.js samples the flipped texel", async () => {
  // Fresh leaves per material: the UTF writer lays out each node object once.
  const flipU = () => [utfLeaf("flip u", encodeU32(1)), utfLeaf("flip v", encodeU32(0))];
  const root = model3db(
    [
      { name: "illum", type: "IllumDetailMapMaterial", dtName: "rb.dds", leaves: flipU() },
      {
        name: "illum_both",
        type: "IllumDetailMapMaterial",
        dtName: "rb.dds",
        leaves: [
          utfLeaf("flip u", encodeU32(1)),
          utfLeaf("flip v", encodeU32(1)),
        ],
      },
      // Librelancer's DetailMapMaterial and DcDt shaders ignore the flags: nothing changes.
      { name: "detail", type: "DetailMapMaterial", dtName: "rb.dds", leaves: flipU() },
      { name: "plain", type: "DcDt", dtName: "rb.dds", leaves: flipU() },
    ],
    { fvf: 0x112, uvs: () => [[0, 0, 1, 0, 0, 1]] },
    [utfDir("rb.dds", [utfLeaf("MIPS", redBlueDds())])],
  );
  const { scene, warnings } = await decode(root, "flip.3db");
  assert.deepEqual(warnings, []);

  const transform = (name: string) =>
    material(scene, name).getBaseColorTextureInfo()!.getExtension<Transform>("KHR_texture_transform");
  assert.deepEqual(transform("illum")!.getScale(), [-1, 1]);
  assert.deepEqual(transform("illum")!.getOffset(), [1, 0]);
  assert.deepEqual(transform("illum_both")!.getScale(), [-1, -1]);
  assert.deepEqual(transform("illum_both")!.getOffset(), [1, 1]);
  assert.equal(transform("detail"), null);
  assert.equal(transform("plain"), null);
  assert.deepEqual(scene.getRoot().listExtensionsUsed().map((e) => e.extensionName), [
    "KHR_texture_transform",
  ]);

  const glb = await validGlb(scene);
  // The image: left half red, right half blue.
  const png = decodePng(material(scene, "illum").getBaseColorTexture()!.getImage()!);
  const texel = (u: number, v: number) => {
    const x = Math.min(png.width - 1, Math.floor(u * png.width));
    const y = Math.min(png.height - 1, Math.floor(v * png.height));
    return Array.from(png.data.subarray(4 * (y * png.width + x), 4 * (y * png.width + x) + 3));
  };
  assert.deepEqual(texel(0.125, 0.5), [255, 0, 0]);
  assert.deepEqual(texel(0.875, 0.5), [0, 0, 255]);

  // three.js turns the extension into the texture's UV matrix; the vertex at u = 0.125 reads blue.
  const loaded = threeMaterials(await loadThree(glb));
  const sample = (name: string, u: number, v: number) => {
    const map = loaded.get(name)!.map!;
    map.updateMatrix();
    const uv = new THREE.Vector3(u, v, 1).applyMatrix3(map.matrix);
    return texel(uv.x, uv.y);
  };
  assert.deepEqual(sample("illum", 0.125, 0.5), [0, 0, 255], "flipped: 1 − 0.125 = 0.875, the blue half");
  assert.deepEqual(sample("illum_both", 0.125, 0.25), [0, 0, 255]);
  assert.deepEqual(sample("detail", 0.125, 0.5), [255, 0, 0], "not flipped");
  assert.deepEqual(sample("plain", 0.125, 0.5), [255, 0, 0], "not flipped");
});

Deno.test("no flip leaves, or flip 0: no extension is declared", async () => {
  const root = model3db(
    [
      {
        name: "illum",
        type: "IllumDetailMapMaterial",
        dtName: "rb.dds",
        leaves: [utfLeaf("flip u", encodeU32(0))],
      },
      { name: "plain", dtName: "rb.dds" },
    ],
    { fvf: 0x112, uvs: () => [[0, 0, 1, 0, 0, 1]] },
    [utfDir("rb.dds", [utfLeaf("MIPS", redBlueDds())])],
  );
  const { scene } = await decode(root, "noflip.3db");
  assert.deepEqual(scene.getRoot().listExtensionsUsed(), []);
  await validGlb(scene);
});

// ---------------------------------------------------------------------------------------------
// Oc without Oc/Ot in Type

Deno.test("an Oc leaf on a type without Oc/Ot stays opaque (the type's shader reads no opacity)", async () => {
  const root = model3db(
    [
      { name: "dcdt_oc", type: "DcDt", oc: 0.5 },
      { name: "ocot", type: "DcDtOcOt", oc: 0.5 },
    ],
    { fvf: 0x112, uvs: () => [[0, 0, 1, 0, 0, 1]] },
  );
  const { scene } = await decode(root, "oc.3db");
  assert.equal(material(scene, "dcdt_oc").getAlphaMode(), "OPAQUE");
  assert.equal(material(scene, "ocot").getAlphaMode(), "BLEND");
  assert.equal(material(scene, "ocot").getAlpha(), 0.5);
  await validGlb(scene);
});

// ---------------------------------------------------------------------------------------------
// Tangents

Deno.test("LancerEdit tangents in UV sets become TANGENT when the material has a normal map", async () => {
  const normalMapped = (name: string): MaterialSpec => ({ name, dtName: "rb.dds", nmName: "rb.dds" });
  // FVF 0x312: uv0, then the tangent as (x, y) in set 1 and (z, w) in set 2 (LancerEdit's TEX3).
  const tangentSets = (i: number) =>
    [
      [[0, 0, 1, 0, 0, 1], [1, 0, 0, 1, 2, 0], [0, 1, 0, -1, 0, 1]], // unit; unit; length 2 → (1, 0, 0)
      [[0, 0, 1, 0, 0, 1], [1, 0, 1, 0, 1, 0], [0, 1, 0, 1, 0, 1]], // no normal map: kept as UV sets
      [[0, 0, 1, 0, 0, 1], [0.6, 0.8, 0.6, 0.8, 0.6, 0.8], [0, 0.5, 0, 0.5, 0, 0.5]], // w 0.5: not tangents
    ][i];
  const root = model3db(
    [normalMapped("nm"), { name: "no_nm", dtName: "rb.dds" }, normalMapped("odd")],
    { fvf: 0x312, uvs: tangentSets },
    [utfDir("rb.dds", [utfLeaf("MIPS", redBlueDds())])],
  );
  const { scene, warnings } = await decode(root, "tangents.3db");

  const nm = primitiveOf(scene, "nm");
  assert.deepEqual(nm.listSemantics().sort(), ["NORMAL", "POSITION", "TANGENT", "TEXCOORD_0"]);
  assert.deepEqual(Array.from(nm.getAttribute("TANGENT")!.getArray()!), [
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    -1,
    1,
    0,
    0,
    1,
  ]);
  assert.deepEqual(Array.from(nm.getAttribute("TEXCOORD_0")!.getArray()!), [0, 0, 1, 0, 0, 1]);

  const noNm = primitiveOf(scene, "no_nm");
  assert.deepEqual(noNm.listSemantics().sort(), [
    "NORMAL",
    "POSITION",
    "TEXCOORD_0",
    "TEXCOORD_1",
    "TEXCOORD_2",
  ]);
  const odd = primitiveOf(scene, "odd");
  assert.equal(odd.getAttribute("TANGENT"), null);
  assert.equal(odd.listSemantics().length, 5);
  assert.deepEqual(warnings, [
    "mesh 'm.vms' has 3 UV sets (FVF 0x312); mods store tangents there; drawn on part 'Root' LOD 0",
    "Root.2: UV sets 1–2 of mesh 'm.vms' (drawn on part 'Root' LOD 0), under material 'odd', are not tangents " +
    "(vertex 0 has tangent sign 0.5, not ±1); kept as UV sets",
  ]);

  // One warning: the 'odd' primitive's normal map without tangents (MESH_PRIMITIVE_GENERATED_TANGENT_SPACE).
  const glb = await validGlb(scene, 1);
  let tangents = 0;
  (await loadThree(glb)).traverse((o) => {
    const mesh = o as THREE.Mesh;
    if (mesh.isMesh && mesh.geometry.getAttribute("tangent")) {
      tangents++;
      const t = mesh.geometry.getAttribute("tangent"); // interleaved by writeGlb
      assert.deepEqual([t.getX(1), t.getY(1), t.getZ(1), t.getW(1)], [0, 1, 0, -1]);
    }
  });
  assert.equal(tangents, 1, "three.js reads the authored tangents");
});

Deno.test("TEX4 tangents (uv0, uv1, tangent in sets 2–3) keep uv1; a normal-mapped mesh gives no UV-set warning", async () => {
  const root = model3db(
    [{ name: "nm", dtName: "rb.dds", nmName: "rb.dds" }],
    {
      fvf: 0x412,
      uvs:
        () => [[0, 0, 1, 0, 0, 1], [0.5, 0.5, 0.25, 0.5, 0.5, 0.25], [1, 0, 1, 0, 1, 0], [0, 1, 0, 1, 0, 1]],
    },
    [utfDir("rb.dds", [utfLeaf("MIPS", redBlueDds())])],
  );
  const { scene, warnings } = await decode(root, "tex4.3db");
  assert.deepEqual(warnings, []);
  const prim = primitiveOf(scene, "nm");
  assert.deepEqual(prim.listSemantics().sort(), [
    "NORMAL",
    "POSITION",
    "TANGENT",
    "TEXCOORD_0",
    "TEXCOORD_1",
  ]);
  assert.deepEqual(Array.from(prim.getAttribute("TEXCOORD_1")!.getArray()!), [
    0.5,
    0.5,
    0.25,
    0.5,
    0.5,
    0.25,
  ]);
  assert.deepEqual(Array.from(prim.getAttribute("TANGENT")!.getArray()!), [
    1,
    0,
    0,
    1,
    1,
    0,
    0,
    1,
    1,
    0,
    0,
    1,
  ]);
  await validGlb(scene);
});
