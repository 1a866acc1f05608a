/**
 * `.gltf` folders whose images are named only by their files, as users' downloads and exports come:
 * no `images[].name` (FBX2glTF, COLLADA2GLTF, obj2gltf, hand-edited files), the URI as each tool writes
 * it — percent-encoded spaces and UTF-8 (Blender), raw spaces, `textures\wing.png` (Windows tools),
 * an absolute Windows path (the author's disk), Sketchfab's `textures/Material_baseColor.png` — with the
 * files on disk under their decoded names. Some images keep a name of their own. Each image is a
 * distinct PNG. The expected output name of each image is the file's name without its extension, or the
 * image's own name.
 *
 * @module
 */
import { join } from "node:path";
import { Document } from "@gltf-transform/core";
import { gltfIO } from "../../runtime/scene/gltf_io.ts";
import { encodeRgbaPng, loadPngEncoder } from "../../runtime/scene/png.ts";
import { prng } from "../support/prng.ts";

const STEMS = [
  "wing_diffuse",
  "Wing Diffuse",
  "fuselage normal",
  "крыло_цвет",
  "機体_色",
  "Material_baseColor",
  "texture_0",
  "tail-fin (2)",
  "Rudder_AO",
  "canopy glass",
];

/** How a tool writes the URI of the file `folder/stem.png`. */
const SPELLINGS: ((folder: string, file: string) => string)[] = [
  (folder, file) => encodeURI(`${folder}${file}`), // Blender: percent-encoded
  (folder, file) => `${folder}${file}`, // raw, spaces and all
  (folder, file) => `${folder.replaceAll("/", "\\")}${file}`, // Windows tools
  (_, file) => `C:\\Users\\pilot\\Documents\\textures\\${file}`, // the author's disk; read beside it
];

/** One image of a generated folder: the name the output should give it. */
export interface ImageFile {
  readonly uri: string;
  readonly expected: string;
  readonly named: boolean;
}

/** Writes the folder of seed `seed` into `dir` (`model.gltf` and its files); returns its images. */
export async function writeImageFolder(dir: string, seed: number): Promise<ImageFile[]> {
  await loadPngEncoder();
  const next = prng(seed);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene("Scene");
  const count = 2 + Math.floor(next() * 4);
  const stems = STEMS.slice().sort(() => next() - 0.5).slice(0, count);
  const images: ImageFile[] = [];
  const folder = next() < 0.5 ? "textures/" : "";
  const uris: string[] = [];
  stems.forEach((stem, i) => {
    const named = next() < 0.25;
    const pixels = new Uint8Array(16).map((_, b) => b % 4 === 3 ? 255 : Math.floor(next() * 256));
    const texture = doc.createTexture(named ? `Tex${i}` : "").setImage(encodeRgbaPng(2, 2, pixels))
      .setMimeType("image/png").setURI(`image_${i}.png`);
    const spelling = SPELLINGS[Math.floor(next() * SPELLINGS.length)];
    uris.push(spelling(spelling === SPELLINGS[3] ? "" : folder, `${stem}.png`));
    images.push({ uri: uris[i], expected: named ? `Tex${i}` : stem, named });
    const material = doc.createMaterial(`Skin${i}`).setBaseColorTexture(texture);
    const position = doc.createAccessor().setBuffer(buffer).setType("VEC3")
      .setArray(new Float32Array([i, 0, 0, i + 1, 0, 0, i, 0, 1]));
    const uv = doc.createAccessor().setBuffer(buffer).setType("VEC2").setArray(
      new Float32Array([0, 0, 1, 0, 0, 1]),
    );
    const mesh = doc.createMesh(`Panel${i}`).addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", position).setAttribute("TEXCOORD_0", uv).setMaterial(
        material,
      ),
    );
    scene.addChild(doc.createNode(`Panel${i}`).setMesh(mesh));
  });
  const { json, resources } = await (await gltfIO()).writeJSON(doc, { basename: "model" });
  await Deno.mkdir(join(dir, folder || "."), { recursive: true });
  for (const [uri, bytes] of Object.entries(resources)) {
    const i = (json.images ?? []).findIndex((image) => image.uri === uri);
    if (i < 0) {
      await Deno.writeFile(join(dir, uri), bytes);
      continue;
    }
    const onDisk = SPELLINGS.slice(0, 3).some((s) => s(folder, `${stems[i]}.png`) === uris[i]) ? folder : "";
    await Deno.writeFile(join(dir, onDisk, `${stems[i]}.png`), bytes);
    json.images![i].uri = uris[i];
    if (!images[i].named) delete json.images![i].name;
  }
  await Deno.writeTextFile(join(dir, "model.gltf"), JSON.stringify(json, null, 2));
  return images;
}
