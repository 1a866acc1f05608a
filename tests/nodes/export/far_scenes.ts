/**
 * Scenes far from the origin on purpose and by damage, for export.gltf's far-mesh warning
 * (`nodes/export/far_extent.ts`):
 *
 * - `placed_root`, `placed_baked`, `placed_nodes`: a building or an airfield (3 to 30 boxes of 2 to 200 m
 *   within 3 km of one another) at its map coordinates, as GIS and sim-scenery exports write it: UTM
 *   (easting 166-834 km, northing to 9,300 km), UTM with the zone before the easting (EPSG:4647, 32.5e6),
 *   geocentric ECEF (6.37e6 m from the centre) or Web Mercator (to ±2e7), on a root node, baked into the
 *   positions (float32), or on each node;
 * - `placed_skinned`: such a model with a skinned windsock whose joints stand there (inverse bind
 *   matrices undoing them), and a character at the origin with a helper joint no vertex weighs parked
 *   100-1,000 km out (an IK target);
 * - `damaged_spike`, `damaged_node`, `damaged_scale`: a model at the origin or placed, with one mesh's
 *   bounds thrown 1e9-1e38 m out (a mutated float), one node's translation off by 1e5-1e20 m, or one
 *   node's scale 1e6-1e30;
 * - `damaged_root`: the root translation of a model at the origin thrown 1e5-1e20 m out (every mesh
 *   with it: beyond map coordinates it is damage, within them it looks placed).
 *
 * `farCase` says which mesh names a right warning must carry (none for a placed scene).
 *
 * @module
 */
import { Document, type Node } from "@gltf-transform/core";
import { prng } from "../../support/prng.ts";

export const FAR_HABITS = [
  "placed_root",
  "placed_baked",
  "placed_nodes",
  "placed_skinned",
  "damaged_spike",
  "damaged_node",
  "damaged_scale",
  "damaged_root",
] as const;
export type FarHabit = typeof FAR_HABITS[number];

/** One scene and the meshes a right warning names (empty: no far warning is right). */
export interface FarCase {
  readonly doc: Document;
  readonly damaged: readonly string[];
  readonly where: string;
}

/** A scene with `habit`, from `seed`. */
export function farCase(habit: FarHabit, seed: number): FarCase {
  const random = prng(seed * 104729 + FAR_HABITS.indexOf(habit));
  const uniform = (lo: number, hi: number) => lo + random() * (hi - lo);
  const logUniform = (lo: number, hi: number) => Math.exp(uniform(Math.log(lo), Math.log(hi)));
  const sign = () => (random() < 0.5 ? -1 : 1);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene();
  const placedHabit = habit.startsWith("placed") || random() < 0.4;
  const grids = [
    () => [uniform(166e3, 834e3), uniform(0, 500), uniform(0, 9.3e6)], // UTM (x east, y up, z north)
    () => [uniform(32.2e6, 32.8e6), uniform(0, 500), uniform(5.2e6, 6.1e6)], // UTM, zone before easting
    () => {
      const lat = uniform(-1.4, 1.4), lon = uniform(-3.1, 3.1), r = 6.37e6;
      return [r * Math.cos(lat) * Math.cos(lon), r * Math.sin(lat), r * Math.cos(lat) * Math.sin(lon)];
    }, // geocentric
    () => [sign() * uniform(0, 2e7), uniform(0, 300), sign() * uniform(0, 2e7)], // Web Mercator
  ];
  const origin = habit === "damaged_root" || habit === "placed_skinned" && random() < 0.5 || !placedHabit
    ? [0, 0, 0]
    : grids[Math.floor(random() * grids.length)]();
  const where = origin.every((v) => v === 0) ? "origin" : "placed";
  const baked = habit === "placed_baked";
  const perNode = habit === "placed_nodes";
  const root = doc.createNode("Site");
  if (!baked && !perNode) root.setTranslation(origin as [number, number, number]);
  scene.addChild(root);
  const count = 3 + Math.floor(random() * 28);
  const names: string[] = [];
  const nodes: Node[] = [];
  for (let i = 0; i < count; i++) {
    const half = uniform(1, 100);
    const at = [uniform(-1500, 1500), uniform(0, 40), uniform(-1500, 1500)];
    const base = baked ? at.map((v, k) => v + origin[k]) : [0, 0, 0];
    const corners = [-half, -half, -half, half, -half, -half, 0, half, half];
    const positions = Float32Array.from(corners, (v, j) => v + base[j % 3]);
    const name = `building_${String(i).padStart(2, "0")}`;
    const accessor = doc.createAccessor(name).setType("VEC3").setArray(positions).setBuffer(buffer);
    const mesh = doc.createMesh(name).addPrimitive(doc.createPrimitive().setAttribute("POSITION", accessor));
    const node = doc.createNode(name).setMesh(mesh);
    if (!baked) {
      node.setTranslation((perNode ? at.map((v, k) => v + origin[k]) : at) as [number, number, number]);
    }
    (perNode ? scene : root).addChild(node);
    names.push(name), nodes.push(node);
  }
  const damaged: string[] = [];
  const victim = Math.floor(random() * count);
  if (habit === "placed_skinned") skinned(doc, root, origin, logUniform(1e5, 1e6));
  if (habit === "damaged_spike") {
    const accessor = nodes[victim].getMesh()!.listPrimitives()[0].getAttribute("POSITION")!;
    const array = Float32Array.from(accessor.getArray()!);
    array[Math.floor(random() * array.length)] = sign() * logUniform(1e9, 1e38);
    accessor.setArray(array);
    damaged.push(names[victim]);
  }
  if (habit === "damaged_node") {
    const t = nodes[victim].getTranslation();
    const axis = Math.floor(random() * 3);
    nodes[victim].setTranslation(
      t.map((v, k) => k === axis ? v + sign() * logUniform(1e5, 1e20) : v) as typeof t,
    );
    damaged.push(names[victim]);
  }
  if (habit === "damaged_scale") {
    const s = logUniform(1e6, 1e30);
    nodes[victim].setScale([s, s, s]);
    damaged.push(names[victim]);
  }
  if (habit === "damaged_root") {
    root.setTranslation([sign() * logUniform(1e5, 1e20), 0, 0]);
    damaged.push(...names);
  }
  return { doc, damaged, where };
}

/**
 * A skinned windsock of three joints standing at `origin` (inverse bind matrices undoing their places),
 * and a helper joint no vertex weighs parked `helper` metres out with an identity inverse bind matrix.
 */
function skinned(doc: Document, root: Node, origin: readonly number[], helper: number): void {
  const buffer = doc.getRoot().listBuffers()[0];
  const positions = Float32Array.from([-0.5, 0, 0, 0.5, 0, 0, 0, 6, 0, 0, 6, 0.5]);
  const mesh = doc.createMesh("windsock").addPrimitive(
    doc.createPrimitive()
      .setAttribute("POSITION", doc.createAccessor().setType("VEC3").setArray(positions).setBuffer(buffer))
      .setAttribute(
        "JOINTS_0",
        doc.createAccessor().setType("VEC4").setArray(
          Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 2, 0, 0, 0]),
        )
          .setBuffer(buffer),
      )
      .setAttribute(
        "WEIGHTS_0",
        doc.createAccessor().setType("VEC4")
          .setArray(Float32Array.from([1, 0, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0])).setBuffer(
            buffer,
          ),
      ),
  );
  const joints = [0, 3, 6].map((y, j) => doc.createNode(`sock_${j}`).setTranslation([0, j ? 3 : y, 0]));
  joints[0].addChild(joints[1]), joints[1].addChild(joints[2]);
  root.addChild(joints[0]);
  const ik = doc.createNode("ik_target").setTranslation([helper, 0, 0]);
  root.addChild(ik);
  // Inverse bind matrices: each joint's place in the model (under the root), undone; the helper's identity.
  const ibm = new Float32Array(16 * 4);
  [0, 3, 6].forEach((y, j) => ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -y, 0, 1], 16 * j));
  ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 48);
  const skin = doc.createSkin("sock").addJoint(joints[0]).addJoint(joints[1]).addJoint(joints[2]).addJoint(ik)
    .setInverseBindMatrices(doc.createAccessor().setType("MAT4").setArray(ibm).setBuffer(buffer));
  // glTF draws a skin by its joints; the node carrying it stands beside them.
  root.addChild(doc.createNode("windsock").setMesh(mesh).setSkin(skin));
  void origin;
}

/**
 * Whether the far warnings are right: no mesh named as damaged for a placed scene; for a damaged one,
 * its damaged mesh named (a damaged root, moving every mesh: any named), else `hedged` when the scene
 * note says a transform above them all may be damaged, else `missed` (silent).
 */
export function judgeFar(
  c: FarCase,
  warnings: readonly string[],
): "right" | "false alarm" | "hedged" | "missed" {
  const far = warnings.filter((w) => / m from the origin/.test(w));
  if (!c.damaged.length) return far.length ? "false alarm" : "right";
  const named = (name: string) => far.some((w) => w.startsWith(`mesh '${name}' `));
  if (c.damaged.length > 1 ? c.damaged.some(named) : named(c.damaged[0])) return "right";
  return warnings.some((w) => /one compact body.*damaged/.test(w)) ? "hedged" : "missed";
}
