/**
 * `rig.assign_side` — gives every part a side: from its name first (`_L`, `.L`, `Left`, `Port`,
 * `lh`, `l_` …; `_R`, `Right`, `Starboard`, `stbd`, `rh` …; `_C`, `Centre`), otherwise from where
 * its geometry sits: within a band of the centre line it is centre, else the side it is on. The band
 * is 5 cm in metres, or a fraction of the model's size when the decoder recorded the unit as unknown.
 * A panel named left or right that lies wholly on the other side, while most named panels agree with
 * the frame (a mirrored duplicate keeping its name, `Aileron.L.001`), takes its geometry's side, warned.
 * Copies of the whole aircraft laid out apart (a showcase's levels of detail, damage states, variants,
 * a duplicate) are each sided about their own centre line (`copies.ts`), their propellers too; so are
 * different aircraft in one file (a hangar or collection: `Spitfire_…` beside `Bf109_…`, a group per type).
 *
 * @module
 */
import { defineNode } from "../../runtime/node.ts";
import { lazyRun } from "../../runtime/lazy_run.ts";
import { FORWARD_PARAM, UP_PARAM } from "./frame_params.ts";

/** `rig.assign_side` node definition. */
export const rigAssignSide = defineNode({
  type: "rig.assign_side",
  // 3: frame detection reads skinned meshes at rest. 4: a panel named left or right lying wholly
  // on the other side, when most named panels agree with the frame, takes its geometry's side.
  // 9: "auto" frame detection reads a box fuselage's centre line at its slimmer end, not its wing root.
  // 10: "auto" frame detection reads a helicopter's main rotor apart (a flat wide layer on a mast, or parts
  // named as one): up from it, the tail from the body running further from its mast, the other measures
  // without it; tail rotor and tail boom names mark the tail (1,728 generated helicopters in 24 frames: 312
  // right and good, 96 wrong and judged good before; now all right and good).
  // 12: copies of the whole aircraft laid out apart each have their own centre line (copies.ts): beside
  // the scene's, a copy's right-named panels lay on the left and were taken for mirrored duplicates
  // (24 of 60 panels on the wrong side, 8 of them with good fits); "auto" reads the first copy's frame.
  // 13: copies told apart by other names (copy_names.ts: `_High`/`_Low`, `-lod1` beside an unmarked
  // first level, `.001` duplicates of the whole aircraft, `_damaged`; Unity LOD parents and variants
  // holding the same names) each have their own centre line, from their left/right pairs' middles; a
  // propeller or rotor in a copy laid out apart is sided about it. Generated showcases, seeds 200–207:
  // 348 of 5,600 panels on the wrong side (124 judged good), 342 of 1,936 propellers (all good); now none.
  // (Same session.) A Blender duplicate of an original drawn in pieces (`Aileron_L`, `Aileron_L.001`,
  // duplicated as `.002`/`.003` beside `Fuselage.001`) settles its pieces by place (copy_members.ts):
  // 160 of 1,008 panels on the wrong side (40 judged good), 40 of 256 propellers; now none. Names merely
  // repeated (a flattened duplicate) are copies by occurrence: 144 of 800 panels on the wrong side, all
  // judged good; now none. All namings, five layouts (a grid too), both frames: 866 of 9,060 panels and
  // 558 of 3,020 propellers on the wrong side; now none.
  // 14: different aircraft in one file (copies.ts: `Spitfire_Aileron_L` beside `Bf109_Aileron_L`, one
  // group or named root per type, the same names whose panels differ; by place where names cannot tell:
  // the same names in no order, each aircraft spelling sides its own way — copy_places.ts) each have their
  // own centre line, and copies apart along any axis (a grid narrower than the span) too. Generated hangars
  // (hangar_scenes.ts, held-out seeds 11–18, both frames): 625 of 3,600 panels on the wrong side (484
  // judged good); now none.
  // 15: aircraft it cannot tell apart (copy_untold.ts: parked wing over wing, names telling no one's
  // objects) are warned of, naming their panels, and judged weak — they fell back to one centre line
  // silently; a hangar building's floor, roof and walls are read past (copy_places.ts, up to eight objects
  // larger than any panel); two objects of one name however each spells its side make no split. Crowded
  // hangars (hangar_scenes.ts CROWDED_LAYOUTS, held-out seeds 21–23, both frames): 58 of 792 panels wrong,
  // all judged good and none warned of; now none judged good, all named in a warning. Different aircraft
  // each in levels (`Spitfire_Aileron_L_LOD1` beside `Bf109_…_LOD1`) are read per aircraft and level, and
  // camel-case names (`F16AileronLeft`, `Mig29RudderLOD1`, `spitfireElevatorR`) give their type and level
  // (copy_names.ts); a level glued to a side letter (`AileronLLOD1`) no longer hides the side. Fleets
  // (fleet_names.ts, held-out seeds 21–22, both frames): 272 of 600 panels wrong (104 judged good); now none.
  // 16: copies at one place whose left and right pairs share a centre line (a damaged copy missing a wing)
  // are told, not warned of as aircraft it cannot tell apart (their boxes differ, one centre line serves).
  // 17: and only when each copy's own left/right pairs agree on its centre line (copies read by the names'
  // order, mixing two touching aircraft, were taken as at one place: 10 of 792 panels wrong and good).
  // 18: the "auto" frame found when no earlier node recorded one guesses up from the wing sections'
  // camber where no fin tells it (frame_camber.ts), so sides by geometry may change.
  // 19: and, failing the camber, from an exporter's root turning a Z-up file's +Z onto ±Y (frame_zup.ts).
  // 20: where that frame's up or tail end stays a guess, every fitted part is judged weak at best in the
  // scene's extras too, not only in rig.report (the rigged file said good where the report said weak).
  // 21: a side glued to its word (`aill`, `aileronl`, `LFLAP`) no longer reads every left panel as one
  // name `|left` (so as several aircraft that cannot be told apart, all weak): `ail|left`, `flap|left`.
  // 22: `lft`/`rgt` name sides (`Aileron_Lft`: its side was the geometry's).
  // 23: the "auto" frame's camber cue as rig.fit_hinge v48 reads it (frame_camber.ts).
  // 24: aircraft touching each other among others parked clear, where names cannot tell whose an object
  // is, are one group by place (copy_places.ts): the others keep their own centre lines and are judged
  // on their geometry; only the group's panels are warned of and weak (were all the scene's).
  // 25: inside a touching group each aircraft's centre line is read from its shape where mirror pairs and
  // a fuselage agree on it (copy_touching.ts): its panels are sided about it and not warned of; aircraft
  // whose names barely overlap (`Aileron_L` beside `Querruder_L`) are a group by their panels' kinds.
  // And the "auto" frame reads up from low-poly wing sections' camber (frame_camber.ts, 4–10 points round).
  // 26: copies read by names merely repeated are settled by place (copy_members.ts settleRepeated): a
  // German-named aircraft's one English `Rudder` read as the next aircraft's by the names' order (sided
  // about its centre line: wrong and good, touching_tally.ts seeds 501–504, 2 of 1,136 panels) is its own.
  // 27: names are read with the file's others (vocabulary_pairs.ts): `RAIL` beside `LAIL` is right, a
  // `P` is port beside `S` and prawy (right) beside `L`, `D` right beside `G`, `I` or `E`; a `P` nothing
  // pairs is sided by geometry and warned. Held-out exporter names: 301 sides stated but unread -> 0.
  // 29: a propeller or rotor in a copy laid out apart whose name states its side in the file's words
  // (`Helice_D` beside `Aileron_G`) keeps the name's side, as `Propeller_R` did (its hub's was taken).
  // And a kit-bashed file's side habits (the wings `AileronP`/`AileronS`, the tail `Elevator_L`/
  // `Elevator_P`: L, P and S together pair nothing) are read per kind of surface (vocabulary_pairs.ts
  // kindPairedLetters), where the kind's panels lie on those sides (assign_side_habits.ts), else by
  // geometry, warned; a letter naming both sides in one file is warned of, naming its panels.
  // 30: damage copies lying apart as debris (detect_panels_debris.ts) are no copy of the aircraft nor in
  // one: a damage copy at its place was sided about a centre line the debris pulled (copies.ts).
  // 31: debris and damage copies as rig.detect_panels v37 reads them (damage_states.ts, detect_panels_debris.ts).
  // 32: a panel reaching across the centre line whose fitted hinge lies on it is a central one, whatever
  // hangs off one face (a rudder's lone horn). fin_horns.ts held-out seeds 7000-7499: 21 of 200 -> 0.
  // 33: a rudder (an all-moving fin's too) across the centre line whose hinge lies within 6 % of its chord
  // of it is a central one (a cambered fin's quarter chord). fin_sides_tally.ts held-out seeds 11000-11499
  // drawn 4 times larger: all-moving fins sided wrong 36 of 100 (23 silently) -> 0.
  // 34: a side letter beside a two-word kind (`Ster_wysokosci_P` beside `_L`) is paired (vocabulary_pairs.ts),
  // not sided by geometry as an unpaired P.
  // 35: a leading-edge flap's pivot declared again without its extras, its panel lying aft of it, is a
  // Krueger flap's (recovered_senses.ts): trailing edge down, 0-130 degrees, not a droop flap's
  // leading_edge_down, -3-25 degrees warned as untold. krueger_rerig_probe held-out seeds 11-13: 192 of
  // 192 -> 0.
  // 36: the "auto" frame, the copies' boxes and recovered senses read what triangles with an area draw
  // (drawn_vertices.ts, mesh_bounds.ts), as rig.fit_hinge v92: leftover corners in a surface's mesh
  // turned the frame found; a loose vertex at the origin made aircraft apart overlap.
  // 37: the copies' boxes are read per primitive, not per vertex buffer (mesh_bounds.ts), as
  // rig.fit_hinge v93: meshes sharing one buffer each had the buffer's box.
  // 38: the lateral bounds a side is read from (and a named side checked against) are those of what
  // triangles with an area draw (local_meshes.ts axisBounds): side-less surfaces drawn out of one
  // buffer for the whole aircraft (`Ruddervator`/`Ruddervator.001`) reached across the centre line
  // and were sided centre, silently (undrawn_tally.ts sides).
  // 39: a skin bone's lateral bounds (and the "auto" frame's skinned meshes) are those of what triangles
  // with an area draw (bone_geometry.ts drawnVertices), as rig.fit_hinge v104: a deleted face's corners
  // keep their weights on the bone.
  version: 39,
  doc: "Assigns every part a side (left, right, centre): from its name, else from where its geometry " +
    "sits relative to the centre line (a band around it is centre).",
  inputs: { scene: { type: "scene", doc: "A scene with parts marked." } },
  outputs: { scene: { type: "scene", doc: "The scene with extras.partgraph.part.side on every part." } },
  params: {
    forward: FORWARD_PARAM,
    up: UP_PARAM,
    centre_band: {
      type: "number",
      default: 0.05,
      min: 0,
      doc: "Half-width of the centre band in metres, used when the scene's unit is known " +
        "(never wider than centre_band_fraction of the model).",
    },
    centre_band_fraction: {
      type: "number",
      default: 0.01,
      min: 0,
      max: 0.5,
      doc:
        "Half-width of the centre band as a fraction of the model's largest extent: the band when the unit " +
        "is unknown, and its widest when it is known.",
    },
  },
  run: lazyRun(new URL("./assign_side_run.ts", import.meta.url)),
});
