import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let root: string | null = null;

/**
 * The folder of yolo's own package.json (where `agents/`, `bin/` and `dist/` live). Found by walking up from this
 * module, because where the module sits differs: `src/` under the tests, `dist/` file by file, a chunk of the
 * bundled CLI in `dist/_/`.
 */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`yolo's package.json was not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  root = dir;
  return dir;
}

/** yolo's version, from its package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}
