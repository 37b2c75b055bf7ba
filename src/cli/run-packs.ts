import { readFileSync } from "node:fs";
import { join } from "node:path";

// The run bundle leaves LangGraph, LangChain, the model client, MCP, zod and YAML out: they are in packs, CommonJS
// files of their own (scripts/build.mjs, PACKS) read only when one of their packages is first required, each
// evaluated once, so every package and class exists once. dist/cli/run-packs.json says which pack holds what.

/** One pack as the build listed it: its file under dist/cli/ and the specifiers it answers. */
export interface PackListing {
  file: string;
  specifiers: string[];
}

/** Runs a pack's file (compiled from its code cache entry) with `require` and returns what it exports. */
export type RunPack = (file: string, require: NodeJS.Require) => { default: Record<string, object> };

/**
 * `nodeRequire` with the packs' specifiers answered from the packs: a pack runs when first asked, and a module is
 * handed over as esbuild's CommonJS output expects an ES module's namespace (marked `__esModule`, so its default
 * export stays its own).
 */
export function packedRequire(dist: string, nodeRequire: NodeJS.Require, runPack: RunPack): NodeJS.Require {
  const listings = JSON.parse(readFileSync(join(dist, "cli", "run-packs.json"), "utf8")) as PackListing[];
  const packOf = new Map<string, string>();
  for (const listing of listings) for (const specifier of listing.specifiers) packOf.set(specifier, listing.file);
  const loaded = new Map<string, Record<string, object>>();
  const served = new Map<string, object>();
  const require = ((id: string) => {
    const file = packOf.get(id);
    if (!file) return nodeRequire(id);
    const done = served.get(id);
    if (done) return done;
    let pack = loaded.get(file);
    if (!pack) {
      pack = runPack(join(dist, "cli", file), require).default;
      loaded.set(file, pack);
    }
    const module = asCommonJs(pack[id]);
    served.set(id, module);
    return module;
  }) as NodeJS.Require;
  return Object.assign(require, { resolve: nodeRequire.resolve, cache: nodeRequire.cache, main: nodeRequire.main, extensions: nodeRequire.extensions });
}

// What esbuild's __toCommonJS makes of a namespace: the same live bindings, marked as an ES module.
function asCommonJs(namespace: object): object {
  const module = Object.defineProperty({}, "__esModule", { value: true });
  for (const key of Object.keys(namespace)) {
    Object.defineProperty(module, key, { enumerable: true, get: () => (namespace as Record<string, unknown>)[key] });
  }
  return module;
}
