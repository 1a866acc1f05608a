/**
 * A generator of `.car` clips at the rates real tools and users leave in them, and a judge of how a
 * decode times them. C3Dit copies each `.vtl`'s KPS (the games' own clips run at 8 to 30);
 * CarnivoresIO writes the scene's frame rate (24, 25, 30, 60) or the clip's KPS property as typed,
 * 0 included; users type a zero too many (150 for 15, 3000 for 30), paste milliseconds for frames per
 * second, and damaged or hand-edited headers carry 50,000, 2^24 or 2^31−1.
 *
 * The judge, per clip, from the file's fields and the game's rule alone (`AniTime = ⌊1000·F/KPS⌋` ms,
 * which the games divide by — formats/carnivores-dson.md §A.8): a clip the game plays (KPS > 0,
 * AniTime ≥ 1 ms) must last AniTime; every clip of two frames or more must either span at least one
 * frame of a 24 fps viewer (Blender's default, where shorter clips put every key on one frame) or be
 * named in a warning. A clip squeezed onto one viewer frame with no word is silently wrong.
 *
 * @module
 */
import type { CarModel } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { prng } from "../../../support/prng.ts";
import { animatedCar, animation } from "./fixtures.ts";

/** The rate of a viewer at Blender's default scene frame rate. */
export const VIEWER_FPS = 24;

const GAME_RATES = [8, 10, 12, 15, 16, 20, 25, 30];
const SCENE_RATES = [24, 25, 30, 60];
const ABSURD = [0, 150, 300, 1000, 1001, 3000, 5000, 50_000, 1 << 24, 0x7fffffff, 100_000];
const NAMES = ["walk", "run", "idle1", "eat", "die", "swim", "slide", "jump"];

/** A generated `.car` and a label for failure messages. */
export interface RateCase {
  readonly car: CarModel;
  readonly label: string;
}

/** The `.car` of `seed`: 1 to 4 clips of 1 to 60 frames at tool-made and absurd rates. */
export function rateCase(seed: number): RateCase {
  const next = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const base = animatedCar();
  const clips = Array.from({ length: 1 + Math.floor(next() * 4) }, (_, c) => {
    const r = next();
    const kps = r < 0.35 ? pick(GAME_RATES) : r < 0.55 ? pick(SCENE_RATES) : pick(ABSURD);
    const frames = pick([1, 2, 3, 5, 8, 12, 20, 31, 45, 60]);
    return animation(`${NAMES[c]}`, kps, frames, base.points, c);
  });
  const car: CarModel = { ...base, animations: clips, animSounds: new Int32Array(64).fill(-1) };
  return { car, label: `seed ${seed}: ${clips.map((c) => `${c.name} ${c.frameCount}@${c.kps}`).join(", ")}` };
}

/** How one clip came out. */
export type RateOutcome = "right" | "warned" | "untruthful" | "silent_collapse";

/**
 * Judges each clip of `c` against the decoded clips' durations (seconds, by name) and the warnings;
 * see the module doc.
 */
export function judgeRates(
  c: RateCase,
  durations: ReadonlyMap<string, number>,
  warnings: readonly string[],
): { outcome: RateOutcome; clip: string }[] {
  return c.car.animations.map(({ name, kps, frameCount }) => {
    const got = durations.get(name);
    const named = warnings.some((w) => w.includes(`'${name}'`));
    const aniTime = kps > 0 ? Math.floor((1000 * frameCount) / kps) : 0;
    if (got === undefined) return { outcome: named ? "warned" : "silent_collapse", clip: name };
    if (aniTime >= 1 && Math.abs(got - aniTime / 1000) > 1e-6) return { outcome: "untruthful", clip: name };
    if (frameCount >= 2 && got < 1 / VIEWER_FPS) {
      return { outcome: named ? "warned" : "silent_collapse", clip: name };
    }
    return { outcome: named && aniTime < 1 ? "warned" : "right", clip: name };
  });
}
