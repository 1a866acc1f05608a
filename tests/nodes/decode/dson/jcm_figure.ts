/**
 * A Genesis-8-like figure whose left forearm carries a Daz joint corrective ("pJCM" morph): driven by
 * the forearm's bend through a spline and scaled by the "JCMs On" controller, as Genesis 8 wires
 * them (its names and URL forms). The expected weight, {@link jcmCurve}, is computed from the curve's
 * keys, not read from the decoder. Used by `jcm_formulas_test.ts` and the client checks
 * (`tests/support/client_cases.ts`).
 *
 * @module
 */
import { channels, generateFigure, type Json } from "./generate.ts";

/** The figure's asset file, as Genesis 8's URLs name it. */
export const JCM_FIGURE_FILE = "/data/DAZ 3D/Genesis 8/Female/Genesis8Female.dsf";
const FILE = JCM_FIGURE_FILE;
const BONE = `lForearmBend:${encodeURI(FILE)}#lForearmBend?rotation/y/value`;
/** The corrective morph's id and name. */
export const JCM = "pJCMForeArmFwd_135_L";
/** The JCM's curve: 0 at rest, 1 at the elbow bent 135° (Daz bends the left forearm to −y). */
const KEYS = [[0, 0, 0, 0, 0], [-135, 1, 0, 0, 0]];
/** DSON vertex the JCM moves (grid (1, 1)), and by how much along +Y at weight 1 (cm). */
export const JCM_VERTEX = 5;
export const JCM_DELTA_CM = 2;

/** The weight the JCM's curve gives at `bend` degrees (linear between its keys, held beyond). */
export function jcmCurve(bend: number): number {
  return Math.min(1, Math.max(0, bend / -135));
}

/**
 * The figure: shoulder and forearm bones (the forearm bent `bend`° about y), the forearm's JCM driven
 * by its rotation through `spline`, scaled by the `JCMsOn` controller (`jcmsOn`); `extra` modifiers
 * are added to the figure's geometry.
 */
export function jcmFigure(bend: number, spline = "spline_linear", jcmsOn = 1, extra: Json[] = []): Json {
  const text = JSON.stringify(
    generateFigure({ side: 4, bones: 2, figureId: "Genesis8Female", assetId: FILE }),
  )
    .replaceAll("Genesis8Female_bone0", "lShldrBend").replaceAll("Genesis8Female_bone1", "lForearmBend");
  const json = JSON.parse(text) as Json;
  (json.node_library as Json[])[2].rotation = channels("float", [0, bend, 0]);
  const geometry = "#Genesis8Female_geo";
  const output = `Genesis8Female:${encodeURI(FILE)}#${JCM}?value`;
  (json.modifier_library as Json[]).push(
    {
      id: "JCMsOn",
      name: "JCMs On",
      parent: geometry,
      channel: { id: "value", type: "float", value: 1, current_value: jcmsOn, min: 0, max: 1, clamped: true },
    },
    {
      id: JCM,
      name: JCM,
      parent: geometry,
      channel: { id: "value", type: "float", value: 0, min: 0, max: 1, clamped: true },
      formulas: [
        {
          output,
          operations: [
            { op: "push", url: BONE },
            ...KEYS.map((key) => ({ op: "push", val: key })),
            { op: "push", val: KEYS.length },
            { op: spline },
          ],
        },
        {
          output,
          stage: "mult",
          operations: [{ op: "push", url: `Genesis8Female:${encodeURI(FILE)}#JCMsOn?value` }],
        },
      ],
      morph: { vertex_count: 16, deltas: { count: 1, values: [[JCM_VERTEX, 0, JCM_DELTA_CM, 0]] } },
    },
    ...extra,
  );
  const scene = json.scene as { modifiers: Json[] };
  for (const id of ["JCMsOn", JCM, ...extra.map((m) => m.id as string)]) {
    scene.modifiers.push({ id: `${id}-1`, url: `#${id}`, parent: "#Genesis8Female_geo-1" });
  }
  return json;
}
