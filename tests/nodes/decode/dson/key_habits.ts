/**
 * Pose presets keyed either side of frame 0, as Daz Studio, scripts and hand edits write their
 * `scene.animations` keys: Daz's nested `[time, value, ["TCB", t, c, b]]`, the same lower-case,
 * a flattened `[time, value, "TCB", t, c, b]` (hand edits, community writers), `["LINEAR"]`,
 * `["CONST"]`, `["HERMITE", in, out]`, keys with no interpolation (the spec's Catmull-Rom), now and
 * then a kind the spec does not name (`["BEZIER"]`), mixed in one channel, unevenly spaced in time.
 * Frame 0 falls on a key or at the middle of an interior span (a key either side of it has its
 * other neighbour), so each channel's frame-0 value has a closed form worked out here from the
 * Kochanek–Bartels formulas, not from the code under test: on a key, its value; at a midpoint,
 * `(p₁ + p₂)/2 + (m₁ − m₂)/8` with `m₁` the first key's outgoing and `m₂` the second's incoming
 * tangent (value per span), KB's
 * `out = (1−t)(1+c)(1+b)/2·(p₁−p₀) + (1−t)(1−c)(1−b)/2·(p₂−p₁)`,
 * `in = (1−t)(1−c)(1+b)/2·(p₂−p₁) + (1−t)(1+c)(1−b)/2·(p₃−p₂)`, each scaled by `2Δ/(Δ before + Δ
 * after)` of its key for uneven spacing; CONST holds, LINEAR halves, HERMITE's slopes are per second.
 *
 * @module
 */
import type { Json } from "./generate.ts";
import { prng } from "../../../support/prng.ts";

/** One channel: its keys as written, and its value at frame 0. */
export interface KeyChannel {
  readonly url: string;
  readonly keys: readonly unknown[][];
  readonly expected: number;
  /** The writing habits drawn. */
  readonly habits: readonly string[];
}

/** One preset. */
export interface KeyCase {
  readonly seed: number;
  readonly preset: Json;
  readonly channels: readonly KeyChannel[];
  /** Keys of a kind the spec does not name, which a warning must count. */
  readonly odd: number;
}

type Kind = "TCB" | "tcb" | "flat" | "LINEAR" | "CONST" | "HERMITE" | "none" | "BEZIER";
const KINDS: Kind[] = ["TCB", "tcb", "flat", "LINEAR", "CONST", "HERMITE", "none", "BEZIER"];

interface Key {
  time: number;
  value: number;
  kind: Kind;
  tcb: [number, number, number];
  slopes: [number, number];
}

/** The key as the writer of its kind writes it. */
function written(key: Key): unknown[] {
  const { time, value, kind, tcb, slopes } = key;
  if (kind === "TCB" || kind === "tcb") return [time, value, [kind, ...tcb]];
  if (kind === "flat") return [time, value, "TCB", ...tcb];
  if (kind === "HERMITE") return [time, value, ["HERMITE", ...slopes]];
  if (kind === "none") return [time, value];
  return [time, value, [kind]];
}

const isTcb = (k: Key) => k.kind === "TCB" || k.kind === "tcb" || k.kind === "flat";

/** Key `i`'s TCB parameters (zeros for a key of another kind: Catmull-Rom's). */
const params = (k: Key) => (isTcb(k) ? k.tcb : [0, 0, 0]);

/** The frame-0 value of span `i` → `i + 1` at its middle (see the module doc). */
function midpoint(keys: readonly Key[], i: number): number {
  const [k0, k1, k2, k3] = [keys[i - 1], keys[i], keys[i + 1], keys[i + 2]];
  const span = k2.time - k1.time;
  if (k1.kind === "CONST") return k1.value;
  if (k1.kind === "LINEAR") return (k1.value + k2.value) / 2;
  let out: number, into: number;
  if (k1.kind === "HERMITE" && k2.kind === "HERMITE") {
    out = k1.slopes[1] * span;
    into = k2.slopes[0] * span;
  } else {
    const [t1, c1, b1] = params(k1), [t2, c2, b2] = params(k2);
    out = ((1 - t1) * (1 + c1) * (1 + b1) / 2 * (k1.value - k0.value) +
      (1 - t1) * (1 - c1) * (1 - b1) / 2 * (k2.value - k1.value)) *
      (2 * span) / (k1.time - k0.time + span);
    into = ((1 - t2) * (1 - c2) * (1 + b2) / 2 * (k2.value - k1.value) +
      (1 - t2) * (1 + c2) * (1 - b2) / 2 * (k3.value - k2.value)) *
      (2 * span) / (span + k3.time - k2.time);
  }
  return (k1.value + k2.value) / 2 + (out - into) / 8;
}

/** The case of `seed`: 6–12 channels. */
export function keyCase(seed: number): KeyCase {
  const r = prng(seed);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const channels: KeyChannel[] = [];
  let odd = 0;
  const count = 6 + Math.floor(r() * 7);
  for (let c = 0; c < count; c++) {
    // Four to six keys; frame 0 is the middle of span `at` → `at + 1` (both interior), or on key `at`.
    const n = 4 + Math.floor(r() * 3);
    const at = 1 + Math.floor(r() * (n - 3));
    const onKey = r() < 0.2;
    const half = round(0.02 + r() * 0.3);
    const times: number[] = [];
    times[at] = onKey ? 0 : -half;
    times[at + 1] = onKey ? round(0.05 + r() * 0.5) : half;
    for (let k = at - 1; k >= 0; k--) times[k] = round(times[k + 1] - (0.03 + r() * 0.6));
    for (let k = at + 2; k < n; k++) times[k] = round(times[k - 1] + 0.03 + r() * 0.6);
    const keys: Key[] = times.map((time) => ({
      time,
      value: round(r() * 120 - 60),
      kind: KINDS[Math.floor(r() * KINDS.length)],
      tcb: [round(r() * 2 - 1), round(r() * 2 - 1), round(r() * 2 - 1)],
      slopes: [round(r() * 200 - 100), round(r() * 200 - 100)],
    }));
    // HERMITE spans end on a HERMITE key (its incoming slope): a HERMITE key before one of another
    // kind takes its neighbour's tangent, a reading the spec does not settle.
    for (let k = 0; k + 1 < n; k++) if (keys[k].kind === "HERMITE") keys[k + 1].kind = "HERMITE";
    odd += keys.filter((k) => k.kind === "BEZIER").length;
    const expected = onKey ? keys[at].value : midpoint(keys, at);
    channels.push({
      url: `name://@selection/bone${c}:?rotation/${"xyz"[c % 3]}/value`,
      keys: keys.map(written),
      expected,
      habits: [...new Set(keys.map((k) => k.kind))],
    });
  }
  const preset = {
    file_version: "0.6.0.0",
    asset_info: { id: "/People/Poses/Blend.duf", type: "preset_pose" },
    scene: { animations: channels.map(({ url, keys }) => ({ url, keys })) },
  };
  return { seed, preset, channels, odd };
}

/** One joint channel of a preset, as written and as it must be read. */
export interface NamedChannel {
  readonly url: string;
  /** The bone and the spec's channel (`rotation/x`, `scale/general`). */
  readonly target: string;
  readonly channel: string;
  readonly value: number;
}

/**
 * A pose preset whose joint channels are named as their writers name them: Daz Studio's presets the
 * spec's way (`?rotation/x/value`, `?scale/general/value`), scripts and hand edits with the node's
 * property name (`?general_scale/value`) or Daz Studio's own channel names (`?xrotate/value`,
 * `?YTranslate/value`, `?zscale`), the forms a formula's inputs also take.
 */
export function namedChannels(seed: number): { preset: Json; channels: NamedChannel[] } {
  const r = prng(seed);
  const channels: NamedChannel[] = [];
  const count = 4 + Math.floor(r() * 8);
  for (let c = 0; c < count; c++) {
    const kind = ["rotation", "translation", "scale", "general"][Math.floor(r() * 4)];
    const axis = "xyz"[Math.floor(r() * 3)];
    const channel = kind === "general" ? "scale/general" : `${kind}/${axis}`;
    const daz = { rotation: "rotate", translation: "translate", scale: "scale" }[kind as "rotation"];
    const forms = kind === "general" ? ["scale/general/value", "general_scale/value", "general_scale"] : [
      `${channel}/value`,
      `${axis}${daz}/value`,
      `${axis.toUpperCase()}${daz[0].toUpperCase()}${daz.slice(1)}/value`,
      `${axis}${daz}`,
    ];
    const path = forms[Math.floor(r() * forms.length)];
    const target = `bone${c}`;
    const value = Math.round((r() * 90 - 45) * 100) / 100;
    channels.push({ url: `name://@selection/${target}:?${path}`, target, channel, value });
  }
  const preset = {
    file_version: "0.6.0.0",
    asset_info: { id: "/People/Poses/Named.duf", type: "preset_pose" },
    scene: { animations: channels.map(({ url, value }) => ({ url, keys: [[0, value]] })) },
  };
  return { preset, channels };
}
