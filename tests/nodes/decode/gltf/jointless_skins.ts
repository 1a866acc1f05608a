/**
 * Skinned nodes whose meshes lack joint data, as real files come: a `"skin"` typed by hand onto a static
 * part or onto an empty node, an exporter that skins only some of a mesh's primitives (a glass or decal
 * part added to the skinned body), an optimizer that stripped the weights (or joints, or both) but kept
 * the node's skin. Each case is the small skinned wing (`tests/support/messy_gltf.ts`), its skinned node
 * moved by the seed (so where an unskinned part is drawn matters), written as .gltf text or GLB.
 *
 * @module
 */
import { messyGlb, type MessyJson, wingPrimitive } from "../../../support/messy_gltf.ts";
import { glbOf } from "../../../support/shapes.ts";
import { prng as mulberry32 } from "../../../support/prng.ts";

type Random = () => number;

/** One file with a skinned node lacking joint data. */
export interface JointlessCase {
  readonly kind: string;
  readonly name: string;
  readonly bytes: Uint8Array;
}

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];
const nodeNamed = (json: MessyJson, name: string) => json.nodes.find((node: MessyJson) => node.name === name);
const meshNamed = (json: MessyJson, name: string) =>
  json.meshes.find((mesh: MessyJson) => mesh.name === name);

/** The edits, by kind. */
export const JOINTLESS_EDITS: Readonly<Record<string, (json: MessyJson, random: Random) => void>> = {
  /** `"skin": 0` typed onto the static flap. */
  "skin-on-static-part": (json) => void (nodeNamed(json, "Flap_R").skin = 0),
  /** `"skin": 0` onto a node without a mesh (a bone, or an empty added for it). */
  "skin-on-empty-node": (json, random) => {
    if (random() < 0.5) nodeNamed(json, "root_bone").skin = 0;
    else {
      json.nodes.push({ name: "Armature_target", skin: 0 });
      json.scenes[0].nodes.push(json.nodes.length - 1);
    }
  },
  /** An exporter skinning one primitive of a mesh and not the others (1 or 2 added, before or after). */
  "partly-skinned-mesh": (json, random) => {
    const wing = meshNamed(json, "wing");
    const flap = meshNamed(json, "flap").primitives[0];
    const stripped = structuredClone(wing.primitives[0]);
    delete stripped.attributes.JOINTS_0;
    delete stripped.attributes.WEIGHTS_0;
    const extra = Array.from(
      { length: 1 + Math.floor(random() * 2) },
      () => structuredClone(pick(random, [flap, stripped])),
    );
    if (random() < 0.5) wing.primitives.push(...extra);
    else wing.primitives.unshift(...extra);
  },
  /** An optimizer that stripped WEIGHTS_0, JOINTS_0 or both and kept the skin. */
  "joint-data-stripped": (json, random) => {
    const attributes = wingPrimitive(json).attributes;
    for (const semantic of pick(random, [["WEIGHTS_0"], ["JOINTS_0"], ["JOINTS_0", "WEIGHTS_0"]])) {
      delete attributes[semantic];
    }
  },
};

/** Case `kind` of seed `seed`: the wing node moved by the seed, then the edit; GLB or .gltf by the seed. */
export async function jointlessCase(kind: string, seed: number): Promise<JointlessCase> {
  const random = mulberry32(seed * 104729 + kind.length);
  let json: MessyJson = {}, bin: Uint8Array = new Uint8Array();
  await messyGlb((j, b) => {
    json = j;
    bin = b;
  });
  nodeNamed(json, "Wing").translation = [0, 0, 0].map(() => Math.round((random() * 4 - 2) * 100) / 100);
  nodeNamed(json, "Flap_R").translation = [0, 0, 0].map(() => Math.round((random() * 4 - 2) * 100) / 100);
  JOINTLESS_EDITS[kind](json, random);
  const glb = random() < 0.5;
  const name = `${kind}-${seed}.${glb ? "glb" : "gltf"}`;
  if (glb) return { kind, name, bytes: glbOf(json, bin) };
  json.buffers[0].uri = `data:application/octet-stream;base64,${bin.toBase64()}`;
  return { kind, name, bytes: new TextEncoder().encode(JSON.stringify(json)) };
}
