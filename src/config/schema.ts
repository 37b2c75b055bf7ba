import { z } from "zod";

const gateSchema = z.strictObject({
  name: z.string().min(1),
  command: z.string().min(1),
  /** A failing required gate blocks the run; an optional one is reported only. */
  required: z.boolean().default(true),
  timeoutS: z.number().positive().default(600),
});

/** The schema of `yolo.config.ts`. Unknown keys are errors, so a typo never silently does nothing. */
export const configSchema = z.strictObject({
  model: z
    .strictObject({
      name: z.string().min(1).optional(),
      baseURL: z.string().url().optional(),
      /** Name of the environment variable holding the API key (default OPENAI_API_KEY). */
      apiKeyEnv: z.string().min(1).optional(),
      temperature: z.number().min(0).max(2).optional(),
      maxRetries: z.number().int().min(0).max(20).optional(),
      timeoutS: z.number().positive().optional(),
    })
    .optional(),
  maxFixAttempts: z.number().int().min(0).max(50).optional(),
  gates: z.array(gateSchema).optional(),
  agentsDir: z.string().min(1).optional(),
  dbPath: z.string().min(1).optional(),
  limits: z
    .strictObject({
      maxTurns: z.number().int().positive().optional(),
      handoffReminders: z.number().int().min(0).max(10).optional(),
      commandTimeoutS: z.number().positive().optional(),
      outputCapBytes: z.number().int().min(1024).optional(),
      readCapBytes: z.number().int().min(1024).optional(),
      maxSteps: z.number().int().positive().optional(),
    })
    .optional(),
});

export type UserConfig = z.input<typeof configSchema>;
export type GateConfig = z.output<typeof gateSchema>;
export { gateSchema };

/** Everything resolved: defaults < config file < YOLO_* environment < flags. Frozen and passed down. */
export interface ResolvedConfig {
  root: string;
  configFile: string | null;
  model: {
    name: string;
    baseURL: string | null;
    apiKey: string | null;
    apiKeyEnv: string;
    temperature: number | null;
    maxRetries: number;
    timeoutS: number;
  };
  maxFixAttempts: number;
  /** null: not configured, detect (`npm test` when package.json has a real test script). */
  gates: GateConfig[] | null;
  agentsDir: string;
  dbPath: string;
  stateDir: string;
  limits: {
    maxTurns: number;
    handoffReminders: number;
    commandTimeoutS: number;
    outputCapBytes: number;
    readCapBytes: number;
    maxSteps: number;
    /** `--max-turns` from the command line: wins over an agent's own maxTurns. */
    maxTurnsOverride: number | null;
  };
}
