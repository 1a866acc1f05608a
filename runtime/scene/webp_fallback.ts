/**
 * `EXT_texture_webp` with its fallback kept. A texture may name a WebP image in the extension and a
 * PNG or JPEG in its core `source`, for clients that cannot read WebP (Blender 3.4, older viewers):
 * the extension is then optional. glTF-Transform's `EXTTextureWebP` reads the WebP only (its `preread`
 * overwrites `source`) and writes WebP-only textures, so the fallback image came out of a round trip
 * unused, then dropped. This subclass reads the same, and links the fallback to the WebP image
 * ({@link WebpFallback}, an extension property of the WebP texture holding the fallback texture), and
 * writes a texture of that WebP image with both: the WebP in the extension, the fallback as `source`.
 *
 * @module
 */
import {
  ExtensionProperty,
  type IProperty,
  type Nullable,
  PropertyType,
  type ReaderContext,
  type Texture,
  type WriterContext,
} from "@gltf-transform/core";
import { EXTTextureWebP } from "@gltf-transform/extensions";

const NAME = "EXT_texture_webp";

interface IWebpFallback extends IProperty {
  fallback: Texture;
}

/** The image a client that cannot read a WebP texture reads in its place (a PNG or JPEG). */
export class WebpFallback extends ExtensionProperty<IWebpFallback> {
  static override EXTENSION_NAME: typeof NAME = NAME;
  declare extensionName: typeof NAME;
  declare propertyType: "WebpFallback";
  declare parentTypes: [PropertyType.TEXTURE];

  protected init(): void {
    this.extensionName = NAME;
    this.propertyType = "WebpFallback";
    this.parentTypes = [PropertyType.TEXTURE];
  }

  protected override getDefaults(): Nullable<IWebpFallback> {
    return Object.assign(super.getDefaults(), { fallback: null });
  }

  /** The fallback image. */
  getFallback(): Texture | null {
    return this.getRef("fallback");
  }

  /** Sets the fallback image. */
  setFallback(texture: Texture | null): this {
    return this.setRef("fallback", texture);
  }
}

/**
 * glTF-Transform's `EXT_texture_webp`, keeping each WebP image's fallback (the first a file gives it):
 * registered in its place by `gltfIO` (`gltf_io.ts`), so decoding, the scene cache and `export.gltf`
 * all keep it.
 */
export class EXTTextureWebPFallback extends EXTTextureWebP {
  static override EXTENSION_NAME: typeof NAME = NAME;
  /** WebP image index → fallback image index, from `preread` to `read`. */
  #fallbacks = new Map<number, number>();

  /** @hidden */
  override preread(context: ReaderContext): this {
    this.#fallbacks.clear();
    const images = context.jsonDoc.json.images?.length ?? 0;
    for (const textureDef of context.jsonDoc.json.textures ?? []) {
      const webp = (textureDef.extensions?.[NAME] as { source?: unknown } | undefined)?.source;
      const fallback = textureDef.source;
      const valid = (i: unknown): i is number =>
        Number.isInteger(i) && (i as number) >= 0 && (i as number) < images;
      if (valid(webp) && valid(fallback) && webp !== fallback && !this.#fallbacks.has(webp)) {
        this.#fallbacks.set(webp, fallback);
      }
    }
    return super.preread(context);
  }

  /** @hidden */
  override read(context: ReaderContext): this {
    for (const [webp, fallback] of this.#fallbacks) {
      const texture = context.textures[webp], image = context.textures[fallback];
      if (!texture || !image) continue;
      texture.setExtension(NAME, new WebpFallback(this.document.getGraph()).setFallback(image));
    }
    this.#fallbacks.clear();
    return super.read(context);
  }

  /** @hidden */
  override write(context: WriterContext): this {
    super.write(context);
    const byImage = new Map<number, number>();
    for (const texture of this.document.getRoot().listTextures()) {
      const fallback = texture.getExtension<WebpFallback>(NAME)?.getFallback();
      const image = context.imageIndexMap.get(texture),
        other = fallback && context.imageIndexMap.get(fallback);
      if (image !== undefined && other !== undefined && other !== null) byImage.set(image, other);
    }
    for (const textureDef of context.jsonDoc.json.textures ?? []) {
      const webp = (textureDef.extensions?.[NAME] as { source?: number } | undefined)?.source;
      const fallback = webp === undefined ? undefined : byImage.get(webp);
      // Written by the parent as WebP-only (no `source`): the fallback goes there.
      if (fallback !== undefined && textureDef.source === undefined) textureDef.source = fallback;
    }
    return this;
  }
}
