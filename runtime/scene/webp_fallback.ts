/**
 * Image extensions with their fallback kept. A texture may name a WebP (`EXT_texture_webp`), AVIF
 * (`EXT_texture_avif`) or KTX2 (`KHR_texture_basisu`) image in the extension and a PNG or JPEG in its
 * core `source`, for clients that cannot read the other (Blender 3.4, older viewers): the extension is
 * then optional. glTF-Transform's extensions read the extension's image only (their `preread`
 * overwrites `source`) and write textures of it without `source`, so the fallback image came out of a
 * round trip unused, then dropped. These subclasses read the same, and link the fallback to the
 * extension's image ({@link ImageFallback}, an extension property of that texture holding the
 * fallback texture), and write a texture of that image with both: the extension's image in the
 * extension, the fallback as `source`.
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
import { EXTTextureAVIF, EXTTextureWebP, KHRTextureBasisu } from "@gltf-transform/extensions";

interface IImageFallback extends IProperty {
  fallback: Texture;
}

/** The image a client that cannot read a texture's extension image (WebP, AVIF, KTX2) reads in its place. */
export abstract class ImageFallback extends ExtensionProperty<IImageFallback> {
  declare extensionName: string;
  declare propertyType: "ImageFallback";
  declare parentTypes: [PropertyType.TEXTURE];

  protected init(): void {
    this.propertyType = "ImageFallback";
    this.parentTypes = [PropertyType.TEXTURE];
  }

  protected override getDefaults(): Nullable<IImageFallback> {
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

/** The {@link ImageFallback} of extension `name`'s textures. */
function fallbackOf(name: string): new (graph: ReturnType<ExtensionProperty["getGraph"]>) => ImageFallback {
  return class extends ImageFallback {
    static override EXTENSION_NAME = name;
    protected override init(): void {
      super.init();
      this.extensionName = name;
    }
  };
}

type ImageExtension = typeof EXTTextureWebP | typeof EXTTextureAVIF | typeof KHRTextureBasisu;

/**
 * `Base` (one of glTF-Transform's image extensions) keeping each image's fallback: an image two textures
 * give different fallbacks is read twice, one per fallback.
 */
function keepingFallback<T extends ImageExtension>(Base: T): T {
  const name = Base.EXTENSION_NAME;
  const Fallback = fallbackOf(name);
  // deno-lint-ignore no-explicit-any
  const Parent = Base as any as typeof EXTTextureWebP;
  return class extends Parent {
    /** A new fallback link for a texture of this extension (`export.gltf` writes PNG fallbacks with it). */
    createFallback(): ImageFallback {
      return new Fallback(this.document.getGraph());
    }

    /** The extension's image index → the fallback's, from `preread` to `read`. */
    #fallbacks = new Map<number, number>();

    /** @hidden */
    override preread(context: ReaderContext): this {
      this.#fallbacks.clear();
      const images = context.jsonDoc.json.images?.length ?? 0;
      const valid = (i: unknown): i is number =>
        Number.isInteger(i) && (i as number) >= 0 && (i as number) < images;
      const json = context.jsonDoc.json;
      const twins = new Map<string, number>();
      for (const textureDef of json.textures ?? []) {
        const extension = textureDef.extensions?.[name] as { source?: unknown } | undefined;
        const image = extension?.source;
        const fallback = textureDef.source;
        if (!valid(image) || !valid(fallback) || image === fallback) continue;
        const earlier = this.#fallbacks.get(image);
        if (earlier === undefined) this.#fallbacks.set(image, fallback);
        else if (earlier !== fallback) {
          // One image, a second fallback (a WebP shared by two textures, each with a PNG of its own): a
          // fallback is kept per image, so this texture reads a twin of the image (its bytes read again,
          // not shared), which keeps this fallback; before, it took the first texture's.
          const key = `${image} ${fallback}`;
          let twin = twins.get(key);
          if (twin === undefined) {
            twin = json.images!.push({ ...json.images![image] }) - 1;
            twins.set(key, twin);
            this.#fallbacks.set(twin, fallback);
          }
          extension!.source = twin;
        }
      }
      return super.preread(context);
    }

    /** @hidden */
    override read(context: ReaderContext): this {
      for (const [image, fallback] of this.#fallbacks) {
        const texture = context.textures[image], other = context.textures[fallback];
        if (texture && other) {
          texture.setExtension(name, new Fallback(this.document.getGraph()).setFallback(other));
        }
      }
      this.#fallbacks.clear();
      return super.read(context);
    }

    /** @hidden */
    override write(context: WriterContext): this {
      super.write(context);
      const byImage = new Map<number, number>();
      for (const texture of this.document.getRoot().listTextures()) {
        const fallback = texture.getExtension<ImageFallback>(name)?.getFallback();
        const image = context.imageIndexMap.get(texture),
          other = fallback && context.imageIndexMap.get(fallback);
        if (image !== undefined && other !== undefined && other !== null) byImage.set(image, other);
      }
      for (const textureDef of context.jsonDoc.json.textures ?? []) {
        const image = (textureDef.extensions?.[name] as { source?: number } | undefined)?.source;
        const fallback = image === undefined ? undefined : byImage.get(image);
        // Written by the parent without `source`: the fallback goes there.
        if (fallback !== undefined && textureDef.source === undefined) textureDef.source = fallback;
      }
      return this;
    }
  } as unknown as T;
}

/** `EXT_texture_webp` keeping a texture's fallback; registered in glTF-Transform's place by `gltfIO`. */
export const EXTTextureWebPFallback: typeof EXTTextureWebP = keepingFallback(EXTTextureWebP);
/** `EXT_texture_avif` keeping a texture's fallback. */
export const EXTTextureAVIFFallback: typeof EXTTextureAVIF = keepingFallback(EXTTextureAVIF);
/** `KHR_texture_basisu` keeping a texture's fallback. */
export const KHRTextureBasisuFallback: typeof KHRTextureBasisu = keepingFallback(KHRTextureBasisu);

/** glTF-Transform's image extensions and the ones here that replace them. */
export const FALLBACK_EXTENSIONS: ReadonlyMap<ImageExtension, ImageExtension> = new Map<
  ImageExtension,
  ImageExtension
>([
  [EXTTextureWebP, EXTTextureWebPFallback],
  [EXTTextureAVIF, EXTTextureAVIFFallback],
  [KHRTextureBasisu, KHRTextureBasisuFallback],
]);
