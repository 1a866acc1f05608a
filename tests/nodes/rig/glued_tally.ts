/**
 * Scores the rig on {@link gluedSample}: each disc must be rigged as a part of its own (its hub's
 * centre within 5 % of the radius of the shaft and the pivot within a radius of it, the shaft within
 * 5°, its side), and no rigged spinning part may be judged good while it matches no disc.
 *
 * @module
 */
import { gluedSample } from "./glued_twins.ts";
import { rig } from "./pipeline.ts";

/** One scene's verdict: wrong (a disc not rigged as its own part), silent (wrong part judged good). */
export interface GluedVerdict {
  readonly description: string;
  readonly wrong: boolean;
  readonly silent: string[];
  readonly parts: string[];
}

/** Rigs the sample of `seed` and judges it. */
export async function judgeGlued(seed: number): Promise<GluedVerdict> {
  const { doc, truths, description } = gluedSample(seed);
  const { report } = await rig(doc);
  const spinning = report.parts.filter((p) =>
    ["propeller", "main_rotor", "tail_rotor", "rotor"].includes(p.kind)
  );
  const matches = (p: (typeof spinning)[number], t: (typeof truths)[number]) => {
    if (!p.hinge) return false;
    const o = p.hinge.world.origin, a = p.hinge.world.axis;
    const along = Math.abs(a[0] * t.axis[0] + a[1] * t.axis[1] + a[2] * t.axis[2]);
    // A shaft turns the same about any point of it: the hub's centre must lie on it (within 5 % of the
    // radius), and the pivot near the disc (within a radius along it).
    const d = o.map((v, i) => v - t.centre[i]);
    const on = d[0] * t.axis[0] + d[1] * t.axis[1] + d[2] * t.axis[2];
    const off = Math.hypot(d[0] - on * t.axis[0], d[1] - on * t.axis[1], d[2] - on * t.axis[2]);
    return off < 0.05 * t.radius && Math.abs(on) < t.radius && along > Math.cos((5 * Math.PI) / 180) &&
      (p.side ?? "centre") === t.side;
  };
  const wrong = spinning.length !== truths.length ||
    !truths.every((t) => spinning.some((p) => matches(p, t)));
  const silent = spinning.filter((p) =>
    !truths.some((t) => matches(p, t)) && (p.fit as { confidence?: string } | null)?.confidence === "good"
  ).map((p) => `${p.name} ${p.side}`);
  const parts = spinning.map((p) =>
    `${p.name}(${p.side},${(p.fit as { confidence?: string } | null)?.confidence},${
      truths.some((t) => matches(p, t)) ? "ok" : "WRONG"
    })`
  );
  return { description, wrong, silent, parts };
}
