/**
 * Odd but real-world glTF as users have it (not byte mutations, which the fuzzer makes): what exporters,
 * hand edits and web tools write. Each file is a textured quad (or two) whose true positions, UVs and
 * texture are known, so a decode can be judged right or wrong, not only "did not throw".
 *
 * Kinds (each seeded: sizes, values, which exporter habit):
 * - data: URIs in odd base64 — MIME line breaks (76 columns, CRLF or LF), the URL-safe alphabet, padding
 *   left off, the payload percent-encoded (`%2B`, `%2F`, `%3D`, as a URL-encoding tool writes it),
 *   `;BASE64` upper case, parameters before `;base64` (`;charset=utf-8`), spaces wrapped in, every `+`
 *   a space (a URL form decoder's doing: PHP `urldecode`, Python `unquote_plus`);
 * - file URIs as exporters write them — spaces, `%20`, `\` separators, `./`, an absolute Windows path,
 *   an image named in another case than on disk (read through `io.read`);
 * - KHR_texture_transform with a rotation; sparse accessors on positions; normalized integer UVs;
 *   KHR_mesh_quantization positions under a scaling node; two UV sets with the texture on TEXCOORD_1;
 *   no `scene` index; nodes in several scenes; a mesh with empty `primitives`.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";

/** A 2×2 RGBA PNG (valid: header, one IDAT, IEND), the texture every file samples. */
export const TEXTURE_PNG = Uint8Array.fromBase64(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFElEQVR4nGP4z8DwHwwZGP6DQAMASUkJeJw9PL4AAAAASUVORK5CYII=",
);

/** What a decode of the file must give. */
export interface UserGltfTruth {
  /** World-space positions of the textured quad's four corners. */
  readonly positions: readonly number[];
  /** UVs (as floats) of the quad, on the set its texture samples. */
  readonly uvs: readonly number[];
  /** The UV set the quad's base-colour texture samples. */
  readonly texCoord: number;
  /** KHR_texture_transform's rotation on the base-colour texture, when set. */
  readonly rotation?: number;
  /** Node names of each scene, in order, and the default scene's index. */
  readonly scenes?: { readonly names: readonly (readonly string[])[]; readonly scene: number };
  /** The quad's one morph target's position deltas, when it has one. */
  readonly target?: readonly number[];
  /** Something a warning must name (an empty mesh's name). */
  readonly warns?: RegExp;
}

/** One generated file: its folder's files (the model is `main`), and the truth. */
export interface UserGltf {
  readonly kind: string;
  readonly detail: string;
  readonly main: string;
  readonly files: Record<string, Uint8Array>;
  readonly truth: UserGltfTruth;
}

/** Every kind the generator makes. */
export const USER_GLTF_KINDS = [
  "base64-linebreaks",
  "base64-urlsafe",
  "base64-unpadded",
  "base64-percent",
  "base64-header",
  "base64-spaces",
  "base64-plus-as-space",
  "image-octet-stream",
  "uri-spaces",
  "uri-percent",
  "uri-backslash",
  "uri-dot-slash",
  "uri-windows-absolute",
  "uri-image-case",
  "texture-transform",
  "transform-texcoord",
  "shared-vertex-buffer",
  "interleaved",
  "position-no-bounds",
  "sparse-positions",
  "sparse-morph-target",
  "normalized-uvs",
  "quantized-positions",
  "texcoord-1",
  "no-scene-index",
  "shared-nodes",
  "empty-primitives",
] as const;

/** A kind of {@link USER_GLTF_KINDS}. */
export type UserGltfKind = typeof USER_GLTF_KINDS[number];

// deno-lint-ignore no-explicit-any
type Json = any;

/** Makes the file of `kind` for `seed`. */
export function userGltf(kind: UserGltfKind, seed: number): UserGltf {
  const rnd = prng(seed * 7919 + USER_GLTF_KINDS.indexOf(kind));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const size = 0.5 + rnd() * 20;
  const z = (rnd() - 0.5) * 10;
  const positions = [0, 0, z, size, 0, z, size, size * (0.3 + rnd()), z, 0, size, z].map((v) =>
    Math.fround(v)
  );
  // UVs on a 1/255 grid, so byte- and short-normalized forms hold them exactly.
  const uvs = Array.from({ length: 8 }, () => Math.round(rnd() * 255) / 255);
  const detailParts: string[] = [];
  let texCoord = 0;
  if (kind === "shared-vertex-buffer") {
    // Unity's, Babylon's and the sim's habit: one vertex buffer, each primitive drawing its range of it.
    const dx = size * (1 + rnd());
    positions.push(...positions.map((v, i) => Math.fround(i % 3 === 0 ? v + dx : v)));
    uvs.push(...Array.from({ length: 8 }, () => Math.round(rnd() * 255) / 255));
  }
  let rotation: number | undefined;
  let scenes: UserGltfTruth["scenes"];
  let warns: RegExp | undefined;

  // Binary layout: positions (48), indices (12), uvs float (32); more views appended by kinds.
  const chunks: Uint8Array[] = [];
  let length = 0;
  const view = (bytes: Uint8Array, target?: number): number => {
    const pad = (4 - (length % 4)) % 4;
    if (pad) chunks.push(new Uint8Array(pad)), length += pad;
    chunks.push(bytes);
    views.push({
      buffer: 0,
      byteOffset: length,
      byteLength: bytes.byteLength,
      ...(target ? { target } : {}),
    });
    length += bytes.byteLength;
    return views.length - 1;
  };
  const views: Json[] = [];
  const accessors: Json[] = [];
  const accessor = (def: Json): number => (accessors.push(def), accessors.length - 1);
  const f32 = (values: readonly number[]) => new Uint8Array(new Float32Array(values).buffer);
  const minMax = (values: readonly number[], n: number) => {
    const min = Array(n).fill(Infinity), max = Array(n).fill(-Infinity);
    values.forEach((v, i) => (min[i % n] = Math.min(min[i % n], v), max[i % n] = Math.max(max[i % n], v)));
    return { min, max };
  };

  let positionAccessor: number;
  let interleavedUvs: number | undefined;
  const extensionsUsed: string[] = [];
  const extensionsRequired: string[] = [];
  let nodeScale: number[] | undefined;
  let nodeTranslation: number[] | undefined;
  if (kind === "sparse-positions") {
    // Base: every corner at z, flattened to the origin square; the sparse part moves two corners.
    const base = [0, 0, z, 0, 0, z, 0, 0, z, 0, 0, z];
    const moved = pick([[1, 2], [1, 3], [2, 3], [0, 2]]);
    for (const i of [0, 1, 2, 3]) {
      if (!moved.includes(i)) { for (const c of [0, 1, 2]) base[i * 3 + c] = positions[i * 3 + c]; }
    }
    const withBase = rnd() < 0.5; // Blender writes no bufferView for an all-zero base; others write one.
    const indexBytes = pick(["u8", "u16", "u32"] as const);
    const indexArray = indexBytes === "u8"
      ? new Uint8Array(moved)
      : indexBytes === "u16"
      ? new Uint16Array(moved)
      : new Uint32Array(moved);
    const sparseIndexView = view(new Uint8Array(indexArray.buffer));
    const sparseValueView = view(f32(moved.flatMap((i) => positions.slice(i * 3, i * 3 + 3))));
    if (!withBase) {
      for (const i of [0, 1, 2, 3]) {
        if (!moved.includes(i)) {
          for (const c of [0, 1]) positions[i * 3 + c] = 0;
        }
      }
    }
    if (!withBase) { for (const i of [0, 1, 2, 3]) if (!moved.includes(i)) positions[i * 3 + 2] = 0; }
    positionAccessor = accessor({
      ...(withBase ? { bufferView: view(f32(base), 34962) } : {}),
      componentType: 5126,
      count: 4,
      type: "VEC3",
      ...minMax(positions, 3),
      sparse: {
        count: moved.length,
        indices: {
          bufferView: sparseIndexView,
          componentType: indexBytes === "u8" ? 5121 : indexBytes === "u16" ? 5123 : 5125,
        },
        values: { bufferView: sparseValueView },
      },
    });
    detailParts.push(`moved ${moved}, ${withBase ? "with" : "without"} base view, ${indexBytes} indices`);
  } else if (kind === "quantized-positions") {
    // gltfpack's way: SHORT (or BYTE) positions, normalized or not, the node scaling them back.
    const normalized = rnd() < 0.5;
    const short = rnd() < 0.7;
    const steps = short ? 32767 : 127;
    const max = Math.max(...positions.map(Math.abs));
    const unit = normalized ? max : max / steps;
    const ints = positions.map((v) => Math.round((v / max) * steps));
    const array = short
      ? new Int16Array(ints.length + ints.length / 3)
      : new Int8Array(ints.length + ints.length / 3);
    // Padded to four components' alignment (VEC3 of 2 bytes has a stride of 8).
    ints.forEach((v, i) => (array[Math.floor(i / 3) * 4 + (i % 3)] = v));
    const stride = short ? 8 : 4;
    const v = view(new Uint8Array(array.buffer), 34962);
    views[v].byteStride = stride;
    const quantized = ints.map((q) => normalized ? q / steps : q);
    positionAccessor = accessor({
      bufferView: v,
      componentType: short ? 5122 : 5120,
      ...(normalized ? { normalized: true } : {}),
      count: 4,
      type: "VEC3",
      ...minMax(quantized, 3),
    });
    nodeScale = [unit, unit, unit];
    nodeTranslation = [0, 0, 0];
    for (let i = 0; i < positions.length; i++) positions[i] = Math.fround(quantized[i] * unit);
    extensionsUsed.push("KHR_mesh_quantization");
    extensionsRequired.push("KHR_mesh_quantization");
    detailParts.push(`${short ? "SHORT" : "BYTE"}${normalized ? " normalized" : ""}`);
  } else if (kind === "interleaved") {
    // Unity's and three.js's GLTFExporter's (interleaved buffers): position and UV in one view, a
    // stride of 20, the UV accessor at byteOffset 12 of it.
    const data = new Float32Array(20);
    for (let v = 0; v < 4; v++) {
      data.set([...positions.slice(v * 3, v * 3 + 3), ...uvs.slice(v * 2, v * 2 + 2)], v * 5);
    }
    const v = view(new Uint8Array(data.buffer), 34962);
    views[v].byteStride = 20;
    positionAccessor = accessor({
      bufferView: v,
      componentType: 5126,
      count: 4,
      type: "VEC3",
      ...minMax(positions, 3),
    });
    interleavedUvs = accessor({ bufferView: v, byteOffset: 12, componentType: 5126, count: 4, type: "VEC2" });
  } else {
    positionAccessor = accessor({
      bufferView: view(f32(positions), 34962),
      componentType: 5126,
      count: positions.length / 3,
      type: "VEC3",
      // Hand-written converters leave POSITION's bounds out (glTF requires them).
      ...(kind === "position-no-bounds" ? {} : minMax(positions, 3)),
    });
  }
  const indexAccessor = accessor({
    bufferView: view(new Uint8Array(new Uint16Array([0, 1, 2, 0, 2, 3]).buffer), 34963),
    componentType: 5123,
    count: 6,
    type: "SCALAR",
  });
  let uvAccessor: number;
  if (kind === "normalized-uvs") {
    const byte = rnd() < 0.5;
    const steps = byte ? 255 : 65535;
    const ints = uvs.map((u) => Math.round(u * steps));
    const bytes = byte ? new Uint8Array(ints) : new Uint8Array(new Uint16Array(ints).buffer);
    const v = view(bytes, 34962);
    if (byte) views[v].byteStride = 4; // VEC2 of bytes: a stride a multiple of 4
    if (byte) {
      const padded = new Uint8Array(16);
      ints.forEach((q, i) => (padded[Math.floor(i / 2) * 4 + (i % 2)] = q));
      chunks[chunks.length - 1] = padded;
      length += padded.byteLength - bytes.byteLength;
      views[v].byteLength = 16;
    }
    uvAccessor = accessor({
      bufferView: v,
      componentType: byte ? 5121 : 5123,
      normalized: true,
      count: 4,
      type: "VEC2",
    });
    detailParts.push(byte ? "UNSIGNED_BYTE" : "UNSIGNED_SHORT");
  } else if (interleavedUvs !== undefined) {
    uvAccessor = interleavedUvs;
  } else {
    uvAccessor = accessor({
      bufferView: view(f32(uvs), 34962),
      componentType: 5126,
      count: uvs.length / 2,
      type: "VEC2",
    });
  }
  const attributes: Json = { POSITION: positionAccessor, TEXCOORD_0: uvAccessor };
  if (kind === "texcoord-1") {
    // Blender's lightmap habit: set 0 a plain unwrap, the texture on set 1.
    const other = Array.from({ length: 8 }, () => Math.round(rnd() * 255) / 255);
    attributes.TEXCOORD_0 = accessor({
      bufferView: view(f32(other), 34962),
      componentType: 5126,
      count: 4,
      type: "VEC2",
    });
    attributes.TEXCOORD_1 = uvAccessor;
    texCoord = 1;
  }
  if (kind === "transform-texcoord") {
    // KHR_texture_transform's own texCoord overrides the texture info's: the texture samples set 1.
    const other = Array.from({ length: 8 }, () => Math.round(rnd() * 255) / 255);
    attributes.TEXCOORD_0 = accessor({
      bufferView: view(f32(other), 34962),
      componentType: 5126,
      count: 4,
      type: "VEC2",
    });
    attributes.TEXCOORD_1 = uvAccessor;
    texCoord = 1;
  }
  const textureInfo: Json = { index: 0, ...(texCoord && kind !== "transform-texcoord" ? { texCoord } : {}) };
  if (kind === "transform-texcoord") {
    textureInfo.extensions = { KHR_texture_transform: { texCoord: 1, scale: [1, 1] } };
    extensionsUsed.push("KHR_texture_transform");
  }
  let target: number[] | undefined;
  const targets: Json[] = [];
  if (kind === "sparse-morph-target") {
    // Blender's shape keys: sparse deltas with no base view (all zero), only the moved vertices listed.
    target = Array(12).fill(0);
    const moved = pick([[2], [2, 3], [1, 2, 3]]);
    for (const i of moved) for (const c of [0, 1, 2]) target[i * 3 + c] = Math.fround((rnd() - 0.5) * size);
    const indexView = view(new Uint8Array(new Uint32Array(moved).buffer));
    const valueView = view(f32(moved.flatMap((i) => target!.slice(i * 3, i * 3 + 3))));
    targets.push({
      POSITION: accessor({
        componentType: 5126,
        count: 4,
        type: "VEC3",
        ...minMax(target, 3),
        sparse: {
          count: moved.length,
          indices: { bufferView: indexView, componentType: 5125 },
          values: { bufferView: valueView },
        },
      }),
    });
    detailParts.push(`moved ${moved}`);
  }
  if (kind === "texture-transform") {
    rotation = Math.fround(pick([Math.PI / 2, -Math.PI / 2, Math.PI, 0.3, -1.2]) * (0.5 + rnd()));
    const transform: Json = { rotation, offset: [rnd(), rnd()], scale: [1 + rnd(), 1 + rnd()] };
    if (rnd() < 0.4) transform.texCoord = 0;
    textureInfo.extensions = { KHR_texture_transform: transform };
    extensionsUsed.push("KHR_texture_transform");
    detailParts.push(`rotation ${rotation.toFixed(3)}`);
  }

  const secondIndices = () =>
    accessor({
      bufferView: view(new Uint8Array(new Uint16Array([4, 5, 6, 4, 6, 7]).buffer), 34963),
      componentType: 5123,
      count: 6,
      type: "SCALAR",
    });
  const second = kind === "shared-vertex-buffer" ? secondIndices() : undefined;
  const bin = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) bin.set(chunk, at), at += chunk.byteLength;

  const files: Record<string, Uint8Array> = {};
  let bufferUri: string;
  let imageUri: string;
  const base64 = bin.toBase64();
  const imageBase64 = TEXTURE_PNG.toBase64();
  switch (kind) {
    case "base64-linebreaks": {
      const eol = pick(["\r\n", "\n"]);
      const width = pick([76, 64, 72]);
      const wrap = (text: string) => text.match(new RegExp(`.{1,${width}}`, "g"))!.join(eol);
      bufferUri = `data:application/octet-stream;base64,${wrap(base64)}`;
      imageUri = `data:image/png;base64,${wrap(imageBase64)}`;
      detailParts.push(`${width} columns, ${JSON.stringify(eol)}`);
      break;
    }
    case "base64-urlsafe": {
      const safe = (text: string) =>
        text.replaceAll("+", "-").replaceAll("/", "_").replace(rnd() < 0.5 ? /=+$/ : /$^/, "");
      bufferUri = `data:application/octet-stream;base64,${safe(base64)}`;
      warns = /URL-safe alphabet/;
      imageUri = `data:image/png;base64,${safe(imageBase64)}`;
      break;
    }
    case "base64-unpadded":
      bufferUri = `data:application/gltf-buffer;base64,${base64.replace(/=+$/, "")}`;
      imageUri = `data:image/png;base64,${imageBase64.replace(/=+$/, "")}`;
      break;
    case "base64-percent": {
      const encode = (text: string) => encodeURIComponent(text);
      bufferUri = `data:application/octet-stream;base64,${encode(base64)}`;
      warns = /percent-encoded/;
      imageUri = `data:image/png;base64,${encode(imageBase64)}`;
      break;
    }
    case "base64-header": {
      const header = pick([";BASE64", ";charset=utf-8;base64", ";name=mesh.bin;base64", ";Base64"]);
      bufferUri = `data:application/octet-stream${header},${base64}`;
      imageUri = `data:image/png${header},${imageBase64}`;
      detailParts.push(header);
      break;
    }
    case "image-octet-stream": {
      // Exporters that write every embedded resource alike (an image as application/octet-stream, or
      // image/jpg), the image's own mimeType saying PNG or nothing.
      const mime = pick(["application/octet-stream", "image/jpg", "image/PNG", ""]);
      bufferUri = `data:application/octet-stream;base64,${base64}`;
      imageUri = `data:${mime};base64,${imageBase64}`;
      detailParts.push(mime || "no type");
      warns = /holds image\/png/;
      break;
    }
    case "base64-plus-as-space": {
      // A form decoder run over the JSON: each '+' a space (the image's base64 here has none to lose).
      bufferUri = `data:application/octet-stream;base64,${base64.replaceAll("+", " ")}`;
      imageUri = `data:image/png;base64,${imageBase64.replaceAll("+", " ")}`;
      if (base64.includes("+")) warns = /spaces where '\+' belongs/;
      detailParts.push(`${base64.split("+").length - 1} '+' made spaces`);
      break;
    }
    case "base64-spaces": {
      const spaced = (text: string) => text.match(/.{1,40}/g)!.join(pick([" ", "\t", " \n  "]));
      bufferUri = `data:application/octet-stream;base64,${spaced(base64)}`;
      imageUri = `data:image/png;base64, ${spaced(imageBase64)}`;
      break;
    }
    default: {
      const folder = pick(["textures", "Textures", "tex maps"]);
      const bufferName = pick(["scene.bin", "my model.bin", "Wing Left.bin"]);
      const imageName = pick(["paint.png", "Base Color.png", "wing_diffuse.png"]);
      let bufferOnDisk = bufferName, imageOnDisk = `${folder}/${imageName}`;
      bufferUri = bufferName.replaceAll(" ", "%20");
      imageUri = `${folder}/${imageName}`.replaceAll(" ", "%20");
      if (kind === "uri-spaces") bufferUri = bufferName, imageUri = `${folder}/${imageName}`;
      else if (kind === "uri-backslash") imageUri = `${folder}\\${imageName}`.replaceAll(" ", "%20");
      else if (kind === "uri-dot-slash") bufferUri = `./${bufferUri}`, imageUri = `./${imageUri}`;
      else if (kind === "uri-windows-absolute") {
        imageUri = pick([
          `C:\\Users\\pilot\\Desktop\\${folder}\\${imageName}`,
          `C:/Users/pilot/${imageName}`,
        ]);
        imageOnDisk = imageName;
      } else if (kind === "uri-image-case") {
        imageOnDisk = `${folder}/${imageName}`.toUpperCase().replace(".PNG", rnd() < 0.5 ? ".PNG" : ".png");
        bufferOnDisk = bufferName;
      }
      files[bufferOnDisk] = bin;
      files[imageOnDisk] = TEXTURE_PNG;
      detailParts.push(`${bufferUri} | ${imageUri}`);
    }
  }

  const node: Json = { name: "quad", mesh: 0 };
  if (nodeScale) node.scale = nodeScale, node.translation = nodeTranslation;
  const json: Json = {
    asset: { version: "2.0", generator: "partgraph user_gltf generator" },
    scene: 0,
    scenes: [{ name: "Scene", nodes: [0] }],
    nodes: [node],
    meshes: [{
      name: "quad",
      primitives: [{
        attributes,
        indices: indexAccessor,
        material: 0,
        ...(targets.length ? { targets } : {}),
      }, ...(kind === "shared-vertex-buffer" ? [{ attributes, indices: second, material: 0 }] : [])],
      ...(targets.length ? { weights: [0.5], extras: { targetNames: ["Smile"] } } : {}),
    }],
    materials: [{ name: "paint", pbrMetallicRoughness: { baseColorTexture: textureInfo } }],
    textures: [{ source: 0, sampler: 0 }],
    samplers: [{ magFilter: 9729, minFilter: 9987 }],
    images: [{ uri: imageUri, name: "paint" }],
    buffers: [{ uri: bufferUri, byteLength: bin.byteLength }],
    bufferViews: views,
    accessors,
  };
  if (extensionsUsed.length) json.extensionsUsed = extensionsUsed;
  if (extensionsRequired.length) json.extensionsRequired = extensionsRequired;
  if (kind === "no-scene-index") {
    delete json.scene;
    // Several scenes, none marked: viewers show the first.
    const extra = Math.floor(rnd() * 3);
    for (let i = 0; i < extra; i++) {
      json.nodes.push({ name: `other${i}` });
      json.scenes.push({ name: `Scene.${i + 1}`, nodes: [json.nodes.length - 1] });
    }
    scenes = {
      names: json.scenes.map((s: Json) => s.nodes.map((n: number) => json.nodes[n].name)),
      scene: 0,
    };
    detailParts.push(`${json.scenes.length} scenes`);
  } else if (kind === "shared-nodes") {
    // One node tree shown in several scenes (a variant per scene, the model common to all).
    json.nodes.push({ name: "lamp" });
    const count = 2 + Math.floor(rnd() * 2);
    json.scenes = Array.from(
      { length: count },
      (_, i) => ({ name: `Variant ${i}`, nodes: i % 2 ? [0, 1] : [0] }),
    );
    json.scene = Math.floor(rnd() * count);
    scenes = {
      names: json.scenes.map((s: Json) => s.nodes.map((n: number) => json.nodes[n].name)),
      scene: json.scene,
    };
    detailParts.push(`${count} scenes, default ${json.scene}`);
  } else if (kind === "empty-primitives") {
    // A mesh an exporter emptied (every face deleted), still referenced by a node.
    json.meshes.push({ name: "Emptied", primitives: [] });
    json.nodes.push({ name: "emptied", mesh: 1 });
    json.scenes[0].nodes.push(1);
    warns = /Emptied|\/meshes\/1/;
  }
  const text = JSON.stringify(json, null, rnd() < 0.5 ? 2 : undefined);
  files["model.gltf"] = new TextEncoder().encode(text);
  return {
    kind,
    detail: detailParts.join("; "),
    main: "model.gltf",
    files,
    truth: { positions, uvs, texCoord, rotation, scenes, warns, target },
  };
}
