/**
 * The Freelancer constraint resolver for `constraints.resolve`: builds the part tree from the `Cons`
 * records `decode.cmp` kept and turns every movable joint into pivot parts (the work is in
 * `resolver_run.ts`, loaded on first use).
 *
 * @module
 */
import { importOnUse, preloadWith } from "../../../runtime/lazy_run.ts";
import {
  type BooleanParam,
  defineResolver,
  type JsonParam,
  type JsonValue,
  type ResolverPlugin,
} from "../../../runtime/node.ts";

/** The resolver's work, imported on first use (or ahead of it: a batch worker's preload). */
const resolverRun = () =>
  importOnUse<typeof import("./resolver_run.ts")>("./resolver_run.ts", import.meta.url);

/** The resolver plug-in `constraints.resolve` picks for scenes `decode.cmp` produced. */
export const freelancerResolver: ResolverPlugin<{ pose: JsonParam; pivots: BooleanParam }> = defineResolver({
  formats: ["cmp", "3db", "vms", "sph"],
  // 2: animation scripts become glTF animations on the pivots. 3: of two maps on one joint, the later.
  // 4: a Cons rotation that is scaled or mirrored puts that scale on the part (the game uses the matrix
  // as stored), a sheared or degenerate one is named; a Pris axis not of unit length scales its limits and
  // keys (the game slides axis·d); a long or zero axis and a non-zero offset are warnings (before, silent).
  // 5: limits stored min > max are named (before, swapped silently); offsets in one warning per model.
  // 6: a mirrored rotation's warning says glTF viewers flip its winding and the game does not.
  // 7: pivots carry no interop `group` (before, the part name: a Sphere's three axes, or a Cyl's turn
  // and slide, read as one group that moves together); the joint stays in `partgraph.part.joint`.
  // 8: a Cons record attaching a part to itself (an exporter's record for the root, Root → Root) is
  // dropped with a warning (before, the cycle refused the model).
  // 9: a Rev or Pris record whose reversed limits are another record's negated (a mirrored copy) is read
  // as the range between them without a warning, as decode.cmp reads mirrored turret hardpoints.
  // 10: so is a Cyl or Sphere record whose limit pairs are another's, some negated and not swapped (a
  // mirror reverses a Sphere's turns about two axes, a Cyl's turn and not its slide); before, each
  // reversed pair of a mirrored Cyl or Sphere was a warning.
  // 11: a part whose Cons matrix is sheared (a hand edit's forgotten sign) has its hardpoints placed where
  // the stored matrix puts them (before, where its nearest rotation and scale did, off by up to metres).
  // 12: a Cyl record whose stored turn is beyond a full turn (not angles) is read slide first, as
  // treewyrm/freelancer orders it, when that turn can be angles (decode.cmp names the part).
  // 13: parts, pivots and hardpoints below a part whose Cons matrix is sheared sit where the stored
  // matrices put them (translations exact, each turned to the closest frame a node holds, a pivot about
  // the axis the game turns about); before, only the sheared part's own hardpoints were placed so, and
  // the parts below it were off by up to 3.5 units (tests/nodes/decode/freelancer/mod_tools_wave3.ts).
  // 14: a Pris joint below a sheared part slides as far as the game slides it (its limits and keys
  // stretched by |K·axis|, the shear's stretch of its axis); before, by the stored limits along its pivot.
  // 15: a Cyl record is read in the `limit_order` decode.cmp decided over the file (before, each record
  // alone: turn first unless its turn was past a full turn).
  // 16: a scene marked `resolved: 1`, as Blender 3.4 writes a boolean back, is left as it is (before, it
  // was resolved a second time, every joint applied twice).
  // 17: what lies below a part whose Cons matrix is a rotation only to within 1e-3 (FLModelTool's rows
  // typed with three decimals) is placed by the stored matrix, as below a sheared one, without a warning
  // (before, a hardpoint 40 units out sat up to 0.02 units off, silently); an animation script's maps of
  // parts no joint joins are one warning per script naming them (before, one per map: 14-20 on a capital
  // ship whose bay doors a mod removed). tests/nodes/decode/freelancer/capital_ships.ts.
  // 18: `pivots: false` places every part by its record at rest with no pivot nodes, the layout
  // LancerEdit's glTF importer reads back (it takes every node that is no hardpoint, hull, wire or
  // $lodN as a part: pivots came back as extra empty parts and moved the constructs).
  // 19: with `pivots: false` the animation scripts turn the parts themselves, keys `Q(axis, θ)·R` (what
  // LancerEdit maps back to Rev maps); v18 wrote none, with a warning.
  // 20: with `pivots: false`, what LancerEdit's importer cannot read as written is fitted or named
  // (lancer_edit_fit.ts): a Cyl part is written as its turn's Rev (or its slide's Pris), the rest said
  // (before: LancerEdit read `cyl` as Fix, silently); Loose parts are named (it reads them as Fix); a root
  // without a mesh carries a zero-area placeholder triangle (before: refused, "Model root must be a
  // mesh"); a Rev part whose scripts start turning to −θ has its axis and limits written reversed, the
  // same joint (before: LancerEdit read those scripts about the first turn's axis and played them
  // backwards); Pris scripts it drops (sliding back toward rest) and Sphere scripts are named. Capital
  // ships with moving parts, held-out seeds 461-470: 155 misread by LancerEdit, all silent -> 98, none
  // silent (tests/nodes/decode/freelancer/lancer_edit_scripts_test.ts).
  // 21: mods' axes. A Rev or Pris axis not of unit length is written unit length in the `construct`
  // extras (a Pris slide's limits times its length, the same slide): Librelancer turns by
  // CreateFromAxisAngle, which does not normalise (a long axis drew the part skewed), and LancerEdit read a
  // Pris script back as the distance slid, which the game multiplies by the axis again (slides played
  // L times too far). An axis with no direction, which the game cannot move a part along or about, holds
  // the part at rest (limits 0..0, script keys at rest; before: it moved along the parent's X, and the
  // warning said so). Capital ships with mods' axes, held-out seeds 471-490: 347 misread by LancerEdit,
  // 89 silently -> 195, none silently, all of them what LancerEdit cannot hold.
  // 22: with `pivots: false`, a Pris part's scripts LancerEdit reads from origin + offset (where
  // Librelancer rests it) are named when the part has an offset: held-out seeds 471-490 with offsets, 16
  // of 219 misreads silent -> none.
  // 23: the offset warning says per record, with the bytes of the record and of its offset, what
  // Librelancer does (rests a Rev, Pris or Sphere part at t + offset in the parent frame, its source's
  // `Origin + Offset`; refuses a Cyl leaf) and what LancerEdit does; before, one rule for every kind,
  // "−R·offset", and five records named. Held-out seeds 601-640: 196 records with offsets, 159 stated
  // wrongly and 37 unnamed -> none (tests/nodes/decode/freelancer/offset_readers_test.ts).
  version: 23,
  // Joints change only the hierarchy and transforms.
  sharesVertexData: true,
  params: {
    pose: {
      type: "json",
      default: {},
      doc: "Joint values by part name (degrees for rotations, scene units for slides), clamped to limits " +
        "(Freelancer).",
      schema: { type: "object", additionalProperties: { type: ["number", "array"] } },
      check: (v) => v && typeof v === "object" && !Array.isArray(v) ? undefined : "expected an object",
    },
    pivots: {
      type: "boolean",
      default: true,
      doc: "false: no pivot nodes; each part placed at rest by its Cons record with LancerEdit's " +
        "`construct` extras, for LancerEdit's glTF importer (which reads any pivot as an extra part). " +
        "Animation scripts turn the parts themselves; a pose is ignored (Freelancer).",
    },
  },
  resolve: preloadWith(async ({ scene, params, ctx }) => {
    const { resolveFreelancerScene } = await resolverRun();
    resolveFreelancerScene(
      scene,
      params.pose as Record<string, JsonValue>,
      (message) => ctx.warn(message),
      params.pivots as boolean,
    );
  }, resolverRun),
});
