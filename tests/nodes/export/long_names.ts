/**
 * A scene of long names, as real sources give them: Sketchfab's `<object>_<material>_<n>` node and mesh
 * names over a long object name, two kits whose material names (Cyrillic and Japanese, 2 and 3 bytes a
 * character) differ only past Blender's 63 bytes, and `KHR_lights_punctual` lights of one name (each kit
 * brings its `Sun`) and of long names alike in their first 63 bytes. Deterministic.
 *
 * @module
 */
import { Document } from "@gltf-transform/core";
import { KHRLightsPunctual } from "@gltf-transform/extensions";

/** A name of more than 63 bytes, shared by two objects of each kit: they differ only after byte 63. */
export const LONG_OBJECT = "Li_Elite_Heavy_Fighter_Starboard_Wing_Lower_Surface_Panel_Assembly";
/** Material names of the two kits: 35 Cyrillic characters (70 bytes), then the kit's own ending. */
export const CYRILLIC = "Обшивка_нижней_поверхности_крыла_ле";
/** 25 Japanese characters (75 bytes), then the kit's own ending. */
export const JAPANESE = "左翼下面外板組立部品材質設定値反射率粗さ金属度法線";

/** The scene: `kits` copies (2 by default) of a long-named object, material and light set. */
export function longNamesScene(kits = 2): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const lights = doc.createExtension(KHRLightsPunctual);
  const scene = doc.createScene("Sketchfab_Scene");
  const position = doc.createAccessor().setBuffer(buffer).setType("VEC3").setArray(
    new Float32Array([0, 0, 0, 1, 0, 0, 0, 0, 1]),
  );
  for (let k = 0; k < kits; k++) {
    const kit = doc.createNode(`Kit${k}`).setTranslation([3 * k, 0, 0]);
    scene.addChild(kit);
    for (const [i, base] of [CYRILLIC, JAPANESE].entries()) {
      const material = doc.createMaterial(`${base}_${k}`).setBaseColorFactor([0.2 + 0.3 * i, 0.5, 0.7, 1]);
      const name = `${LONG_OBJECT}_${base}_${k}`;
      const mesh = doc.createMesh(name).addPrimitive(
        doc.createPrimitive().setAttribute("POSITION", position).setMaterial(material),
      );
      kit.addChild(doc.createNode(name).setMesh(mesh).setTranslation([0, i, 0]));
    }
    const sun = lights.createLight("Sun").setType("directional").setIntensity(2);
    const lamp = lights.createLight(`${LONG_OBJECT}_Landing_Light_${k}`).setType("spot").setRange(50);
    kit.addChild(doc.createNode(`SunNode${k}`).setExtension("KHR_lights_punctual", sun));
    kit.addChild(doc.createNode(`LampNode${k}`).setExtension("KHR_lights_punctual", lamp));
  }
  doc.getRoot().setDefaultScene(scene);
  return doc;
}

/**
 * Morph target names of DSON figures' length: Daz's `<figure>_<morph>` controller names, two of more
 * than 63 bytes alike in their first 63, and a `Blink` brought twice by two merged morph packs.
 */
export const MORPH_NAMES = [
  "Genesis8_1Female__eCTRLMouthSmileOpenSimple_PHMMouthSmileOpenWide_L",
  "Genesis8_1Female__eCTRLMouthSmileOpenSimple_PHMMouthSmileOpenWide_R",
  "Blink",
  "Blink",
];

/** One triangle with a morph target per name of {@link MORPH_NAMES}, each moving another vertex. */
export function morphNamesScene(): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const position = doc.createAccessor().setBuffer(buffer).setType("VEC3").setArray(
    new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
  );
  const primitive = doc.createPrimitive().setAttribute("POSITION", position);
  MORPH_NAMES.forEach((name, i) => {
    const offsets = new Float32Array(9);
    offsets[(i % 3) * 3 + 2] = 0.1 * (i + 1);
    const delta = doc.createAccessor().setBuffer(buffer).setType("VEC3").setArray(offsets);
    primitive.addTarget(doc.createPrimitiveTarget(name).setAttribute("POSITION", delta));
  });
  const mesh = doc.createMesh("Face").addPrimitive(primitive).setWeights(MORPH_NAMES.map(() => 0));
  doc.createScene("Scene").addChild(doc.createNode("Face").setMesh(mesh));
  return doc;
}

/**
 * A figure as `decode.dson` gives one: its root bone `hip` at the scene root (no armature node above
 * it) and its skinned mesh node named like its skin, `Figure`; beside it a Blender-style rig, whose
 * skin `Armature` is named like the armature node its joints hang from.
 */
export function rootSkinScene(): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene("Scene");
  const position = doc.createAccessor().setBuffer(buffer).setType("VEC3").setArray(
    new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
  );
  const joints = doc.createAccessor().setBuffer(buffer).setType("VEC4").setArray(new Uint8Array(12));
  const weights = doc.createAccessor().setBuffer(buffer).setType("VEC4").setArray(
    new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]),
  );
  const ibm = () =>
    doc.createAccessor().setBuffer(buffer).setType("MAT4").setArray(
      new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
    );
  const mesh = (name: string) =>
    doc.createMesh(name).addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", position).setAttribute("JOINTS_0", joints)
        .setAttribute("WEIGHTS_0", weights),
    );
  const hip = doc.createNode("hip").addChild(doc.createNode("pelvis").setTranslation([0, 0.1, 0]));
  const figureSkin = doc.createSkin("Figure").addJoint(hip).setInverseBindMatrices(ibm());
  scene.addChild(hip).addChild(doc.createNode("Figure").setMesh(mesh("Figure")).setSkin(figureSkin));
  const bone = doc.createNode("Bone");
  const armature = doc.createNode("Armature").addChild(bone).setTranslation([2, 0, 0]);
  const rigSkin = doc.createSkin("Armature").addJoint(bone).setInverseBindMatrices(ibm());
  armature.addChild(doc.createNode("Body").setMesh(mesh("Body")).setSkin(rigSkin));
  scene.addChild(armature);
  doc.getRoot().setDefaultScene(scene);
  return doc;
}

/**
 * A Carnivores model as `decode.carnivores` gives one with `.vtl` clips: the skinned mesh node `limb`
 * (mesh and skin `limb` too) whose clips key its morph weights, its bones under `limb_skeleton`; a
 * `knee` mesh on the joint `knee` (a prop bolted to a bone); and a skinned `Body` nothing keys. Blender
 * leaves the first two nodes as empties and makes each mesh an object named after the mesh.
 */
export function keyedSkinScene(): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene("Scene");
  const accessor = (
    type: "VEC3" | "VEC4" | "MAT4" | "SCALAR",
    array: Float32Array<ArrayBuffer> | Uint8Array<ArrayBuffer>,
  ) => doc.createAccessor().setBuffer(buffer).setType(type).setArray(array);
  const position = accessor("VEC3", new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
  const primitive = () =>
    doc.createPrimitive().setAttribute("POSITION", position)
      .setAttribute("JOINTS_0", accessor("VEC4", new Uint8Array(12)))
      .setAttribute("WEIGHTS_0", accessor("VEC4", new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])));
  const identity = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  const knee = doc.createNode("knee").setTranslation([0, 0.2, 0]);
  const hip = doc.createNode("hip").addChild(knee);
  scene.addChild(doc.createNode("limb_skeleton").addChild(hip));
  const skin = doc.createSkin("limb").addJoint(hip).addJoint(knee)
    .setInverseBindMatrices(accessor("MAT4", new Float32Array([...identity, ...identity])))
    .setSkeleton(scene.listChildren()[0]);
  const limbPrimitive = primitive().addTarget(
    doc.createPrimitiveTarget("run[0]").setAttribute(
      "POSITION",
      accessor("VEC3", new Float32Array(9).fill(0.1)),
    ),
  );
  const limb = doc.createNode("limb").setMesh(
    doc.createMesh("limb").addPrimitive(limbPrimitive).setWeights([0]),
  )
    .setSkin(skin);
  scene.addChild(limb);
  knee.setMesh(doc.createMesh("knee").addPrimitive(doc.createPrimitive().setAttribute("POSITION", position)));
  const body = doc.createNode("Body").setMesh(doc.createMesh("Body").addPrimitive(primitive())).setSkin(skin);
  scene.addChild(body);
  const sampler = doc.createAnimationSampler().setInput(accessor("SCALAR", new Float32Array([0, 1])))
    .setOutput(accessor("SCALAR", new Float32Array([0, 1])));
  doc.createAnimation("run").addSampler(sampler).addChannel(
    doc.createAnimationChannel().setTargetNode(limb).setTargetPath("weights").setSampler(sampler),
  );
  doc.getRoot().setDefaultScene(scene);
  return doc;
}
