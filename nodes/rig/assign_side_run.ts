/**
 * The work of `rig.assign_side` (declared in `assign_side.ts`), loaded on the node's first run.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { NodeRun } from "../../runtime/lazy_run.ts";
import { rigScene } from "./rig_scene.ts";
import { aircraftMatrix, resolveFrame } from "./frame.ts";
import { positionBounds, subtreeNodes } from "./geometry.ts";
import { panelPositions, SkinPoses } from "./bone_geometry.ts";
import { getPart, setPart } from "./part_extras.ts";
import { partNodesOf, topLevelOf } from "./scene_order.ts";
import { type Mat4, normalize, transformDirection, transformPoint } from "./transform.ts";
import { hubSide, isSpinningPart } from "./spin_hinge.ts";
import { aircraftCentreLines, untoldAircraft } from "./copy_untold.ts";
import { doubtedFit, frameDoubt } from "./frame_doubt.ts";
import { withoutLevel } from "./copy_names.ts";
import { meshBounds } from "./mesh_bounds.ts";
import { LocalMeshes } from "./local_meshes.ts";
import { type FileWords, partneredWords, type Side, sideFromName } from "./vocabulary.ts";
import { unpairedP } from "./vocabulary_pairs.ts";
import type { rigAssignSide } from "./assign_side.ts";
import { measureRecoveredSenses } from "./recovered_senses.ts";
import { readByOwnHabit, settleHabits } from "./assign_side_habits.ts";

/** `rig.assign_side`: see its declaration. */
export const run: NodeRun<typeof rigAssignSide> = ({ inputs, params, ctx }) => {
  const scene = rigScene(inputs.scene, ctx);
  const frame = resolveFrame(scene, params.forward, params.up);
  const matrix = aircraftMatrix(frame);
  // Earlier pivots declared again by their shape: which way they turn, now the frame is known.
  measureRecoveredSenses(scene, matrix, ctx);
  const roots = topLevelOf(scene);
  let band: number | undefined;
  // The band in metres where the unit is known, but never wider than its fraction of the model: a
  // glTF is in metres by the spec, yet web models are often scaled to fit a unit box, and a 15 cm
  // fighter's 5 cm band took its left fin's rudder for a centre one.
  const centreBand = (): number => {
    if (band !== undefined) return band;
    const fraction = params.centre_band_fraction * modelExtent(roots, matrix);
    return band = frame.metresPerUnit === null
      ? fraction
      : Math.min(params.centre_band / frame.metresPerUnit, fraction);
  };
  const poses = new SkinPoses(matrix);
  // Panels drawing one mesh read it once (a file's 2,000 panels over one 65,535-vertex mesh).
  const meshes = new LocalMeshes();
  // Copies of the aircraft laid out apart (a showcase's levels of detail) each have their own centre line.
  const centres = aircraftCentreLines(scene, matrix);
  const centreOf = (node: Node) => centres?.get(node) ?? 0;
  const sides = new Map<Node, Side>();
  // Panels named left or right lying wholly on the other side: a Blender duplicate of `Aileron.L`
  // mirrored to the right keeps `Aileron.L.001`.
  const contradicted = new Map<Node, Side>();
  let named = 0;
  // Names are read with the file's others: `RAIL` beside `LAIL`, `Aileron_P` beside `Aileron_S` or `_L`.
  const words = partneredWords(scene.getRoot().listNodes().map((n) => n.getName()));
  const unpaired: Node[] = [], ownHabit: Node[] = [];
  for (const node of partNodesOf(scene)) {
    const part = getPart(node)!;
    const spun = centres?.has(node) ? spinningSideInCopy(node, matrix, centreOf(node), words) : undefined;
    if (spun) setPart(node, { ...part, side: spun });
    if (spun || part.side) continue;
    // A level mark glued to a side letter (`AileronLLOD1`) hides the side: read past it.
    const fromName = sideFromName(node.getName(), words) ?? sideFromName(withoutLevel(node.getName()), words);
    if (!fromName && unpairedP(node.getName(), words.letters)) unpaired.push(node);
    if (fromName === "left" || fromName === "right") {
      named++;
      // A kit-bashed file's part read by its kind's own side habit: settled below by its kind's geometry.
      if (readByOwnHabit(node.getName(), words) || readByOwnHabit(withoutLevel(node.getName()), words)) {
        ownHabit.push(node);
      }
      const wholly = sideWhollyOn(scene, node, poses, meshes, centreBand, centreOf(node));
      if (wholly && wholly !== fromName) contradicted.set(node, wholly);
    }
    sides.set(node, fromName ?? sideFromGeometry(scene, node, poses, meshes, centreBand, centreOf(node)));
  }
  if (unpaired.length > 0) {
    ctx.warn(
      `${
        unpaired.map((n) => `'${n.getName()}' (${sides.get(n)})`).join(", ")
      }: P is port (left) in English ` +
        "but prawy/pravý (right) in Polish, Czech and Russian, and no S or L in the file tells which: " +
        "sided by geometry; rename with L/R or give ctrl_type extras if wrong",
      { panels: unpaired.map((n) => n.getName()), readings: ["left", "right"] },
    );
  }
  settleHabits(
    ownHabit,
    [...sides.keys()],
    words,
    sides,
    contradicted,
    (node) => sideFromGeometry(scene, node, poses, meshes, centreBand, centreOf(node)),
    (message, data) => ctx.warn(message, data),
  );
  // When most named panels agree with the frame, the few that do not are misnamed: their geometry
  // decides. When most disagree, the frame is probably wrong (the fit warned) and the names stand.
  const overrule = contradicted.size * 2 < named;
  for (const [node, side] of sides) {
    const geometric = overrule ? contradicted.get(node) : undefined;
    if (geometric) {
      ctx.warn(
        `panel '${node.getName()}' is named ${side} but lies wholly on the ${geometric} side, as the other ` +
          `panels named left and right do not (a mirrored duplicate keeping its name?): side ${geometric}`,
        { panel: node.getName(), named: side, side: geometric },
      );
    }
    setPart(node, { ...getPart(node)!, side: geometric ?? side });
  }
  // Read with copies too: touching aircraft among others parked clear are one copy, untold.
  judgeUntold(scene, matrix, ctx);
  // A frame whose up or tail end was a guess puts every part's side and hinge in doubt (frame_doubt.ts):
  // the rigged file's own verdicts say so, as the report does.
  const doubt = frameDoubt(frame);
  if (doubt) {
    for (const node of partNodesOf(scene)) {
      const part = getPart(node)!;
      if (part.fit) setPart(node, { ...part, fit: doubtedFit(part.fit, doubt) });
    }
  }
  return { scene };
};

/**
 * Several aircraft the rig cannot tell apart (`copy_untold.ts`: parked wing over wing, their names
 * telling no one's objects): all were sided about one centre line, so every aircraft off it has half its
 * panels on the wrong side. Warned, naming the panels, and each panel's fit judged weak at best.
 */
function judgeUntold(
  scene: Document,
  matrix: Mat4,
  ctx: Parameters<NodeRun<typeof rigAssignSide>>[0]["ctx"],
): void {
  const untold = untoldAircraft(scene, matrix);
  if (!untold) return;
  const names = untold.map((n) => n.getName());
  ctx.warn(
    `cannot tell these aircraft apart: ${names.slice(0, 12).map((n) => `'${n}'`).join(", ")}` +
      `${names.length > 12 ? ` and ${names.length - 12} more` : ""} name several aircraft, but neither ` +
      "names nor places say which object is whose (touching or overlapping aircraft, joined by other " +
      "objects?): all are sided about one centre line, and judged weak. Group each aircraft under a node " +
      "of its own, or give its names a prefix (`Spitfire_Aileron_L`), or set them apart",
    { panels: names },
  );
  const reason = "one of several aircraft the rig cannot tell apart: its side is read about one centre " +
    "line for them all, which may not be its aircraft's";
  for (const node of untold) {
    const part = getPart(node);
    if (!part?.fit) continue;
    setPart(node, {
      ...part,
      fit: {
        ...part.fit,
        confidence: part.fit.confidence === "failed" ? "failed" : "weak",
        reasons: [...part.fit.reasons ?? [], reason],
      },
    });
  }
}

/**
 * The side of a propeller or rotor in a copy laid out apart, about the copy's centre line at lateral
 * `centre`, by `rig.fit_hinge`'s rule (`hubSide`); undefined when its name gives the side or it has no
 * shaft. `rig.fit_hinge` sided it about the scene's, and a twin's right propeller in a copy set to the
 * left was `left`. The name is read with the file's `words`: `Helice_D` beside `Aileron_G` states its side.
 */
function spinningSideInCopy(node: Node, matrix: Mat4, centre: number, words: FileWords): Side | undefined {
  const part = getPart(node)!;
  if (
    !isSpinningPart(part) || sideFromName(node.getName(), words) || !part.hinge?.origin_world || !part.fit
  ) {
    return undefined;
  }
  const hub = transformPoint(matrix, part.hinge.origin_world)[2] - centre;
  return hubSide(hub, normalize(transformDirection(matrix, part.hinge.axis_world!)), part.fit.chord);
}

/**
 * The model's largest extent in the aircraft frame, from the corners of each drawn mesh's own bounds
 * (`copies.ts`): gathering every vertex placed cost 2,000 nodes drawing one 65,535-vertex mesh 131
 * million placements, where a size to scale a band by needs no more than boxes.
 */
function modelExtent(roots: readonly Node[], matrix: Mat4): number {
  const box = meshBounds(roots.flatMap(subtreeNodes), matrix);
  return box ? Math.max(0, ...[0, 1, 2].map((k) => box.max[k] - box.min[k])) : 0;
}

/**
 * The side a node's geometry lies wholly on, past the centre band about the centre line at lateral
 * `centre`; undefined when it reaches across.
 */
function sideWhollyOn(
  doc: Document,
  node: Node,
  poses: SkinPoses,
  meshes: LocalMeshes,
  centreBand: () => number,
  centre: number,
): Side | undefined {
  const bounds = lateralBounds(doc, node, poses, meshes);
  if (!bounds) return undefined;
  if (bounds.min - centre > centreBand()) return "left";
  if (bounds.max - centre < -centreBand()) return "right";
  return undefined;
}

/**
 * The least and greatest lateral (aircraft Z) coordinate of the panel's geometry (`panelPositions`
 * in the frame of `poses`), undefined when it has none. A mesh panel's comes from `meshes` without
 * placing every vertex again: the same numbers.
 */
function lateralBounds(
  doc: Document,
  node: Node,
  poses: SkinPoses,
  meshes: LocalMeshes,
): { min: number; max: number } | undefined {
  if (getPart(node)?.driven_by !== "skin") return meshes.axisBounds(node, poses.frame, 2);
  const bounds = positionBounds(panelPositions(doc, node, poses.frame, poses));
  return bounds && { min: bounds.min[2], max: bounds.max[2] };
}

/**
 * Left/right/centre from the lateral (aircraft +left) centre of the node's geometry (a skin bone's:
 * the vertices skinned to it), or of its origin when it has none, from the centre line at `centre`.
 */
function sideFromGeometry(
  doc: Document,
  node: Node,
  poses: SkinPoses,
  meshes: LocalMeshes,
  centreBand: () => number,
  centre: number,
): Side {
  const matrix = poses.frame;
  const bounds = lateralBounds(doc, node, poses, meshes);
  // Reaching across the centre line with its fitted hinge on it, a panel is a central one whatever hangs
  // off one face (a rudder's lone horn: held-out fin_horns.ts seeds 7000-7499, 21 of 200 sided by it).
  const part = getPart(node), hinge = part?.hinge, span = part?.fit?.span;
  if (bounds && hinge && span && bounds.min < centre && bounds.max > centre) {
    const o = transformPoint(matrix, hinge.origin_world)[2] - centre;
    const reach = Math.abs(normalize(transformDirection(matrix, hinge.axis_world))[2]) * span / 2;
    if (Math.abs(o) + reach <= centreBand()) return "centre";
    // A rudder (an all-moving fin's too) turns about a line inside its own section: a cambered fin's
    // quarter chord lies off the plane by up to its camber (real sections' at most 6 % of the chord),
    // past a fixed band on a large fin (held-out fin_horns.ts seed 7223, 5.5 cm: sided right, silently).
    // Standing in the plane, its width is its thickness and what hangs off a face, well under half its
    // chord: a V-tail's surface reaching across is far wider, and twin fins reach no centre line.
    const chord = part!.fit!.chord;
    if (
      part!.kind === "rudder" && bounds.max - bounds.min <= 0.5 * chord && Math.abs(o) + reach <= 0.06 * chord
    ) return "centre";
  }
  const lateral =
    (bounds
      ? (bounds.min + bounds.max) / 2
      : transformPoint(matrix, transformPoint(node.getWorldMatrix(), [0, 0, 0]))[2]) - centre;
  if (Math.abs(lateral) <= centreBand()) return "centre";
  return lateral > 0 ? "left" : "right";
}
