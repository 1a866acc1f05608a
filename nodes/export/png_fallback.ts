/**
 * A PNG beside each WebP, KTX2 or AVIF image that has no PNG or JPEG fallback: Blender 3.4's importer
 * reads none of the three (a texture whose only image is one comes in without an image, and a file that
 * requires the extension is refused whole), while three.js and engines read the extension's image. The
 * glTF way to serve both is the image extensions' fallback: the texture names the WebP/KTX2/AVIF image
 * in its extension and a PNG in its core `source`, and the extension is then only used, not required.
 * The PNG holds the pixels a viewer of the original decodes, stored losslessly: `textures.to_png`'s
 * (libwebp, Binomial's transcoder, libavif), invoked by `export.gltf`; an image none of them can decode
 * keeps no fallback, and the Blender warning then names it as before.
 *
 * @module
 */
import { Document, type Texture } from "@gltf-transform/core";
import { EXTTextureAVIF, EXTTextureWebP, KHRTextureBasisu } from "@gltf-transform/extensions";
import { sceneToChange } from "../../runtime/scene/copy.ts";
import { FALLBACK_EXTENSIONS, type ImageFallback } from "../../runtime/scene/webp_fallback.ts";
import { DecodeError } from "../../runtime/errors.ts";

/** Each image type given a fallback, with its extension (glTF-Transform's class of it). */
const KINDS = [
  { mimeType: "image/webp", Extension: EXTTextureWebP },
  { mimeType: "image/ktx2", Extension: KHRTextureBasisu },
  { mimeType: "image/avif", Extension: EXTTextureAVIF },
] as const;

type Kind = (typeof KINDS)[number];

/** Re-encodes a scene's WebP, KTX2 and AVIF textures as PNG: `textures.to_png`, run through `ctx.invoke`. */
export type ToPng = (scene: Document) => Promise<Document>;

/**
 * `scene` with a PNG fallback for each WebP, KTX2 or AVIF image without a PNG or JPEG one: `scene`
 * itself when there is none to add, else `scene` changed in place when `owned()` says nothing else sees
 * it, else a copy sharing its vertex data. Each PNG is `toPng`'s of a scene holding that image alone, so
 * an image its decoder refuses (damaged data) gets none, with `warn` told why, and the others theirs;
 * each extension whose images all have a fallback is written used, not required.
 *
 * @example
 * ```ts ignore
 * const toPng = async (s: Document) => (await ctx.invoke("textures.to_png", { scene: s })).scene as Document;
 * const written = await withPngFallbacks(scene, () => ctx.owns("scene"), (m) => ctx.warn(m), toPng);
 * ```
 */
export async function withPngFallbacks(
  scene: Document,
  owned: () => boolean,
  warn: (message: string) => void,
  toPng: ToPng,
): Promise<Document> {
  if (!scene.getRoot().listTextures().some((t) => needsFallback(t))) return scene;
  const changed = sceneToChange(scene, owned());
  for (const texture of changed.getRoot().listTextures()) {
    const kind = needsFallback(texture);
    if (!kind) continue;
    const alone = new Document();
    alone.createTexture(texture.getName()).setImage(texture.getImage()!).setMimeType(kind.mimeType);
    let png: Texture | undefined;
    try {
      png = (await toPng(alone)).getRoot().listTextures()[0];
    } catch (error) {
      if (!(error instanceof DecodeError)) throw error;
      warn(`image '${texture.getName()}' gets no PNG fallback: ${error.message}`);
      continue;
    }
    if (png?.getMimeType() !== "image/png" || !png.getImage()) continue;
    const fallback = changed.createTexture(texture.getName()).setImage(png.getImage()!).setMimeType(
      "image/png",
    )
      .setURI(fallbackUri(texture.getURI()));
    texture.setExtension(kind.Extension.EXTENSION_NAME, link(changed, kind).setFallback(fallback));
  }
  for (const kind of KINDS) optionalWhereAllFallBack(changed, kind);
  return changed;
}

/**
 * The PNG's URI beside the image's (`paint.ktx2` → `paint.png`). A `data:` URI names no file: the
 * writer reads a MIME type from its text, so `data:image/webp…` + `.png` declared the PNG WebP.
 */
function fallbackUri(uri: string): string {
  return uri && !uri.startsWith("data:") ? uri.replace(/\.[^./]*$/, "") + ".png" : "";
}

/** The kind of `texture`'s image when it is WebP, KTX2 or AVIF with no PNG or JPEG fallback. */
function needsFallback(texture: Texture): Kind | undefined {
  const kind = KINDS.find((k) => k.mimeType === texture.getMimeType());
  if (!kind || !texture.getImage()?.byteLength) return undefined;
  const fallback = texture.getExtension<ImageFallback>(kind.Extension.EXTENSION_NAME)?.getFallback();
  const mimeType = fallback?.getImage() ? fallback.getMimeType() : undefined;
  return mimeType === "image/png" || mimeType === "image/jpeg" ? undefined : kind;
}

/**
 * A new fallback link of `kind`'s extension in `doc`: made by the extension that writes fallbacks
 * (`webp_fallback.ts`), which takes glTF-Transform's own in a scene built in code (only the reader
 * registers it), keeping whether it was required.
 */
function link(doc: Document, kind: Kind): ImageFallback {
  // deno-lint-ignore no-explicit-any
  const Writer = FALLBACK_EXTENSIONS.get(kind.Extension)! as any as typeof EXTTextureWebP;
  const name = kind.Extension.EXTENSION_NAME;
  let extension = doc.getRoot().listExtensionsUsed().find((e) => e.extensionName === name);
  if (!(extension instanceof Writer)) {
    const required = extension?.isRequired() ?? false;
    extension?.dispose();
    extension = doc.createExtension(Writer).setRequired(required);
  }
  return (extension as unknown as { createFallback(): ImageFallback }).createFallback();
}

/** Takes `kind`'s extension off the required list once every image of its type has a fallback. */
function optionalWhereAllFallBack(doc: Document, kind: Kind): void {
  const extension = doc.getRoot().listExtensionsUsed().find((e) =>
    e.extensionName === kind.Extension.EXTENSION_NAME
  );
  if (!extension?.isRequired()) return;
  const textures = doc.getRoot().listTextures().filter((t) => t.getMimeType() === kind.mimeType);
  if (textures.every((t) => !needsFallback(t))) extension.setRequired(false);
}
