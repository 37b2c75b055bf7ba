import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError } from "../errors.js";

/** The project root: the directory yolo was started in (or -C), resolved through symlinks. */
export function projectRoot(cwd: string): string {
  try {
    return realpathSync(resolve(cwd));
  } catch {
    throw new ConfigError(`The directory ${cwd} does not exist.`);
  }
}
