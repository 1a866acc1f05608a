/**
 * glTF validation with the Khronos validator (npm `gltf-validator`), for tests.
 *
 * @module
 */
import { khronosValidate } from "../../nodes/export/khronos.ts";

/** The parts of a validator report tests look at. */
export interface ValidationSummary {
  errors: number;
  warnings: number;
  /** The first few error messages with their JSON pointers, for assertion messages. */
  messages: string[];
  /** The distinct codes of every error reported (up to the report's 100 issues). */
  codes: string[];
}

/**
 * Validates GLB or glTF bytes; external resources are refused. A fault of the validator itself counts
 * as an error (`VALIDATOR_FAULT`): it cannot vouch for the file.
 */
export async function validateGltf(bytes: Uint8Array): Promise<ValidationSummary> {
  const report = await khronosValidate(bytes, 100);
  const errors = [
    ...report.issues.filter((issue) => issue.severity === 0),
    ...report.faults.map((message) => ({ code: "VALIDATOR_FAULT", message, pointer: "/" })),
  ];
  return {
    codes: [...new Set(errors.map((issue) => issue.code))],
    errors: report.numErrors + report.faults.length,
    warnings: report.numWarnings,
    messages: errors.slice(0, 10).map((issue) => `${issue.code} ${issue.pointer ?? ""}: ${issue.message}`),
  };
}
