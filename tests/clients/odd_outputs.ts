/**
 * Odd scenes of the kinds partgraph's own decoders and nodes hand `export.gltf`, to import into real
 * clients: many clips (a Carnivores `.3df` with a dozen `.vtl` files, a Freelancer compound), sparse morph
 * targets of long Daz names, thousands of nodes (an MSFS model's parts), names in every script (a
 * Japanese mod's, an emoji, a NUL a C decoder left in), zero-scale nodes (a hidden LOD, a folded gear
 * door), cameras and lights under rig pivots (a cockpit view on a canopy, a landing light on a gear leg,
 * on a mesh node), a skinned mesh its morph clips key and a prop on a bone, WebP and KTX2 textures
 * without a PNG, custom vertex attributes beyond what a DCC tool keeps (`_BATCHID`, ten UV sets), and
 * one morphed mesh drawn by a crowd of nodes at weights of their own (some unnamed, one keyed) beside one
 * body bound by two skins, and a kitbash of unnamed nodes drawing shared (some unnamed) meshes.
 * Each case is a function of a seed: names, counts and shapes vary with it, so one seed may tune a fix
 * and another judge it.
 *
 * @module
 */
import { type Accessor, Document, type Node } from "@gltf-transform/core";
import { EXTTextureWebP, KHRLightsPunctual, KHRTextureBasisu } from "@gltf-transform/extensions";
import { prng } from "../support/prng.ts";
import { losslessWebp } from "../support/webp.ts";
import { uastcKtx2 } from "../support/ktx2.ts";

/** One odd case: a label and the scene a seed gives. */
export interface OddCase {
  readonly label: string;
  readonly scene: (seed: number) => Document | Promise<Document>;
}

type Rng = () => number;
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)];
const int = (rng: Rng, low: number, high: number) => low + Math.floor(rng() * (high - low + 1));

/** Name stems real files bring: dotted Blender sides, spaces, scripts of every width, a long Daz name. */
const STEMS = [
  "Flap.L",
  "Flap_L",
  "Flap L",
  "Крыло",
  "左翼",
  "🛩️ wing",
  "e\u0301lévon",
  "\u00e9lévon",
  "Gear\u0000Door",
  "   ",
  "Genesis8_1Female__eCTRLMouthSmileOpenSimple_PHMMouthSmileOpenWide_L",
  "Cube.001",
  "Cube",
  "",
];

/** A name from {@link STEMS}, sometimes numbered, sometimes long with emoji (4 bytes each). */
function oddName(rng: Rng): string {
  const stem = pick(rng, STEMS);
  const r = rng();
  if (r < 0.2) return `${stem}${int(rng, 0, 3)}`;
  if (r < 0.3) return `${stem}${"🛩️".repeat(int(rng, 10, 20))}`;
  return stem;
}

/** A document with one buffer, a scene and helpers to make accessors and small meshes. */
function base(sceneName = "Scene") {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene(sceneName);
  doc.getRoot().setDefaultScene(scene);
  const accessor = (
    type: "SCALAR" | "VEC2" | "VEC3" | "VEC4" | "MAT4",
    array: Float32Array<ArrayBuffer> | Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer>,
  ): Accessor => doc.createAccessor().setBuffer(buffer).setType(type).setArray(array);
  const triangle = () => accessor("VEC3", new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
  const mesh = (name: string) =>
    doc.createMesh(name).addPrimitive(doc.createPrimitive().setAttribute("POSITION", triangle()));
  return { doc, scene, accessor, triangle, mesh };
}

function manyClips(seed: number): Document {
  const rng = prng(seed);
  const { doc, scene, accessor, mesh } = base();
  const nodes: Node[] = [];
  for (let i = 0; i < int(rng, 8, 16); i++) {
    const node = doc.createNode(oddName(rng)).setMesh(mesh(oddName(rng)));
    (nodes.length && rng() < 0.5 ? pick(rng, nodes) : scene).addChild(node);
    nodes.push(node);
  }
  for (let c = 0; c < int(rng, 20, 40); c++) {
    const animation = doc.createAnimation(oddName(rng));
    for (const node of nodes.filter(() => rng() < 0.3)) {
      const keys = int(rng, 1, 4);
      const sampler = doc.createAnimationSampler()
        .setInput(accessor("SCALAR", new Float32Array(keys).map((_, k) => k / 4)))
        .setOutput(accessor("VEC3", new Float32Array(keys * 3).map(() => rng())));
      animation.addSampler(sampler).addChannel(
        doc.createAnimationChannel().setTargetNode(node).setTargetPath("translation").setSampler(sampler),
      );
    }
    if (animation.listChannels().length === 0) animation.dispose();
  }
  return doc;
}

function sparseMorphs(seed: number): Document {
  const rng = prng(seed);
  const { doc, scene, accessor } = base();
  const count = int(rng, 200, 600);
  const positions = new Float32Array(count * 3).map(() => rng());
  const primitive = doc.createPrimitive().setAttribute("POSITION", accessor("VEC3", positions));
  const targets = int(rng, 6, 14);
  const names: string[] = [];
  for (let t = 0; t < targets; t++) {
    const offsets = new Float32Array(count * 3);
    for (let k = 0; k < 5; k++) offsets[int(rng, 0, count * 3 - 1)] = rng() * 0.1;
    const name = oddName(rng);
    names.push(name);
    primitive.addTarget(
      doc.createPrimitiveTarget(name).setAttribute("POSITION", accessor("VEC3", offsets).setSparse(true)),
    );
  }
  const face = doc.createNode(oddName(rng) || "Face").setMesh(
    doc.createMesh(oddName(rng)).addPrimitive(primitive).setWeights(names.map(() => rng())),
  );
  scene.addChild(face);
  const sampler = doc.createAnimationSampler().setInput(accessor("SCALAR", new Float32Array([0, 1])))
    .setOutput(accessor("SCALAR", new Float32Array(2 * targets).map(() => rng())));
  doc.createAnimation(oddName(rng)).addSampler(sampler).addChannel(
    doc.createAnimationChannel().setTargetNode(face).setTargetPath("weights").setSampler(sampler),
  );
  return doc;
}

function manyNodes(seed: number): Document {
  const rng = prng(seed);
  const { doc, scene, mesh } = base();
  const shared = mesh(oddName(rng));
  const nodes: Node[] = [];
  for (let i = 0; i < int(rng, 1500, 2500); i++) {
    const node = doc.createNode(`${oddName(rng)}${rng() < 0.5 ? "" : `_${i % 97}`}`);
    if (rng() < 0.3) node.setMesh(shared);
    (nodes.length && rng() < 0.9 ? nodes[Math.max(0, nodes.length - int(rng, 1, 40))] : scene).addChild(node);
    nodes.push(node);
  }
  return doc;
}

function zeroScale(seed: number): Document {
  const rng = prng(seed);
  const { doc, scene, accessor, mesh } = base();
  const hidden = doc.createNode(`LOD1_${oddName(rng)}`).setScale([0, 0, 0]).setMesh(mesh("LOD1"));
  hidden.addChild(
    doc.createNode(`${oddName(rng)}_under_lod`).setMesh(mesh("bolt")).setTranslation([1, 0, 0]),
  );
  const flat = doc.createNode(`door_${oddName(rng)}`).setScale([0, 1, 1]).setMesh(mesh("door"));
  const folded = doc.createNode("gear_door").setMesh(mesh("gear_door"));
  scene.addChild(hidden).addChild(flat).addChild(folded);
  const sampler = doc.createAnimationSampler().setInput(accessor("SCALAR", new Float32Array([0, 1])))
    .setOutput(accessor("VEC3", new Float32Array([1, 1, 1, 0, 0, 0])));
  doc.createAnimation("fold").addSampler(sampler).addChannel(
    doc.createAnimationChannel().setTargetNode(folded).setTargetPath("scale").setSampler(sampler),
  );
  return doc;
}

function camerasUnderPivots(seed: number): Document {
  const rng = prng(seed);
  const { doc, scene, mesh } = base();
  const lights = doc.createExtension(KHRLightsPunctual);
  const canopy = doc.createNode("canopy").setMesh(mesh("canopy"));
  const pivot = doc.createNode("HINGE_auto_canopy").setExtras({ ctrl_type: "canopy", min: 0, max: 60 })
    .addChild(canopy);
  scene.addChild(pivot);
  const view = oddName(rng) || "CockpitView";
  const camera = doc.createCamera(view).setType("perspective").setYFov(1).setZNear(0.01);
  // A camera on its own node under the pivot, and one on the canopy's mesh node, named like it.
  pivot.addChild(doc.createNode(view).setCamera(camera));
  canopy.setCamera(doc.createCamera("canopy").setType("perspective").setYFov(0.8).setZNear(0.01));
  const leg = doc.createNode("gear_leg").setMesh(mesh("gear_leg"));
  const gearPivot = doc.createNode("HINGE_auto_gear_leg").setExtras({ ctrl_type: "gear", min: 0, max: 90 })
    .addChild(leg);
  scene.addChild(gearPivot);
  // A landing light on the leg's mesh node, its light named like the node.
  leg.setExtension("KHR_lights_punctual", lights.createLight("gear_leg").setType("spot").setRange(40));
  return doc;
}

function keyedSkin(seed: number): Document {
  const rng = prng(seed);
  const { doc, scene, accessor, triangle } = base();
  const name = oddName(rng) || "limb";
  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const bones = Array.from({ length: int(rng, 2, 5) }, (_, i) => doc.createNode(`${oddName(rng)}bone${i}`));
  bones.slice(1).forEach((bone, i) => bones[i].addChild(bone.setTranslation([0, 0.2, 0])));
  const skeleton = doc.createNode(`${name}_skeleton`).addChild(bones[0]);
  scene.addChild(skeleton);
  const skin = doc.createSkin(name).setSkeleton(skeleton)
    .setInverseBindMatrices(accessor("MAT4", new Float32Array(bones.flatMap(() => identity))));
  for (const bone of bones) skin.addJoint(bone);
  const primitive = doc.createPrimitive().setAttribute("POSITION", triangle())
    .setAttribute("JOINTS_0", accessor("VEC4", new Uint8Array(12)))
    .setAttribute("WEIGHTS_0", accessor("VEC4", new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])));
  for (let t = 0; t < 3; t++) {
    primitive.addTarget(
      doc.createPrimitiveTarget(`run[${t}]`).setAttribute(
        "POSITION",
        accessor("VEC3", new Float32Array(9).fill(0.05 * (t + 1))),
      ),
    );
  }
  const limb = doc.createNode(name).setSkin(skin)
    .setMesh(doc.createMesh(name).addPrimitive(primitive).setWeights([0, 0, 0]));
  scene.addChild(limb);
  // A prop bolted to a bone, mesh named like the bone.
  const boltBone = pick(rng, bones);
  boltBone.setMesh(
    doc.createMesh(boltBone.getName()).addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", triangle()),
    ),
  );
  const sampler = doc.createAnimationSampler().setInput(accessor("SCALAR", new Float32Array([0, 0.5, 1])))
    .setOutput(accessor("SCALAR", new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1])));
  doc.createAnimation("run").addSampler(sampler).addChannel(
    doc.createAnimationChannel().setTargetNode(limb).setTargetPath("weights").setSampler(sampler),
  );
  return doc;
}

/** A quad textured with `image` of `mimeType` under `extension` (required or not), beside a PNG-less twin. */
async function webOptimisedTextures(seed: number): Promise<Document> {
  const rng = prng(seed);
  const { doc, scene, accessor } = base();
  const required = rng() < 0.5;
  doc.createExtension(EXTTextureWebP).setRequired(required);
  doc.createExtension(KHRTextureBasisu).setRequired(required);
  const size = 4 * int(rng, 1, 4);
  const rgba = new Uint8Array(size * size * 4).map((_, i) => (i % 4 === 3 ? 255 : int(rng, 0, 255)));
  const images: [string, string, Uint8Array][] = [
    [`paint_${oddName(rng)}`, "image/webp", await losslessWebp(size, size, rgba)],
    [`decal_${oddName(rng)}`, "image/ktx2", uastcKtx2(size, size, () => [200, 40, 40])],
  ];
  for (const [i, [name, mimeType, bytes]] of images.entries()) {
    const texture = doc.createTexture(name).setImage(bytes).setMimeType(mimeType);
    const material = doc.createMaterial(`${name}_material`).setBaseColorTexture(texture);
    const primitive = doc.createPrimitive().setMaterial(material)
      .setAttribute("POSITION", accessor("VEC3", new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0])))
      .setAttribute("TEXCOORD_0", accessor("VEC2", new Float32Array([0, 0, 1, 0, 1, 1])));
    scene.addChild(doc.createNode(`panel${i}`).setMesh(doc.createMesh(`panel${i}`).addPrimitive(primitive)));
  }
  return doc;
}

function customAttributes(seed: number): Document {
  const rng = prng(seed);
  const { doc, scene, accessor } = base();
  const primitive = doc.createPrimitive()
    .setAttribute("POSITION", accessor("VEC3", new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])));
  for (const name of ["_BATCHID", `_${oddName(rng).replace(/[^A-Za-z]/g, "").toUpperCase() || "FOO"}`]) {
    primitive.setAttribute(name, accessor("SCALAR", new Float32Array([0, 1, 2])));
  }
  const uvSets = int(rng, 9, 11);
  for (let i = 0; i < uvSets; i++) {
    primitive.setAttribute(`TEXCOORD_${i}`, accessor("VEC2", new Float32Array(6).map(() => rng())));
  }
  const name = oddName(rng) || "hull";
  scene.addChild(doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(primitive)));
  return doc;
}

/**
 * One morphed mesh drawn by a crowd at weights of their own, as a crowd of one figure is: some nodes at
 * the same weights, some at none (the mesh's), one whose weights a clip keys, some unnamed; and one
 * skinned mesh bound by two skins (two figures of one body).
 */
function sharedMorphs(seed: number): Document {
  const rng = prng(seed);
  const { doc, scene, accessor, triangle } = base();
  const primitive = doc.createPrimitive().setAttribute("POSITION", triangle());
  for (let t = 0; t < 2; t++) {
    primitive.addTarget(
      doc.createPrimitiveTarget(`smile${t}`).setAttribute(
        "POSITION",
        accessor("VEC3", new Float32Array(9).fill(0.1)),
      ),
    );
  }
  const mesh = doc.createMesh(oddName(rng) || "Face").addPrimitive(primitive).setWeights([0, 0]);
  const shared = [rng(), rng()];
  for (let i = 0; i < int(rng, 2, 6); i++) {
    const r = rng();
    const weights = r < 0.2 ? [] : r < 0.5 ? shared : [rng(), rng()];
    const node = doc.createNode(rng() < 0.2 ? "" : `face${i}`).setMesh(mesh).setWeights(weights);
    scene.addChild(node.setTranslation([i, 0, 0]));
  }
  if (rng() < 0.7) {
    const talker = doc.createNode(`talker_${oddName(rng)}`).setMesh(mesh);
    scene.addChild(talker);
    const sampler = doc.createAnimationSampler().setInput(accessor("SCALAR", new Float32Array([0, 1])))
      .setOutput(accessor("SCALAR", new Float32Array([0, 0, 1, 1])));
    doc.createAnimation(`talk_${oddName(rng)}`).addSampler(sampler).addChannel(
      doc.createAnimationChannel().setTargetNode(talker).setTargetPath("weights").setSampler(sampler),
    );
  }
  if (rng() < 0.7) {
    const body = doc.createMesh(oddName(rng) || "Body").addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", triangle())
        .setAttribute("JOINTS_0", accessor("VEC4", new Uint8Array(12)))
        .setAttribute("WEIGHTS_0", accessor("VEC4", new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]))),
    );
    const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    for (let f = 0; f < 2; f++) {
      const bone = doc.createNode(`figure${f}_hip`).setTranslation([f * 2, 0, 0]);
      scene.addChild(bone);
      const skin = doc.createSkin(`figure${f}`).addJoint(bone)
        .setInverseBindMatrices(accessor("MAT4", new Float32Array(identity)));
      scene.addChild(doc.createNode(`figure${f}_body`).setMesh(body).setSkin(skin));
    }
  }
  return doc;
}

/**
 * A kitbash of unnamed nodes, as converters and scripts leave them: a few meshes (some unnamed) each
 * drawn by several unnamed nodes, beside named nodes that take a mesh's name. Viewers name such a
 * node's object after its mesh; Blender renames the repeats `Bolt.001`…, which a round trip writes back.
 */
function unnamedNodes(seed: number): Document {
  const rng = prng(seed);
  const { doc, scene, mesh } = base();
  const meshes = Array.from(
    { length: int(rng, 2, 4) },
    () => mesh(rng() < 0.3 ? "" : oddName(rng) || "Bolt"),
  );
  for (let i = 0; i < int(rng, 4, 12); i++) {
    const drawn = pick(rng, meshes);
    const name = rng() < 0.2 ? drawn.getName() : "";
    scene.addChild(doc.createNode(name).setMesh(drawn).setTranslation([i, 0, 0]));
  }
  return doc;
}

/** Every odd case. */
export const ODD_CASES: readonly OddCase[] = [
  { label: "many clips", scene: manyClips },
  { label: "sparse morphs", scene: sparseMorphs },
  { label: "very many nodes", scene: manyNodes },
  { label: "zero-scale nodes", scene: zeroScale },
  { label: "cameras and lights under rig pivots", scene: camerasUnderPivots },
  { label: "skinned mesh keyed by morph clips, prop on a bone", scene: keyedSkin },
  { label: "WebP and KTX2 textures without PNG", scene: webOptimisedTextures },
  { label: "custom attributes and ten UV sets", scene: customAttributes },
  { label: "one morphed mesh drawn at several weights, a body by two skins", scene: sharedMorphs },
  { label: "unnamed nodes of shared meshes", scene: unnamedNodes },
];
