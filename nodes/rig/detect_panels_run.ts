/**
 * The work of `rig.detect_panels` (declared in `detect_panels.ts`), loaded on the node's first run.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { NodeRun } from "../../runtime/lazy_run.ts";
import type { RunContext } from "../../runtime/node.ts";
import { rigScene } from "./rig_scene.ts";
import { namedPanelPart } from "./kinds.ts";
import { getPart, isPart, setPart } from "./part_extras.ts";
import { topLevelOf } from "./scene_order.ts";
import { subtreeNodes } from "./geometry.ts";
import { skinJoints } from "./bone_geometry.ts";
import { matchPanelName, type NameMatch, namesAircraft, partneredWords, sideFromName } from "./vocabulary.ts";
import type { rigDetectPanels } from "./detect_panels.ts";
import { foreplanesCarryingElevators } from "./canard_elevators.ts";
import { rotorcraftEvidence } from "./rotorcraft.ts";
import { findSpinningParts, groupSiblingBlades } from "./detect_spinning.ts";
import { BARE_SPINNING_KIND } from "./spin_hinge.ts";
import { SPINNING_SPECS } from "./spinning_names.ts";
import { PLACEHOLDER } from "./panel_names.ts";
import { propSettings } from "./scene_setting.ts";
import { cutReadings } from "./vocabulary_cuts.ts";
import { cutTwinTabs } from "./detect_panels_twins.ts";
import { isProxyGroupName, warnProxyGroups } from "./proxy_groups.ts";
import { withoutDebris } from "./detect_panels_debris.ts";
import { separateMaterialPanels } from "./material_panels.ts";

/** Kinds that make a weak `stab`/`tailplane` hint redundant: the model already has a pitch surface. */
const PITCH_KINDS: ReadonlySet<string> = new Set(["elevator", "elevon", "stabilator", "ruddervator"]);

/** How the run reads a name (the file's partnered words and cut readings applied). */
type NameReader = (name: string) => NameMatch | undefined;

interface Candidate {
  readonly node: Node;
  readonly match: NameMatch;
  /** The candidate this one sits inside (only trim tabs and weak hints nest). */
  readonly outer?: Candidate;
}

/** `rig.detect_panels`: see its declaration. */
export const run: NodeRun<typeof rigDetectPanels> = ({ inputs, params, ctx }) => {
  if (!params.names) {
    ctx.cheapToRecompute(); // passed through: storing it again would encode the same scene twice
    return { scene: inputs.scene };
  }
  const scene = rigScene(inputs.scene, ctx);
  // A surface told from its wing only by its material becomes a node of its own (material_panels.ts).
  separateMaterialPanels(scene, ctx);
  const nodes = scene.getRoot().listNodes();
  // A skinned mesh under a bone is drawn where its joints put it, so it is no geometry of the bone's.
  const bones = new Set([...skinJoints(scene)].filter((joint) => !hasGeometry(joint, { rigidOnly: true })));
  // Parts already in the scene count too: an author's CTRL_Elevator, or an earlier run's pivots.
  const pitchPart = nodes.some((n) => PITCH_KINDS.has(getPart(n)?.kind ?? ""));
  // `RAIL` is a right aileron where `LAIL` names the left one; elsewhere a rail.
  const partnered = partneredWords(nodes.map(searchName));
  // `FLAP_LEF`: a flap whose `LEFT` a name field cut, or a leading-edge flap; the file decides.
  const cuts = cutReadings(nodes.map(searchName), partnered);
  // Once per name: 30,000 unnamed nodes are one "" read (each reading a pure function of the name).
  const readings = new Map<string, NameMatch | undefined>();
  const read: NameReader = (name) => {
    if (!readings.has(name)) readings.set(name, cuts.get(name)?.match ?? matchPanelName(name, partnered));
    return readings.get(name);
  };
  // A group's pieces are sided with the file's words too: `Lotka` holding `Lotka_L` and `Lotka_P`.
  const found = findCandidates(topLevelOf(scene), bones, read, (name) => sideFromName(name, partnered));
  warnProxyGroups(topLevelOf(scene), (n) => !isPart(n) && read(searchName(n)) !== undefined, ctx);
  // A canard carrying an elevator is the fixed foreplane the elevator hangs on (a VariEze's).
  // An elevator already a part (an earlier run's pivot, a declared one) keeps its canard fixed on re-runs.
  const elevatorParts = nodes.filter((n) => getPart(n)?.kind === "elevator").map((node) => ({
    node,
    kind: "elevator",
  }));
  const foreplanes = foreplanesCarryingElevators([
    ...found.map((c) => ({ ...c, kind: c.match.kind })),
    ...elevatorParts,
  ]);
  for (const { canard, elevator } of foreplanes) {
    ctx.warn(
      `'${canard.getName()}' is named a canard but carries the elevator '${elevator.getName()}' along it: ` +
        "taken as the fixed foreplane the elevator is hinged on, not rigged as an all-moving canard",
    );
  }
  const fixed = new Set(foreplanes.map((f) => f.canard));
  const accepted = acceptCandidates(
    found.filter((c) => !fixed.has(c.node)).map((c) =>
      c.outer && fixed.has(c.outer.node) ? { ...c, outer: undefined } : c
    ),
    pitchPart,
  );
  // A helicopter's horizontal stabiliser is fixed: weak hints alone do not make it all-moving there.
  const weak = accepted.filter((c) => c.match.weak);
  const rotorcraft = weak.length > 0 ? rotorcraftEvidence(nodes) : undefined;
  if (rotorcraft) {
    const list = weak.map((c) => `'${c.node.getName()}'`).join(", ");
    ctx.warn(
      `${list} ${weak.length === 1 ? "is" : "are"} named like a stabiliser on a rotorcraft (rotor parts ` +
        `${rotorcraft.rotors.map((r) => `'${r}'`).join(", ")}): taken as its fixed horizontal stabiliser ` +
        "and not rigged — name it Stabilator (as a UH-60's is) or give it ctrl_type extras to rig it",
      { panels: weak.map((c) => c.node.getName()), rotors: [...rotorcraft.rotors] },
    );
  }
  const named = withContext(rotorcraft ? accepted.filter((c) => !c.match.weak) : accepted, nodes, ctx);
  // A damage copy lying apart from its surface is debris, no surface of the aircraft.
  const panels = withoutDebris(withoutProps(named, nodes, ctx), ctx);
  // Props named like surfaces were named in their own warning: no "nothing to rig" besides.
  const props = named.length - panels.length;
  const panelNodes = new Set(panels.map((c) => c.node));
  // Propellers and rotors: outside every panel and part, the panels just found included.
  const spinning = groupSiblingBlades(
    scene,
    findSpinningParts(
      topLevelOf(scene),
      (node) => !bones.has(node) && hasGeometry(node, { rigidOnly: true }),
      searchName,
    ).filter(({ node }) =>
      !panelNodes.has(node) && !holdsAny(node, panelNodes) && !underAny(node, panelNodes)
    ),
    searchName,
  );
  if (panels.length === 0 && spinning.length === 0 && !nodes.some(isPart) && !rotorcraft && props === 0) {
    // Exports that lost their object names (`Object_12`) rig nothing: say why instead of passing silently.
    // Web optimisers join meshes and flatten the tree by default (glTF-Transform's optimize writes its
    // own generator over the file's, so the file cannot tell): name the options that keep parts apart.
    const meshes = nodes.filter((n) => n.getMesh()).length;
    ctx.warn(
      `no node name suggests a control surface (${nodes.length} nodes searched) and no part is declared: ` +
        "nothing to rig — name panels like Aileron_L, or give pivots ctrl_type extras. " +
        `If the file went through a web optimiser, its surfaces may be joined into its ${meshes} ` +
        `mesh${meshes === 1 ? "" : "es"}: rig it before optimising, or keep parts apart ` +
        "(gltf-transform optimize --join false --flatten false; gltfpack -kn)",
    );
  }
  const undecided = panels.filter((c) => cuts.get(searchName(c.node))?.decided === false);
  if (undecided.length > 0) {
    const list = undecided.map((c) => `'${c.node.getName()}'`).join(", ");
    const other = cuts.get(searchName(undecided[0].node))!.other;
    ctx.warn(
      `${list} ${undecided.length === 1 ? "ends" : "end"} in LEF: a leading-edge flap, or a${
        other === "aileron" || other === "elevator" ? "n" : ""
      } ${
        other.replaceAll("_", " ")
      } whose LEFT an old format's name field cut — rigged as a leading-edge flap ` +
        "(nothing else in the file tells: no right-hand partner, other names not cut at this length); " +
        "rename it or give it ctrl_type extras if it is the other",
      { panels: undecided.map((c) => c.node.getName()), readings: ["leading_edge_flap", other] },
    );
  }
  // `Elevator_L` twice in a .3ds file: the smaller is `Elevator_L_Tab` cut to 10 characters.
  const { tabs: twinTabs, doubts } = cutTwinTabs(panels, nodes.map(searchName), searchName);
  if (doubts.size > 0) {
    const pairs = [...doubts].map(([tab, surface]) => `'${tab.getName()}' (beside '${surface.getName()}')`);
    ctx.warn(
      `${pairs.join(", ")}: named as ${doubts.size === 1 ? "a surface" : "surfaces"} in a file whose ` +
        "names are cut to one length, and much smaller than the surface of that kind beside — a trim tab " +
        "whose Tab/Trim the name field cut away, or a piece of that surface: rigged as named; rename or " +
        "give ctrl_type extras if it is a tab",
      { panels: [...doubts.keys()].map((n) => n.getName()), readings: ["trim_tab", "surface"] },
    );
  }
  if (twinTabs.size > 0) {
    const pairs = [...twinTabs].map(([tab, surface]) => `'${tab.getName()}' (on '${surface.getName()}')`);
    ctx.warn(
      `${pairs.join(", ")} ${twinTabs.size === 1 ? "is" : "are"} named as ${
        twinTabs.size === 1 ? "its" : "their"
      } surface in a file whose names are cut to one length, and much smaller: ` +
        "read as trim tabs whose Tab/Trim the name field cut away — rename or give ctrl_type extras if not",
      { panels: [...twinTabs.keys()].map((n) => n.getName()) },
    );
  }
  for (const { node, match } of panels) {
    const kind = twinTabs.has(node) ? "trim_tab" : match.kind;
    setPart(node, { ...namedPanelPart(kind), driven_by: bones.has(node) ? "skin" : undefined });
  }
  for (const { node, named } of spinning) {
    // A bare `Rotor` or `Propeller` is a propeller, main or tail rotor by its shaft (rig.fit_hinge).
    const spec = named === "bare" ? undefined : SPINNING_SPECS[named];
    setPart(node, {
      kind: named === "bare" ? BARE_SPINNING_KIND : named,
      found_by: "name",
      unit: "deg",
      rest: 0,
      group: spec?.group,
      positive: spec?.positive,
    });
  }
  return { scene };
};

function holdsAny(node: Node, set: ReadonlySet<Node>): boolean {
  return node.listChildren().some((child) => set.has(child) || holdsAny(child, set));
}

function underAny(node: Node, set: ReadonlySet<Node>): boolean {
  for (let p = node.getParentNode(); p; p = p.getParentNode()) if (set.has(p)) return true;
  return false;
}

/**
 * A node's name as name search reads it: without the `_<material>_<n>` that Sketchfab's converter
 * appends to the mesh nodes it makes (`Fuselage_Aileron_Paint_0` under `Fuselage`), since a material
 * named like a surface is paint, not a surface; the object's own name stays (`Aileron_L_Metal_0`
 * still reads `Aileron_L`). A node named nothing or only a placeholder (SketchUp's `Component#3` instance
 * of its `Aileron_L` definition, an unnamed node three.js shows by its mesh's name) reads its mesh's name.
 */
function searchName(node: Node): string {
  const mesh = node.getMesh()?.getName();
  const name = mesh && PLACEHOLDER.test(node.getName()) ? mesh : node.getName();
  const counter = name.lastIndexOf("_");
  if (counter < 0 || !/^\d+$/.test(name.slice(counter + 1))) return name;
  for (const primitive of node.getMesh()?.listPrimitives() ?? []) {
    const material = primitive.getMaterial()?.getName();
    const suffix = `_${material}`;
    if (material && counter > suffix.length && name.slice(0, counter).endsWith(suffix)) {
      return name.slice(0, counter - suffix.length);
    }
  }
  return name;
}

function hasGeometry(node: Node, options: { rigidOnly?: boolean } = {}): boolean {
  return subtreeNodes(node).some((n) =>
    !(options.rigidOnly && n.getSkin()) &&
    n.getMesh()?.listPrimitives().some((p) => p.getAttribute("POSITION"))
  );
}

/**
 * Walks the hierarchy top-down collecting name matches (outermost first) among nodes with geometry
 * and skin `bones` without (whose geometry is the vertices skinned to them).
 */
function findCandidates(
  roots: readonly Node[],
  bones: ReadonlySet<Node>,
  read: NameReader,
  sideOf: (name: string) => string | undefined,
): Candidate[] {
  const movesGeometry = (node: Node) => bones.has(node) || hasGeometry(node);
  const out: Candidate[] = [];
  const visit = (node: Node, outer: Candidate | undefined) => {
    // A `Collision` or `Shadow` group's nodes named as surfaces are their proxies (proxy_groups.ts).
    if (isPart(node) || isProxyGroupName(node.getName())) return;
    const match = read(searchName(node));
    // Inside a panel only a trim tab is a panel of its own; a weak hint lets anything through.
    // An elevator inside a canard may be the canard's own (a fixed foreplane's; see canard_elevators.ts).
    const allowed = match &&
      (!outer || outer.match.weak || (match.kind === "trim_tab" && outer.match.kind !== "trim_tab") ||
        (match.kind === "elevator" && outer.match.kind === "canard"));
    if (
      allowed && !holdsBlockingPart(node) && movesGeometry(node) &&
      !isGroupOfPanels(node, match, movesGeometry, read, sideOf)
    ) {
      const candidate: Candidate = { node, match, outer };
      out.push(candidate);
      for (const child of node.listChildren()) visit(child, candidate);
      return;
    }
    for (const child of node.listChildren()) visit(child, outer);
  };
  for (const root of roots) visit(root, undefined);
  return out;
}

/**
 * True when a part is under the node that the node must be left to: any part the model declares
 * (`ctrl_type`, whatever its kind, a tab included), a decoder's joint, or one of partgraph's own
 * earlier pivots — except an earlier pivot of a trim tab, which may turn inside its surface (so a
 * surface an earlier run could not rig, holding the tab it did, is found and judged again).
 */
function holdsBlockingPart(node: Node): boolean {
  return node.listChildren().some((child) => {
    if (!isPart(child)) return holdsBlockingPart(child);
    const part = getPart(child);
    // Our own pivots record the panel they turn; a declared part is one the model carries itself.
    const ownPivot = part?.panel !== undefined;
    return !ownPivot || part?.kind !== "trim_tab";
  });
}

/**
 * A node named like a surface that holds two or more separate surfaces — named in the plural
 * (`Canards`) or holding surfaces of different sides, as `sideOf` reads them with the file's words
 * (`Aileron` holding `Aileron_P` and `Aileron_S`) — is a group of panels, not a panel.
 */
function isGroupOfPanels(
  node: Node,
  match: NameMatch,
  movesGeometry: (node: Node) => boolean,
  read: NameReader,
  sideOf: (name: string) => string | undefined,
): boolean {
  const inner: Node[] = [];
  const visit = (n: Node) => {
    if (read(searchName(n)) && movesGeometry(n)) inner.push(n);
    else for (const child of n.listChildren()) visit(child);
  };
  for (const child of node.listChildren()) visit(child);
  if (inner.length < 2) return false;
  const sides = new Set(inner.map((n) => sideOf(searchName(n))).filter((s) => s !== undefined));
  return match.plural || sides.size >= 2;
}

/**
 * Keeps strong matches (dropping same-surface repeats nested inside them) and weak `stab` hints only
 * when no pitch surface was found (nor is a part: `pitchPart`) and nothing strong sits inside them.
 */
function acceptCandidates(candidates: readonly Candidate[], pitchPart: boolean): Candidate[] {
  const strong = candidates.filter((c) => !c.match.weak);
  const anyPitch = pitchPart || strong.some((c) => PITCH_KINDS.has(c.match.kind));
  const rejected = new Set<Candidate>();
  for (const c of candidates) {
    if (!c.match.weak) continue;
    const holdsStrong = strong.some((s) => s.match.kind !== "trim_tab" && isInside(s, c));
    if (anyPitch || holdsStrong || (c.outer && !rejected.has(c.outer))) rejected.add(c);
  }
  return candidates.filter((c) => {
    if (rejected.has(c)) return false;
    // A strong match inside an accepted strong or weak panel is the same surface, unless a trim tab.
    if (!c.match.weak && c.outer && !rejected.has(c.outer) && c.match.kind !== "trim_tab") return false;
    return true;
  });
}

/**
 * Drops panels named only by a word that names something else outside an aircraft (`Volet_G`: a
 * window's shutter) unless the scene is an aircraft by another name — another panel, a declared part,
 * or a node named for an aircraft's structure (`Wing`, `Fuselage`, `Aile`) — and says which.
 */
function withContext(
  panels: readonly Candidate[],
  nodes: readonly Node[],
  ctx: Pick<RunContext, "warn">,
): Candidate[] {
  const contextual = panels.filter((c) => c.match.contextual);
  if (contextual.length === 0) return [...panels];
  const aircraft = panels.some((c) => !c.match.contextual) || nodes.some(isPart) ||
    nodes.some((n) => namesAircraft(n.getName()) || namesAircraft(n.getMesh()?.getName() ?? ""));
  if (aircraft) return [...panels];
  const list = contextual.map((c) => `'${c.node.getName()}'`).join(", ");
  ctx.warn(
    `${list} ${contextual.length === 1 ? "is" : "are"} named by a word that also names things other than ` +
      "a control surface (volet: a shutter; bec: a spout; tab: a pull), and nothing else names this scene an aircraft: " +
      "not rigged — name a wing or fuselage, another surface, or give it ctrl_type extras to rig it",
    { panels: contextual.map((c) => c.node.getName()) },
  );
  return panels.filter((c) => !c.match.contextual);
}

/** How a warning names what a prop belongs to. */
const PROP_PHRASES: Readonly<Record<string, string>> = {
  car: "a car",
  building: "a building",
  ship: "a ship or boat",
  crane: "a crane",
  robot: "a robot",
  tent: "a tent",
  theatre: "a theatre",
  furniture: "furniture",
};

/**
 * Drops panels the scene says belong to something other than an aircraft — a car's `Rear_Spoiler`, a
 * building's `Elevator`, a ship's `Rudder` (see `scene_setting.ts`) — and names them and the names that
 * told. A boat's rudder does turn, about a post the aircraft rig would not find: it is left to the user.
 */
function withoutProps(
  panels: readonly Candidate[],
  nodes: readonly Node[],
  ctx: Pick<RunContext, "warn">,
): Candidate[] {
  if (panels.length === 0) return [...panels];
  const settings = propSettings(new Map(panels.map((c) => [c.node, c.match.kind])), nodes, searchName);
  if (settings.size === 0) return [...panels];
  const byWhat = new Map<string, { panels: string[]; evidence: Set<string> }>();
  for (const [node, { what, evidence }] of settings) {
    const entry = byWhat.get(what) ?? { panels: [], evidence: new Set() };
    entry.panels.push(node.getName());
    for (const e of evidence) entry.evidence.add(e);
    byWhat.set(what, entry);
  }
  for (const [what, { panels: names, evidence }] of byWhat) {
    ctx.warn(
      `${names.map((n) => `'${n}'`).join(", ")} ${names.length === 1 ? "is" : "are"} named like a control ` +
        `surface but belong${names.length === 1 ? "s" : ""} to ${
          PROP_PHRASES[what] ?? what
        } by the names about ` +
        `${names.length === 1 ? "it" : "them"} (${
          [...evidence].slice(0, 4).map((e) => `'${e}'`).join(", ")
        }): ` +
        `not rigged as an aircraft's surface — give ${names.length === 1 ? "it" : "each"} ctrl_type extras ` +
        "(its hinge on a pivot) to rig it",
      { panels: names, setting: what, evidence: [...evidence] },
    );
  }
  return panels.filter((c) => !settings.has(c.node));
}

function isInside(inner: Candidate, outer: Candidate): boolean {
  for (let c = inner.outer; c; c = c.outer) if (c === outer) return true;
  return false;
}
