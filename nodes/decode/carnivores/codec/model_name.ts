/**
 * The name a decoded model's node and mesh get.
 *
 * @module
 */
import { basename, extname } from "node:path";

/**
 * The stored model name when it has printable text (ASCII, or the Cyrillic a Windows-1251 name decodes
 * to), else the file's base name without extension.
 *
 * @example
 * ```ts
 * modelName("dino/ALLO.CAR", "Allosaurus"); // "Allosaurus"
 * modelName("dino/palm.3df", "");           // "palm"
 * ```
 */
export function modelName(file: string, stored: string): string {
  const trimmed = stored.trim();
  if (trimmed && /^[\x20-\x7e\u0400-\u045f]+$/.test(trimmed)) return trimmed;
  const base = basename(file);
  return base.slice(0, base.length - extname(base).length) || "model";
}
