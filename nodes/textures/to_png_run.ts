/**
 * The work of `textures.to_png` (declared in `to_png.ts`), loaded on the node's first run.
 *
 * @module
 */
import type { NodeRun } from "../../runtime/lazy_run.ts";
import type { texturesToPng } from "./to_png.ts";
import { sceneToChange } from "../../runtime/scene/copy.ts";
import { loadPngEncoder, pngOfEncodedImage } from "../../runtime/scene/png.ts";
import { ktx2ToRgba, loadBasisTranscoder } from "./basis.ts";

const KTX2 = "image/ktx2";

/** Turns each KTX2 texture into a PNG one; a scene without any passes through as it is. */
export const run: NodeRun<typeof texturesToPng> = async ({ inputs, params, ctx }) => {
  // The scene shares its vertex data with the input and each PNG is kept apart, as derived bytes
  // (`pngOfEncodedImage`): running again costs less than loading a stored copy of the scene.
  ctx.cheapToRecompute();
  const ktx2 = inputs.scene.getRoot().listTextures().some((t) => t.getMimeType() === KTX2);
  if (!params.ktx2 || !ktx2) return { scene: inputs.scene };
  const [basis] = await Promise.all([loadBasisTranscoder(), loadPngEncoder()]);
  const scene = sceneToChange(inputs.scene, ctx.owns("scene"));
  scene.getRoot().listTextures().forEach((texture, i) => {
    const image = texture.getImage();
    if (texture.getMimeType() !== KTX2 || !image) return;
    const png = pngOfEncodedImage(image, "ktx2", () => ktx2ToRgba(basis, image, `/textures/${i}`));
    texture.setImage(png).setMimeType("image/png").setURI(texture.getURI().replace(/\.ktx2$/i, ".png"));
  });
  const left = scene.getRoot().listTextures().some((t) => t.getMimeType() === KTX2);
  for (const extension of scene.getRoot().listExtensionsUsed()) {
    if (extension.extensionName === "KHR_texture_basisu" && !left) extension.dispose();
  }
  return { scene };
};
