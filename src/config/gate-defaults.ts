import type { GateConfig, UserConfig } from "./schema.js";

/** A gate as a config file or a caller writes it, defaults not yet applied. */
export type GateInput = NonNullable<UserConfig["gates"]>[number];

/**
 * The gate with the schema's defaults filled in (`required: true`, `timeoutS: 600`), without loading zod: a config
 * file's gates were validated when it was loaded, and a command that has no config file needs no validator at all.
 * tests/unit/config/gate-defaults.test.ts checks it against `gateSchema.parse`.
 */
export function withGateDefaults(gate: GateInput): GateConfig {
  return { ...gate, required: gate.required ?? true, timeoutS: gate.timeoutS ?? 600 };
}
