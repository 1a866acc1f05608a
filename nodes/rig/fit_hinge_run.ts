/**
 * The work of `rig.fit_hinge` (declared in `fit_hinge.ts`), loaded on the node's first run: each
 * panel fitted (`fit_panel.ts`) and given its rule (`hinge_rule.ts`), pieces and halves of one
 * surface reconciled, fits judged and stored signed on their parts.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { NodeRun } from "../../runtime/lazy_run.ts";
import { rigScene } from "./rig_scene.ts";
import { aircraftMatrix, recordDetection, resolveFrame } from "./frame.ts";
import { type FitJudgement, judgeFit, withHardware } from "./fit_confidence.ts";
import { hardwareBeside, type HardwareObject, listHardware } from "./hinge_hardware.ts";
import { BodySampler, openingOf } from "./opening.ts";
import { splitTwoPieceMesh } from "./split_pieces.ts";
import { onSharedHinge, type PanelGeometry, splitHalfPairs, unionGeometry } from "./split_halves.ts";
import {
  agreesWithWhole,
  type Box,
  boxOf,
  onWholeSurface,
  pieceGroups,
  unionOfPieces,
} from "./surface_pieces.ts";
import { sidesOffWhole } from "./whole_sides.ts";
import { hingeBend } from "./hinge_bend.ts";
import { firstLevel, overlapWords } from "./lod_levels.ts";
import { hideAgain, showScaledCopies } from "./hidden_scale.ts";
import { warnIfFacingBackwards, warnIfFrameDisagrees, warnIfFrameUnsure } from "./frame_checks.ts";
import { type JudgedFit, reconcileMirrorPartners } from "./mirror_partners.ts";
import { mirrorStrays } from "./mirror_strays.ts";
import { aircraftCentreLines, untoldAircraft } from "./copy_untold.ts";
import { SkinPoses } from "./bone_geometry.ts";
import { fitHinge, type HingeFit } from "./hinge_fit.ts";
import type { HingeEdge } from "./kinds.ts";
import { isKruegerFlap, kruegerPieces, panelSpec } from "./krueger_flaps.ts";
import { clearPart, declaredCtrlType, type FitQuality, foundByRig, getPart, setPart } from "./part_extras.ts";
import { partNodesOf } from "./scene_order.ts";
import { keyedFit } from "./keyed_hinge.ts";
import { signedPart } from "./signed_part.ts";
import { fitSpinningParts, isSpinningPart } from "./spin_hinge.ts";
import type { rigFitHinge } from "./fit_hinge.ts";
import { aboutCentre, drawnPanel, fitPanel } from "./fit_panel.ts";
import { hingeRule, type RuleOf } from "./hinge_rule.ts";
import { HingeFitFailedError, reportConfidence, warnGuessedShaft } from "./fit_strict.ts";
import { authoredShaft } from "./authored_shaft.ts";
import { sharePartnerShafts } from "./partner_shaft.ts";
import { type BladeSlide, type BrakeReading, brakeReading } from "./slide_blades.ts";
import { openPlateFit } from "./open_plates.ts";
import { slidPart } from "./slid_part.ts";
import { capOf } from "./slide_caps.ts";
import { gliderEvidence, shapeBrakes } from "./shape_brakes.ts";
import { fowlerFlap, listTrackIslands, type TrackIsland } from "./fowler_flaps.ts";
import {
  canonicalVec3,
  invertAffine,
  type Mat4,
  normalize,
  transformDirection,
  type Vec3,
} from "./transform.ts";

export { HingeFitFailedError } from "./fit_strict.ts";

/** `rig.fit_hinge`: see its declaration. */
export const run: NodeRun<typeof rigFitHinge> = ({ inputs, params, ctx }) => {
  const scene = rigScene(inputs.scene, ctx);
  const frame = resolveFrame(scene, params.forward, params.up);
  const toAircraft = aircraftMatrix(frame);
  if (frame.detected) {
    recordDetection(scene, frame.detected);
    warnIfFrameUnsure(frame, ctx);
  }
  // A glider's airbrakes no name tells, found by their shape (shape_brakes.ts): rigged as named ones are,
  // warned, their evidence in fit.rule_why; a part so found that does not slide is left unrigged.
  // Whether the aircraft is a glider, read once and only when a brake's shape cannot tell (slide_blades.ts).
  let gliderWhy: { why?: string } | undefined;
  const glider = () => (gliderWhy ??= { why: gliderEvidence(scene, toAircraft) }).why;
  const byShape = new Map<Node, string>();
  for (const found of shapeBrakes(scene, toAircraft)) {
    setPart(found.node, found.part), byShape.set(found.node, found.why);
  }
  const named = partNodesOf(scene)
    .filter((node) => foundByRig(getPart(node)) && !declaredCtrlType(node));
  const panels = named.filter((n) => !isSpinningPart(getPart(n))), shown = showScaledCopies(panels, ctx);
  // Propellers and rotors: a shaft from their blades' symmetry, no hinge line (spin_hinge.ts).
  for (
    const spun of fitSpinningParts(
      scene,
      named.filter((node) => isSpinningPart(getPart(node))),
      toAircraft,
      ctx,
    )
  ) {
    if (spun.confidence === "good") continue;
    const message =
      `spinning part '${spun.node.getName()}' (${spun.kind}): shaft fit is ${spun.confidence} — ` +
      spun.reasons.join("; ");
    if (spun.confidence === "failed" && params.strict) throw new HingeFitFailedError(message);
    ctx.warn(message, { part: spun.node.getName(), confidence: spun.confidence, reasons: [...spun.reasons] });
  }
  const fits = new Map<Node, HingeFit>();
  const vertexCounts = new Map<Node, number>();
  const geometry = new Map<Node, PanelGeometry>();
  const rules = new Map<Node, RuleOf>();
  const boxes = new Map<Node, Box>();
  // Panels fitted whole across the centre line whose sides turn about other lines: why (whole_sides.ts).
  const offWhole = new Map<Node, string>();
  const body = new BodySampler(scene, toAircraft);
  // Fitting moves no joint (a split takes only a mesh node's pieces), so poses hold for the pass.
  const poses = new SkinPoses(toAircraft);
  const options = { bins: params.bins, bandFraction: params.band, inlierFraction: params.inlier };
  // Copies of the aircraft laid out apart each have their own centre line (copies.ts), a split half its node's.
  const centres = aircraftCentreLines(scene, toAircraft);
  const centreOf = (node: Node) => centres?.get(node) ?? 0;
  // A shaft whose place the geometry does not show goes through the node's origin where its author set
  // it on the shaft (authored_shaft.ts).
  const withAuthoredShaft = (node: Node, fit: HingeFit): HingeFit => {
    const found = fit.shaft === "guessed" ? authoredShaft(node, fit, toAircraft) : undefined;
    if (!found) return fit;
    return { ...fit, origin: found.origin, shaft: found.turned ? "authored" : "origin" };
  };
  // Brakes that slide (a glider's Schempp-Hirth blades, slide_blades.ts): no hinge line to fit or pair.
  const slides = new Map<Node, { slide: BladeSlide; fit: HingeFit; vertices: number; box: Box }>();
  // Dive brakes drawn open (open_plates.ts): which way each opens, from the edge it turns out of the skin about.
  const openings = new Map<Node, Vec3>();
  const queue = [...panels];
  for (let node = queue.shift(); node; node = queue.shift()) {
    let fitted = fitPanel(scene, node, poses, options, ctx, body);
    if (!fitted) continue;
    // Geometry on both sides of the centre line may be two surfaces in one mesh.
    const centre = centreOf(node);
    const [left, right] = fitted.fit.lateral.map((x) => x - centre), reach = 0.02 * Math.max(-left, right);
    if (left < -reach && right > reach) {
      const split = splitTwoPieceMesh(scene, node, aboutCentre(toAircraft, centre), ctx);
      if (split && centres) centres.set(split, centre);
      if (split) {
        queue.unshift(split);
        fitted = fitPanel(scene, node, poses, options, ctx, body);
        if (!fitted) continue;
      }
    }
    const reading = brakeShape(node, fitted, body, glider);
    if (reading && "slide" in reading) {
      const slide = reading.slide;
      slides.set(node, { slide, fit: fitted.fit, vertices: fitted.vertices, box: boxOf(fitted.geometry) });
      continue;
    }
    // A plate drawn open out of a skin turns about its edge in that skin, fitted closed (open_plates.ts).
    const open = reading && openPlateFit(reading.open, fitted.geometry, options);
    if (open) openings.set(node, open.opening);
    const rule = open ? open.rule : hingeRule(node, fitted.fit, body, fitted.refit);
    rules.set(node, rule);
    fits.set(
      node,
      open
        ? open.fit
        : withAuthoredShaft(node, rule.rule === "all_moving" ? fitted.refit("quarter") : fitted.fit),
    );
    vertexCounts.set(node, fitted.vertices);
    boxes.set(node, boxOf(fitted.geometry));
    const edge = rule.rule === "all_moving" ? "quarter" : panelSpec(node).edge;
    // An air brake on the spine curves with the fuselage: its halves tilt off the whole's line. Split
    // drag rudders' halves turn about their union's line (split_halves.ts), not their own.
    const kind = getPart(node)!.kind,
      bends = () => hingeBend(fitted.geometry, fits.get(node)!, options, edge);
    const off = kind === "air_brake"
      ? undefined
      : sidesOffWhole(fitted.geometry, fits.get(node)!, options, edge, centre) ??
        (kind === "drag_rudder" ? undefined : bends());
    if (off) offWhole.set(node, off);
    // Kept only where a split half may need it: a panel's gathered points weigh what its mesh does,
    // and 2,000 panels drawing one 65,535-vertex mesh held 4 GB of them.
    if (getPart(node)!.kind === "drag_rudder") geometry.set(node, fitted.geometry);
  }
  // A blade's cap drawn as an object of its own slides with its blade (slide_caps.ts).
  const blades = [...slides].map(([node, { slide, box }]) => ({ box, slide, name: node.getName() }));
  for (const [node, fit] of blades.length ? [...fits] : []) {
    const kind = getPart(node)!.kind;
    if (kind !== "air_brake" && kind !== "spoiler") continue;
    const capped = capOf(boxes.get(node)!, blades);
    if (!capped) continue;
    slides.set(node, { slide: capped.slide, fit, vertices: vertexCounts.get(node)!, box: boxes.get(node)! });
    for (const map of [fits, rules, boxes, offWhole, vertexCounts]) map.delete(node);
  }
  for (const node of byShape.keys()) {
    if (slides.has(node) || !fits.has(node)) continue;
    clearPart(node);
    for (const map of [fits, rules, boxes, offWhole, vertexCounts]) map.delete(node);
  }
  const kindOf = (node: Node) => getPart(node)!.kind;
  // Pieces of one surface (split by material, or into skins) turn about the whole's hinge.
  for (const group of pieceGroups([...fits.keys()], (n) => fits.get(n)!, (n) => boxes.get(n)!, kindOf)) {
    // Each piece was gathered once to be fitted and is again here (not kept: see `geometry` above).
    // Levels of detail drawn at one place take the first level's hinge (lod_levels.ts).
    const first = firstLevel(group);
    // Every piece of a Krueger flap is one, though only one showed it (krueger_flaps.ts).
    for (const { piece, why } of kruegerPieces(group)) {
      rules.set(piece, { rule: "forward_edge", why });
      ctx.warn(`panel '${piece.getName()}' (leading_edge_flap): ${why}; rigged as a Krueger flap`, {
        part: piece.getName(),
      });
    }
    const krueger = group.some(isKruegerFlap);
    const pieces = first.map((node) => drawnPanel(scene, node, poses));
    const union = unionOfPieces(pieces);
    const fitWhole = (edge: HingeEdge) =>
      fitHinge(union.positions, union.count, { ...options, edge }, union.triangles);
    let whole = fitWhole(panelSpec(group[0]).edge);
    if (whole.collinear) continue;
    const rule = hingeRule(first[0], whole, body, fitWhole);
    if (rule.rule === "all_moving") whole = fitWhole("quarter");
    if (group.every((node) => agreesWithWhole(fits.get(node)!, whole))) {
      // A Krueger's pieces are one plate: each turns about the whole flap's forward edge, not its own
      // (a sliver, the plate's forward face, agrees within 5 % of chord yet lies its thickness off).
      if (krueger) {
        for (const node of group) {
          fits.set(node, onWholeSurface(fits.get(node)!, whole));
          offWhole.delete(node); // judged against the piece's own line
        }
      }
      continue;
    }
    const names = group.map((node) => `'${node.getName()}'`).join(", ");
    const { why, warning } = overlapWords(group, names, kindOf(group[0]));
    for (const node of group) {
      fits.set(node, onWholeSurface(fits.get(node)!, whole));
      offWhole.delete(node); // its own sides were judged against a piece's line, not the surface's
      rules.set(node, { rule: rule.rule, why: rule.why ? `${rule.why}; ${why}` : why, weak: rule.weak });
    }
    ctx.warn(warning, { panels: group.map((node) => node.getName()) });
  }
  // Split drag-rudder halves share one hinge: the whole surface's (split_halves.ts).
  for (const [a, b] of splitHalfPairs(fits, kindOf)) {
    const union = unionGeometry(geometry.get(a)!, geometry.get(b)!);
    const fit = fitHinge(union.positions, union.count, { ...options, edge: "forward" }, union.triangles);
    if (fit.collinear) continue;
    for (const half of [a, b]) fits.set(half, onSharedHinge(fits.get(half)!, fit));
  }
  const facingWarned = warnIfFacingBackwards(fits, frame, ctx);
  warnIfFrameDisagrees(fits, frame, ctx, { facingWarned, centreOf });
  // Hinge brackets in objects of their own: listed once, and only when some panel hinges on an edge.
  let hardware: HardwareObject[] | undefined;
  const judgedAlone = (node: Node, fit: HingeFit) => {
    const rule = rules.get(node)!.rule;
    if (rule !== "forward_edge" && rule !== "aft_edge") return judgeFit(fit);
    hardware ??= listHardware(scene, toAircraft);
    return withHardware(
      judgeFit(fit),
      hardwareBeside(fit, rule === "aft_edge" ? "aft" : "forward", hardware),
    );
  };
  const judgement = (node: Node, fit: HingeFit): FitJudgement => {
    const own = judgedAlone(node, fit), rule = rules.get(node)!;
    // A rule the geometry only suggests (a floating elevator taken as all-moving) is weak, and says why.
    const off = [offWhole.get(node), rule.weak ? rule.why : undefined].filter((r) => r !== undefined).join(
      "; ",
    );
    if (!off) return own;
    return {
      ...own,
      confidence: own.confidence === "failed" ? "failed" : "weak",
      reasons: [...own.reasons, off],
    };
  };
  // Aircraft the rig cannot tell apart share the scene's one centre line: their panels take no partner
  // (one aircraft's left would pair with another's right).
  const untold = new Set(untoldAircraft(scene, toAircraft) ?? []);
  // One side of an all-moving pair its author turned onto its shaft shows the other's (partner_shaft.ts).
  sharePartnerShafts(fits, boxes, kindOf, centreOf, (n) => untold.has(n));
  const judged = new Map<Node, JudgedFit>(
    [...fits].map(([node, fit]) => [node, { fit, judgement: judgement(node, fit) }]),
  );
  for (const message of reconcileMirrorPartners(judged, kindOf, centreOf, (n) => untold.has(n))) {
    ctx.warn(message);
  }
  // A panel whose mirror image its name left fixed (a kit-bashed file's two namings): mirror_strays.ts.
  for (const message of mirrorStrays(scene, toAircraft, fits, kindOf, centreOf, untold)) ctx.warn(message);
  const animated = scene.getRoot().listAnimations().length > 0;
  // Flap tracks and their fairings, listed once and only when a flap is fitted (fowler_flaps.ts).
  let tracks: TrackIsland[] | undefined;
  for (const [node, geometric] of judged) {
    const part = getPart(node)!;
    // The model's own animation, where it turns the panel about one line, states its hinge.
    const keyed = animated ? keyedFit(node, geometric.fit, geometric.judgement, toAircraft) : undefined;
    if (keyed && "warning" in keyed) ctx.warn(`panel '${node.getName()}' (${part.kind}): ${keyed.warning}`);
    const fromKeys = keyed && "fit" in keyed ? keyed : undefined;
    const { fit, judgement } = fromKeys ?? geometric;
    const mirroredFrom = fromKeys?.why ? undefined : geometric.mirroredFrom;
    reportConfidence(node, part, judgement, params.strict, ctx);
    if (!fromKeys && (fit.shaft === "guessed" || fit.shaft === "origin")) {
      warnGuessedShaft(node, part.kind, fit.shaft, ctx);
    }
    const opening = openings.get(node) ?? openingOf(node, part, fit, fits, body);
    // A Fowler flap runs aft along its tracks before it turns: only the turn is rigged, said so.
    const fowler = part.kind === "flap" && part.driven_by !== "skin"
      ? fowlerFlap(node, geometric.fit, tracks ??= listTrackIslands(scene, toAircraft))
      : undefined;
    // Where the tracks run (world), so the slide the rig leaves out can be declared along them.
    const record = fowler && fowlerRecord(fowler, toAircraft);
    if (fowler) {
      const along = record?.along_world
        ? ` (${record.along_world.map((v) => v.toFixed(3)).join(", ")} in world)`
        : "";
      ctx.warn(
        `panel '${node.getName()}' (flap): a Fowler flap (${fowler.why}): it runs aft along its tracks as it ` +
          "turns; only its turn about its forward edge is rigged, its travel aft is not modelled — to slide it " +
          `too, give a node above its pivot ctrl_type: translation with X along the tracks${along} (unit m, 0 ` +
          "to about its chord)",
        { panel: node.getName(), tracks: fowler.tracks },
      );
    }
    const rule = fromKeys?.why ? { rule: "animation" as const, why: fromKeys.why } : rules.get(node)!;
    const fowlerWhy = fowler &&
      `a Fowler flap (${fowler.why}): its travel aft along the tracks is not modelled`;
    const quality = {
      bins: params.bins,
      vertices: vertexCounts.get(node)!,
      judgement,
      mirroredFrom,
      rule: fowlerWhy ? { ...rule, why: rule.why ? `${rule.why}; ${fowlerWhy}` : fowlerWhy } : rule,
      keyedRange: fromKeys?.range,
    };
    const signed = signedPart(node, part, fit, quality, frame, toAircraft, opening, ctx);
    if (record) signed.fit = { ...signed.fit!, fowler: record };
    setPart(node, signed);
  }
  for (const [node, { slide: found, fit, vertices }] of slides) {
    const part = getPart(node)!, shape = byShape.get(node);
    const slide = shape ? { ...found, why: `${shape}; ${found.why}` } : found;
    if (shape) {
      ctx.warn(
        `panel '${node.getName()}' (${part.kind}): no name tells it is an airbrake — ${shape}; rigged to ` +
          "slide as one: name it (Airbrake_L) or give it ctrl_type extras if it is not",
        { panel: node.getName(), found_by: "shape" },
      );
    }
    if (slide.doubt) {
      ctx.warn(`panel '${node.getName()}' (${part.kind}): slides, but ${slide.doubt}`, {
        panel: node.getName(),
        confidence: "weak",
        reasons: [slide.doubt],
      });
    }
    setPart(node, slidPart(node, part, slide, fit, { bins: params.bins, vertices }, toAircraft));
  }
  return { scene: hideAgain(scene, shown) };
};

/** A Fowler flap's record for `fit.fowler`: its tracks and the world direction they run aft along. */
function fowlerRecord(
  fowler: { tracks: string[]; along?: Vec3 },
  toAircraft: Mat4,
): NonNullable<FitQuality["fowler"]> {
  if (!fowler.along) return { tracks: fowler.tracks };
  const world = normalize(transformDirection(invertAffine(toAircraft), fowler.along));
  return { tracks: fowler.tracks, along_world: canonicalVec3(world.map((v) => Math.round(v * 1e4) / 1e4)) };
}

/**
 * How a brake slides when it is an upright blade standing in a wing's skin, or the edge it turns about
 * when it is a plate drawn open out of one (`slide_blades.ts`), else undefined: only air brakes and
 * spoilers drawn as meshes, read against the fixed geometry about them.
 */
function brakeShape(
  node: Node,
  fitted: { geometry: PanelGeometry },
  body: BodySampler,
  glider: () => string | undefined,
): BrakeReading | undefined {
  const part = getPart(node)!;
  if ((part.kind !== "air_brake" && part.kind !== "spoiler") || part.driven_by === "skin") return undefined;
  return brakeReading(
    node.getName(),
    fitted.geometry,
    (centre, reach) => body.othersThan(node, { fixedOnly: true, near: { centre, reach } }),
    // An air brake drawn open 45–90° out of a skin is read for its edge there too (a dive brake).
    { glider, plates: part.kind === "air_brake" },
  );
}
