/**
 * Code-made dressed scenes carrying the fitting options Daz Studio writes for fitted clothing, each
 * with what Daz would draw: a body morph's `auto_follow` switched off (or on) in the scene's modifier
 * instance (Daz writes a changed channel attribute there: Parameter Settings → "Auto Follow"), the
 * item's own follower morph switched off, and the mesh smoothing modifier (`studio/modifier/smoothing`
 * with its `studio_modifier_channels`: Enable Smoothing, Smoothing Type, Smoothing Iterations,
 * Collision Item, Collision Iterations) Daz puts on clothing, in the item's figure file or the
 * scene. Seeded: each seed picks one case and its numbers.
 */
import { prng } from "../../../support/prng.ts";
import type { Json } from "./generate.ts";
import {
  BODY,
  body,
  BODY_FILE,
  figureFile,
  fileOf,
  H,
  instance,
  MORPH,
  R,
  swell,
  tube,
} from "./swell_body.ts";

/** One generated scene and what Daz draws for its item. */
export interface OptionsCase {
  readonly seed: number;
  readonly kind: "body_off" | "body_on" | "item_off" | "smoothing";
  readonly scene: Json;
  readonly files: (readonly [string, Json])[];
  /** The item's vertices, each with its rest position and the delta (cm) Daz gives it at the body's dial. */
  readonly expected: { rest: number[]; delta: number[] }[];
  /** The body's dial (the expected deltas are already scaled by it). */
  readonly weight: number;
  /** The item's offset from the body (cm), for the projection's tolerance. */
  readonly offset: number;
  /** Whether the result must carry a warning naming a Daz option not applied (smoothing, collision). */
  readonly mustWarn: boolean;
}

const KINDS = ["body_off", "body_on", "item_off", "smoothing"] as const;

/** A smoothing modifier as Daz writes it: its type, then its channels. */
function smoothingModifier(
  id: string,
  parent: string,
  iterations: number,
  collision: string | undefined,
): Json {
  const channel = (id: string, type: string, value: unknown, extra: Json = {}) => ({
    channel: { id, type, name: id, label: id, value, current_value: value, ...extra },
    group: "/Mesh Smoothing",
  });
  return {
    id,
    name: id,
    parent,
    extra: [
      { type: "studio/modifier/smoothing" },
      {
        type: "studio_modifier_channels",
        channels: [
          channel("Enable Smoothing", "bool", true),
          channel("Smoothing Type", "enum", 1, { enum_values: ["Generic Smoothing", "Base Shape Matching"] }),
          channel("Smoothing Iterations", "int", iterations),
          ...(collision
            ? [
              { channel: { id: "Collision Item", type: "node", name: "Collision Item", node: collision } },
              channel("Collision Iterations", "int", 3),
            ]
            : []),
          channel("Interactive Update", "bool", true),
        ],
      },
    ],
  };
}

/** The scene of seed `seed`. */
export function optionsCase(seed: number): OptionsCase {
  const next = prng(seed);
  const kind = KINDS[Math.floor(next() * KINDS.length)];
  const offset = 1 + next() * 2;
  const weight = Math.round((0.3 + next() * 0.7) * 100) / 100;
  const ys = Array.from({ length: 9 }, (_, j) => 3 + j * ((H - 6) / 8));
  const shirt = tube(R + offset, 24 + Math.floor(next() * 24), ys, next());
  const own = 0.5; // the item's own follower pushes it 0.5 cm outward
  const ownDeltas = shirt.vertices.map((_, v) => [
    v,
    own * Math.cos(shirt.angles[v]),
    0,
    own * Math.sin(shirt.angles[v]),
  ]);
  const shirtModifiers: Json[] = [];
  const sceneModifiers: Json[] = [];
  const bodyChannel: Json = { id: "value", type: "float", name: "Value", current_value: weight };
  let bodyJson = body();
  let follow = 1; // how much of the body's swell the item takes
  let ownWeight = 0;
  let mustWarn = false;
  if (kind === "body_off") {
    bodyChannel.auto_follow = false;
    follow = 0;
  } else if (kind === "body_on") {
    const modifiers = bodyJson.modifier_library as Json[];
    (modifiers[0].channel as Json).auto_follow = false;
    bodyJson = { ...bodyJson, modifier_library: modifiers };
    bodyChannel.auto_follow = true;
  } else if (kind === "item_off") {
    follow = 0;
    ownWeight = next() < 0.5 ? 0 : 0.25;
    shirtModifiers.push({
      id: MORPH,
      name: MORPH,
      parent: "#Shirt_geo",
      channel: { id: "value", type: "float", value: 0, min: 0, max: 1, auto_follow: true },
      morph: { vertex_count: shirt.vertices.length, deltas: { count: ownDeltas.length, values: ownDeltas } },
    });
    sceneModifiers.push({
      id: `${MORPH}-2`,
      url: `${encodeURI(fileOf("Shirt"))}#${MORPH}`,
      parent: "#Shirt_geo-1",
      channel: { id: "value", type: "float", name: "Value", auto_follow: false, current_value: ownWeight },
    });
  } else {
    mustWarn = true;
    const iterations = 1 + Math.floor(next() * 4);
    const collide = next() < 0.7 ? `#${BODY}-1` : undefined;
    if (next() < 0.5) {
      // In the item's own figure file (as the Transfer Utility leaves it), parented to the figure.
      shirtModifiers.push(
        smoothingModifier("SmoothingModifier", "#Shirt", iterations, collide && `#${BODY}`),
      );
    } else {
      // In the scene (added by the user: Edit → Object → Geometry → Add Smoothing Modifier).
      const definition = smoothingModifier("DzMeshSmoothModifier", "#Shirt", iterations, undefined);
      sceneModifiers.push({
        id: "DzMeshSmoothModifier-1",
        url: `${encodeURI(fileOf("Shirt"))}#DzMeshSmoothModifier`,
        parent: "#Shirt-1",
        ...(collide
          ? {
            extra: [{
              type: "studio_modifier_channels",
              channels: [{
                channel: { id: "Collision Item", type: "node", name: "Collision Item", node: collide },
              }],
            }],
          }
          : {}),
      });
      shirtModifiers.push(definition);
    }
  }
  const expected = shirt.vertices.map((rest, v) => {
    const s = swell(shirt.angles[v], shirt.heights[v]);
    const o = ownDeltas[v];
    return { rest, delta: [0, 1, 2].map((c) => follow * weight * s[c] + ownWeight * o[c + 1]) };
  });
  const scene = {
    file_version: "0.6.1.0",
    asset_info: { id: `/scenes/options_${seed}.duf`, type: "scene" },
    scene: {
      nodes: [instance(BODY), instance("Shirt", BODY)],
      modifiers: [
        {
          id: `${MORPH}-1`,
          url: `${encodeURI(BODY_FILE)}#${MORPH}`,
          parent: `#${BODY}_geo-1`,
          channel: bodyChannel,
        },
        ...sceneModifiers,
      ],
    },
  };
  const files = [
    [BODY_FILE, bodyJson] as const,
    [fileOf("Shirt"), figureFile("Shirt", shirt, shirtModifiers)] as const,
  ];
  return { seed, kind, scene, files, expected, weight, offset, mustWarn };
}
