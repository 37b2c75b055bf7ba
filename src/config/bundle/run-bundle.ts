import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname } from "node:path";
import { compileFunction } from "node:vm";
import * as yoloPackage from "../define.js";

/**
 * Runs a trusted config bundle (build.ts) and returns its default export. Its code is read from `file` and checked
 * against `sha256` (the trust store names it by that hash: a file changed since is not run). The bundle's `require`
 * gives only Node's built-ins and yolo's own package: whatever else a module asks for at run time is not in what the
 * user trusted, and fails. `configFile` is the config's own path (its `__filename`).
 */
export function runConfigBundle(file: string, sha256: string, configFile: string): unknown {
  const code = readFileSync(file, "utf8");
  if (createHash("sha256").update(code).digest("hex") !== sha256) {
    throw new Error(`the trusted bundle ${file} is not the one yolo made (its content changed); trust the config again`);
  }
  const nodeRequire = createRequire(file);
  const require = (spec: string): unknown => {
    if (spec === "yolo") return yoloPackage;
    if (isBuiltin(spec)) return nodeRequire(spec);
    throw new Error(`the config asked at run time for "${spec}", which is not in its trusted bundle (only yolo and Node's modules are outside it)`);
  };
  const module = { exports: {} as Record<string, unknown> };
  const run = compileFunction(code, ["exports", "require", "module", "__filename", "__dirname"], { filename: file });
  run(module.exports, require, module, configFile, dirname(configFile));
  const exported = module.exports;
  return exported !== null && typeof exported === "object" && "default" in exported ? exported.default : exported;
}
