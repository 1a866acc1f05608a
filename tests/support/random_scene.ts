/**
 * Seeded random glTF scenes for writer and reader tests: meshes whose primitives share accessors,
 * 8/16/32-bit and float attributes (normalized or not), 8/16/32-bit indices or none, morph targets,
 * sparse morph targets, a skin, animations and images of odd lengths. The same seed gives the same scene.
 *
 * @module
 */
import { type Accessor, Document, type TypedArray } from "@gltf-transform/core";
import { prng } from "./prng.ts";

/** A document with one buffer, and a helper adding accessors to it. */
export function sceneWithBuffer(): {
  doc: Document;
  accessor: (type: ReturnType<Accessor["getType"]>, array: TypedArray, name?: string) => Accessor;
} {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (type: ReturnType<Accessor["getType"]>, array: TypedArray, name = "") =>
    doc.createAccessor(name).setType(type).setArray(array).setBuffer(buffer);
  return { doc, accessor };
}

/**
 * A random scene: meshes, primitives sharing accessors, morph targets, skins, animations, images.
 *
 * @example
 * ```ts
 * const doc = randomScene(7);
 * ```
 */
export function randomScene(seed: number): Document {
  const next = prng(seed);
  const int = (n: number) => Math.floor(next() * n);
  const { doc, accessor } = sceneWithBuffer();
  const types = [
    [Float32Array, 1],
    [Int8Array, 1],
    [Uint8Array, 1],
    [Int16Array, 0.5],
    [Uint16Array, 0.5],
  ] as const;
  const attribute = (count: number, size: 1 | 2 | 3 | 4) => {
    const [Array, _] = types[int(types.length)];
    const array = new Array(count * size);
    for (let i = 0; i < array.length; i++) array[i] = Array === Float32Array ? next() * 10 - 5 : int(120);
    const type = (["SCALAR", "VEC2", "VEC3", "VEC4"] as const)[size - 1];
    return accessor(type, array).setNormalized(Array !== Float32Array && next() < 0.5);
  };
  const nodes = [];
  const pool: Accessor[] = [];
  for (let m = 0, meshes = 1 + int(4); m < meshes; m++) {
    const mesh = doc.createMesh(`m${m}`);
    for (let p = 0, primitives = int(4); p < primitives; p++) {
      const count = int(50);
      const primitive = doc.createPrimitive().setAttribute(
        "POSITION",
        accessor("VEC3", Float32Array.from({ length: 3 * count }, () => next() * 2 - 1)),
      );
      for (let a = 0, n = int(4); a < n; a++) {
        primitive.setAttribute(`_A${a}`, attribute(count, (1 + int(4)) as 1));
      }
      const shared = pool.find((candidate) => candidate.getCount() === count);
      if (shared && next() < 0.5) primitive.setAttribute("_SHARED", shared);
      pool.push(primitive.getAttribute("POSITION")!);
      if (count && next() < 0.7) {
        const Indices = [Uint8Array, Uint16Array, Uint32Array][int(3)];
        primitive.setIndices(
          accessor("SCALAR", new Indices(Array.from({ length: 3 * int(20) }, () => int(count)))),
        );
      }
      for (let t = 0, targets = int(3); t < targets; t++) {
        const target = doc.createPrimitiveTarget(next() < 0.5 ? `t${t}` : "")
          .setAttribute("POSITION", accessor("VEC3", Float32Array.from({ length: 3 * count }, () => next())));
        if (next() < 0.3) {
          // Sparse: a few vertices moved, or none.
          const offsets = new Float32Array(3 * count);
          for (let k = 0, moved = int(4); k < moved && count; k++) offsets[int(offsets.length)] = next();
          target.setAttribute("TANGENT", accessor("VEC3", offsets).setSparse(true));
        }
        if (next() < 0.5) {
          target.setAttribute("NORMAL", accessor("VEC3", new Float32Array(3 * count).fill(0.5)));
        }
        primitive.addTarget(target);
      }
      mesh.addPrimitive(primitive);
    }
    nodes.push(doc.createNode(`n${m}`).setMesh(mesh));
  }
  const scene_ = doc.createScene("s");
  for (const node of nodes) scene_.addChild(node);
  if (next() < 0.6) {
    const skin = doc.createSkin().setInverseBindMatrices(
      accessor("MAT4", new Float32Array(16 * nodes.length).fill(1)),
    );
    for (const node of nodes) skin.addJoint(node);
  }
  for (let a = 0, animations = int(3); a < animations; a++) {
    const animation = doc.createAnimation(`a${a}`);
    const frames = 1 + int(8);
    const sampler = doc.createAnimationSampler()
      .setInput(accessor("SCALAR", Float32Array.from({ length: frames }, (_, i) => i / 10)))
      .setOutput(accessor("VEC3", Float32Array.from({ length: 3 * frames }, () => next())))
      .setInterpolation(next() < 0.5 ? "LINEAR" : "STEP");
    animation.addSampler(sampler).addChannel(
      doc.createAnimationChannel().setSampler(sampler).setTargetNode(nodes[int(nodes.length)]).setTargetPath(
        "translation",
      ),
    );
  }
  for (let t = 0, textures = int(3); t < textures; t++) {
    doc.createTexture(`tex${t}`).setMimeType("image/png")
      .setImage(Uint8Array.from({ length: 1 + int(40) }, () => int(256)));
  }
  return doc;
}
