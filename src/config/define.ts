import type { UserConfig } from "./schema.js";

/** Identity function that gives `yolo.config.ts` editor completion and type checking. */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}
