// The import graph's rules, computed from the real graph (dpdm parses every module under src/):
// 1. No import cycles among runtime imports (type-only imports are erased and cannot cycle at run time).
// 2. The engine knows nothing of the terminal (docs/architecture.md, "Ranks", the boundary): every module outside
//    src/cli and src/ui is engine-side and may not import ink, react, commander or anything in src/cli or src/ui
//    (type imports included), write to stdout or call process.exit; only src/cli/main.ts (and the mains of yolo's own
//    helper processes, EXITING) may exit.
// 3. Folders in one order (docs/architecture.md, "Ranks"): every folder under src/ (and every file directly in it)
//    has a rank in RANKS; it imports only its own rank and the ranks below, type imports included (a type is a
//    dependency on the shape of the floor above, even if it is erased at run time), and no folders import each
//    other in a loop, within a rank either. CEILINGS holds a folder lower than its rank (renderers read events only).
// 4. The engine returns facts, the CLI words them: no engine-side line holds a yolo command (`yolo resume …`) or one
//    of yolo's flags (`--max-steps`); src/cli/wording/ turns facts into those. CLI_WORDS_ALLOWED is the narrow list of
//    files that still may, each with its count (a ratchet: a new such line fails) and the reason.
// 5. One door into the engine: src/cli/ imports src/engine/ only through src/engine/api.ts, or its light part
//    src/engine/api-light.ts (ENGINE_DOORS says why), type imports included; the light part loads, as it is
//    imported, no engine module but LIGHT_DOOR_LOADS (the rest through loaders).
// Usage: node scripts/check-imports.mjs [--root <dir>]   (exit 1 and a list of problems when a rule is broken)
import { parseCircular, parseDependencyTree } from "dpdm";
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const UI_SIDE = /^src\/(cli|ui)\//;
const UI_PACKAGES = /^(ink|ink-[\w-]+|react|react-dom|commander)(\/|$)/;

/**
 * The ranks, bottom first: a unit (a folder under src/, or a file directly in src/ without its extension) imports its
 * own rank and those below. docs/architecture.md shows this table with why each unit sits where it does (a test holds
 * the two equal).
 */
export const RANKS = [
  { rank: "kernel", units: ["text", "paths", "fs", "events", "state", "secrets", "exec", "log", "errors", "package-root"] },
  { rank: "domain", units: ["workflow", "roles", "gates", "prompt", "config"] },
  { rank: "runtime", units: ["llm", "tools", "mcp", "hooks", "agents", "middleware", "store", "git"] },
  { rank: "engine", units: ["engine"] },
  { rank: "front", units: ["cli", "ui", "report", "server", "serve", "doctor", "acp", "eval", "index"] },
];

/** Units held below their rank: the rank they may reach at most, and why. */
export const CEILINGS = {
  ui: { rank: "kernel", why: "renderers read the event stream: src/events and the kernel's helpers, never the engine, gates or the store" },
};

/**
 * Pairs of folders the rank rule lets through, each with its reason; kept out of the loop check too. Empty: every
 * folder imports only its own rank and those below. An entry is a debt to pay, not a way to add an import.
 */
export const RANK_EXCEPTIONS = [];

const RANK_OF = new Map(RANKS.flatMap(({ rank, units }, level) => units.map((unit) => [unit, { rank, level }])));
const LEVEL_OF_RANK = new Map(RANKS.map(({ rank }, level) => [rank, level]));

// The unit of a path under src/: its top folder ("src/exec/run-shell.ts" -> "exec"), or a file directly in src/
// without its extension ("src/errors.ts" -> "errors"); null outside src/.
const unitOf = (file) => /^src\/([^/]+)\//.exec(file)?.[1] ?? /^src\/([^/.]+)\.[^/]+$/.exec(file)?.[1] ?? null;
const shown = (unit, file) => (file.startsWith(`src/${unit}/`) ? `${unit}/` : file.slice(4));

/** Rank problems of one module's imports: up the ranks, or above its unit's ceiling (unranked units: unrankedProblems). */
function rankProblems(file, deps) {
  const from = unitOf(file);
  const mine = RANK_OF.get(from);
  if (!mine) return [];
  const ceiling = CEILINGS[from];
  const reach = ceiling ? LEVEL_OF_RANK.get(ceiling.rank) : mine.level;
  const problems = [];
  for (const dep of deps) {
    const to = dep.id ? unitOf(dep.id) : null;
    if (!to || to === from || RANK_EXCEPTIONS.some((e) => e.from === from && e.to === to)) continue;
    const theirs = RANK_OF.get(to);
    if (!theirs || theirs.level <= reach) continue;
    const why = ceiling
      ? `${shown(from, file)} reaches no higher than the ${ceiling.rank}: ${ceiling.why}`
      : `the ${mine.rank} imports only its own rank and those below, not the ${theirs.rank} (docs/architecture.md, "Ranks")`;
    problems.push(`${file}: ${shown(from, file)} may not import ${shown(to, dep.id)} (${dep.id}): ${why}`);
  }
  return problems;
}

/** Each unit under src/ that RANKS does not place, once (a new folder must be given its place in the order). */
function unrankedProblems(files) {
  const units = new Map();
  for (const file of [...files].sort()) {
    const unit = unitOf(file);
    if (unit && !RANK_OF.has(unit) && !units.has(unit)) units.set(unit, file);
  }
  return [...units].map(
    ([unit, file]) => `${file}: ${shown(unit, file)} has no rank: add it to RANKS in scripts/check-imports.mjs and the table in docs/architecture.md`,
  );
}

/** Folder-level loops (type imports included, rank exceptions left out): each as its folders and one file edge a hop. */
function folderLoops(graph) {
  const edges = new Map();
  for (const [file, deps] of Object.entries(graph)) {
    const from = file.startsWith("src/") ? unitOf(file) : null;
    for (const dep of (from && deps) || []) {
      const to = dep.id ? unitOf(dep.id) : null;
      if (!to || to === from || RANK_EXCEPTIONS.some((e) => e.from === from && e.to === to)) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${file} -> ${dep.id}`);
    }
  }
  return stronglyConnected(edges).map((component) => {
    const path = loopThrough(component, edges);
    const hops = path.slice(0, -1).map((unit, i) => edges.get(unit).get(path[i + 1]));
    return `folder loop: ${path.join(" -> ")} (${hops.join("; ")}): one of these imports goes against the order (docs/architecture.md, "Ranks")`;
  });
}

// Tarjan's algorithm: the components of more than one unit, each sorted, in a stable order.
function stronglyConnected(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const out = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      component.push(w);
    } while (w !== v);
    if (component.length > 1) out.push(component.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

// The shortest loop from a component's first unit back to itself, staying inside the component (breadth first).
function loopThrough(component, edges) {
  const [start] = component;
  const inside = new Set(component);
  const before = new Map();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of [...(edges.get(v)?.keys() ?? [])].sort()) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = before.get(u)) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!before.has(w)) {
        before.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

// The mains that may exit: yolo's own.
const EXITING = new Set(["src/cli/main.ts"]);

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
  "src/acp/session-load.ts": { lines: 2, why: "a front end like src/cli (the ACP server): it lists threads and reads their history with the yolo binary" },
  "src/acp/slash-resume-eval.ts": {
    lines: 4,
    why: "a front end like src/cli (the ACP server): /eval runs the yolo binary, and /resume and /eval name the terminal's commands to the editor's user",
  },
  "src/gates/structured/jest.ts": { lines: 1, why: "jest's own --json, asked of the runner (not yolo's flag: the pattern cannot tell)" },
  "src/tools/policy/git.ts": { lines: 1, why: "git's own --edit, in the command policy (not yolo's flag: the pattern cannot tell)" },
  "src/llm/recording-replay.ts": { lines: 1, why: "a replay mismatch travels as the replayed HTTP error's body, where no fact fits" },
  "src/agents/text-tool-calls.ts": {
    lines: 1,
    why: "advice inside a ProviderError / LimitError message (llama.cpp's own --jinja, and yolo doctor): those errors carry no fact for it yet",
  },
};

const CLI_DIR = /^src\/cli\//;
const ENGINE_DIR = /^src\/engine\//;
/** The files of src/engine/ that src/cli/ may import, and why each. */
export const ENGINE_DOORS = {
  "src/engine/api.ts": "the engine's API: a run's launch, and what run, resume, fork, agent and chat reach the engine for",
  "src/engine/api-light.ts":
    "its part for the commands that start no run (threads, show, history, report, threads rm and prune), apart because api.ts imports a run's start statically, which those must not load",
};

/** Imports from src/cli/ into src/engine/ that do not go through one of ENGINE_DOORS, as problems. */
function engineDoorProblems(file, deps) {
  if (!CLI_DIR.test(file)) return [];
  return deps
    .filter((dep) => dep.id && ENGINE_DIR.test(dep.id) && !Object.hasOwn(ENGINE_DOORS, dep.id))
    .map((dep) => `${file}: src/cli/ imports the engine only through src/engine/api.ts (or api-light.ts), not ${dep.id} (export what it needs there)`);
}

/**
 * The engine modules src/engine/api-light.ts may load as it is imported (its static imports, followed): what
 * `yolo threads` needs. Anything else of the engine it offers through a loader (`() => import(...)`).
 */
export const LIGHT_DOOR_LOADS = ["src/engine/api-light.ts", "src/engine/session.ts", "src/engine/thread-status.ts"];

/** Engine modules the light door loads as it is imported beyond LIGHT_DOOR_LOADS, each with the chain that loads it. */
function lightDoorProblems(runtime) {
  const door = "src/engine/api-light.ts";
  if (!runtime[door]) return [];
  const via = new Map([[door, null]]);
  const queue = [door];
  while (queue.length) {
    const file = queue.shift();
    for (const dep of runtime[file] ?? []) {
      if (!dep.id || dep.kind === "DynamicImport" || via.has(dep.id)) continue;
      via.set(dep.id, file);
      queue.push(dep.id);
    }
  }
  const chain = (file) => (via.get(file) ? [...chain(via.get(file)), file] : [file]);
  return [...via.keys()]
    .filter((file) => ENGINE_DIR.test(file) && !LIGHT_DOOR_LOADS.includes(file))
    .map(
      (file) =>
        `${door}: loads ${file} as it is imported (${chain(file).join(" -> ")}), so would every command that starts no run: offer it through a loader (() => import(...)), or add it to LIGHT_DOOR_LOADS with the reason`,
    );
}

/** Every problem of the tree under `root`: cycles, unranked folders and folder loops, then each module's, as readable lines. */
export async function checkImports(root) {
  const entries = ["src/**/*.ts", "src/**/*.tsx"];
  // The tsconfig maps the `.js` suffixes of ESM imports back to the `.ts` sources.
  const tsconfig = existsSync(join(root, "tsconfig.json")) ? join(root, "tsconfig.json") : undefined;
  const parse = (transform) => parseDependencyTree(entries, { context: root, cwd: root, tsconfig, transform, skipDynamicImports: false });
  const [runtime, all] = [await parse(true), await parse(false)];
  const problems = parseCircular(runtime).map((cycle) => `import cycle: ${[...cycle, cycle[0]].join(" -> ")}`);
  problems.push(...unrankedProblems(Object.keys(all).filter((file) => file.startsWith("src/"))), ...folderLoops(all));
  problems.push(...lightDoorProblems(runtime));
  for (const [file, deps] of Object.entries(all)) {
    if (!deps || !file.startsWith("src/")) continue;
    const engineSide = !UI_SIDE.test(file);
    // An import the parser cannot resolve would hide its edge from both rules: fail rather than pass blind.
    for (const dep of deps) if (dep.id === null && dep.request.startsWith(".")) problems.push(`${file}: cannot resolve ${dep.request}`);
    problems.push(...rankProblems(file, deps));
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
    console.log(
      "import check: no cycles, engine/UI boundary held, folders in rank order without loops, no CLI words engine-side, the CLI enters the engine through its API",
    );
  }
}
