/**
 * The original name of every image a material extension samples (clear coat, sheen, transmission,
 * volume, specular, iridescence, anisotropy; some through `KHR_texture_transform`) stays reachable in
 * three.js's real `GLTFLoader` and comes back from `decode.gltf`, when `export.gltf` merged it into an
 * image of the same bytes. Before `export.gltf` v48 / `decode.gltf` v54 only the core slots kept a
 * merged image's name (`extras.image_names`): three.js named such a map after the kept image, and
 * `decode.gltf` gave the slot the kept image. Scenes from `extension_images.ts`.
 *
 * Measure: `deno test -A tests/nodes/export/extension_image_names_test.ts -- 201 240`.
 *
 * @module
 */
import { deepStrictEqual as equal, ok as assert } from "node:assert/strict";
import type { Document, ExtensionProperty, Texture, TextureInfo } from "@gltf-transform/core";
import type { Transform } from "@gltf-transform/extensions";
import type * as THREE from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { runNode } from "../../support/context.ts";
import { extensionImagesScene } from "./extension_images.ts";

/** The texture in `slot` of `material`'s `extension`, as decoded, and whether its info scales UVs by 4. */
function slotTexture(
  doc: Document,
  material: string,
  extension: string,
  slot: string,
): { texture: Texture | null; transformed: boolean } {
  const found = doc.getRoot().listMaterials().find((m) => m.getName() === material);
  const property = found?.getExtension<ExtensionProperty>(extension) as unknown as
    | Record<string, () => (Texture & TextureInfo) | null>
    | null;
  const get = `get${slot[0].toUpperCase()}${slot.slice(1)}`;
  const info = property?.[`${get}Info`]() as TextureInfo | null | undefined;
  const transform = info?.getExtension<Transform>("KHR_texture_transform");
  return { texture: property?.[get]() ?? null, transformed: transform?.getScale()[0] === 4 };
}

/** Extension slots whose original three.js leaves nowhere, and those decode.gltf does not give back. */
async function lostOf(seed: number): Promise<{ uses: number; three: string[]; decoded: string[] }> {
  const { scene, uses } = extensionImagesScene(seed);
  const glb = (await runNode(exportGltf, { scene })).bytes.bytes;
  const data = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  const loaded = await new GLTFLoader().parseAsync(data, "");
  const materials = new Map<string, THREE.MeshPhysicalMaterial>();
  loaded.scene.traverse((o) => {
    const material = (o as THREE.Mesh).material as THREE.MeshPhysicalMaterial | undefined;
    if ((o as THREE.Mesh).isMesh && material) materials.set(material.name, material);
  });
  const decoded: Document = (await runNode(decodeGltf, { bytes: { bytes: glb, name: "m.glb" } })).scene;
  const out = { uses: uses.length, three: [] as string[], decoded: [] as string[] };
  for (const use of uses) {
    const material = materials.get(use.material);
    const map = (material as unknown as Record<string, THREE.Texture | null> | undefined)?.[use.map];
    const byMaterial = (material?.userData.image_names as Record<string, string> | undefined)?.[use.slot];
    // A map named after another image, and no record of this one's name, loses it.
    const reached = byMaterial !== undefined ? byMaterial === use.original : map?.name === use.original ||
      map?.userData.name === use.original || map?.userData.original_name === use.original;
    if (!map || !reached) {
      out.three.push(
        `seed ${seed} ${use.material}.${use.slot}: '${use.original}' loads as '${byMaterial ?? map?.name}'`,
      );
    }
    if (map && (map.repeat.x === 4) !== use.transformed) {
      out.three.push(
        `seed ${seed} ${use.material}.${use.slot}: its texture transform ${
          use.transformed ? "lost" : "gained"
        }`,
      );
    }
    const { texture, transformed } = slotTexture(decoded, use.material, use.extension, use.slot);
    if (transformed !== use.transformed) {
      out.decoded.push(
        `seed ${seed} ${use.material}.${use.slot}: its texture transform ${
          use.transformed ? "lost" : "gained"
        }`,
      );
    }
    if (texture?.getName() !== use.original) {
      out.decoded.push(
        `seed ${seed} ${use.material}.${use.slot}: '${use.original}' back as '${texture?.getName()}'`,
      );
    }
  }
  return out;
}

/** Totals over seeds `from`..`to`. */
async function measure(from: number, to: number) {
  await loadPngEncoder();
  let uses = 0;
  const three: string[] = [], decoded: string[] = [];
  for (let seed = from; seed <= to; seed++) {
    const lost = await lostOf(seed);
    uses += lost.uses;
    three.push(...lost.three);
    decoded.push(...lost.decoded);
  }
  console.log(
    `extension image uses ${uses}: unreachable in three.js ${three.length}, not restored ${decoded.length}`,
  );
  return { uses, three, decoded };
}

Deno.test("three.js reaches, and decode.gltf gives back, every extension slot's image name after a merge (seeds 1-20)", async () => {
  const [from, to] = Deno.args.length === 2 ? Deno.args.map(Number) : [1, 20];
  const { uses, three, decoded } = await measure(from, to);
  assert(uses > 80, `${uses} uses`);
  equal(three, []);
  equal(decoded, []);
});
