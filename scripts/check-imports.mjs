// The import graph's three rules, computed from the real graph (dpdm parses every module under src/):
// 1. No import cycles among runtime imports (type-only imports are erased and cannot cycle at run time).
// 2. The engine knows nothing of the terminal (HOUSE-STYLE.md, "One boundary that matters"): every module outside
//    src/cli and src/ui is engine-side and may not import ink, react, commander or anything in src/cli or src/ui
//    (type imports included), write to stdout or call process.exit; only src/cli/main.ts (and the mains of yolo's own
//    helper processes, EXITING) may exit.
// 3. Layers (docs/architecture.md): the folders at the bottom never import the ones above them, type imports
//    included — process execution (exec), secret detection (secrets), the event contract (events), the state's data
//    shapes (state) and text helpers (text) know nothing of tools, the engine, gates or agents; gates and hooks run
//    commands through exec, never through the model's tools; prompt and middleware read the state through
//    src/state, never the engine; tools import neither gates nor the prompt; config imports neither hooks nor mcp
//    (their config schemas live in src/config); hooks never import the agent loop.
// 4. The engine returns facts, the CLI words them: no engine-side line holds a yolo command (`yolo resume …`) or one
//    of yolo's flags (`--max-steps`); src/cli/wording/ turns facts into those. CLI_WORDS_ALLOWED is the narrow list of
//    files that still may, each with its count (a ratchet: a new such line fails) and the reason.
// 5. One door into the engine: src/cli/ imports src/engine/ only through src/engine/api.ts (type imports included).
//    CLI_ENGINE_ALLOWED is the narrow list of files that still reach in directly, each with the reason.
// Usage: node scripts/check-imports.mjs [--root <dir>]   (exit 1 and a list of problems when a rule is broken)
import { parseCircular, parseDependencyTree } from "dpdm";
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const UI_SIDE = /^src\/(cli|ui)\//;
const UI_PACKAGES = /^(ink|ink-[\w-]+|react|react-dom|commander)(\/|$)/;
/** Folder → folders it may not import (each rule with the reason a reader of the failure needs). */
const LAYER_RULES = [
  ...["exec", "secrets", "events", "state", "text"].map((from) => ({
    from,
    never: ["tools", "engine", "gates", "agents"],
    why: "a bottom layer: tools, the engine, gates and agents build on it, not the other way round",
  })),
  { from: "secrets", never: ["exec"], why: "exec scrubs and masks with what secrets detects" },
  ...["gates", "hooks"].map((from) => ({ from, never: ["tools"], why: "commands run through src/exec; src/tools is the model's tools" })),
  { from: "prompt", never: ["engine"], why: "take the state's types from src/state, or a narrower input" },
  { from: "middleware", never: ["engine"], why: "take the state's types from src/state, or a narrower input" },
  {
    from: "tools",
    never: ["gates", "prompt"],
    why: "the model's tools sit below gates and the prompt: take what they share from a lower folder, or a function passed in (ToolContext)",
  },
  {
    from: "config",
    never: ["hooks", "mcp"],
    why: "the config's format is the bottom of hooks and MCP: their schemas live in src/config (hooks-schema.ts, mcp-servers.ts)",
  },
  { from: "hooks", never: ["agents"], why: "the agent loop runs the hooks: it takes hooks' AroundTool shape, hooks never import the loop" },
];

// The top folder of a path under src/ ("src/exec/run-shell.ts" -> "exec"), or null for a file directly in src/.
const folderOf = (file) => /^src\/([^/]+)\//.exec(file)?.[1] ?? null;

// The mains that may exit: yolo's, and those of the small processes yolo starts for itself (answering over a pipe).
const EXITING = new Set(["src/cli/main.ts", "src/cli/early-child.ts"]);

const TEXT_RULES = [
  { re: /process\.stdout\.write|console\.log\(/, why: "writes to stdout" },
  { re: /process\.exit\(/, why: "calls process.exit" },
];

// A yolo command, or a flag only yolo's own command line has (git, npm and bwrap flags are not matched).
const CLI_WORDS =
  /\byolo (run|resume|threads|show|history|report|init|hooks|graph|doctor|mcp|agent|chat)\b|--(max-(fix-attempts|turns|tokens|cost|steps|time)|answers?|approve|reject|edit|require-gate|test-cmd|allow-dirty|no-branch|branch|base-url|replay|record|last|from|ci|no-tui|tui|db|model|json)\b/;

/**
 * Engine-side files that may still word CLI commands or flags: how many lines, and why. The config resolver's
 * flag names, the doctor's fixes, the model-endpoint error and the no-gate, untrusted-hooks and text-tool-calls notices are facts
 * now (src/cli/wording/flag-names.ts, doctor-fix.ts, error-text.ts, notice-text.ts); what stays cannot be one yet.
 */
export const CLI_WORDS_ALLOWED = {
  "src/mcp/serve.ts": { lines: 6, why: "a front end like src/cli: it runs the yolo binary with these arguments" },
  "src/acp/child-args.ts": { lines: 4, why: "a front end like src/cli (the ACP server): it runs the yolo binary with these arguments" },
  "src/acp/agent.ts": { lines: 1, why: "a front end like src/cli (the ACP server): it lists threads with the yolo binary" },
  "src/tools/policy/git.ts": { lines: 1, why: "git's own --edit, in the command policy (not yolo's flag: the pattern cannot tell)" },
  "src/llm/recording-replay.ts": { lines: 1, why: "a replay mismatch travels as the replayed HTTP error's body, where no fact fits" },
  "src/agents/text-tool-calls.ts": {
    lines: 1,
    why: "advice inside a ProviderError / LimitError message (llama.cpp's own --jinja, and yolo doctor): those errors carry no fact for it yet",
  },
};

const CLI_DIR = /^src\/cli\//;
const ENGINE_DIR = /^src\/engine\//;
const ENGINE_API = "src/engine/api.ts";

/** CLI files that may still import src/engine/ directly (not through src/engine/api.ts), and why. */
export const CLI_ENGINE_ALLOWED = {
  "src/cli/commands/threads.ts": "a light command (dist/cli/light.cjs): the run API behind src/engine/api.ts would load with it",
  "src/cli/commands/show.ts": "a light command (dist/cli/light.cjs): the run API behind src/engine/api.ts would load with it",
  "src/cli/commands/history.ts": "a light command (dist/cli/light.cjs): the run API behind src/engine/api.ts would load with it",
  "src/cli/commands/report.ts": "reads a stored thread's state and row; not behind the API yet",
  "src/cli/commands/threads-delete.ts": "deletes stored threads and their story worktrees; not behind the API yet",
  "src/cli/prepare.ts": "loads a workflow's agents for graph, doctor and init too, which must not load the run API",
};

/** Imports from src/cli/ into src/engine/ that do not go through src/engine/api.ts, as problems. */
function engineDoorProblems(file, deps) {
  if (!CLI_DIR.test(file) || CLI_ENGINE_ALLOWED[file]) return [];
  return deps
    .filter((dep) => dep.id && ENGINE_DIR.test(dep.id) && dep.id !== ENGINE_API)
    .map((dep) => `${file}: src/cli/ imports the engine only through ${ENGINE_API}, not ${dep.id} (export what it needs there)`);
}

/** Every problem of the tree under `root`: cycles, then boundary and layer violations, as readable lines. */
export async function checkImports(root) {
  const entries = ["src/**/*.ts", "src/**/*.tsx"];
  // The tsconfig maps the `.js` suffixes of ESM imports back to the `.ts` sources.
  const tsconfig = existsSync(join(root, "tsconfig.json")) ? join(root, "tsconfig.json") : undefined;
  const parse = (transform) => parseDependencyTree(entries, { context: root, cwd: root, tsconfig, transform, skipDynamicImports: false });
  const [runtime, all] = [await parse(true), await parse(false)];
  const problems = parseCircular(runtime).map((cycle) => `import cycle: ${[...cycle, cycle[0]].join(" -> ")}`);
  for (const [file, deps] of Object.entries(all)) {
    if (!deps || !file.startsWith("src/")) continue;
    const engineSide = !UI_SIDE.test(file);
    // An import the parser cannot resolve would hide its edge from both rules: fail rather than pass blind.
    for (const dep of deps) if (dep.id === null && dep.request.startsWith(".")) problems.push(`${file}: cannot resolve ${dep.request}`);
    const from = folderOf(file);
    for (const rule of LAYER_RULES) {
      if (rule.from !== from) continue;
      for (const dep of deps) {
        const to = dep.id ? folderOf(dep.id) : null;
        if (to && rule.never.includes(to)) problems.push(`${file}: ${from}/ may not import ${to}/ (${dep.id}): ${rule.why}`);
      }
    }
    if (engineSide) {
      for (const dep of deps) {
        if (UI_PACKAGES.test(dep.request)) problems.push(`${file}: engine-side module imports ${dep.request}`);
        else if (dep.id && UI_SIDE.test(dep.id)) problems.push(`${file}: engine-side module imports ${dep.id}`);
      }
    }
    problems.push(...engineDoorProblems(file, deps));
    const lines = readFileSync(join(root, file), "utf8").split("\n");
    const worded = [];
    lines.forEach((line, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
      for (const rule of TEXT_RULES) {
        const allowed = rule.why === "calls process.exit" ? EXITING.has(file) : !engineSide;
        if (!allowed && rule.re.test(line)) problems.push(`${file}:${i + 1}: ${rule.why}: ${line.trim()}`);
      }
      // A trailing comment is not text the engine returns.
      if (engineSide && CLI_WORDS.test(line.replace(/\s\/\/ .*$/, "")))
        worded.push(`${file}:${i + 1}: words a CLI command or flag (return a fact; src/cli/wording words it): ${line.trim().slice(0, 160)}`);
    });
    const allowed = CLI_WORDS_ALLOWED[file]?.lines ?? 0;
    if (worded.length > allowed)
      problems.push(...(allowed ? [`${file}: ${worded.length} lines word CLI commands or flags, ${allowed} allowed (CLI_WORDS_ALLOWED):`] : []), ...worded);
  }
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf("--root");
  const root = at > 0 ? process.argv[at + 1] : process.cwd();
  const problems = await checkImports(root);
  if (problems.length) {
    console.error(`import check failed in ${relative(process.cwd(), root) || "."} (${problems.length}):`);
    for (const p of problems) console.error(`  ${p}`);
    process.exitCode = 1;
  } else {
    console.log("import check: no cycles, engine/UI boundary and layers held, no CLI words engine-side, the CLI enters the engine through its API");
  }
}
