/**
 * `decode.dson` — a Daz DSON file (`.duf` scene or `.dsf` library, plain or gzip) into a scene:
 * figures and bones as a joint hierarchy, geometry per surface, UVs, skin, morph targets, rigidity
 * and graft records, with references followed into the given content roots.
 *
 * @module
 */
import { importOnUse, preloadWith } from "../../../runtime/lazy_run.ts";
import { defineNode, type JsonValue } from "../../../runtime/node.ts";

/** Checks the `content_roots` parameter: a list of directory paths. */
export function checkContentRoots(value: JsonValue): string | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === "string" && v !== "")
    ? undefined
    : "expected a list of directory paths";
}

/**
 * What the run imports, on its first call or ahead of it (a batch worker's preload): not to declare
 * the node, which would load the codec.
 */
const runModules = () =>
  Promise.all([
    importOnUse<typeof import("./codec/build_scene.ts")>("./codec/build_scene.ts", import.meta.url),
    importOnUse<typeof import("./codec/load.ts")>("./codec/load.ts", import.meta.url),
  ]);

/** `decode.dson` node definition. */
export const decodeDson = defineNode({
  type: "decode.dson",
  // 2: a geometry that draws no polygon gets no mesh (and a warning) instead of an empty one.
  // 3: a bone not inheriting scale keeps its size under a scaled parent; a lower-case rotation
  // order is read (not XYZ); a bone instance without parent takes its definition's; a stray '%'
  // no longer leaves UTF-8 escapes encoded; gzip followed by padding or more members is read; a
  // scene without node instances decodes the file's libraries.
  // 4: a null channel value (Qt's JSON writer's NaN) reads as absent, with a warning (was a
  // DecodeError); an instance's channel overrides its definition's axis by axis; polygons with a
  // face group or surface index out of range are kept (no group; a white "no surface" material);
  // a scene node's parent naming a bone its figure brought along, a definition URL, a node path or
  // `name://@selection/bone:` resolves, and one that names nothing is said with its JSON path.
  // 5: a colour with a null component (`[1, null, 0]`, Qt's NaN) reads as absent like a null
  // colour, with a warning at the null (was a DecodeError at a path with an extra '/0'); a required
  // key that is absent is said as such ('found nothing'), not 'undefined undefined'.
  // 6: ERC formulas driving a decoded morph or bone (not evaluated) are one warning, not silent.
  // 7: rigid followers (`studio/node/rigid_follow`) are one warning, not silent.
  // 8: a rigid follower goes under the joint dominating its reference vertices' skin weights (the
  // target's own node when unskinned), its world transform kept, so posing carries it along; one
  // that cannot follow stays as written with a warning saying why; morphs moving its reference
  // vertices are a warning.
  // 9: the meshes of a rigid follower on a blend of joints are skinned with its reference vertices'
  // averaged weights (at the scene root; its node stays under the dominant joint), so posing moves
  // them nearer where Daz's rigid fit puts them; a follower with no mesh of its own, or meshes below
  // it, is a warning naming the share of the weight they ignore. A follower of one joint is unchanged.
  // 10: the nodes below a blended follower that hold no mesh skinned with its blend (empties, a
  // rigged item's figure and bones) are one warning per follower naming them: they ride the dominant
  // joint alone (before, silently). The scene is unchanged.
  // 11: such a follower's `rigid_follow` extras list those nodes (`unblended`: all of them, or the
  // follower itself when it has no mesh), so `partgraph inspect` names what the warning names.
  // Each surface takes the UV set its material instance names (else the default); before, the last
  // material naming a non-default set gave it to the whole mesh (same session as the above). A
  // conforming figure whose bones are posed unlike its target's same-named bones is a warning.
  // 12: a conforming figure (clothing, hair: `conform_target`) follows its target: its root and its
  // bones named as the target's take the world transform that moves them as the target's move from
  // rest (`extras.partgraph.dson.follows` names the target node), so its skin deforms with the body;
  // its other bones ride their parent. Before, it stayed at rest (with a warning when posed unlike
  // the target). A `conform_target` naming no node of the scene is a warning (before, silent).
  // Same version: a material's `uv_set` naming a scene UV instance (`scene.uvs`) takes the set the
  // instance's `url` names (before, unresolved: the default set); one naming another kind of record
  // is a warning (before, silent); a merged graft's surfaces record their own UV set's name in
  // `uv_sets` (before, the target's name stood for them).
  // 13: a content file name in the other Unicode form than its reference (a Mac's decomposed `Ö`)
  // is found, and both forms key one file (before: not found); a morph whose deltas name vertices
  // past the geometry is left out with a warning at the first such delta (before: a DecodeError for
  // the whole scene); a second morph of an id a mesh already has (a scene's own morph and the
  // figure file's of the same id) is left out with a warning (before: two targets of that id, the
  // file's at its own weight); a skin's or morph's `vertex_count` written as a string is a
  // DecodeError at its path (before: read as absent, so another figure's morph could apply).
  // 14: skin weights naming a vertex past the geometry are left out with one warning (before: a
  // DecodeError for the whole scene); a second skin binding of a geometry is left out with a warning
  // naming both, the first kept (before: the second replaced the first, silently); a figure instanced
  // twice gets its file's modifiers on every instance the scene's modifier instances do not name
  // (before: one instance named took them from the others: no skin, no morphs). A `legacy_skin`
  // binding (not decoded) is a warning, not silent.
  // 15: ERC formulas driving a morph from other modifiers' values on the same mesh (numbers, `?value`
  // pushes, add/sub/mult/div; sum and multiply stages; a clamped channel's range) are evaluated at the
  // decoded dials, so a controller dialled to 1 moves its morphs (before: the morph kept its written
  // value, with the not-evaluated warning, which now names only what is still not evaluated).
  // 16: formulas reading a bone channel (rotation, translation, scale of a node of the mesh's own
  // figure, degrees as Daz stores them: Daz's pJCM correctives) and `spline_linear` stages are
  // evaluated at the decoded pose, and `spline_tcb` where its input sits on a key (a rest pose on
  // the curve's first key); each mesh keeps its compiled formulas in
  // `extras.partgraph.dson.formulas`, for dson.apply_preset (before: bone inputs and splines left
  // the morph at its written value, in the not-evaluated warning). Same version: a chain of
  // controllers over 1,000 deep leaves the morph at its end unknown, in the warning (before: a
  // stack overflow for a chain of some thousands, the decode failing with a RangeError).
  // 17: formulas whose output is a bone's transform channel (rotation, translation, scale x/y/z,
  // general scale of a node of the mesh's own figure: Genesis 9's body_ctrl_lHandGrasp bending the
  // fingers) are evaluated with the morphs' rules, `(own + Σ sums) · Π mults`, in dependency order,
  // and pose the bone as if the file had written that value; a corrective reading a bone so bent
  // reads its driven value (before: the bone kept its written pose, in the not-evaluated warning,
  // and a corrective reading it was left as written). A bone channel formulas of two meshes drive,
  // or a node's own formula too, stays as written and warned.
  // 18: joint limits: a node channel written `clamped: true` keeps its value in `min`..`max` — the
  // file's own value as it is set, and the whole `(own + Σ sums) · Π mults` of the formulas driving
  // it (a grasp bending a finger stops at the finger's limit), which correctives then read; each
  // clamp is a warning naming the node and channel; the limits are kept in the node's
  // `extras.partgraph.dson.limits` for dson.apply_preset (before: limits not read, fingers bent
  // through each other where Daz stops them).
  // 19: a fitted item's formula reading the body it is fitted to (an auto-follow morph: the dress's
  // FBMHeavy pushing `Genesis8Female:/data/…#FBMHeavy?value`) reads the body's value when the body
  // is in the scene (its morph's weight, or its controller with the body's formulas applied); the
  // mesh's graph keeps it as `<body key>:#<id>` with `of`/`id`, and its own `figure` key, for
  // dson.apply_preset (before: read as the item's own modifier of that id, a loop, or not found:
  // the follower kept its written value, warned).
  // 20: Daz's auto-follow by name: a fitted item's modifier whose channel says `auto_follow: true`
  // and that no formula drives takes the value of the body's modifier of the same name (inherited:
  // its own dial is replaced, not added to); kept in the graph as a formula reading the body's
  // channel, for dson.apply_preset. A body lacking the name is one warning per item (before: the
  // follower kept its own value, 0, silently — a dress clipping through a heavier body).
  // 21: a UV set's seam override naming a vertex past 32 bits is a DecodeError at its path (before,
  // held in an Int32Array it wrapped round to another vertex: 2^32 + v read as v, without a word).
  // 22: a morph dial past its clamped range (`clamped: true` with min/max) that no formula drives
  // is clamped to it, as Daz shows it, in one warning per mesh naming each (before: drawn at the
  // dial as written, a 1.5 FBMHeavy past what the morph allows); the mesh's morph records keep
  // `min`/`max` for dson.apply_preset.
  // 23: a fitted item lacking a morph of the name of a dialled auto_follow morph of its body is
  // named in a warning: Daz projects that morph onto the item, which is not done here (before:
  // the item kept its shape and could cut through the body, silently).
  // 24: a counted array whose `count` disagrees with its `values` is named in one warning per kind
  // (the values still read); skin weights outside 0..1 are clamped — negative, null and non-finite
  // dropped, above 1 read as 1 — in one warning per binding (before: 1e15 took the whole vertex,
  // 1e999 was a DecodeError, all silently but the last). Same version (same session): rounding noise
  // within 1e-5 of 0..1 is clamped without a word (the values used were already the same).
  // 25: a body's dialled auto_follow morph a fitted item has no morph of the name of is projected
  // onto it (`auto_project.ts`): each item vertex takes the body morph's delta at the nearest point
  // of the body's surface (full within 5 cm, fading to none at 10 cm), as a morph target of the
  // body morph's id and name driven in the item's formula graph by the body's value, so
  // dson.apply_preset re-drives it; named in one warning per item (before: only warned, the item
  // kept its shape and cut through the changed body).
  // 26: a merged graft's morph of a name the body's mesh also has, that follows no channel of the
  // body (no auto_follow, no formula reading it), is marked `graft_own` in the mesh's morph records,
  // so dson.apply_preset (v22) leaves it its own value when a controller dials the body's.
  // 27: a merged graft's morph of an id the body's mesh also has leaves out its deltas on the welded
  // vertices, which are the body's and move with the body's morph (before: a graft's projected or
  // follower FBMHeavy moved the seam twice as far as the body, 1.4 cm off at a 0.7 dial of a 2 cm swell).
  // 28: the auto-follow projection smooths: each item vertex takes the body morph's delta at its
  // nearest body point averaged with those of the triangles up to 25% of its distance farther,
  // weighted (1 − extra / band)² (Daz's projection considers the locations around the closest point
  // within a tolerance); a garment 1.5 cm off a skin with a 0.15 cm ripple follows the smooth shape
  // within 0.014 cm (before: 0.143 cm, the ripple copied), one on the skin still exactly.
  // 29: a merged graft's morph of the body's name driven by the graft's own controller that reads the
  // body follows the body too (not marked `graft_own`; before, only a formula reading the body directly
  // counted, so dson.apply_preset left such a morph at its decoded value).
  // 30: each morph record whose channel is `auto_follow` (and each morph projected onto a fitted
  // item) says so (`auto_follow: true`), for dson.apply_preset, which projects a body morph a preset
  // dials onto the fitted items lacking it; a morph projected onto an item is auto_follow in turn,
  // so an item fitted to that item (a belt on a coat) takes it by projection too (before: only an
  // item's own auto_follow modifiers reached the items fitted to it, and the belt cut into the coat).
  // A mesh with merged grafts records its body's own vertex count and the polygons the grafts hide
  // (`graft_body`), for the preset to project onto the grafts' own vertices as the decode does.
  // 31: with merged grafts, `graft_body` records where each graft's own vertices end (`graft_ends`)
  // and each graft morph which graft brought it (`grafts` on its morph record), so dson.apply_preset
  // projects a body morph onto the grafts lacking it only (before: onto none when one graft had it);
  // its hidden polygons are packed (`hidden_poly_verts_packed`, `codec/packed_ints.ts`: zigzag
  // delta varints in base64) instead of a JSON list of 4 integers a polygon; it records how many
  // leading triangles of each primitive are the body's (`body_triangles`: a graft's triangle between
  // welded vertices is not), and the body vertices only hidden polygons use are kept, undrawn, in the
  // first polygon's primitive, so the preset's projection reads where they are and how morphs move
  // them (before: read as the origin and still; a graft over them was 0.41 cm off the decode's).
  // Same version: the nearest-surface search lists each body corner once per item vertex (weights
  // summed; a cape 7.5 cm out 10.1 -> 2.0 MB for 1050 vertices), deltas the same within 3e-15 cm.
  // 32: a scene modifier instance's `auto_follow` (Daz writes the switch a user changed there)
  // overrides its definition's: a body morph switched off is not projected onto clothing, an item's
  // follower switched off keeps its own dial, one switched on follows (before: the definition's flag
  // only; 40 of 40 generated scenes wrong). Daz's mesh smoothing modifier on an item is named in a
  // warning (before: silent).
  // 33: the spec's formula operators `neg`, `inv` and `spline_constant` are evaluated (before: what
  // they drove kept its written value, warned; 12 of 12 generated formulas wrong). An unmerged
  // graft's record packs its lists (`vertex_pairs_packed` in two columns, `hidden_polys_packed`,
  // with their counts; `codec/packed_ints.ts`): the corpus mouth graft's record 3,726 -> 1,236 bytes.
  // 34: a formula pushing an alias channel's value (`"type": "alias"`, `target_channel`) reads its
  // target's, through chains of aliases (before: the alias's own 0, silently); a loop is warned.
  // 35: the formula graph lists the mesh's aliases of its channels (`aliases`: alias id -> target
  // id), so dson.apply_preset v28 passes a preset's alias dial to the target.
  // 36: a graft record with an index past its counts (a hidden polygon past poly_count, a weld onto
  // a target vertex past vertex_count or of a vertex past the graft's mesh) is not merged and stays a
  // separate mesh, warned at the index; before, a DecodeError lost the whole scene.
  // 37: the scene's dial on an alias channel's instance is passed to its target (through chains;
  // the target's own dial wins, a disagreeing pair warned), and each morph's record lists its
  // aliases (`aliases`) for dson.apply_preset v29 (before: the dial stayed on the alias, silently:
  // 40 of 40 generated scenes wrong, `alias_habits.ts` seeds 101-140). A graft's "not loaded" and
  // "damaged" notes name the graft's own figure file, where their JSON path is (before: the scene's;
  // 4 of 4 generated cases). A formula's `spline_tcb` past its end keys holds them, as Diffeomorphic
  // and pymods do (before: unknown, the morph left at its written value; 20 of 40 generated JCM
  // bends past the end keys wrong); between keys, where those readers disagree, it stays unknown and
  // its warning gives the input, the keys, both readings and the value kept (before: a count only).
  // 38: a formula's `spline_tcb` between its keys takes the Kochanek–Bartels reading (the curve its
  // name and keys' tension/continuity/bias describe, as pymods reads it), warned once per formula
  // with the straight reading (Diffeomorphic's) and their difference; before, the morph kept its
  // written value (0: Daz does not save driven values), further from either reading than they are
  // from each other.
  // 39: the scene's dial on an alias channel whose target is a bone channel (`lShldrBend:?xrotate/value`,
  // `#lShldrBend?rotation/x/value`) poses the bone before formulas run, clamped to its limits (warned);
  // the bone's own differing pose wins, warned; a missing bone is warned (before: dropped silently, 3
  // of 3 alias forms wrong). Daz's channel names (`xrotate`, `YTranslate`, `zscale`) are bone channels
  // wherever a formula names one (`codec/alias_bones.ts`, `formula_compile.ts` boneChannel). A mesh's
  // aliases of bone channels are recorded (`bone_aliases`: alias id -> node id and channel) for
  // dson.apply_preset v31, which poses the bone when a preset dials one. A URL whose folder has a raw
  // '#' (a third-party writer's; Daz writes %23) splits at the last '#' when a '/' lies between
  // them, as ids hold no path (before: the file was not found, warned). A formula whose output is an
  // alias channel drives the alias's target, a morph or a bone channel (before: the alias, and its
  // target stayed as written, silently). Same
  // version: a graft left unmerged because its conforming target is missing is warned beside the
  // target's own warning for that URI (before: swallowed by it, 1 of 1 generated cases), says "not
  // merged", and names its record's file only when that is not the scene (the corpus mouth graft's
  // note no longer repeats its own file).
  // 40: a referenced file that is not found is one warning (its first reference, how many there are
  // and their first ids), not one per id: a scene over a figure that is not installed warned once
  // per bone (30 of 40 generated scenes gave more warnings than missing files, up to 82); with no
  // content roots at all, one for every file. A scene modifier instance on a parent that did not
  // load is not looked for (its file is not read) and such instances are one warning per parent
  // naming them, after the missing file's (before: one per morph file, then the parent's).
  // 41: polygons of more than four corners (the spec allows triangles and quads; community tools and
  // converters write more, and Diffeomorphic, dufman and the dhdm tools read them) are cut into
  // triangles in their own plane by ear clipping (a fan when convex), winding, face group and surface
  // kept, one warning per geometry counting them (before: a DecodeError for the whole scene, 40 of 40
  // generated files); seam overrides and a graft's hidden polygons name the file's polygons, so they
  // reach the pieces (`codec/polygons.ts`). A polygon with fewer than three distinct vertices is
  // dropped, one warning per geometry (before: drawn as a zero-area sliver, silently); a corner
  // repeating the one before it is read away (`[a, b, b, c]` is the triangle it draws).
  // 42: a polylist entry of two corners (a line: hair guides, wires, edge-only props, as some
  // exporters and community tools write them) is dropped, one warning per geometry counting them and
  // naming the first; the faces are kept and seam overrides still name the file's entries (before: a
  // DecodeError for the whole scene, 40 of 40 generated files, `line_habits.ts`).
  // 43: a formula's `spline_tcb` between its knots is the DSON spec's Kochanek–Bartels curve (the
  // operation page: knot5 `[key, value, tension, continuity, bias]`), each knot's own parameters
  // shaping its own tangents, step-size adjusted, end chords reflected: the curve `key_curve.ts`
  // gives a keyed channel's TCB keys, so formulas and animations of the same knots agree (before:
  // pymods's reading, the span's first knot's parameters for both tangents, each end knot its own
  // neighbour, spacing ignored: `spline_habits.ts` seeds 1-60 43 of 60 JCM weights wrong, all warned;
  // two plain knots, most of Daz's JCMs, now run straight). The warning gives all three readings.
  // 44: Daz Studio node instances (a scene node with `studio/node/instance` and an "Instance Target"
  // channel) draw their target's meshes and child items under their own transform, sharing its
  // meshes; an instance of an instance draws what that one draws; a target not in the scene, a loop
  // and a rigged-figure target draw nothing, warned by name (`codec/instances.ts`; before: empty
  // nodes, every copy missing silently: `instance_habits.ts` seeds 1-40 40 of 40 scenes wrong).
  // 45: the formula graph in `extras.partgraph.dson.formulas` writes each operation as a group
  // (`{push: 0.5}`, `{key: [x, y, …]}`, `{op: "mult"}`; `formula_json.ts`): Blender 3.4 kept the bare
  // mixed lists only as Python text, every formula lost in a round trip (export.gltf v30 warned).
  // The bare form is still read.
  // 46: a rigidity group's vertex indices past its mesh (a mesh reduced after its rigidity was
  // made) are left out with one warning per geometry counting them (before: a DecodeError for the
  // whole scene); groups with participants and no reference vertex are named in one warning (before:
  // kept silently, their participants unprotected). `rigidity_habits.ts`: seeds 1-40 24 of 40 wrong
  // (12 refused, 12 silent) -> 0.
  // 47: a rigidity weight map's entries past the mesh go stale with the groups and are left out,
  // counted in the same warning (before: a DecodeError; `rigidity_habits.ts` with weight maps: 7 of
  // 40 files refused, 8 of 40 held out).
  // 48: DSON text from hand edits and other writers reads as meant, each repair named: `//` and
  // `/* */` comments, NaN/Infinity bare (Python's json.dump: Blender round trips, Poser converters;
  // read as absent), a stray comma beside either, and gzip inside gzip (`codec/lenient_json.ts`;
  // before: refused, `text_habits.ts` seeds 1-40 25 of 40, held out 11001-11040 32 of 40).
  // 49: an instance of a group node copies the group's whole subtree as drawn, instances inside it
  // included whatever order the scene lists them in (before: those listed after the copying
  // instance were missing from the copy, silently: `group_instance_habits.ts` seeds 1-40 5 of 40,
  // 12001-12040 6 of 40); a loop through a target's contents is warned (was unbounded recursion);
  // copies past 50,000 nodes are refused by name (groups of instances of groups double per level).
  // 50: an instance of a rigged figure (a crowd of one posed figure, "Copy Modifiers" on or off)
  // draws the figure as posed at its place: bones cloned under the instance, every skinned mesh
  // bound to them drawn again under a skin of the clones, sharing the mesh (before: nothing drawn,
  // warned: `figure_instance_habits.ts` seeds 1-40 40 of 40, 13001-13040 40 of 40 -> 0).
  // 51: a subdivision surface (`type: "subdivision_surface"`, every Genesis figure) keeps its levels,
  // scheme and edge rule in `extras.partgraph.dson.subdivision`, and the meshes Daz Studio shows
  // subdivided (view level 1 or more) are named in one warning: drawn as their cage (before: the
  // levels dropped, nothing said; `codec/subdivision.ts`).
  // 52: a node instance's copies of DSON nodes (bones) carry `copy_of` their original's key, so
  // dson.apply_preset v38 poses them with it.
  // 53: text that is not valid UTF-8 (old converters writing the Windows code page) is read as
  // Windows-1252 with a warning (before: every accented name U+FFFD, silently: `text_habits.ts` seeds
  // 1-40 9 of 40 wrong, 11001-11040 5 of 40). PowerShell's UTF-16LE was already read.
  // 54: Daz Studio 4.9+ instance groups (`studio/node/group_instance` with `instance_items`, as
  // scatter tools write them) draw the target once per item, each under a child node posed as the item
  // says (translation, rotation in its order, scale, general_scale, as channels or bare triples);
  // unreadable item values are counted in one warning (`codec/instance_items.ts`; before: nothing
  // drawn, silently: `scatter_habits.ts` seeds 1-40 40 of 40, 14001-14040 40 of 40 -> 0).
  // 55: an instance group past the 50,000-node copy bound draws the items that fit and says how many
  // (v54 drew none of them, warned).
  // 56: a node instance's or instance item's copy is the target's geometry moved by the instance's
  // own transform, wherever either pivot is: where the instance's centre point or orientation differs
  // from its target's (an instance node's pivot at the origin, a store prop's at its base or in its
  // room set), a child node carries the difference (before: the copy was off by it, silently:
  // `pivot_instance_habits.ts` seeds 1-40 37 of 40 scenes wrong, held-out 15001-15040 31 of 40 -> 0).
  // An instance with "Copy Modifiers" off whose copy holds skinned or morphed meshes is drawn as with it
  // on and named in a warning, Daz documenting no rule for it (before: silently; figure instances
  // seeds 1-40 15 of 40 scenes, 13001-13040 24 of 40).
  // 57: ERC formulas moving joint centres and end points (`center_point/x`, `end_point/y`: every
  // store character's and Genesis's body shapes carry them, so the rig follows the shape) are
  // evaluated at the decoded dials: own value plus `sum` formulas, times `mult` ones, for pushes of
  // numbers and of the mesh's modifier values with add/sub/mult/div (`codec/rig_formulas.ts`); the
  // joints, inverse binds and pose turn about the moved centres, and the values read are kept as
  // the mesh's `rig_dials` for dson.apply_preset (before: left at the base figure's centres, warned
  // as not evaluated: `rig_shape_habits.ts` seeds 1-40 40 of 40 wrong, held-out 16001-16040 39 of
  // 40 -> 0). Other forms stay warned; a fitted item's bones named as its body's follow the body's
  // movement about the body's centres, so their own centre formulas change nothing drawn and are
  // not warned. A centre a second mesh's formulas also move keeps the first's result (the second's warned).
  // 58: the formulas moving joint centres read `spline_linear`, `spline_constant` and `spline_tcb`
  // stages and the other operators the JCM morphs take (`formula_graph.ts`'s runOperations), and
  // move `orientation` too (before: those left the joint at its written frame, warned as not
  // evaluated: rig_shape_habits with splines, held-out seeds 16041-16080, 34 of 40 wrong -> 0); the
  // channels moved are kept as the mesh's `rig_centres` (written value and formulas) so
  // dson.apply_preset and dson.bake_morph move the joints again at new dials.
  // 59: a rigid follower whose reference vertices the file's dialled morphs move (a body shape) is
  // placed as Daz places it: its written place moved by the best-fit rotation and translation of
  // those vertices from the base mesh to the shaped one (`follower_refit.ts`), its blend-skinned
  // meshes with it; its record keeps the vertices (`rigid_follow.vertices`) so dson.apply_preset
  // and dson.bake_morph refit it (before: it stayed where the file wrote it, warned:
  // follower_shape_habits.ts held-out seeds 18001-18040, 28 of 40 wrong -> 0).
  // 60: a rigid follower follows its rigidity_group's rotation_mode and scale_modes when refitted
  // (`follower_modes.ts`; `none` slides it unturned, `primary` scales grow it with the surface), as
  // rigidity groups apply them; one its scales would shear is drawn with the nearest turn and scale,
  // named in one warning (before: always turned, never scaled, silently: follower_shape_habits.ts
  // with modes, held-out seeds 19001-19040, 34 of 79 followers off Daz's place -> 2, both warned).
  // 61: a rigid follower of a graft merged into its body follows the same vertices in the merged
  // mesh (graft.ts hands the welds to load.ts), so the decode fits it to the graft's dialled shape
  // and presets and bakes refit it (before: its mesh was gone and it kept its written place,
  // silently at decode: graft_follower_habits.ts held-out seeds 20001-20040, 30 of 40 wrong -> 0).
  // 62: rigid followers in a posed scene are placed, skinned and refitted with the bones at rest
  // (`follow_rest.ts`): a follower's channels place it on the figure at rest, Daz refits it to its
  // shaped reference vertices there, and the pose carries it (before: the pose was in the joints
  // when it was placed, so it stayed at its rest place as the skin moved: posed_follower_habits.ts
  // held-out seeds 21001-21040, 62 of 81 followers off, 24 of 40 scenes silently -> 0). A group's
  // `transform_nodes` / `reference` give the axes its modes measure along (`follower_frame.ts`;
  // before: ignored), and modes left unsaid are the spec's: `rotation_mode` none, `scale_modes`
  // none named in a warning (before: full, silently).
  // 63: a direction the reference vertices of a rigidity group or rigid follower do not span
  // (thinner than a thousandth of their widest spread: three vertices across their plane, a plate
  // modelled flat up to its file's rounding) is not scaled (before: any spread over 1e-9 cm was
  // measured, so a flat plate's rounding read as a stretch of thousands: posed_rigidity_habits.ts
  // held-out seeds 22001-22100, 3 of 100 scenes 16-23 m off, silently -> 0); a follower's nearest
  // turn and scale for a shear is warned only when it moves the follower over 0.01 mm (190 of 193
  // such warnings on posed_follower_habits.ts seeds 21501-21600 were for followers within 1 mm ->
  // 0), and one its scale_modes stretch across the line its reference vertices lie on (a guess of
  // direction) is named instead (21581: 4 mm off, warned only by chance as a shear before). A
  // group's frame node is read at rest from its recorded orientation (`follower_frame.ts`).
  // 64: a follower whose frame node is missing is named at its DSON path (`scene.duf at
  // /scene/nodes/N/extra/0/rigidity_group/transform_nodes/0`; before, unplaced); rigid followers
  // and `full` rigidity groups whose reference vertices lie on a line (or are one vertex) take the least turn carrying the line and are named, as those vertices fix no twist about it;
  // default-mode followers on such vertices turned (two slid unturned, three or more took Horn's
  // degenerate twist) silently: follower_line_habits.ts held-out seeds 1001-1400, 245 of 400 parts off by
  // over 1 mm, all silently -> 191, none silently. A strap under 5% as wide as long whose twist rests
  // on the morph's unevenness is named too (thinStrapCase seeds 1001-1400: 85 of 400 off silently -> 0).
  // 65: a rigid follower or `full` rigidity group on a line is named only when the line turns (its
  // twist about the line is then not in the file); reference vertices that slide along their line, or
  // one vertex, fit a slide, as Daz's rigid fit of them does, and are not named, nor a group whose
  // participants lie on its line; a set spans a direction only past its coordinates' written rounding
  // (7 significant digits) as well as a thousandth of its widest spread. follower_line_habits.ts
  // held-out seeds 9001-9400 judged against Daz's fit: 235 parts right but warned -> 0, 85 wrong, none
  // silently, before and after. Same version: a strap's twist doubt is averaged over at most 64 of
  // its vertices (a smooth unevenness is shared by neighbours): rigidity_real_habits.ts beltCase
  // held-out seeds 3001-3400, 12 of 400 parts off silently -> 0.
  // 66: reference vertices that fit a slide (a line keeping its direction, or one place) while the
  // mesh's 8 vertices nearest them turn about that line or place by over 0.02 rad are named (a rigid
  // follower; a group with a participant off the line, turned in full, or any but `none` on one place):
  // Daz fits the reference vertices alone, so the part slides unturned, off the surface's turn; the
  // slide is kept. Judged against the surface's motion (surface_turn_test.ts), held-out
  // follower_line_habits seeds 12001-12400: 138 of 400 parts off by over 1 mm silently -> 0;
  // rigidity_real_habits seeds 14001-14400: 55 -> 0; plain shifts named 0 -> 0.
  // Same version (same session): so is a stretch of that mesh over 2 % where scale_modes ask for one
  // the set cannot measure (one vertex: every axis; a line: across it), read as 1 (0/0):
  // stretch_habits.ts held-out seeds 16001-16400, 198 of 400 parts off silently -> 0.
  // 67: a node turned under an unevenly scaled parent is named (scale_composition.ts): DSON composes
  // world rotation and scale apart, so the stretch runs along the child's turned axes, a shear no glTF
  // node holds; it is drawn as glTF composes. prop_axis_scale_habits.ts nestedScaleCase, held-out
  // seeds 5001-5200: 143 of 413 props over 1 mm off silently -> 0 (all named; none within named).
  // 68: a node that does not inherit scale (`inherits_scale: false`, as Daz writes bones) under an
  // uneven scale — its parent's own, or a chain's above an unscaled parent (a figure stretched per
  // axis, the bones under its hip) — takes the glTF scale nearest Daz's, each axis fitted by least
  // squares with its turn kept (scale_composition.ts fitUninherited; the factor kept as the node's
  // `scale_fit`): exact where its turn keeps the uneven axes, and otherwise named with how far off as
  // v67 names an inheriting node (before: it took its parent's uneven scale, or under an unscaled
  // parent was drawn off silently). inherit_scale_habits.ts held-out seeds 9001-9200, 1,426 nodes:
  // over 1 mm off 629 -> 582, silently 97 -> 0. Same version (same session): a fitted item whose
  // root has a scale of its own (a shirt at 102 % against poke-through) follows its body's root, that
  // scale left out, and takes projected morphs in its unscaled space; what Daz does with it is not in
  // the formats notes, so each such item is named with how far its vertices would move were the scale
  // kept (item_scale.ts). item_scale_habits.ts held-out seeds 9001-9100: 122 of 200 items scaled,
  // silently -> all named; none of the 78 unscaled, nor the 23 scaled bodies, named.
  // 69: rigid followers are placed with each bone at the scale it takes at rest (`follow_rest.ts`
  // restScales: its own scale and turn out, a parent's divided out only when the parent keeps it, and
  // fitUninherited's fit of the chain at rest), not the posed chain's `scale_fit` or a divisor of a
  // parent's scale the rest took out: a follower written under the figure and following a bone so
  // fitted was placed under a bone stretched wrongly. inherit_scale_habits.ts with followers, held-out
  // seeds 8001-8100, 148 followers written under the figure: 95 farther from Daz's place than their
  // bone allows a child (mean 15.8 cm, up to 55.6 cm), 81 of them left under the figure ("would need
  // a shear") and 14 silently -> 0; written under their bone, 0 before and after. Same version (same
  // session): a node that inherits scale (a prop on a bone), turned by right angles across an uneven
  // stretch above it, takes fitUninherited's fit where it is exact (v67 named it; turned otherwise it
  // is still drawn as glTF composes and named). inherit_scale_habits.ts with props turned by right
  // angles, held-out seeds 8101-8300, 1,425 nodes: over 1 mm off 603 -> 587, props on a bone drawn
  // right 20 of 114 off (named) -> 4 (a bone scaled unevenly in a turned frame: a shear, named);
  // silently 0 -> 0; seeds 9001-9200 (props turned freely) unchanged, 582 of 1,426. Rigid followers
  // are not so fitted: they go under their joint from their rest place (written under the figure and
  // turned by right angles, a fit put 10 of 137 up to 5.6 cm off their joint's carry).
  // 70: a rigid follower put under a joint whose uneven scale runs across its turn (written under the
  // figure, riding a bone scaled per axis in a turned frame) is named, as a prop written under that
  // bone is (follower_shear.ts): it rides the joint as a glTF child, a shear off DSON's composition.
  // inherit_scale_habits.ts with followers, held-out seeds 8301-8500, 518 followers: 376 off by over
  // 1 mm, 4 silently (up to 3.2 cm) -> 0; the placement is unchanged. Same version (same session): a
  // fitted item's rigidity groups whose participants a morph projected from its body moves are named
  // where rigidity would place them over 0.1 mm elsewhere (projected_rigidity.ts): Daz applies
  // rigidity to projected morphs (formats B.10, D7), the projected morph target here does not.
  // projected_rigidity_habits.ts, held-out seeds 41001-41100, 265 groups: 105 off Daz's place by
  // more than the projection's own tolerance, 103 silently -> 0; right but named 0 -> 15.
  // 71: a morph projected onto a fitted item says so in its record (`projected: true`), so
  // dson.apply_preset (v54) fits the item's rigidity into it once a preset sets its dial; the decode
  // leaves it a plain target and still names the rigidity groups it moves (v70). Same version: a
  // rigid follower whose scale_modes are all 'none' riding a joint the pose scales is named
  // (follower_pose_scale.ts): glTF carries it stretched with the joint, while Daz's rigid fit of its
  // posed reference vertices would keep it its size, and Daz's documentation does not say which holds
  // for a bone's scale; the placement is unchanged. inherit_scale_habits.ts with followers, held-out
  // seeds 8601-8700: 88 followers the two readings place over 1 mm apart (up to 3.0 cm), 52 silently
  // (36 named by a shear warning) -> 0; 68 alike, none named.
  // 72: a morph projected onto a fitted item at the decoded scene's own dial has the item's rigidity
  // fitted in, by the fit dson.apply_preset makes (preset_rigidity.ts rigidFitter; frame nodes read
  // from the scene's nodes): its participants' deltas are `(rigid place - rest) / weight` and the
  // record keeps their plain deltas (`rigid`), so a preset or bake fits again; the v70 warning naming
  // the groups is left for a dial not known. An item fitted to that item (a belt on a coat) projects
  // the fitted shape (bodies are evaluated first). Groups off Daz's place: preset_rigidity_habits.ts
  // saved with the shapes dialled, held-out seeds 61001-61100, 311 groups: 201 (194 named, 7 silently,
  // up to 1.0 cm) -> 0; projected_rigidity_habits.ts 62001-62100, 232 groups: 111 named -> 0;
  // chained_rigidity_habits.ts (belts over coats' buttons, buckles and zips) 63001-63100, 250 groups
  // under belts: 189 silently (up to 7.1 mm) -> 0.
  version: 72,
  doc: "Decodes a Daz DSON .duf/.dsf (plain or gzip) into a scene: joint hierarchy, meshes per surface, " +
    "UVs, skin (4 influences), morph targets, rigidity groups and grafts; rigid followers go under the joint " +
    "they follow (their meshes skinned with the blend when they follow several); conforming figures (clothing) " +
    "take their target's pose. References resolve only inside `content_roots`; missing content is a warning and the scene " +
    "is built from what exists.",
  inputs: { bytes: { type: "bytes", doc: "A .duf or .dsf file." } },
  outputs: { scene: { type: "scene", doc: "The decoded scene (metres, +Y up, figure facing +Z)." } },
  params: {
    content_roots: {
      type: "json",
      default: [],
      doc: "Ordered Daz content directories that `/data/…` and `/Runtime/…` references resolve against.",
      schema: { type: "array", items: { type: "string" } },
      check: checkContentRoots,
    },
  },
  run: preloadWith(async ({ inputs, params, ctx }) => {
    const [{ buildDsonDocument }, { loadDsonScene }] = await runModules();
    const roots = params.content_roots as string[];
    const dson = await loadDsonScene(inputs.bytes.bytes, inputs.bytes.name, { contentRoots: roots, ctx });
    return { scene: buildDsonDocument(dson, (message) => ctx.warn(message)) };
  }, runModules),
});
