/**
 * The Carnivores parsers with their warnings collected, for tests that assert on both.
 *
 * @module
 */
import { parse3df as parse3dfTo } from "../../../../nodes/decode/carnivores/codec/parse_3df.ts";
import { parseCar as parseCarTo } from "../../../../nodes/decode/carnivores/codec/parse_car.ts";
import type { CarModel, Model3df } from "../../../../nodes/decode/carnivores/codec/model.ts";

/** A warning a parser reported, with the byte offset it concerns. */
export interface ParseWarning {
  readonly message: string;
  readonly offset: number;
}

function collecting<T>(
  parse: (bytes: Uint8Array, file: string | undefined, warn: (m: string, d?: unknown) => void) => T,
) {
  return (bytes: Uint8Array, file?: string): { model: T; warnings: ParseWarning[] } => {
    const warnings: ParseWarning[] = [];
    const model = parse(
      bytes,
      file,
      (message, detail) =>
        warnings.push({ message, offset: Number((detail as { offset?: number } | undefined)?.offset) }),
    );
    return { model, warnings };
  };
}

/** `parse3df`, returning the model and the warnings it reported. */
export const parse3df: (bytes: Uint8Array, file?: string) => { model: Model3df; warnings: ParseWarning[] } =
  collecting(parse3dfTo);
/** `parseCar`, returning the model and the warnings it reported. */
export const parseCar: (bytes: Uint8Array, file?: string) => { model: CarModel; warnings: ParseWarning[] } =
  collecting(parseCarTo);
