/**
 * The preview's part contract, without a browser: every `ctrl_type` node becomes a part; a rotation
 * turns it about its own local X from rest, a translation slides it along local X; values clamp to
 * min…max; a fit with under half its bins filled is weak.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
// @ts-types="@types/three"
import * as THREE from "three";
import { partsOf, subtreeBoxes } from "../../studio/web/parts.ts";

function scene() {
  const root = new THREE.Group();
  const hinge = new THREE.Group();
  hinge.name = "HINGE_auto_Aileron";
  hinge.quaternion.setFromAxisAngle(new THREE.Vector3(0, 1, 0), Math.PI / 2);
  hinge.userData = {
    ctrl_type: "rotation",
    unit: "deg",
    min: -25,
    max: 25,
    group: "ailerons",
    partgraph: { part: { fit: { bins: 12, bins_filled: 5, inliers: 4 } } },
  };
  const tip = new THREE.Object3D();
  tip.position.set(0, 0, 1);
  hinge.add(tip);
  const slide = new THREE.Group();
  slide.name = "Barrel_joint";
  slide.position.set(1, 2, 3);
  slide.quaternion.setFromAxisAngle(new THREE.Vector3(0, 0, 1), Math.PI / 2);
  slide.userData = { ctrl_type: "translation", min: 0, max: 2 };
  root.add(hinge, slide, new THREE.Group());
  return { root, hinge, tip, slide };
}

Deno.test("preview parts: rotation about local X, translation along local X, clamped, weak fits flagged", () => {
  const { root, hinge, tip, slide } = scene();
  const parts = partsOf(root);
  deepEqual(parts.map((p) => [p.name, p.kind, p.min, p.max, p.group, p.weak]), [
    ["HINGE_auto_Aileron", "rotation", -25, 25, "ailerons", true],
    ["Barrel_joint", "translation", 0, 2, undefined, false],
  ]);
  equal(parts[0].fit, "5/12 bins, 4 inliers");

  // 90° would be past max: clamped to 25°; the tip (on local +Z) turns about local X toward -Y.
  parts[0].set(90);
  root.updateMatrixWorld(true);
  const rest = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(0, 1, 0), Math.PI / 2);
  const local = tip.getWorldPosition(new THREE.Vector3()).applyQuaternion(rest.clone().invert());
  const angle = THREE.MathUtils.degToRad(25);
  assert(
    Math.abs(local.y + Math.sin(angle)) < 1e-9 && Math.abs(local.z - Math.cos(angle)) < 1e-9,
    JSON.stringify(local),
  );
  parts[0].set(0);
  assert(
    hinge.quaternion.angleTo(
      new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(0, 1, 0), Math.PI / 2),
    ) < 1e-9,
  );

  // The slider's local X is the parent's +Y here (rotated 90° about Z).
  parts[1].set(1.5);
  assert(slide.position.distanceTo(new THREE.Vector3(1, 3.5, 3)) < 1e-9, JSON.stringify(slide.position));
  parts[1].set(-4);
  assert(slide.position.distanceTo(new THREE.Vector3(1, 2, 3)) < 1e-9, "clamped to min = rest");
});

Deno.test("preview parts: the rig's verdict decides the highlight; a spinning part is captioned by its blades", () => {
  const pivot = (name: string, fit: Record<string, unknown>) => {
    const node = new THREE.Group();
    node.name = name;
    node.userData = { ctrl_type: "rotation", partgraph: { part: { fit } } };
    return node;
  };
  const root = new THREE.Group();
  root.add(
    // Most bins filled, but the rig judged it weak (say, its mirror partner disagrees): highlighted.
    pivot("HINGE_auto_Flap", { bins: 12, bins_filled: 11, inliers: 40, confidence: "weak" }),
    // Few bins filled, but good by the rig's fuller judgement: not highlighted.
    pivot("HINGE_auto_Tab", { bins: 12, bins_filled: 3, inliers: 9, confidence: "good" }),
    // A propeller has no hinge bins: its blades and their symmetry say how sure the fit is.
    pivot("HINGE_auto_Propeller", {
      bins: 0,
      bins_filled: 0,
      inliers: 2,
      confidence: "good",
      spin: { blades: 2, symmetry: 0.00012 },
    }),
    pivot("HINGE_auto_Blade", {
      bins: 0,
      bins_filled: 0,
      inliers: 1,
      confidence: "failed",
      spin: { blades: 1 },
    }),
  );
  const parts = partsOf(root);
  deepEqual(parts.map((p) => [p.name, p.weak, p.fit]), [
    ["HINGE_auto_Flap", true, "11/12 bins, 40 inliers, weak"],
    ["HINGE_auto_Tab", false, "3/12 bins, 9 inliers, good"],
    ["HINGE_auto_Propeller", false, "2 blades, symmetric to 0.01 % of radius, good"],
    ["HINGE_auto_Blade", true, "1 blade, failed"],
  ]);
});

Deno.test("preview parts: a rest outside the limits is in the travel, so moving from rest never jumps", () => {
  const flap = new THREE.Group();
  flap.name = "Flap";
  flap.userData = { ctrl_type: "rotation", unit: "deg", min: 5, max: 30 };
  const root = new THREE.Group();
  root.add(flap);
  const [part] = partsOf(root);
  deepEqual([part.min, part.max, part.low, part.high, part.restOutside, part.value], [5, 30, 0, 30, true, 0]);
  part.set(1);
  equal(part.value, 1, "one degree from rest, not the 5 of the lower limit");
  assert(Math.abs(flap.quaternion.angleTo(new THREE.Quaternion()) - THREE.MathUtils.degToRad(1)) < 1e-9);
  part.set(-3);
  equal(part.value, 0, "below the rest: clamped to the rest");
  part.set(40);
  equal(part.value, 30, "past the limit: clamped to it");
  const [inside] = partsOf(scene().root);
  deepEqual([inside.low, inside.high, inside.restOutside], [-25, 25, false], "a rest inside changes nothing");
});

Deno.test("preview parts: no limits is unbounded; the slider gets a turn, or the model's size for a slide", () => {
  const root = new THREE.Group();
  const node = (name: string, extras: Record<string, unknown>, x = 0) => {
    const mesh = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1));
    mesh.name = name;
    mesh.position.x = x;
    mesh.userData = extras;
    root.add(mesh);
    return mesh;
  };
  const rotor = node("Rotor", { ctrl_type: "rotation" });
  node("Hatch", { ctrl_type: "rotation", unit: "deg", min: 10 });
  node("Stop", { ctrl_type: "rotation", max: -30, min: null });
  node("Prop", { ctrl_type: "rotation", unit: "rad" });
  const boom = node("Boom", { ctrl_type: "translation", unit: "m" }, 3);
  node("Rod", { ctrl_type: "translation", max: "2" }); // a string is no limit
  node("Dial", { ctrl_type: "rotation", unit: "normalized", deg_per_unit: 90, min: -1, max: 1 });
  const parts = partsOf(root);
  const diagonal = Math.hypot(4, 1, 1); // boxes from x -0.5 to 3.5
  const rows = parts.map((p) => [p.name, p.min, p.max, p.unbounded, p.low, p.high, p.restOutside]);
  deepEqual(rows.slice(0, 4), [
    ["Rotor", -Infinity, Infinity, true, -180, 180, false],
    ["Hatch", 10, Infinity, true, 0, 370, true],
    ["Stop", -Infinity, -30, true, -390, 0, true],
    ["Prop", -Infinity, Infinity, true, -Math.PI, Math.PI, false],
  ]);
  for (const [i, name] of [[4, "Boom"], [5, "Rod"]] as const) {
    equal(parts[i].name, name);
    assert(parts[i].unbounded && parts[i].min === -Infinity && parts[i].max === Infinity);
    assert(
      Math.abs(parts[i].high - diagonal) < 1e-6 && Math.abs(parts[i].low + diagonal) < 1e-6,
      `${parts[i].high}`,
    );
  }
  deepEqual([parts[6].unbounded, parts[6].low, parts[6].high], [false, -1, 1]);

  // The rotor turns nearly a full turn either way, no clamp at the ±30° the panel used to invent.
  parts[0].set(170);
  assert(Math.abs(rotor.quaternion.angleTo(new THREE.Quaternion()) - THREE.MathUtils.degToRad(170)) < 1e-9);
  parts[4].set(2.5);
  assert(Math.abs(boom.position.x - 5.5) < 1e-9, `${boom.position.x}`);
  // A normalized unit turns by deg_per_unit per unit: 0.5 is 45°.
  parts[6].set(0.5);
  assert(Math.abs(parts[6].object.quaternion.angleTo(new THREE.Quaternion()) - Math.PI / 4) < 1e-9);
});

Deno.test("preview parts: the names shown are the file's, as nameOf gives them", () => {
  const root = new THREE.Group();
  const node = new THREE.Group();
  node.name = "_b_bold__b_";
  node.userData = { ctrl_type: "rotation", min: -1, max: 1 };
  root.add(node);
  deepEqual(partsOf(root, () => "<b>bold</b>").map((p) => p.name), ["<b>bold</b>"]);
  deepEqual(partsOf(root).map((p) => p.name), ["_b_bold__b_"]);
});

Deno.test("preview parts: subtreeBoxes gives each node Box3.setFromObject's box, in one pass", () => {
  const root = new THREE.Group();
  let parent: THREE.Object3D = root;
  const chain: THREE.Object3D[] = [];
  for (let i = 0; i < 30; i++) {
    const link = i % 3 === 2
      ? new THREE.Group()
      : new THREE.Mesh(new THREE.BoxGeometry(1 + i * 0.1, 0.5, 0.2));
    link.position.set(0.7, 0.1 * i, -0.2);
    link.quaternion.setFromAxisAngle(new THREE.Vector3(0.3, 1, 0.2).normalize(), 0.4);
    link.scale.setScalar(i % 5 === 0 ? 1.5 : 1);
    parent.add(link);
    chain.push(link);
    parent = link;
  }
  const boxes = subtreeBoxes(root);
  equal(boxes.size, 31);
  for (const node of [root, ...chain]) {
    const expected = new THREE.Box3().setFromObject(node);
    const got = boxes.get(node)!;
    if (expected.isEmpty()) {
      assert(got.isEmpty(), "an empty group's box is empty");
      continue;
    }
    const off = Math.max(got.min.distanceTo(expected.min), got.max.distanceTo(expected.max));
    assert(off < 1e-9, `${chain.indexOf(node)}: ${off} ${JSON.stringify([got, expected])}`);
  }
});

/** A root holding `nodes`, each a group with its name, extras and children (nested arrays). */
function tree(nodes: [string, Record<string, unknown>, ...THREE.Object3D[]][]): THREE.Group {
  const root = new THREE.Group();
  for (const [name, extras, ...children] of nodes) {
    const node = new THREE.Group();
    node.name = name;
    node.userData = extras;
    if (children.length) node.add(...children);
    root.add(node);
  }
  return root;
}

/** A group named `name` with `extras` (a part when they carry ctrl_type). */
function group(
  name: string,
  extras: Record<string, unknown> = {},
  ...children: THREE.Object3D[]
): THREE.Group {
  const node = new THREE.Group();
  node.name = name;
  node.userData = extras;
  if (children.length) node.add(...children);
  return node;
}

Deno.test("preview parts: the declared rest is the part's rest, in its travel even outside its limits", () => {
  const rotation = { ctrl_type: "rotation", unit: "deg" };
  const root = tree([
    ["Door", { ...rotation, min: 0, max: 120, rest: 102 }],
    ["Out", { ...rotation, min: -10, max: 10, rest: 40 }],
    ["Rad", { ctrl_type: "rotation", unit: "rad", min: -1, max: 1, rest: 0.5 }],
    ["Odd", { ...rotation, min: -10, max: 10, rest: "open" }],
  ]);
  const parts = partsOf(root);
  deepEqual(
    parts.map((p) => [p.name, p.rest, p.low, p.high, p.restOutside, p.value]),
    [
      ["Door", 102, 0, 120, false, 0],
      ["Out", 40, -10, 40, true, 0],
      ["Rad", 0.5, -1, 1, false, 0],
      ["Odd", 0, -10, 10, false, 0],
    ],
    "found at 0 (the pose the file stores); the viewer puts each at its rest",
  );
  deepEqual(parts[3].notes, ['rest "open" is not a usable number: rest 0']);
  // 102° from the pose the file stores, about the part's local X.
  parts[0].set(parts[0].rest);
  const turned = new THREE.Vector3(0, 0, 1).applyQuaternion(parts[0].object.quaternion);
  const angle = THREE.MathUtils.degToRad(102);
  assert(
    turned.distanceTo(new THREE.Vector3(0, -Math.sin(angle), Math.cos(angle))) < 1e-9,
    JSON.stringify(turned),
  );
  parts[2].set(parts[2].rest);
  assert(Math.abs(parts[2].object.quaternion.angleTo(new THREE.Quaternion()) - 0.5) < 1e-9, "0.5 rad");
});

Deno.test("preview parts: min == max is fixed; limits reversed, not numbers or huge are read and noted", () => {
  const rotation = { ctrl_type: "rotation", unit: "deg" };
  const root = tree([
    ["Locked", { ...rotation, min: 0, max: 0 }],
    ["LockedAt10", { ...rotation, min: 10, max: 10 }],
    ["Swapped", { ...rotation, min: 30, max: -10 }],
    ["NotNumbers", { ...rotation, min: null, max: "25" }],
    ["Huge", { ...rotation, min: -1e30, max: 1e30 }],
    ["HugeRad", { ctrl_type: "rotation", unit: "rad", min: -1000, max: 2 }],
  ]);
  const parts = partsOf(root);
  const rows = parts.map((p) => [p.name, p.fixed, p.min, p.max, p.low, p.high, p.unbounded, p.notes]);
  deepEqual(rows, [
    ["Locked", true, 0, 0, 0, 0, false, []],
    ["LockedAt10", true, 10, 10, 0, 0, false, []],
    ["Swapped", false, -10, 30, -10, 30, false, ["min 30 > max -10: read as -10…30"]],
    ["NotNumbers", false, -Infinity, Infinity, -180, 180, true, [
      "min null is not a number: no limit",
      'max "25" is not a number: no limit',
    ]],
    ["Huge", false, -Infinity, Infinity, -180, 180, true, [
      "min -1.00e+30 is too large for a slider: no limit",
      "max 1.00e+30 is too large for a slider: no limit",
    ]],
    ["HugeRad", false, -Infinity, 2, 2 - 2 * Math.PI, 2, true, [
      "min -1000 is too large for a slider: no limit",
    ]],
  ]);
  // A fixed part does not move, whatever it is asked.
  parts[1].set(10);
  equal(parts[1].value, 0);
  assert(parts[1].object.quaternion.angleTo(new THREE.Quaternion()) < 1e-12);
});

Deno.test("preview parts: parts sharing a name are labelled by the fewest ancestors that tell them apart", () => {
  const part = { ctrl_type: "rotation", min: -5, max: 5 };
  const root = tree([
    ["Wing_L", {}, group("Flap", part), group("Tab", part), group("Tab", part)],
    ["Wing_R", {}, group("Flap", part)],
    [
      "Tail",
      {},
      group("Fin", {}, group("Rudder", part)),
      group("Stub", {}, group("Fin", {}, group("Rudder", part))),
    ],
    ["Gear", part],
  ]);
  deepEqual(partsOf(root).map((p) => [p.name, p.label]), [
    ["Flap", "Wing_L › Flap"],
    ["Tab", "Wing_L › Tab #1"],
    ["Tab", "Wing_L › Tab #2"],
    ["Flap", "Wing_R › Flap"],
    ["Rudder", "Tail › Fin › Rudder"],
    ["Rudder", "Stub › Fin › Rudder"],
    ["Gear", "Gear"],
  ]);
  // The labels are made from the file's names too.
  const labels = partsOf(root, (o) => `${o.name}.001`).map((p) => p.label);
  equal(labels[0], "Wing_L.001 › Flap.001");
});
