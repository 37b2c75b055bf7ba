// Builds dist/ in two layers:
// 1. Every module of src/ transpiled file by file (the package entry `dist/index.js` that a yolo.config.ts imports,
//    the LangGraph server graph, and the modules the benches import).
// 2. The CLI (`dist/cli/main.js`, which bin/yolo.js loads) bundled with its dependencies into split chunks: Node
//    resolves and compiles a few large files instead of hundreds of small ones (`yolo threads` went from about 9× to
//    about 3× `node -e 0`), and every lazy `import()` stays a separate chunk, so `--version` still loads no LangGraph.
// Type checking is `tsc --noEmit`.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { spawnSync } from "node:child_process";

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

// Native addons, packages that load files beside themselves at run time, and optional back ends stay in node_modules.
const EXTERNAL = ["better-sqlite3", "pg", "pg-native", "pg-cloudflare", "jiti", "@langchain/langgraph-checkpoint-postgres", "react-devtools-core"];

// zod's namespace export carries its error messages in some forty languages (half of zod's bundled size, compiled by
// every command that validates anything); yolo uses the English ones only (zod's default), so the bundle holds those.
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";', loader: "js" }));
  },
};

// Built beside dist/ and swapped in with two renames, so a test reading dist/ while someone rebuilds never
// finds it half-written or gone for the length of a build.
const next = `dist.next-${process.pid}`;
const old = `dist.old-${process.pid}`;
rmSync(next, { recursive: true, force: true });
// The build's identity, for caches of work whose result depends on the code (validated config values): a hash of
// every source file and of the lockfile (the dependencies' versions).
const buildId = (() => {
  const hash = createHash("sha256");
  for (const file of [...sources("src"), "package-lock.json"].sort()) hash.update(`${file}\0`).update(readFileSync(file)).update("\0");
  return hash.digest("hex").slice(0, 32);
})();
const common = {
  platform: "node",
  target: "node20",
  format: "esm",
  jsx: "automatic",
  logLevel: "warning",
  define: { __YOLO_BUILD_ID__: JSON.stringify(buildId) },
};
await build({ ...common, entryPoints: sources("src"), outdir: next, outbase: "src", sourcemap: "linked" });
const cli = await build({
  ...common,
  entryPoints: { "cli/main": "src/cli/main.ts" },
  outdir: next,
  bundle: true,
  splitting: true,
  // Chunks two folders deep, like the modules they hold, so `new URL("../../agents/", import.meta.url)` and its
  // kind (the default agents, package.json, the package entry) resolve as they do from the per-file build.
  chunkNames: "_/[name]-[hash]",
  external: EXTERNAL,
  // React picks its build from NODE_ENV: the bundle holds only the production one (the development build made the
  // live view several times more expensive).
  define: { ...common.define, "process.env.NODE_ENV": '"production"' },
  // Bundled CommonJS packages call require() for Node's built-ins; ESM has none of its own.
  banner: { js: 'import { createRequire as __yoloRequire } from "node:module"; const require = __yoloRequire(import.meta.url);' },
  sourcemap: "linked",
  metafile: true,
  plugins: [zodEnglishOnly],
});
// Which packages and source folders each output file holds, for tests that check what a command loads.
writeFileSync(join(next, "chunks.json"), JSON.stringify(contents(cli.metafile), null, 1));
// The help texts, captured from the CLI just built, for bin/yolo.js to print without loading it.
const help = spawnSync(process.execPath, ["scripts/help-text.mjs", next], { stdio: ["ignore", "pipe", "inherit"] });
if (help.status !== 0) throw new Error(`scripts/help-text.mjs failed (exit ${help.status})`);
if (existsSync("dist")) renameSync("dist", old);
renameSync(next, "dist");
rmSync(old, { recursive: true, force: true });

function contents(metafile) {
  const out = {};
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!file.endsWith(".js")) continue;
    const holds = new Set();
    for (const input of Object.keys(output.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      holds.add(pkg ? pkg[1] : input.replace(/^src\/([^/]+)\/.*$/, "src/$1"));
    }
    out[relative(next, file)] = [...holds].sort();
  }
  return out;
}
