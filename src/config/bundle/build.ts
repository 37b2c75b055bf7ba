import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { extname, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type * as Esbuild from "esbuild";
import { dynamicLoads } from "./dynamic-loads.js";

/** A config and every module it reaches, as one CommonJS file: what the user trusts and what yolo runs. */
export interface ConfigBundle {
  code: string;
  /** sha256 of `code`: the bundle's name in the trust store. */
  sha256: string;
  /** Every file bundled, absolute and real (links resolved), the config first. */
  inputs: string[];
  /** sha256 of the inputs' paths and contents: a change that leaves the code the same (a comment) is a change too. */
  inputsSha256: string;
}

/** A bundle, or why none can be made (each problem names its file and line where there is one). */
export type BundleResult = { ok: true; bundle: ConfigBundle } | { ok: false; problems: string[] };

// esbuild's loader per extension; a file of another kind is left to esbuild (an unknown one fails the bundle).
const LOADERS: Record<string, Esbuild.Loader> = {
  ".ts": "ts",
  ".mts": "ts",
  ".cts": "ts",
  ".tsx": "tsx",
  ".js": "js",
  ".mjs": "js",
  ".cjs": "js",
  ".jsx": "jsx",
  ".json": "json",
};

/**
 * Bundles `config` with everything it imports — relative paths, package.json `imports`/`exports`, tsconfig `paths`,
 * packages from any `node_modules` up the tree, links resolved — resolved by esbuild now, not by Node when it runs.
 * `yolo` and Node's built-ins stay outside (the loader provides them: run-bundle.ts). A module that loads code by a
 * name known only at run time is refused (dynamic-loads.ts). esbuild is loaded here only: trusting is rare, loading
 * the bundle is every command.
 */
export async function buildConfigBundle(root: string, config: string): Promise<BundleResult> {
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof Esbuild;
  const problems: string[] = [];
  const shown = (file: string) => (relative(root, file).startsWith("..") ? file : relative(root, file));
  let result: Esbuild.BuildResult<{ write: false; metafile: true }>;
  try {
    result = await esbuild.build({
      entryPoints: [config],
      absWorkingDir: root,
      bundle: true,
      write: false,
      metafile: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      logLevel: "silent",
      plugins: [checkedSources(shown, problems)],
    });
  } catch (error) {
    const failure = error as Partial<Esbuild.BuildFailure>;
    const messages = failure.errors?.map((m) => located(m, root, shown)) ?? [error instanceof Error ? error.message : String(error)];
    return { ok: false, problems: [...problems, ...messages] };
  }
  if (problems.length) return { ok: false, problems };
  const code = result.outputFiles[0].text;
  const inputs = Object.keys(result.metafile.inputs).map((key) => resolve(root, key));
  const sha256 = createHash("sha256").update(code).digest("hex");
  return { ok: true, bundle: { code, sha256, inputs, inputsSha256: inputsHash(inputs) } };
}

function inputsHash(inputs: string[]): string {
  const hash = createHash("sha256");
  for (const file of inputs) hash.update(file).update("\0").update(readFileSync(file)).update("\0");
  return hash.digest("hex");
}

/**
 * Reads every module itself: `yolo` is left outside; a dynamic load is a problem; `import.meta.url` (and `dirname`,
 * `filename`) keep naming the module's own file, as under Node, since the bundle lives elsewhere.
 */
function checkedSources(shown: (file: string) => string, problems: string[]): Esbuild.Plugin {
  return {
    name: "yolo-config-sources",
    setup(build) {
      build.onResolve({ filter: /^yolo$/ }, () => ({ path: "yolo", external: true }));
      build.onLoad({ filter: /.*/, namespace: "file" }, (args) => {
        const loader = LOADERS[extname(args.path)];
        if (!loader) return undefined;
        const text = readFileSync(args.path, "utf8");
        if (loader === "json") return { contents: text, loader };
        for (const load of dynamicLoads(text, args.path)) {
          problems.push(`${shown(args.path)}:${load.line}: ${load.what} loads a module yolo cannot resolve before running it`);
        }
        return { contents: withOwnMeta(text, args.path), loader };
      });
    },
  };
}

// `import.meta.url`, `.dirname`, `.filename` as the module's own values (a CommonJS bundle has no import.meta).
function withOwnMeta(text: string, file: string): string {
  if (!text.includes("import.meta")) return text;
  const values: Record<string, string> = { url: pathToFileURL(file).href, dirname: resolve(file, ".."), filename: file };
  return text.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, key: string) => JSON.stringify(values[key]));
}

function located(message: Esbuild.Message, root: string, shown: (file: string) => string): string {
  const where = message.location ? `${shown(resolve(root, message.location.file))}:${message.location.line}: ` : "";
  return `${where}${message.text}`;
}
