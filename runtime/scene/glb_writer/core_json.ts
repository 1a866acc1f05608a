/**
 * The GLB (or `.gltf`: {@link CoreJsonOptions}) JSON glTF-Transform 4.5's writer (`GLTFWriter.write`) gives a document of core glTF (and
 * the extensions whose hooks only add JSON: {@link SIMPLE_EXTENSIONS}), built straight from the document and a {@link ChunkLayout}: the same
 * object, key for key and in the same order, with the same defaults left out, the same shared
 * texture and sampler entries and the same values (the property's own extras and vectors, as the
 * writer hands them over). The writer's own pass groups every accessor by its usage and parents
 * again and builds each definition on arrays it is then told to leave empty; the layout has done
 * that grouping already; sparse accessors' views come from `sparse.ts`. Anything outside the subset
 * (other extensions, normalised sparse accessors, accessors outside the buffer) is left to `json.ts`, which
 * runs the writer itself.
 *
 * @module
 */
import {
  type Accessor,
  type Document,
  Format,
  type GLTF,
  type Material,
  MathUtils,
  type Property,
  PropertyType,
  type Texture,
  type TextureInfo,
  VERSION,
} from "@gltf-transform/core";
import type { ChunkLayout, Unsupported } from "./layout.ts";
import { sparseWritable } from "./sparse.ts";
import { hasOwnKey } from "../graph_props.ts";
import { readAttributes } from "../primitive_attributes.ts";
import { imageURIs } from "./image_uris.ts";
import {
  accessorDef,
  byName,
  clean,
  materialDef,
  propertyDef,
  SIMPLE_EXTENSIONS,
  writerContext,
  writeSparse,
} from "./core_json_defs.ts";

const ARRAY_BUFFER = 34962, ELEMENT_ARRAY_BUFFER = 34963;

/** How {@link writeCoreJson} writes: GLB (the default) or `.gltf`, whose resources it then names. */
export interface CoreJsonOptions {
  /** `Format.GLTF`: images and the buffer get URIs, as the writer's `basename` names them. */
  readonly format?: Format;
  /** The writer's `basename` option (`.gltf` only): `scene` names `scene.bin`, `scene.png`. */
  readonly basename?: string;
  /**
   * Filled with each image URI's bytes (`.gltf` only), as the writer's resources hold them: the first
   * image given a URI keeps it (the writer warns of a repeat and drops its data). The buffer's URI is
   * named in the JSON; its bytes are the caller's to write (`chunk.ts`).
   */
  readonly resources?: Record<string, Uint8Array>;
}

/**
 * The JSON glTF-Transform's writer gives `doc` as GLB with `layout`'s binary chunk, or why `doc` is
 * outside the core subset this reproduces (then the caller asks the writer). `doc` is only read,
 * except that, like the writer, a mesh with morph targets gets their names in its own extras object
 * (the caller guards those, as it does for the writer: `keepingExtras`).
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { chunkLayout, type ChunkLayout } from "./layout.ts";
 * import { writeCoreJson } from "./core_json.ts";
 *
 * const doc = new Document();
 * doc.createScene("s").addChild(doc.createNode("n"));
 * const json = writeCoreJson(doc, chunkLayout(doc) as ChunkLayout);
 * ```
 */
export function writeCoreJson(
  doc: Document,
  layout: ChunkLayout,
  options: CoreJsonOptions = {},
): GLTF.IGLTF | Unsupported {
  const root = doc.getRoot();
  const gltf = options.format === Format.GLTF, resources = options.resources ?? {};
  const extensionsUsed = [...root.listExtensionsUsed()].sort(byName);
  for (const extension of extensionsUsed) {
    if (!SIMPLE_EXTENSIONS.has(extension.extensionName)) {
      return { unsupported: `extension ${extension.extensionName}` };
    }
  }
  const sparse = layout.views.find((view) => view.kind === "sparse");
  // Normalised sparse accessors take the writer's own pass (sparse.ts says why).
  if (sparse && !sparseWritable(sparse.accessors)) return { unsupported: "normalised sparse accessors" };
  // The writer leaves an accessor without a buffer out (and warns); the layout holds only the rest.
  const accessorList = root.listAccessors();
  if (accessorList.length !== layout.accessors.length) return { unsupported: "accessors outside the buffer" };
  const graph = doc.getGraph();
  // Sparse views first: their lengths move every view after them (the layout is placed again).
  const sparseDefs = sparse ? writeSparse(graph, layout, sparse) : undefined;

  const json = {
    asset: { generator: `glTF-Transform ${VERSION}`, ...root.getAsset() },
    extras: { ...root.getExtras() },
  } as GLTF.IGLTF;
  const accessors: GLTF.IAccessor[] = [];
  const bufferViews: GLTF.IBufferView[] = [];
  const samplers: GLTF.ISampler[] = [];
  const textures: GLTF.ITexture[] = [];
  json.accessors = accessors;
  json.bufferViews = bufferViews;
  json.samplers = samplers;
  json.textures = textures;

  const imageIndex = new Map<Texture, number>();
  const imageURI = gltf ? imageURIs(doc, options.basename ?? "") : undefined;
  json.images = root.listTextures().map((texture, i) => {
    const def = propertyDef(texture) as GLTF.IImage;
    if (texture.getMimeType()) def.mimeType = texture.getMimeType();
    const image = texture.getImage();
    if (imageURI) {
      // The writer's createImageData for a `.gltf`: a file of its own, named by the texture's URI or slot.
      if (image) {
        def.uri = imageURI(texture);
        if (!(def.uri in resources)) resources[def.uri] = image;
      }
    } else {
      // chunkLayout refuses a texture without an image: each has the view of its own position.
      def.bufferView = bufferViews.length;
      const slot = layout.images[i];
      bufferViews.push({ buffer: 0, byteOffset: slot.byteOffset, byteLength: slot.byteLength });
    }
    imageIndex.set(texture, i);
    return def;
  });

  const accessorIndex = new Map<Accessor, number>();
  for (const view of layout.views) {
    if (view.kind === "sparse") {
      // As the writer's concatSparseAccessors: every definition, then the index and value views.
      for (let m = 0; m < view.accessors.length; m++) {
        accessorIndex.set(view.accessors[m], accessors.length);
        accessors.push(sparseDefs!.defs[m]);
      }
      const [indexLength, valueLength] = sparseDefs!.viewLengths;
      if (indexLength !== undefined && valueLength !== undefined) {
        bufferViews.push({ buffer: 0, byteOffset: view.byteOffset, byteLength: indexLength });
        bufferViews.push({ buffer: 0, byteOffset: view.byteOffset + indexLength, byteLength: valueLength });
      }
      continue;
    }
    const viewIndex = bufferViews.length;
    for (let m = 0; m < view.accessors.length; m++) {
      const accessor = view.accessors[m];
      const def = accessorDef(graph, accessor);
      def.bufferView = viewIndex;
      def.byteOffset = view.offsets[m];
      accessorIndex.set(accessor, accessors.length);
      accessors.push(def);
    }
    const def: GLTF.IBufferView = { buffer: 0, byteOffset: view.byteOffset, byteLength: view.byteLength };
    if (view.kind === "interleaved") {
      def.byteStride = view.byteStride;
      def.target = ARRAY_BUFFER;
    } else if (view.usage === "ELEMENT_ARRAY_BUFFER") {
      def.target = ELEMENT_ARRAY_BUFFER;
    }
    bufferViews.push(def);
  }

  let bufferClash = false;
  json.buffers = root.listBuffers().map((buffer) => {
    const def = propertyDef(buffer) as GLTF.IBuffer;
    if (layout.byteLength && gltf) {
      // One buffer (chunkLayout's): the writer names it `<basename>.bin`, or by its own URI.
      def.uri = buffer.getURI() || `${options.basename || "buffer"}.bin`;
      bufferClash = def.uri in resources;
    }
    if (layout.byteLength) def.byteLength = layout.byteLength;
    return def;
  });
  // An image of the buffer's URI makes the writer throw: it gives the error.
  if (bufferClash) return { unsupported: "an image has the buffer's URI" };

  const samplerIndex = new Map<string, number>(), textureIndex = new Map<string, number>();
  const textureInfoDefs = new Map<TextureInfo, GLTF.ITextureInfo>();
  /** The writer's `createTextureInfoDef`: samplers and textures shared by their JSON. */
  const textureInfoDef = (texture: Texture, info: TextureInfo): GLTF.ITextureInfo => {
    const samplerDef = {
      magFilter: info.getMagFilter() || undefined,
      minFilter: info.getMinFilter() || undefined,
      wrapS: info.getWrapS(),
      wrapT: info.getWrapT(),
    } as GLTF.ISampler;
    const samplerKey = JSON.stringify(samplerDef);
    if (!samplerIndex.has(samplerKey)) {
      samplerIndex.set(samplerKey, samplers.length);
      samplers.push(samplerDef);
    }
    const textureDef = {
      source: imageIndex.get(texture),
      sampler: samplerIndex.get(samplerKey),
    } as GLTF.ITexture;
    const textureKey = JSON.stringify(textureDef);
    if (!textureIndex.has(textureKey)) {
      textureIndex.set(textureKey, textures.length);
      textures.push(textureDef);
    }
    const def = { index: textureIndex.get(textureKey) } as GLTF.ITextureInfo;
    if (info.getTexCoord() !== 0) def.texCoord = info.getTexCoord();
    if (Object.keys(info.getExtras()).length > 0) def.extras = info.getExtras();
    textureInfoDefs.set(info, def);
    return def;
  };

  const materialIndex = new Map<Material, number>();
  json.materials = root.listMaterials().map((material, index) => {
    materialIndex.set(material, index);
    return materialDef(material, textureInfoDef);
  });
  // The extensions' own hooks write their part, given the writer's context as far as they read it:
  // the material extensions before the meshes (their MESH prewrite), the rest at the end. The
  // context shares this module's samplers, textures and texture infos, so theirs are numbered after
  // the core ones, as the writer numbers them.
  const context = extensionsUsed.length
    ? writerContext(doc, json, materialIndex, gltf ? Format.GLTF : Format.GLB)
    : undefined;
  if (context) {
    for (const [texture, index] of imageIndex) context.imageIndexMap.set(texture, index);
    for (const [key, index] of samplerIndex) context.samplerDefIndexMap.set(key, index);
    for (const [key, index] of textureIndex) context.textureDefIndexMap.set(key, index);
    for (const [info, def] of textureInfoDefs) context.textureInfoDefMap.set(info, def);
  }
  for (const extension of extensionsUsed) {
    if (extension.prewriteTypes.includes(PropertyType.MESH)) extension.prewrite(context!, PropertyType.MESH);
  }

  const meshIndex = new Map<Property, number>();
  json.meshes = root.listMeshes().map((mesh, index) => {
    const def = propertyDef(mesh) as GLTF.IMesh;
    let targetNames: string[] | null = null;
    def.primitives = mesh.listPrimitives().map((primitive) => {
      const primitiveDef: GLTF.IMeshPrimitive = { attributes: {} };
      primitiveDef.mode = primitive.getMode();
      const material = primitive.getMaterial();
      if (material) primitiveDef.material = materialIndex.get(material);
      if (hasOwnKey(primitive.getExtras())) primitiveDef.extras = primitive.getExtras();
      const indices = primitive.getIndices();
      if (indices) primitiveDef.indices = accessorIndex.get(indices);
      // One look at the primitive's attributes (two getters per semantic before).
      for (const [semantic, accessor] of readAttributes(primitive)) {
        primitiveDef.attributes[semantic] = accessorIndex.get(accessor)!;
      }
      const targets = primitive.listTargets();
      for (const target of targets) {
        const targetDef = {} as { [name: string]: number };
        for (const semantic of target.listSemantics()) {
          targetDef[semantic] = accessorIndex.get(target.getAttribute(semantic)!)!;
        }
        primitiveDef.targets = primitiveDef.targets || [];
        primitiveDef.targets.push(targetDef);
      }
      if (targets.length && !targetNames) targetNames = targets.map((target) => target.getName());
      return primitiveDef;
    });
    if (mesh.getWeights().length) def.weights = mesh.getWeights();
    if (targetNames) {
      // Into the mesh's own extras object when it has one, as the writer does.
      def.extras = def.extras || {};
      def.extras["targetNames"] = targetNames;
    }
    meshIndex.set(mesh, index);
    return def;
  });

  const cameraIndex = new Map<Property, number>();
  json.cameras = root.listCameras().map((camera, index) => {
    const def = propertyDef(camera) as GLTF.ICamera;
    def.type = camera.getType();
    if (def.type === "perspective") {
      def.perspective = { znear: camera.getZNear(), zfar: camera.getZFar(), yfov: camera.getYFov() };
      const aspectRatio = camera.getAspectRatio();
      if (aspectRatio !== null) def.perspective.aspectRatio = aspectRatio;
    } else {
      def.orthographic = {
        znear: camera.getZNear(),
        zfar: camera.getZFar(),
        xmag: camera.getXMag(),
        ymag: camera.getYMag(),
      };
    }
    cameraIndex.set(camera, index);
    return def;
  });

  const nodeList = root.listNodes();
  const nodeIndex = new Map<Property, number>();
  const nodes = json.nodes = nodeList.map((node, index) => {
    const def = propertyDef(node) as GLTF.INode;
    if (!MathUtils.eq(node.getTranslation(), [0, 0, 0])) def.translation = node.getTranslation();
    if (!MathUtils.eq(node.getRotation(), [0, 0, 0, 1])) def.rotation = node.getRotation();
    if (!MathUtils.eq(node.getScale(), [1, 1, 1])) def.scale = node.getScale();
    if (node.getWeights().length) def.weights = node.getWeights();
    nodeIndex.set(node, index);
    return def;
  });

  const skinIndex = new Map<Property, number>();
  json.skins = root.listSkins().map((skin, index) => {
    const def = propertyDef(skin) as GLTF.ISkin;
    const inverseBindMatrices = skin.getInverseBindMatrices();
    if (inverseBindMatrices) def.inverseBindMatrices = accessorIndex.get(inverseBindMatrices);
    const skeleton = skin.getSkeleton();
    if (skeleton) def.skeleton = nodeIndex.get(skeleton);
    def.joints = skin.listJoints().map((joint) => nodeIndex.get(joint)!);
    skinIndex.set(skin, index);
    return def;
  });

  for (let i = 0; i < nodeList.length; i++) {
    const node = nodeList[i], def = nodes[i];
    const mesh = node.getMesh();
    if (mesh) def.mesh = meshIndex.get(mesh);
    const camera = node.getCamera();
    if (camera) def.camera = cameraIndex.get(camera);
    const skin = node.getSkin();
    if (skin) def.skin = skinIndex.get(skin);
    const children = node.listChildren();
    if (children.length > 0) def.children = children.map((child) => nodeIndex.get(child)!);
  }

  json.animations = root.listAnimations().map((animation) => {
    const def = propertyDef(animation) as GLTF.IAnimation;
    const samplerOf = new Map<Property, number>();
    def.samplers = animation.listSamplers().map((sampler, index) => {
      const samplerDef = propertyDef(sampler) as GLTF.IAnimationSampler;
      samplerDef.input = accessorIndex.get(sampler.getInput()!)!;
      samplerDef.output = accessorIndex.get(sampler.getOutput()!)!;
      samplerDef.interpolation = sampler.getInterpolation();
      samplerOf.set(sampler, index);
      return samplerDef;
    });
    def.channels = animation.listChannels().map((channel) => {
      const channelDef = propertyDef(channel) as GLTF.IAnimationChannel;
      channelDef.sampler = samplerOf.get(channel.getSampler()!)!;
      channelDef.target = {
        node: nodeIndex.get(channel.getTargetNode()!)!,
        path: channel.getTargetPath()!,
      };
      return channelDef;
    });
    return def;
  });

  const scenes = root.listScenes();
  json.scenes = scenes.map((scene) => {
    const def = propertyDef(scene) as GLTF.IScene;
    def.nodes = scene.listChildren().map((node) => nodeIndex.get(node)!);
    return def;
  });
  const defaultScene = root.getDefaultScene();
  if (defaultScene) json.scene = scenes.indexOf(defaultScene);
  json.extensionsUsed = extensionsUsed.map((extension) => extension.extensionName);
  json.extensionsRequired = [...root.listExtensionsRequired()].sort(byName).map((extension) =>
    extension.extensionName
  );
  if (context) {
    // The maps the writer has filled by now, which lights, variants, visibility and XMP read.
    const maps: [Map<unknown, number>, Map<unknown, number>][] = [
      [context.accessorIndexMap, accessorIndex],
      [context.cameraIndexMap, cameraIndex],
      [context.skinIndexMap, skinIndex],
      [context.meshIndexMap, meshIndex],
      [context.nodeIndexMap, nodeIndex],
    ] as [Map<unknown, number>, Map<unknown, number>][];
    for (const [to, from] of maps) for (const [key, index] of from) to.set(key, index);
    root.listBuffers().forEach((buffer, index) => context.bufferIndexMap.set(buffer, index));
    root.listAnimations().forEach((animation, index) => context.animationIndexMap.set(animation, index));
    scenes.forEach((scene, index) => context.sceneIndexMap.set(scene, index));
    for (const extension of extensionsUsed) extension.write(context);
  }
  clean(json as unknown as Record<string, unknown>);
  return json;
}
