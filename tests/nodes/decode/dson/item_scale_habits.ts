/**
 * Dressed scenes whose fitted items carry a scale of their own, as Daz Studio users leave them: a shirt
 * scaled 101-105 % with the general "Scale" dial against poke-through, a belt or skirt widened on X and Z
 * only ("X Scale 104%"), now and then both; the scene saves only the channels changed, on the item's
 * node instance (`"scale": [{"id": "x", "current_value": 1.04}]`). The body itself is sometimes scaled
 * (a smaller or taller character, the general dial on the figure), which its items follow as Daz's
 * fitting makes them; the body's auto-follow `FBMHeavy` is dialled or not. The body and garments are
 * `swell_body.ts`'s cylinder and tubes.
 *
 * @module
 */
import { prng } from "../../../support/prng.ts";
import type { Json } from "./generate.ts";
import { BODY, body, BODY_FILE, figureFile, fileOf, instance, MORPH, R, tube } from "./swell_body.ts";

/** One fitted item of a case. */
export interface ScaledItem {
  /** Its node instance's id (the key warnings name). */
  readonly key: string;
  /** True when its root has a scale of its own. */
  readonly scaled: boolean;
  readonly habit: string;
}

/** A dressed scene, its content files, and its items. */
export interface ItemScaleCase {
  readonly scene: Json;
  readonly files: (readonly [string, Json])[];
  readonly items: ScaledItem[];
  /** True when the body's root is scaled. */
  readonly bodyScaled: boolean;
}

const GARMENTS = ["Shirt", "Skirt", "Belt", "Jacket"];

/** The case of `seed`. */
export function itemScaleCase(seed: number): ItemScaleCase {
  const r = prng(seed * 37 + 5);
  const round = (x: number, step: number) => Math.round(x / step) * step;
  const bodyInstance: Json = instance(BODY);
  const bodyScaled = r() < 0.25;
  if (bodyScaled) {
    bodyInstance.general_scale = { id: "general_scale", current_value: round(0.85 + r() * 0.25, 0.01) };
  }
  const files: (readonly [string, Json])[] = [[BODY_FILE, body()]];
  const nodes: Json[] = [bodyInstance];
  const items: ScaledItem[] = [];
  const many = 1 + Math.floor(r() * 3);
  for (let i = 0; i < many; i++) {
    const name = GARMENTS[i];
    const out = round(0.3 + r() * 3, 0.1);
    const ys = Array.from({ length: 8 + Math.floor(r() * 10) }, (_, j) => round(3 + j * (1 + r()), 0.01));
    const mesh = tube(R + out, 24 + Math.floor(r() * 40), ys, round(r(), 0.01));
    files.push([fileOf(name), figureFile(name, mesh, [])]);
    const node: Json = instance(name, BODY);
    const habit = r();
    const parts: string[] = [];
    if (habit < 0.4 || (habit >= 0.55 && habit < 0.65)) {
      const s = round(1.01 + r() * 0.04, 0.01);
      node.general_scale = { id: "general_scale", current_value: s };
      parts.push(`general ${s}`);
    }
    if (habit >= 0.4 && habit < 0.65) {
      // Only the axes changed are saved.
      const s = round(1.02 + r() * 0.04, 0.01);
      node.scale = [{ id: "x", current_value: s }, { id: "z", current_value: s }];
      parts.push(`x/z ${s}`);
    }
    nodes.push(node);
    items.push({
      key: `${name}-1`,
      scaled: parts.length > 0,
      habit: `${name} ${out} cm out, ${parts.length ? parts.join(", ") : "unscaled"}`,
    });
  }
  const dial = r() < 0.6 ? round(0.2 + r() * 0.8, 0.01) : 0;
  const scene = {
    file_version: "0.6.1.0",
    asset_info: { id: `/scenes/dressed${seed}.duf`, type: "scene" },
    scene: {
      nodes,
      modifiers: dial
        ? [{
          id: `${MORPH}-1`,
          url: `${encodeURI(BODY_FILE)}#${MORPH}`,
          parent: `#${BODY}_geo-1`,
          channel: { id: "value", current_value: dial },
        }]
        : [],
    },
  };
  return { scene, files, items, bodyScaled };
}
