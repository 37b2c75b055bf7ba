// Builds dist/ in four layers:
// 1. Every module of src/ transpiled file by file (the package entry `dist/index.js` that a yolo.config.ts imports,
//    the LangGraph server graph, and the modules the benches import).
// 2. The CLI (`dist/cli/main.js`, which bin/yolo.js loads) bundled with its dependencies into split chunks: Node
//    resolves and compiles a few large files instead of hundreds of small ones (`yolo threads` went from about 9× to
//    about 3× `node -e 0`), and every lazy `import()` stays a separate chunk, so `--version` still loads no LangGraph.
// 3. The light CLI (`dist/cli/light.cjs` and its loader) for `threads`, `show`, `history` and `graph`: see below.
// 4. The run bundle (`dist/cli/run.cjs` and its packs) for `run`, `resume`, `agent` and `chat` without the live view:
//    see below.
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
const EXTERNAL = [
  "better-sqlite3",
  "pg",
  "pg-native",
  "pg-cloudflare",
  "jiti",
  "@langchain/langgraph-checkpoint-postgres",
  "react-devtools-core",
  "typescript",
];

// The run bundle's packs: packages the run bundle leaves out and requires at run time from a CommonJS file of their own
// (dist/cli/<file>), which the loader reads, compiles from its own code cache entry and runs only when one of them is
// first required. A start read and decoded all 4.4 MB of the single bundle, and deserialized a code cache covering it,
// where what it runs before its first event is far less: LangGraph and LangChain, the model client and MCP run after
// `run.started` (tests/e2e/startup-is-lazy.test.ts), zod and YAML only when the agents or the config are validated
// (not from their caches), the logger, execa and the editor protocol when used. A pack evaluates all it holds when it
// loads, so packages a run may not use (MCP) have packs of their own. Earlier packs may require later ones, never the
// reverse.
const PACKS = [
  // The model client apart from LangGraph: a resume on PostgreSQL reads its thread through LangGraph before
  // run.started, and needs no model client for that.
  { file: "run-model.cjs", match: /^(@langchain\/openai|openai)(\/.*)?$/ },
  { file: "run-engine.cjs", match: /^(@langchain\/(?!langgraph-checkpoint-postgres|openai(?:\/|$))[^/]+|langsmith)(\/.*)?$/ },
  { file: "run-mcp.cjs", match: /^@modelcontextprotocol\/sdk(\/.*)?$/ },
  { file: "run-acp.cjs", match: /^@agentclientprotocol\/sdk(\/.*)?$/ },
  { file: "run-pino.cjs", match: /^pino(\/.*)?$/ },
  { file: "run-execa.cjs", match: /^execa(\/.*)?$/ },
  { file: "run-yaml.cjs", match: /^yaml(\/.*)?$/ },
  { file: "run-zod.cjs", match: /^zod(\/.*)?$/ },
];
// The specifiers asked of each pack by the builds so far.
const packRequests = new Map(PACKS.map((p) => [p.file, new Set()]));

// Leaves the packs' packages out of a build (`self`, the pack being built, keeps its own), noting what was asked.
function packed(self) {
  return {
    name: "packed",
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        const pack = PACKS.find((p) => p.match.test(args.path));
        if (!pack || pack.file === self) return undefined;
        packRequests.get(pack.file).add(args.path);
        return { path: args.path, external: true };
      });
    },
  };
}

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
// The build's identity, for caches of work whose result depends on the code (validated config values, compiled
// code): a hash of every source file, of the lockfile (the dependencies' versions) and of this script (how they are
// bundled).
const buildId = (() => {
  const hash = createHash("sha256");
  for (const file of [...sources("src"), "package-lock.json", "scripts/build.mjs"].sort()) hash.update(`${file}\0`).update(readFileSync(file)).update("\0");
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
  ...["run", "threads-delete", "report", "init", "hooks", "config", "doctor", "mcp", "acp", "eval", "serve"].map((c) => `src/cli/commands/${c}.ts`),
  "src/cli/prepare.ts",
  "src/config/validate-config.ts",
  "src/store/open-storage.ts",
  "src/engine/inspect.ts",
  "src/engine/history.ts",
];
// What the light CLI and the run bundle (layer 4) share: src/cli/main.ts as one CommonJS file that the loader compiles
// (src/cli/light-loader.ts, which supplies import.meta.url). The SQLite driver's JavaScript is bundled (its ~15 files
// cost more to load than the rest of `threads`); its compiled addon is loaded from node_modules (src/store/db.ts passes
// its path).
const loaderBundle = {
  ...common,
  entryPoints: ["src/cli/main.ts"],
  format: "cjs",
  bundle: true,
  external: EXTERNAL.filter((p) => p !== "better-sqlite3"),
  define: { ...common.define, "process.env.NODE_ENV": '"production"', "import.meta.url": "__yolo_import_meta_url" },
  sourcemap: "linked",
  metafile: true,
};
const light = await build({
  ...loaderBundle,
  outfile: join(next, "cli", "light.cjs"),
  plugins: [zodEnglishOnly, await handOffStubs(LEFT_OUT), bindingsFromDriver()],
});
// esbuild writes ASCII but for a comment or two; escaped there too, the loader reads the file as latin1 (one byte a
// character, the faster string for V8). Outside comments esbuild has escaped every such character already.
const lightFile = join(next, "cli", "light.cjs");
writeFileSync(lightFile, wrapForLoader(readFileSync(lightFile, "utf8").split("\n").map(asciiComment).join("\n")));
// 4. The run bundle (`dist/cli/run.cjs`): the whole CLI, the engine included, as one CommonJS file, for `run`, `resume`,
//    `agent` and `chat` printing JSON or plain lines (bin/yolo.js sends a terminal's live view, and `--tui`, to the full
//    CLI). It runs through the same loader and code cache as the light CLI: Node's ES module loader resolved, linked
//    and compiled some forty chunks on every start, and Node 20 keeps no code cache for ES modules. Nothing is split
//    off: esbuild makes each lazy import() a module evaluated when first imported inside the file, so every class
//    exists once. Ink (yoga-layout's top-level await cannot be CommonJS) is the one module left out.
const run = await build({
  ...loaderBundle,
  outfile: join(next, "cli", "run.cjs"),
  // Whitespace and comments only (names stay, for stack traces): a third less to read on every start (5.4 → 3.6 MB).
  minifyWhitespace: true,
  plugins: [zodEnglishOnly, noLiveView(), externalsRequired(["pg", "@langchain/langgraph-checkpoint-postgres"]), bindingsFromDriver(), packed(null)],
});
const runFile = join(next, "cli", "run.cjs");
const runSource = reportEvaluations(readFileSync(runFile, "utf8").split("\n").map(asciiRegExp).join("\n"));
writeFileSync(runFile, wrapForLoader(runSource));
// The run bundle's packs (see PACKS), each the packages asked of it as one CommonJS file the loader runs when one of
// them is first required (src/cli/run-packs.ts), in the order that lets a pack's own requests of a later pack be
// collected first. Each holds its packages once: the run bundle and the other packs require them from it.
const packMetafiles = [];
for (const pack of PACKS) {
  const specifiers = [...packRequests.get(pack.file)].sort();
  const entry = [
    ...specifiers.map((s, i) => `import * as m${i} from ${JSON.stringify(s)};`),
    `export default { ${specifiers.map((s, i) => `${JSON.stringify(s)}: m${i}`).join(", ")} };`,
  ].join("\n");
  const outfile = join(next, "cli", pack.file);
  const result = await build({
    ...common,
    stdin: { contents: entry, resolveDir: ".", sourcefile: `${pack.file}-entry.js` },
    outfile,
    format: "cjs",
    bundle: true,
    minifyWhitespace: true,
    metafile: true,
    external: EXTERNAL,
    define: { ...common.define, "process.env.NODE_ENV": '"production"', "import.meta.url": "__yolo_import_meta_url" },
    plugins: [zodEnglishOnly, externalsRequired(["pg"]), packed(pack.file)],
  });
  packMetafiles.push([pack.file, result.metafile]);
  writeFileSync(outfile, wrapForLoader(readFileSync(outfile, "utf8").split("\n").map(asciiRegExp).join("\n")));
}
writeFileSync(join(next, "cli", "run-packs.json"), JSON.stringify(PACKS.map((p) => ({ file: p.file, specifiers: [...packRequests.get(p.file)].sort() }))));
await build({ ...common, entryPoints: ["src/cli/light-loader.ts"], outfile: join(next, "cli", "light-loader.cjs"), format: "cjs", bundle: true });
// The git reads and sandbox trial bin/yolo.js starts for run, resume, agent and chat before loading either CLI (src/cli/
// early-probes.ts): a small CommonJS file, so starting them needs neither Node's ES module loader nor a code cache.
await build({ ...common, entryPoints: ["src/cli/early-probes.ts"], outfile: join(next, "cli", "early-probes.cjs"), format: "cjs", bundle: true });
// The spawner helper process yolo's commands are started from (src/exec/spawner.ts): a small CommonJS file, quick to boot.
await build({ ...common, entryPoints: ["src/exec/spawner-child.ts"], outfile: join(next, "exec", "spawner-child.cjs"), format: "cjs", bundle: true });
// Which packages and source folders each output file holds, for tests that check what a command loads.
// For the run bundle also what it evaluates as it starts: the modules esbuild did not wrap to evaluate when imported.
const lazy = new Set([...runSource.matchAll(/__(?:esm|commonJS)\(\{"([^"]+)"/g)].map((m) => m[1]));
const started = {
  "cli/run.cjs#start": packagesOf(Object.keys(Object.values(run.metafile.outputs).find((o) => o.entryPoint).inputs).filter((i) => !lazy.has(i))),
};
// A pack is evaluated whole when it loads (the loader reports it by its file, "file:cli/<pack>").
const packs = Object.fromEntries(
  packMetafiles.map(([file, meta]) => [
    `cli/${file}`,
    packagesOf(Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs).filter((i) => !i.endsWith("-entry.js")))),
  ]),
);
writeFileSync(
  join(next, "chunks.json"),
  JSON.stringify({ ...contents(cli.metafile), ...contents(light.metafile), ...contents(run.metafile), ...started, ...packs }, null, 1),
);
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

// The run bundle's lines: esbuild leaves the characters of regular expression literals as they are (src/gates/ matches
// test runners' ✓ and ℹ), where `\uXXXX` means the same character, as it does in the strings, identifiers and (minified
// away but legal ones) comments esbuild has escaped already; a character beyond U+FFFF (two escapes, not one under
// the u flag) fails the build.
function asciiRegExp(line) {
  return line.replace(/[^\0-\x7f]/gu, (c) => {
    const code = c.codePointAt(0);
    if (code > 0xffff) throw new Error(`run.cjs: a character beyond U+FFFF: ${line.slice(Math.max(0, line.indexOf(c) - 60), line.indexOf(c) + 60)}`);
    return `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

// The light CLI and the run bundle are written as the function src/cli/light-loader.ts compiles them as (LOADER_HEAD
// there, on the first line so line numbers stay the bundle's): V8 then compiles the string as it was read, where a
// wrapper joined around 4 MB at run time was copied once more on every start (docs/performance.md).
function wrapForLoader(code) {
  // The loader decodes a bundle it finds wrapped as latin1 without looking: only ASCII may be written so.
  if (/[^\0-\x7f]/.test(code)) throw new Error("a bundle for the loader holds a non-ASCII character (see asciiComment, asciiRegExp)");
  return `(function (exports, require, module, __filename, __dirname, __yolo_import_meta_url) {${code}\n})`;
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

// The run bundle's live view: bin/yolo.js never sends it a command that draws one (a terminal on stdout, or --tui), so
// reaching it is a routing bug, reported as one rather than run twice through a hand-off after the run has begun.
function noLiveView() {
  return {
    name: "no-live-view",
    setup(b) {
      b.onResolve({ filter: /[\\/]ink-renderer\.js$/ }, () => ({ path: "ink-renderer", namespace: "no-live-view" }));
      b.onLoad({ filter: /.*/, namespace: "no-live-view" }, () => ({
        loader: "js",
        contents: [
          "exports.createInkRenderer = async () => {",
          '  throw new Error("internal error: the run bundle (dist/cli/run.cjs) has no live view; bin/yolo.js should have run this command in the full CLI");',
          "};",
        ].join("\n"),
      }));
    },
  };
}

// An external package or a built-in imported with import() becomes a require(): a vm.Script (the loader's) has no
// import() of its own.
function externalsRequired(packages) {
  return {
    name: "externals-required",
    setup(b) {
      const filter = new RegExp(`^(${packages.map((p) => p.replace(/[/.]/g, "\\$&")).join("|")}|node:.*)$`);
      b.onResolve({ filter }, (args) => {
        if (args.namespace === "externals-required") return { path: args.path, external: true };
        // Node's built-ins imported statically are require()s already.
        if (args.path.startsWith("node:") && args.kind !== "dynamic-import") return undefined;
        return { path: args.path, namespace: "externals-required" };
      });
      b.onLoad({ filter: /.*/, namespace: "externals-required" }, (args) => ({
        loader: "js",
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
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
    out[relative(next, file)] = packagesOf(Object.keys(output.inputs));
  }
  return out;
}

// The packages and source folders of bundled input paths.
function packagesOf(inputs) {
  const holds = new Set();
  for (const input of inputs) {
    if (/^(hand-off|no-live-view|externals-required|bindings):/.test(input)) continue;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    holds.add(pkg ? pkg[1] : input.replace(/^src\/([^/]+)\/.*$/, "src/$1"));
  }
  return [...holds].sort();
}

// Makes the run bundle say which of its modules it evaluates, to a function a test may set on globalThis (under
// Symbol.for("yolo.bundle-module-evaluated")): "start" as it starts, then each module esbuild wrapped to be evaluated
// when first imported, by its path. Node's module hooks see none of this (the bundle is one vm.Script), and the tests
// of what a command loads, and when (tests/e2e/startup-is-lazy.test.ts), must still see it. Without that function
// set, this costs one property read per module evaluated.
function reportEvaluations(source) {
  const helpers = [
    ["fn&&(res=(0,fn[__getOwnPropNames(fn)[0]])(fn=0))", "fn&&(__yoloEvaluated(__getOwnPropNames(fn)[0]),res=(0,fn[__getOwnPropNames(fn)[0]])(fn=0))"],
    [
      "mod||(0,cb[__getOwnPropNames(cb)[0]])((mod={exports:{}}).exports,mod)",
      "mod||(__yoloEvaluated(__getOwnPropNames(cb)[0]),(0,cb[__getOwnPropNames(cb)[0]])((mod={exports:{}}).exports,mod))",
    ],
  ];
  for (const [from, to] of helpers) {
    if (source.indexOf(from) < 0) throw new Error(`run.cjs: esbuild's module helper changed; update reportEvaluations in scripts/build.mjs: ${from}`);
    source = source.replace(from, to);
  }
  const strict = '"use strict";';
  if (!source.startsWith(strict)) throw new Error('run.cjs: expected esbuild\'s "use strict" first');
  const report =
    'var __yoloEvaluated=(name)=>{const log=globalThis[Symbol.for("yolo.bundle-module-evaluated")];if(typeof log==="function")log(name)};__yoloEvaluated("start");';
  return `${strict}${report}${source.slice(strict.length)}`;
}
