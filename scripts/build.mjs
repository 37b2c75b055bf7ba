// Builds dist/ in three layers:
// 1. Every module of src/ transpiled file by file (the package entry `dist/index.js` that a yolo.config.ts imports,
//    the LangGraph server graph, and the modules the benches import).
// 2. The CLI (`dist/cli/main.js`, which bin/yolo.js loads) bundled with its dependencies into split chunks: Node
//    resolves and compiles a few large files instead of hundreds of small ones (`yolo threads` went from about 9× to
//    about 3× `node -e 0`), and every lazy `import()` stays a separate chunk, so `--version` still loads no LangGraph.
// 3. The light CLI (`dist/cli/light.cjs` and its loader) for `threads`, `show`, `history` and `graph`: see below.
// Type checking is `tsc --noEmit`.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
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
// (src/store/db.ts calls require() where a bundle provides one; file by file it takes its own createRequire path.)
await build({
  ...common,
  entryPoints: sources("src"),
  outdir: next,
  outbase: "src",
  sourcemap: "linked",
  logOverride: { "unsupported-require-call": "silent" },
});
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
// 3. The light CLI: the same src/cli/main.ts as one CommonJS file without the modules that `threads`, `show`, `history`
//    and `graph` need only off their common path (LangGraph, PostgreSQL, zod, the agents' loader, the other commands).
//    bin/yolo.js runs it through light-loader.cjs from a V8 code cache, without Node's ES module loader; reading a
//    left-out module hands the command to the full CLI above (src/cli/hand-off.ts).
const LEFT_OUT = [
  ...["run", "threads-delete", "report", "init", "hooks", "doctor", "mcp"].map((c) => `src/cli/commands/${c}.ts`),
  "src/cli/prepare.ts",
  "src/config/validate-config.ts",
  "src/store/open-storage.ts",
  "src/engine/inspect.ts",
  "src/engine/history.ts",
];
const light = await build({
  ...common,
  entryPoints: ["src/cli/main.ts"],
  outfile: join(next, "cli", "light.cjs"),
  format: "cjs",
  bundle: true,
  // The SQLite driver's JavaScript is bundled (its ~15 files cost more to load than the rest of `threads`); its
  // compiled addon is loaded from node_modules (src/store/db.ts passes its path).
  external: EXTERNAL.filter((p) => p !== "better-sqlite3"),
  define: { ...common.define, "process.env.NODE_ENV": '"production"', "import.meta.url": "__yolo_import_meta_url" },
  sourcemap: "linked",
  metafile: true,
  plugins: [zodEnglishOnly, await handOffStubs(LEFT_OUT), bindingsFromDriver()],
});
// esbuild writes ASCII but for a comment or two; escaped there too, the loader reads the file as latin1 (one byte a
// character, the faster string for V8). Outside comments esbuild has escaped every such character already.
const lightFile = join(next, "cli", "light.cjs");
writeFileSync(lightFile, readFileSync(lightFile, "utf8").split("\n").map(asciiComment).join("\n"));
await build({ ...common, entryPoints: ["src/cli/light-loader.ts"], outfile: join(next, "cli", "light-loader.cjs"), format: "cjs", bundle: true });
// Which packages and source folders each output file holds, for tests that check what a command loads.
writeFileSync(join(next, "chunks.json"), JSON.stringify({ ...contents(cli.metafile), ...contents(light.metafile) }, null, 1));
// The help texts, captured from the CLI just built, for bin/yolo.js to print without loading it.
const help = spawnSync(process.execPath, ["scripts/help-text.mjs", next], { stdio: ["ignore", "pipe", "inherit"] });
if (help.status !== 0) throw new Error(`scripts/help-text.mjs failed (exit ${help.status})`);
if (existsSync("dist")) renameSync("dist", old);
renameSync(next, "dist");
rmSync(old, { recursive: true, force: true });

// A line with its comment's non-ASCII characters escaped; one outside a comment would change the code, so it fails.
function asciiComment(line) {
  const at = line.search(/[^\0-\x7f]/u);
  if (at < 0) return line;
  const comment = line.trimStart();
  if (!(comment.startsWith("*") || comment.startsWith("/*") || (line.indexOf("//") >= 0 && line.indexOf("//") < at)))
    throw new Error(`light.cjs: a non-ASCII character outside a comment: ${line.trim().slice(0, 120)}`);
  return line.replace(/[^\0-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
}

// Where the driver falls back to the `bindings` package (its addon not where db.ts looks), bindings finds the addon from
// the caller's file, which in a bundle is not the driver's: it is told the driver's folder instead.
function bindingsFromDriver() {
  return {
    name: "bindings-from-driver",
    setup(b) {
      b.onResolve({ filter: /^bindings$/ }, (args) =>
        args.namespace === "bindings" ? { path: "bindings", external: true } : { path: "bindings", namespace: "bindings" },
      );
      b.onLoad({ filter: /.*/, namespace: "bindings" }, () => ({
        loader: "js",
        contents: [
          'const { dirname } = require("node:path");',
          'const driver = "better-sqlite3/package.json";',
          'module.exports = (name) => require("bindings")({ bindings: name, module_root: dirname(require.resolve(driver)) });',
        ].join("\n"),
      }));
    },
  };
}

// Each left-out module becomes a stub whose every export, when read, throws the HandOff (exports are getters, so the
// stub throws when the module is used, not when a module that imports it is loaded).
async function handOffStubs(files) {
  const names = new Map();
  for (const file of files) {
    const out = await build({ entryPoints: [file], write: false, metafile: true, format: "esm", outdir: "stub-names", logLevel: "silent" });
    names.set(
      resolve(file),
      Object.values(out.metafile.outputs).flatMap((o) => o.exports),
    );
  }
  return {
    name: "hand-off-stubs",
    setup(b) {
      b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
        const path = resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts"));
        return names.has(path) ? { path: relative(".", path), namespace: "hand-off" } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: "hand-off" }, (args) => ({
        resolveDir: resolve("src/cli"),
        loader: "js",
        contents: [
          'const { HandOff } = require("./hand-off.ts");',
          `for (const name of ${JSON.stringify(names.get(resolve(args.path)))}) {`,
          `  Object.defineProperty(exports, name, { enumerable: true, get() { throw new HandOff(${JSON.stringify(args.path)}); } });`,
          "}",
        ].join("\n"),
      }));
    },
  };
}

function contents(metafile) {
  const out = {};
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!/\.c?js$/.test(file)) continue;
    const holds = new Set();
    for (const input of Object.keys(output.inputs)) {
      if (input.startsWith("hand-off:")) continue;
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      holds.add(pkg ? pkg[1] : input.replace(/^src\/([^/]+)\/.*$/, "src/$1"));
    }
    out[relative(next, file)] = [...holds].sort();
  }
  return out;
}
