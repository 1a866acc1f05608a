/**
 * One panel's geometry gathered and fitted for `rig.fit_hinge` (`fit_hinge_run.ts`): the panel
 * dropped, with a warning, where it cannot be fitted.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import { IndexOutOfRangeError, placePositions, subtreeNodes } from "./geometry.ts";
import type { PanelGeometry } from "./split_halves.ts";
import { DOMINANT_WEIGHT, gatherBonePositions, type SkinPoses } from "./bone_geometry.ts";
import { fitHinge, type HingeFit, type HingeFitOptions, NonFiniteGeometryError } from "./hinge_fit.ts";
import { type LinkageNames, linkageNames } from "./linkage_names.ts";
import { type DrawnGeometry, drawnOnce, drawnOnly } from "./drawn_vertices.ts";
import { type HingeEdge, KIND_SPECS } from "./kinds.ts";
import { isKruegerName, markKruegerByPlace, panelSpec } from "./krueger_flaps.ts";
import { kruegerByPlace } from "./krueger_place.ts";
import type { BodySampler } from "./opening.ts";
import { clearPart, getPart } from "./part_extras.ts";
import { linearDeterminant, type Mat4, multiply } from "./transform.ts";
import { LocalMeshes } from "./local_meshes.ts";
import type { PanelKind } from "./vocabulary.ts";

/** A fitted panel: its fit, vertex count, gathered geometry and a refit about another edge. */
export type FittedPanel = {
  fit: HingeFit;
  vertices: number;
  geometry: PanelGeometry;
  refit: (edge: HingeEdge) => HingeFit;
};

/**
 * Fits one panel, or warns and drops its panel mark when it cannot be fitted (no vertices, a
 * zero-scale parent, non-finite positions). `body` (the run's fixed geometry) shows a Krueger flap
 * by its place.
 */
export function fitPanel(
  doc: Document,
  node: Node,
  poses: SkinPoses,
  options: Omit<HingeFitOptions, "edge">,
  ctx: RunContext,
  body: BodySampler,
): FittedPanel | undefined {
  const part = getPart(node)!;
  const spec = KIND_SPECS[part.kind as PanelKind];
  if (!spec) {
    ctx.warn(`panel '${node.getName()}' has unknown kind '${part.kind}'; not fitted`);
    return undefined;
  }
  const bone = part.driven_by === "skin";
  const skip = (why: string) => {
    const what = bone ? `skin bone '${node.getName()}' (${part.kind})` : `panel '${node.getName()}'`;
    ctx.warn(`${what} ${why}; not rigged`);
    clearPart(node);
    return undefined;
  };
  let gathered;
  try {
    gathered = drawnPanel(doc, node, poses);
  } catch (error) {
    if (!(error instanceof IndexOutOfRangeError)) throw error;
    return skip(`is malformed: ${error.message}`);
  }
  const { positions, count, triangles } = gathered;
  if (bone && count < 3) {
    return skip(
      `has ${count} skinned vertices weighted at least ${DOMINANT_WEIGHT} to it, too few to fit a hinge ` +
        "(it can still be driven as a bone)",
    );
  }
  // A skinned mesh is drawn where its joints put it and an instanced one once per instance: a pivot
  // above the node would turn neither as the panel.
  const meshNodes = bone ? [] : subtreeNodes(node).filter((n) => n.getMesh());
  const skinned = meshNodes.find((n) => n.getSkin());
  if (skinned) {
    return skip(`has a skinned mesh ('${skinned.getName()}') that follows its joints, not a pivot`);
  }
  const instanced = meshNodes.find((n) => n.getExtension("EXT_mesh_gpu_instancing"));
  if (instanced) {
    return skip(`has a GPU-instanced mesh ('${instanced.getName()}'): one pivot cannot turn every copy`);
  }
  if (count === 0) return skip("has no vertices");
  const parent = node.getParentNode();
  if (parent && !(Math.abs(linearDeterminant(parent.getWorldMatrix())) > 1e-300)) {
    return skip("sits under a zero-scale parent");
  }
  // Child nodes named as horns, rods or brackets (`linkage_names.ts`) corroborate their shapes.
  const names = bone ? undefined : keptNames(linkageNames(node, poses.frame), gathered.kept);
  let fit: HingeFit;
  try {
    // A Krueger flap, a leading-edge device, hinges at its forward edge (krueger_flaps.ts).
    fit = fitHinge(positions, count, { ...options, edge: panelSpec(node).edge }, triangles, false, names);
  } catch (error) {
    if (!(error instanceof NonFiniteGeometryError)) throw error;
    return skip("has non-finite vertex positions");
  }
  // Any axis through a point or along a line would be a guess.
  if (fit.collinear) return skip("has no area (its vertices lie on one line or point)");
  // A leading-edge flap in the wing's lower skin behind its fixed nose is a Krueger, whatever its name.
  if (part.kind === "leading_edge_flap" && !bone && !isKruegerName(node)) {
    const reach = fit.spanLength + 4 * fit.chord;
    const own = { positions, count, triangles: triangles ?? [] };
    const why = kruegerByPlace(
      fit,
      own,
      body.othersThan(node, { fixedOnly: true, near: { centre: fit.centre, reach } }),
    );
    if (why) {
      markKruegerByPlace(node, why);
      fit = fitHinge(positions, count, { ...options, edge: "forward" }, triangles, false, names);
      ctx.warn(
        `panel '${node.getName()}' (leading_edge_flap): ${why}; rigged as a Krueger flap (name it Krueger, ` +
          "or give it ctrl_type extras, to say so)",
        { part: node.getName() },
      );
    }
  }
  for (const doubt of fit.linkageDoubts ?? []) {
    ctx.warn(`panel '${node.getName()}': ${doubt}`, { part: node.getName() });
  }
  const refit = (edge: HingeEdge) =>
    fitHinge(positions, count, { ...options, edge }, triangles, false, names);
  return { fit, vertices: count, geometry: { positions, count, triangles }, refit };
}

/**
 * A panel's vertices and triangles in the aircraft frame: a skin bone's skinned to it, else its
 * subtree's meshes.
 * @throws IndexOutOfRangeError when its mesh indexes past its vertices.
 */
export function gatherPanel(doc: Document, node: Node, poses: SkinPoses): PanelGeometry {
  if (getPart(node)!.driven_by === "skin") {
    return gatherBonePositions(doc, node, poses.frame, { triangles: true, poses });
  }
  // The same bits as `gatherPositions(node, poses.frame, { triangles: true })` (local_meshes.ts), each
  // mesh read once per run: 2,000 panels drawing one 65,535-vertex mesh read it 2,000 times.
  return runMeshes(poses).gather(node, poses.frame, true);
}

/**
 * Whether `m`'s linear part is a turn, a mirror and an even scale (columns at right angles and of one
 * length, to 1e-12 of it), its every entry finite.
 */
function similarity(m: Mat4): boolean {
  for (let i = 0; i < 16; i++) if (!Number.isFinite(m[i])) return false;
  const col = (k: number) => [m[4 * k], m[4 * k + 1], m[4 * k + 2]];
  const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const [x, y, z] = [col(0), col(1), col(2)];
  const s = dot(x, x), tolerance = 1e-12 * s;
  return s > 0 && Math.abs(dot(y, y) - s) <= tolerance && Math.abs(dot(z, z) - s) <= tolerance &&
    Math.abs(dot(x, y)) <= tolerance && Math.abs(dot(y, z)) <= tolerance && Math.abs(dot(x, z)) <= tolerance;
}

/** The run's memo of meshes read in their own space (one per `poses`, see {@link RUN_MESHES}). */
function runMeshes(poses: SkinPoses): LocalMeshes {
  let meshes = RUN_MESHES.get(poses);
  if (!meshes) RUN_MESHES.set(poses, meshes = new LocalMeshes());
  return meshes;
}

/**
 * {@link gatherPanel} as drawn, what the fit reads: no vertex that no triangle with an area draws
 * (`drawn_vertices.ts`), a skin bone's skinned vertices as gathered.
 * @throws IndexOutOfRangeError when its mesh indexes past its vertices.
 */
export function drawnPanel(doc: Document, node: Node, poses: SkinPoses): DrawnGeometry {
  if (getPart(node)!.driven_by === "skin") return gatherPanel(doc, node, poses);
  // A panel drawing one mesh: which vertices its triangles draw is judged once per mesh, in the mesh's
  // own space (as frame detection and the copies' boxes judge it), and only those vertices are placed.
  const drawing = subtreeNodes(node).filter((n) => n.getMesh());
  if (drawing.length === 1) {
    const matrix = multiply(poses.frame, drawing[0].getWorldMatrix());
    // Only a turn, mirror or even scale keeps each triangle's area to its longest edge as it is in the
    // mesh: a node stretching one axis makes a near-flat triangle flatter or less flat, so its panel is
    // judged as placed (below), as it always was.
    if (similarity(matrix)) {
      const drawn = drawnOnce(runMeshes(poses).of(drawing[0], true)!);
      // Every vertex drawn, none with an area, or a coordinate not finite: the whole mesh, as gathered.
      if (!drawn.kept) return gatherPanel(doc, node, poses);
      const positions = new Float64Array(3 * drawn.count);
      placePositions(drawn.positions as Float64Array, drawn.count, matrix, positions);
      // No coordinate overflows: the mesh's are finite (drawnOnly judged it), and a similarity's columns
      // (their squared length finite) times a float accessor's coordinates stay far below the largest
      // double, which adding a finite place cannot pass.
      return { positions, count: drawn.count, triangles: drawn.triangles?.slice(), kept: drawn.kept };
    }
  }
  return drawnOnly(gatherPanel(doc, node, poses));
}

/** `names` read through `kept` (drawn vertex → gathered vertex) where some vertices were left out. */
function keptNames(names: LinkageNames | undefined, kept: Uint32Array | undefined): LinkageNames | undefined {
  if (!names || !kept) return names;
  return { word: (v) => names.word(kept[v]), name: (v) => names.name(kept[v]) };
}

/**
 * Meshes read in their own space, one memo per run: a run of `rig.fit_hinge` makes its `SkinPoses`
 * afresh and drops it at its end, so the memo lives as long as the run and no longer. Valid for the
 * run: the splits it makes draw new meshes (`mesh_halves.ts`) and change no mesh, accessor or weight.
 */
const RUN_MESHES = new WeakMap<SkinPoses, LocalMeshes>();

/** `toAircraft` with the lateral axis measured from `centre` (a copy's own centre line). */
export function aboutCentre(toAircraft: Mat4, centre: number): Mat4 {
  return centre ? multiply([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -centre, 1], toAircraft) : toAircraft;
}
