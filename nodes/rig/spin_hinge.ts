/**
 * `rig.fit_hinge`'s work on spinning parts (propellers, rotors, spinners `rig.detect_panels` marked):
 * the shaft fitted from the geometry ({@link fitSpinAxis}), the kind of a bare `Rotor`/`Propeller`
 * told by the aircraft axis its shaft runs along, signed so a positive angle is a right-hand turn about
 * the kind's named direction, and stored in the part's parent space as panels' hinges are.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import { IndexOutOfRangeError, subtreeNodes } from "./geometry.ts";
import { gatherDrawnSurface } from "./drawn_vertices.ts";
import { clearPart, getPart, type PartAnnotation, setPart } from "./part_extras.ts";
import { fitSpinAxis, type SpinFit, type SpinGeometry } from "./spin_fit.ts";
import { sideFromName } from "./vocabulary.ts";
import { sceneWords } from "./file_words.ts";
import {
  isBladeName,
  isCounterweightName,
  isDiscName,
  isHubName,
  KIND_OF_SHAFT,
  type ShaftDirection,
  SPINNING_SPECS,
  type SpinningKind,
} from "./spinning_names.ts";
import { authoredPivot } from "./authored_pivot.ts";
import { discsOffShaft } from "./spin_disc.ts";
import { splitRotorPair } from "./spin_split.ts";
import { splitSideBySide } from "./spin_twins.ts";
import {
  canonicalVec3,
  dot,
  IDENTITY,
  invertAffine,
  length,
  linearDeterminant,
  type Mat4,
  multiply,
  normalize,
  transformDirection,
  transformPoint,
  type Vec3,
} from "./transform.ts";

/** The aircraft-frame direction of each shaft direction (aircraft frame: x aft, y up, z left). */
const SHAFT_DIRECTIONS: Readonly<Record<ShaftDirection, Vec3>> = {
  forward: [-1, 0, 0],
  up: [0, 1, 0],
  left: [0, 0, 1],
};

/** The kind `rig.detect_panels` gives a bare `Rotor`/`Propeller`/`Blades`, until its shaft tells. */
export const BARE_SPINNING_KIND = "rotor";

/** True for a part `rig.detect_panels` marked as spinning (decided or bare). */
export function isSpinningPart(part: PartAnnotation | undefined): boolean {
  return part?.kind === BARE_SPINNING_KIND || part?.kind === "propeller" || part?.kind === "main_rotor" ||
    part?.kind === "tail_rotor";
}

/** A judged spinning fit, for the caller's warnings (`strict` turns failed ones into errors). */
export interface SpinJudgement {
  readonly node: Node;
  readonly kind: SpinningKind;
  readonly confidence: "good" | "weak" | "failed";
  readonly reasons: readonly string[];
}

/**
 * Fits every spinning part's shaft and stores it as the part's hinge; returns the judgements (weak and
 * failed ones to be warned by name). A part that cannot be fitted (no vertices, skinned, instanced,
 * under a zero-scale parent) is warned and unmarked; two rotors drawn as one object are split in two
 * where their pieces allow (`spin_split.ts`), each fitted and judged.
 */
export function fitSpinningParts(
  doc: Document,
  nodes: readonly Node[],
  toAircraft: Mat4,
  ctx: RunContext,
): SpinJudgement[] {
  const out: SpinJudgement[] = [];
  // A name is read with the file's others (`Smiglo_P` beside `Smiglo_L` is right), once for the scene.
  const words = nodes.length ? sceneWords(doc) : undefined;
  // Two rotors in one object split into two parts, each fitted in its turn (and never split again).
  const queue = [...nodes], halves = new Set<Node>(), sideways = new Set<Node>();
  while (queue.length) {
    const node = queue.shift()!;
    const part = getPart(node)!;
    const skip = (why: string) => {
      ctx.warn(`spinning part '${node.getName()}' (${part.kind}) ${why}; not rigged`);
      clearPart(node);
    };
    const meshNodes = subtreeNodes(node).filter((n) => n.getMesh());
    const skinned = meshNodes.find((n) => n.getSkin());
    if (skinned) {
      skip(`has a skinned mesh ('${skinned.getName()}') that follows its joints, not a pivot`);
      continue;
    }
    const instanced = meshNodes.find((n) => n.getExtension("EXT_mesh_gpu_instancing"));
    if (instanced) {
      skip(`has a GPU-instanced mesh ('${instanced.getName()}'): one pivot cannot turn every copy`);
      continue;
    }
    const parent = node.getParentNode();
    if (parent && !(Math.abs(linearDeterminant(parent.getWorldMatrix())) > 1e-300)) {
      skip("sits under a zero-scale parent");
      continue;
    }
    let geometry: SpinGeometry, hub: ReturnType<typeof hubGeometry>;
    try {
      geometry = bladeGeometry(node, toAircraft);
      hub = hubGeometry(node, toAircraft);
    } catch (error) {
      if (!(error instanceof IndexOutOfRangeError)) throw error;
      skip(`is malformed: ${error.message}`);
      continue;
    }
    if (geometry.count === 0) {
      skip("has no vertices");
      continue;
    }
    if (!geometry.positions.subarray(0, geometry.count * 3).every(Number.isFinite)) {
      skip("has non-finite vertex positions");
      continue;
    }
    const frameAxes = (Object.keys(SHAFT_DIRECTIONS) as ShaftDirection[])
      .map((name) => ({ name, direction: SHAFT_DIRECTIONS[name] }));
    const namedKind = part.kind === "main_rotor" || part.kind === "tail_rotor" ? part.kind : undefined;
    const preferred = namedKind ? SHAFT_DIRECTIONS[SPINNING_SPECS[namedKind].shaft] : undefined;
    const structure = structureAxes(node, toAircraft);
    const fit = fitSpinAxis(geometry, {
      frameAxes,
      hub: hub?.geometry,
      hubName: hub?.name,
      preferred,
      structureAxes: structure,
      oneBlade: oneBladeStructure(node),
    });
    // Rotors side by side in one object (a rip's `PROPS`): split sideways, each fitted in its turn. Even
    // where the whole fits well: two spinners side by side are a "two-blade rotor" about the centre line.
    if (!sideways.has(node)) {
      const name = node.getName();
      const split = splitSideBySide(doc, node, toAircraft, {
        fit: (band) => fitSpinAxis(band, { frameAxes, preferred, structureAxes: structure }),
        wholeFitsWell: fit.confidence === "good",
      });
      if (typeof split === "object") {
        split.nodes.forEach((n, k) => {
          const f = split.fits[k];
          setPart(n, { ...part, side: part.side ?? hubSide(f.centre[2], f.axis, f.radius) });
          sideways.add(n);
        });
        ctx.warn(
          `spinning part '${name}' was ${split.nodes.length} rotors side by side drawn as one object: ` +
            `split into ${split.nodes.map((n) => `'${n.getName()}'`).join(", ")}`,
          { part: name, halves: split.nodes.map((n) => n.getName()) },
        );
        queue.unshift(...split.nodes);
        continue;
      }
      if (typeof split === "string") {
        fit.reasons.push(
          `it looks like rotors side by side drawn as one object, left whole because ${split}`,
        );
      }
    }
    const along = nearestShaft(fit.axis);
    const kind: SpinningKind = part.kind === BARE_SPINNING_KIND || part.kind === "propeller"
      ? KIND_OF_SHAFT[along]
      : part.kind as SpinningKind;
    const reasons = [...fit.reasons, ...discsOffShaft(node, toAircraft, fit.axis)];
    let confidence = fit.confidence === "good" && reasons.length ? "weak" : fit.confidence;
    const spec = SPINNING_SPECS[kind];
    if (along !== spec.shaft && fit.axisFrom !== "frame") {
      reasons.push(
        `named a ${kind.replace("_", " ")}, whose shaft runs along the aircraft's ${spec.shaft} axis, but ` +
          `its blades turn about the ${along} axis`,
      );
      if (confidence === "good") confidence = "weak";
    }
    const wanted = SHAFT_DIRECTIONS[spec.shaft];
    const axis = dot(fit.axis, wanted) < 0 ? fit.axis.map((v) => -v) as Vec3 : fit.axis;
    if (fit.layers && !halves.has(node)) {
      const name = node.getName();
      const far = splitRotorPair(doc, node, toAircraft, fit.layers, axis, spec.shaft, fit.radius);
      if (typeof far !== "string") {
        ctx.warn(
          `spinning part '${name}' was two rotors drawn as one object (blades in two discs along one ` +
            `shaft, turning opposite ways): split into '${node.getName()}' and '${far.getName()}'`,
          { part: name, halves: [node.getName(), far.getName()] },
        );
        halves.add(node).add(far);
        queue.unshift(node, far);
        continue;
      }
      reasons.push(`left whole because ${far}`);
    }
    const side = part.side ??
      (sideFromName(node.getName(), words) ? undefined : hubSide(fit.centre[2], axis, fit.radius));
    setPart(
      node,
      spinningPart(
        node,
        { ...part, side },
        kind,
        { ...fit, confidence, reasons },
        axis,
        toAircraft,
        geometry.count,
      ),
    );
    out.push({ node, kind, confidence, reasons });
  }
  return out;
}

/** The aircraft axis a shaft runs nearest. */
function nearestShaft(axis: Vec3): ShaftDirection {
  let best: ShaftDirection = "forward";
  for (const name of Object.keys(SHAFT_DIRECTIONS) as ShaftDirection[]) {
    if (Math.abs(dot(axis, SHAFT_DIRECTIONS[name])) > Math.abs(dot(axis, SHAFT_DIRECTIONS[best]))) {
      best = name;
    }
  }
  return best;
}

/**
 * The part's surface to fit, without a blurred-propeller disc drawn beside its blades (`prop_disc`,
 * `Prop_Blur`: often a quad or an octagon, as symmetric as its sides and no more, which would make a
 * three-blade propeller's surface symmetric about nothing). A disc that is the part's only drawing
 * is the part.
 */
function bladeGeometry(node: Node, toAircraft: Mat4): SpinGeometry {
  const drawn = subtreeNodes(node).filter((n) => n.getMesh());
  const kept = drawn.filter((n) => n === node || !isDiscName(n.getName()));
  if (kept.length === drawn.length || kept.length === 0) {
    return gatherDrawnSurface(node, toAircraft);
  }
  const pieces = kept.map((n) => gatherDrawnSurface(n, toAircraft, { descend: false }));
  const count = pieces.reduce((sum, p) => sum + p.count, 0);
  const positions = new Float64Array(count * 3);
  const triangles = new Uint32Array(pieces.reduce((sum, p) => sum + (p.triangles?.length ?? 0), 0));
  let vertices = 0, indices = 0;
  for (const p of pieces) {
    positions.set(p.positions.subarray(0, p.count * 3), vertices * 3);
    for (const i of p.triangles ?? []) triangles[indices++] = i + vertices;
    vertices += p.count;
  }
  return { positions, count, triangles };
}

/** The geometry and name of the one hub or spinner named inside a part (not the part itself), or undefined. */
function hubGeometry(node: Node, toAircraft: Mat4): { geometry: SpinGeometry; name: string } | undefined {
  const hubs = subtreeNodes(node).filter((n) => n !== node && isHubName(n.getName()))
    .filter((n, _, all) => !all.some((other) => other !== n && subtreeNodes(other).includes(n)));
  if (hubs.length !== 1) return undefined;
  const hub = gatherDrawnSurface(hubs[0], toAircraft);
  return hub.count > 0 ? { geometry: hub, name: hubs[0].getName() } : undefined;
}

/**
 * Why a part's structure says it has one blade: it is named as a blade, holds a counterweight (a
 * single-blade propeller's), or its only drawn objects besides hubs are one blade object.
 */
function oneBladeStructure(node: Node): string | undefined {
  if (isBladeName(node.getName())) {
    return "named as a single blade; put the blades under one node named for the rotor";
  }
  const drawn = subtreeNodes(node).filter((n) => n.getMesh());
  const weight = drawn.find((n) => isCounterweightName(n.getName()));
  if (weight) return `it holds a counterweight ('${weight.getName()}'), as a single-blade propeller does`;
  const blades = drawn.filter((n) => isBladeName(n.getName()));
  const others = drawn.filter((n) => !isBladeName(n.getName()) && !isHubName(n.getName()));
  if (blades.length === 1 && others.length === 0) return `its one blade object is '${blades[0].getName()}'`;
  return undefined;
}

/** The unit axes of a part's own node and every node above it, in the aircraft frame, named. */
function structureAxes(node: Node, toAircraft: Mat4): { name: string; direction: Vec3 }[] {
  const out: { name: string; direction: Vec3 }[] = [];
  for (let n: Node | null = node; n; n = n.getParentNode()) {
    const world = multiply(toAircraft, n.getWorldMatrix());
    for (const [k, axis] of ["X", "Y", "Z"].entries()) {
      const direction = [world[k * 4], world[k * 4 + 1], world[k * 4 + 2]];
      if (length(direction) > 0) {
        out.push({ name: `'${n.getName()}''s ${axis}`, direction: normalize(direction) });
      }
    }
  }
  return out;
}

/**
 * A spinning part's side from where its shaft meets the aircraft, relative to its own size: centre
 * when its disc reaches across the plane of symmetry — its hub within half its radius of the plane
 * (a nose or pusher propeller, a main rotor; a wing engine's disc must clear the fuselage, so lies
 * further out) — or, for a shaft running across the plane (a tail rotor, whose disc stands beside the
 * fin), its hub within one and a half radii of it; else the side the hub is on. A fixed band would
 * call a nose propeller drawn a little off the centre line of a small model `right`. `lateral` is the
 * hub's distance from the centre line (+left) and `axis` the shaft, both in the aircraft frame.
 */
export function hubSide(lateral: number, axis: Vec3, radius: number): "left" | "right" | "centre" {
  const across = Math.abs(axis[2]) >= Math.SQRT1_2;
  if (Math.abs(lateral) <= (across ? 1.5 : 0.5) * radius) return "centre";
  return lateral > 0 ? "left" : "right";
}

/** The annotation of a fitted spinning part: shaft in parent space, no limits. */
function spinningPart(
  node: Node,
  part: PartAnnotation,
  kind: SpinningKind,
  fit: SpinFit,
  axisAircraft: Vec3,
  toAircraft: Mat4,
  vertices: number,
): PartAnnotation {
  const spec = SPINNING_SPECS[kind];
  const fromAircraft = invertAffine(toAircraft);
  const originWorld = transformPoint(fromAircraft, fit.centre);
  const axisWorld = normalize(transformDirection(fromAircraft, axisAircraft));
  const parentWorld = node.getParentNode()?.getWorldMatrix() ?? IDENTITY;
  const parentInverse = invertAffine(parentWorld);
  // Under a mirroring parent a turn about local X turns the world the other way about its image.
  const mirror = linearDeterminant(parentWorld) < 0 ? -1 : 1;
  const axisLocal = normalize(transformDirection(parentInverse, axisWorld)).map((v) => v * mirror) as Vec3;
  const originLocal = transformPoint(parentInverse, originWorld);
  return {
    kind,
    found_by: part.found_by,
    side: part.side,
    unit: "deg",
    rest: 0,
    group: spec.group,
    positive: spec.positive,
    hinge: {
      origin: canonicalVec3(originLocal),
      axis: canonicalVec3(axisLocal),
      origin_world: canonicalVec3(originWorld),
      axis_world: canonicalVec3(axisWorld),
    },
    fit: {
      bins_filled: 0,
      bins: 0,
      inliers: fit.blades,
      residual: fit.symmetry * fit.radius,
      chord: fit.radius,
      span: 2 * fit.radius,
      vertices,
      confidence: fit.confidence,
      reasons: [...fit.reasons],
      source: "surface",
      rule: "spin_symmetry",
      ...(fit.notes.length ? { rule_why: fit.notes.join("; ") } : {}),
      spin: {
        blades: fit.blades,
        radius: fit.radius,
        symmetry: fit.symmetry,
        axis_from: fit.axisFrom,
        centre_from: fit.centreFrom,
      },
      authored_pivot: authoredPivot(node, originWorld, axisWorld),
    },
  };
}
