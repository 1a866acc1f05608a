/**
 * Freelancer's detail-map materials baked into one picture glTF can draw. Librelancer's shaders
 * (`DetailMapMaterial.glsl`, `Masked2DetailMapMaterial.glsl`, `DetailMap2Dm1Msk2PassMaterial.glsl`,
 * `IllumDetailMapMaterial.glsl`, with `includes/modulate.inc`'s `modulate2x(a, b) = (2·a.rgb·b.rgb,
 * a.a·b.a)`) sample the diffuse texture `Dt` and each detail map `Dm*` on the same (first) UV set, the
 * detail at `uv × TileRate*`, light `Dt` (`light(Ac, 0, Dc, Dt)`: no `Ec`) and multiply:
 *
 * | type                            | drawn                                                             |
 * | ------------------------------- | ----------------------------------------------------------------- |
 * | `DetailMapMaterial`             | `lit(Dt) · 2·Dm`                                                  |
 * | `Masked2DetailMapMaterial`      | `lit(Dt) · 2·(Dt.a < 0.99 ? Dm0 : Dm1)`                           |
 * | `DetailMap2Dm1Msk2PassMaterial` | `Dt.a < 0.99 ? lit(Dt) · 2·Dm1 : lit(Dt)`                         |
 * | `IllumDetailMapMaterial`        | `mix(lit(Dt) · 2·Dm0, 2·Dm1·Dt, Dm1.a·Dt.a)` (an unlit glow)      |
 *
 * The light multiplies `Dt` linearly (`tex × clamp(light)`), so `lit(Dt) · 2·Dm = lit(2·Dt·Dm)`: the
 * product is baked, in the stored 8-bit (gamma) values the shader multiplies, into an image that holds
 * both the diffuse texture and the detail tiled `TileRate` times — `max(Dt size, TileRate × Dm size)`
 * per axis, at most {@link MAX_DETAIL_SIDE} (the detail is then drawn at a lower resolution, said in the
 * result). The glow of `IllumDetailMapMaterial` is a second image, glTF's emissive texture.
 *
 * @module
 */
import type { RgbaPixels } from "../../../../runtime/scene/png.ts";

/**
 * The longest side of a baked image. 1024² RGBA is 4 MiB while it is built and about half a second
 * of PNG deflate on a 2-core VM (2048² took 2 s of deflate alone); retail's tile rates (4 to 12,
 * treewyrm's `MATERIAL.md`) over a 128-texel detail map fit.
 */
export const MAX_DETAIL_SIDE = 1024;

/** The detail-map types whose detail is baked (compared case-sensitively, as `Material.cs`). */
export const DETAIL_TYPES: ReadonlySet<string> = new Set([
  "DetailMapMaterial",
  "Masked2DetailMapMaterial",
  "DetailMap2Dm1Msk2PassMaterial",
  "IllumDetailMapMaterial",
]);

/** An image with how the shader samples it: clamped or repeated per axis, scaled by a tile rate. */
export interface DetailLayer {
  readonly pixels: RgbaPixels;
  readonly clampU: boolean;
  readonly clampV: boolean;
  /** 1 for the diffuse texture, `TileRate*` for a detail map. */
  readonly rate: number;
}

/** What {@link bakeDetail} makes. */
export interface BakedDetail {
  /** The base colour image. */
  readonly base: RgbaPixels;
  /** `IllumDetailMapMaterial`'s glow, as an emissive image. */
  readonly glow?: RgbaPixels;
  /** True when {@link MAX_DETAIL_SIDE} held the image below `TileRate × Dm size`. */
  readonly capped: boolean;
}

/**
 * Bakes a detail-map material's diffuse texture and detail maps into what its shader draws (above).
 * `detail` and `detail1` are `Dm`/`Dm0` and `Dm1` as the type reads them; a map that is missing
 * (null) multiplies by 1 (`2 × ½`), so `Dt` shows through, and gives no glow.
 *
 * @example
 * ```ts
 * const { base } = bakeDetail("DetailMapMaterial", dt, { pixels: dm, clampU: false, clampV: false, rate: 8 }, null);
 * ```
 */
export function bakeDetail(
  type: string,
  dt: DetailLayer,
  detail: DetailLayer | null,
  detail1: DetailLayer | null,
): BakedDetail {
  const want = (side: "width" | "height") =>
    Math.max(
      dt.pixels[side],
      ...[detail, detail1].map((l) => (l ? Math.ceil(Math.abs(l.rate) * l.pixels[side]) : 0)),
    );
  const wantW = want("width"), wantH = want("height");
  const width = Math.min(MAX_DETAIL_SIDE, wantW), height = Math.min(MAX_DETAIL_SIDE, wantH);
  const base = new Uint8Array(4 * width * height);
  const illum = type === "IllumDetailMapMaterial";
  const glow = illum ? new Uint8Array(4 * width * height) : undefined;
  const t = [0, 0, 0, 0], d = [0, 0, 0, 0], e = [0, 0, 0, 0];
  const neutral = (out: number[]) => out.fill(0.5, 0, 3).fill(1, 3);
  for (let y = 0, o = 0; y < height; y++) {
    const v = (y + 0.5) / height;
    for (let x = 0; x < width; x++, o += 4) {
      const u = (x + 0.5) / width;
      sample(dt, u, v, t);
      // The detail each type multiplies by at this texel; ½ (× 2 = 1) where it multiplies by none.
      const masked = t[3] < 0.99;
      const layer = type === "Masked2DetailMapMaterial"
        ? (masked ? detail : detail1)
        : type === "DetailMap2Dm1Msk2PassMaterial"
        ? (masked ? detail1 : null)
        : detail;
      if (layer) sample(layer, u, v, d);
      else neutral(d);
      let keep = 1;
      if (illum) {
        if (detail1) sample(detail1, u, v, e);
        else e.fill(0);
        const a = e[3] * t[3]; // the glow's weight: Dm1.a · Dt.a
        keep = 1 - a;
        for (let c = 0; c < 3; c++) glow![o + c] = byte(2 * e[c] * t[c] * a);
        glow![o + 3] = 255;
      }
      for (let c = 0; c < 3; c++) base[o + c] = byte(2 * t[c] * d[c] * keep); // modulate2x
      base[o + 3] = 255; // every detail shader is opaque
    }
  }
  return {
    base: { width, height, data: base },
    ...(glow ? { glow: { width, height, data: glow } } : {}),
    capped: width < wantW || height < wantH,
  };
}

/** A 0..1 value as a byte, clamped (the framebuffer clamps what the shader writes). */
function byte(v: number): number {
  return Math.round(255 * Math.min(1, Math.max(0, v)));
}

/**
 * Bilinear sample of `layer` at `(u, v) × rate`, as a GPU samples it (texel centres at `i + ½`),
 * each axis clamped or repeated by the layer's flags, into `out` as 0..1 RGBA. No allocation: it runs
 * once per baked texel and layer.
 */
function sample(layer: DetailLayer, u: number, v: number, out: number[]): void {
  const { width, height, data } = layer.pixels;
  const fx = u * layer.rate * width - 0.5, fy = v * layer.rate * height - 0.5;
  const x0 = Math.floor(fx), y0 = Math.floor(fy);
  const ax = fx - x0, ay = fy - y0;
  const xa = wrap(x0, width, layer.clampU), xb = wrap(x0 + 1, width, layer.clampU);
  const ya = wrap(y0, height, layer.clampV) * width, yb = wrap(y0 + 1, height, layer.clampV) * width;
  const p00 = 4 * (ya + xa), p01 = 4 * (ya + xb), p10 = 4 * (yb + xa), p11 = 4 * (yb + xb);
  const w00 = (1 - ax) * (1 - ay), w01 = ax * (1 - ay), w10 = (1 - ax) * ay, w11 = ax * ay;
  for (let c = 0; c < 4; c++) {
    out[c] = (data[p00 + c] * w00 + data[p01 + c] * w01 + data[p10 + c] * w10 + data[p11 + c] * w11) / 255;
  }
}

function wrap(i: number, n: number, clamp: boolean): number {
  return clamp ? (i < 0 ? 0 : i >= n ? n - 1 : i) : ((i % n) + n) % n;
}
