/** The package's public entry: what `import { defineConfig } from "yolo"` resolves to in a yolo.config.ts. */
export { defineConfig } from "./config/define.js";
export type { UserConfig } from "./config/schema.js";
