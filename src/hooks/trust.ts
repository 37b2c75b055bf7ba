import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { userStateDir } from "../config/trust/config-trust-store.js";
import type { HooksConfig } from "../config/hooks-schema.js";
import { packageFiles, packageSpecifiers, projectPackage } from "../config/config-packages.js";
import { realOrNull } from "../fs/real-path.js";

/**
 * A project file a hook command runs (`./scripts/check.sh`, a file it imports), or one package.json script it runs
 * (`npm run -s lint`: `script` is its name), with the hash of its content when trust was given.
 */
export interface Pin {
  path: string;
  sha256: string;
  script?: string;
  /** A package folder (of the project's node_modules) a host hook's code imports or runs: pinned by all its files, as found from this (real) project root. */
  package?: string;
  /** Set when yolo stopped following here (too many files, nested too deep): what it runs is not all pinned. */
  limit?: string;
}

/** How far the files a hook runs are followed: imports of imports, scripts calling scripts; and how many at most. */
const MAX_PIN_DEPTH = 4;
const MAX_PINS = 64;
/** A package manager running a package.json script: `npm run x`, `npm test`, `pnpm x`, `yarn run x`, `bun run x`. */
const SCRIPT_RUN = /\b(npm|pnpm|yarn|bun)\s+(?:(?:-\S+|--\S+)\s+)*(run-script|run|test|t|start|stop|restart)?(?:\s+(?:-\S+\s+)*([\w:.-]+))?/g;
/** Relative imports and requires in a script the hook runs: `require("./x")`, `import … from "../y.js"`, `import("./z")`. */
const RELATIVE_IMPORT = /(?:require\(|import\(|from\s+|import\s+)\s*["'](\.{1,2}\/[^"']+)["']/g;
const SCRIPT_EXTENSIONS = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".sh", ".py"];

/** Package managers' files in the project that choose what a package script runs (`script-shell`, `yarnPath`, hooks). */
const MANAGER_FILES = [".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs", ".pnpmfile.mjs", "bunfig.toml"];
const MANAGER = /\b(npm|npx|pnpm|pnpx|yarn|bun|bunx)\b/;
/** `npx x`, `pnpm exec x`, `bunx x`, `yarn x`: a package's program run from the project's node_modules. */
const PACKAGE_RUN = /\b(?:npx|pnpx|bunx|(?:pnpm|yarn|npm)\s+exec)\s+(?:-\S+\s+)*(@?[\w.-]+(?:\/[\w.-]+)?)/g;
/** The content of a pinned file that does not exist (a package manager's config the hook's run would read if made). */
const ABSENT = "absent";

/** How far pinning follows: a host hook's pins follow what runs on the host (see pinFiles). */
interface PinScope {
  root: string;
  host: boolean;
}

/** Variables a command may use to name the project, as Claude Code's `$CLAUDE_PROJECT_DIR`. */
const PROJECT_VARS = /\$\{?(YOLO_PROJECT_DIR|CLAUDE_PROJECT_DIR)\}?/g;

/**
 * The project files a hook command names: words that resolve to a file inside the project root. Their content is
 * part of what the user trusts, and is checked again before each run of the hook: an agent that edits the script
 * of a hook (which runs outside its sandbox) gets that hook refused, not run.
 */
export function pinFiles(command: string, root: string, options: { host?: boolean } = {}): Pin[] {
  const pins: Pin[] = [];
  pinCommand(command, { root, host: options.host ?? false }, pins, 0);
  return pins;
}

// The files and package.json scripts one command runs, into `pins`, following what they run in turn.
function pinCommand(command: string, scope: PinScope, pins: Pin[], depth: number): void {
  const { root } = scope;
  for (const raw of command.split(/[\s;&|()<>]+/)) {
    const word = raw.replace(/['"]/g, "").replace(PROJECT_VARS, root);
    // A bare name counts when it is a file of the project (`node lint.js`); a path always does.
    if (word === "" || word.startsWith("-")) continue;
    pinFile(isAbsolute(word) ? word : resolve(root, word), scope, pins, depth);
  }
  for (const match of command.matchAll(SCRIPT_RUN)) {
    const verb = match[2];
    const name = verb === "test" || verb === "t" || verb === "start" || verb === "stop" || verb === "restart" ? (verb === "t" ? "test" : verb) : match[3];
    if (name) pinScript(name, scope, pins, depth);
  }
  if (!scope.host) return;
  // On the host, the package manager reads its config from the project (a model could write one), and runs packages.
  if (MANAGER.test(command)) for (const name of MANAGER_FILES) pinPresentOrAbsent(join(root, name), pins);
  for (const match of command.matchAll(PACKAGE_RUN)) pinPackages(root, [match[1]], scope, pins);
}

// A file pinned whether it exists or not: one that appears later is a change like an edit.
function pinPresentOrAbsent(path: string, pins: Pin[]): void {
  if (pins.some((p) => p.path === path) || !room(pins, path)) return;
  pins.push({ path, sha256: fileHash(path) ?? ABSENT });
}

// The project packages `specs` name from `fromDir` (node_modules up to the root), each pinned by all its files.
function pinPackages(fromDir: string, specs: string[], scope: PinScope, pins: Pin[]): void {
  const realRoot = realOrNull(scope.root) ?? scope.root;
  for (const spec of specs) {
    const dir = projectPackage(fromDir, spec, realRoot);
    if (!dir || pins.some((p) => p.path === dir) || !room(pins, dir)) continue;
    const { files, problems } = packageFiles([dir], realRoot);
    if (problems.length) pins.push({ path: dir, sha256: "", limit: problems.join("; ") });
    else pins.push({ path: dir, package: realRoot, sha256: filesHash(files) });
  }
}

// A project file (not outside the root), and the relative imports of a script, to MAX_PIN_DEPTH.
function pinFile(path: string, scope: PinScope, pins: Pin[], depth: number): void {
  const { root } = scope;
  const rel = relative(root, path);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel) || pins.some((p) => p.path === path && !p.script)) return;
  const sha256 = fileHash(path);
  if (sha256 === null || !room(pins, path)) return;
  pins.push({ path, sha256 });
  if (!SCRIPT_EXTENSIONS.some((ext) => path.endsWith(ext))) return;
  let text = "";
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return;
  }
  if (scope.host) followOnHost(path, text, scope, pins, depth);
  const imports = [...text.matchAll(RELATIVE_IMPORT)];
  // Fail closed: an import past the depth yolo follows is one an agent could edit unseen.
  if (imports.length && depth >= MAX_PIN_DEPTH) {
    pins.push({ path, sha256: "", limit: `its imports are nested more than ${MAX_PIN_DEPTH} deep` });
    return;
  }
  for (const m of imports) {
    const target = resolve(dirname(path), m[1]);
    for (const candidate of [target, ...SCRIPT_EXTENSIONS.map((ext) => `${target}${ext}`), join(target, "index.js")]) {
      if (fileHash(candidate) !== null) {
        pinFile(candidate, scope, pins, depth + 1);
        break;
      }
    }
  }
}

/**
 * What a host hook's script runs besides its relative imports: a shell script's lines are commands (the files it
 * sources or calls, the package scripts it runs), and a JavaScript one's package imports are the project's packages.
 */
function followOnHost(path: string, text: string, scope: PinScope, pins: Pin[], depth: number): void {
  if (path.endsWith(".sh")) {
    if (depth >= MAX_PIN_DEPTH) pins.push({ path, sha256: "", limit: `what it runs is nested more than ${MAX_PIN_DEPTH} deep` });
    else pinCommand(text.replace(/#.*$/gm, ""), scope, pins, depth + 1);
    return;
  }
  if (!path.endsWith(".py")) pinPackages(dirname(path), packageSpecifiers(text), scope, pins);
}

// A package.json script (with its pre/post scripts), pinned by its text, and whatever it runs in turn.
function pinScript(name: string, scope: PinScope, pins: Pin[], depth: number): void {
  const { root } = scope;
  const manifest = join(root, "package.json");
  for (const script of [`pre${name}`, name, `post${name}`]) {
    if (pins.some((p) => p.script === script) || !room(pins, manifest)) continue;
    const text = scriptText(manifest, script);
    pins.push({
      path: manifest,
      script,
      sha256: createHash("sha256")
        .update(text ?? "\0absent")
        .digest("hex"),
    });
    if (text === null) continue;
    if (depth < MAX_PIN_DEPTH) pinCommand(text, scope, pins, depth + 1);
    // Fail closed: a script past the depth yolo follows that runs project files or scripts is not all pinned.
    else if (runsMore(text, scope))
      pins.push({ path: manifest, sha256: "", limit: `its "${script}" script calls scripts nested more than ${MAX_PIN_DEPTH} deep` });
  }
}

// Whether a command runs a package.json script or names a project file (what pinCommand would follow).
function runsMore(command: string, scope: PinScope): boolean {
  const probe: Pin[] = [];
  pinCommand(command.replace(SCRIPT_RUN, " "), { ...scope, host: false }, probe, MAX_PIN_DEPTH);
  return probe.length > 0 || [...command.matchAll(SCRIPT_RUN)].some((m) => m[2] || m[3]);
}

function scriptText(manifest: string, script: string): string | null {
  try {
    const scripts = (JSON.parse(readFileSync(manifest, "utf8")) as { scripts?: Record<string, unknown> } | null)?.scripts;
    const text = scripts?.[script];
    return typeof text === "string" ? text : null;
  } catch {
    return null;
  }
}

// Whether one more pin fits; past MAX_PINS a limit pin says so once (fail closed: what is not pinned is not run).
function room(pins: Pin[], path: string): boolean {
  if (pins.length < MAX_PINS) return true;
  if (!pins.some((p) => p.limit)) pins.push({ path, sha256: "", limit: `it runs more than ${MAX_PINS} project files and scripts` });
  return false;
}

/** Where yolo stopped pinning what a hook runs (its files are not all pinned), in words; null when it pinned all. */
export function unpinnable(pins: readonly Pin[]): string | null {
  const limit = pins.find((p) => p.limit);
  return limit ? `${limit.path}: ${limit.limit}` : null;
}

/** The first pinned file (or package.json script) whose content is not what it was (or that is gone), or null. */
export function changedPin(pins: readonly Pin[]): string | null {
  const changed = pins.find((p) => !p.limit && pinHash(p) !== p.sha256);
  return changed ? (changed.script ? `${changed.path} (its "${changed.script}" script)` : changed.path) : null;
}

function pinHash(pin: Pin): string | null {
  if (pin.package) {
    const { files, problems } = packageFiles([pin.path], pin.package);
    return problems.length ? null : filesHash(files);
  }
  if (!pin.script) return fileHash(pin.path) ?? ABSENT;
  return createHash("sha256")
    .update(scriptText(pin.path, pin.script) ?? "\0absent")
    .digest("hex");
}

/** What the user trusts: the repository's `hooks` config and the content of every project file its commands name. */
export function hookSetHash(hooks: HooksConfig, root: string): string {
  const commands = Object.values(hooks).flatMap((groups) => (groups ?? []).flatMap((g) => g.hooks));
  const pins = commands
    .flatMap((h) => pinFiles(h.command, root, { host: h.host ?? false }))
    .map((p) => `${relative(root, p.path)}${p.script ? `#${p.script}` : ""}:${p.sha256}`);
  return createHash("sha256")
    .update(canonical(hooks))
    .update("\0")
    .update([...new Set(pins)].sort().join("\n"))
    .digest("hex");
}

/** `$XDG_STATE_HOME/yolo/trusted-hooks.json` (XDG_STATE_HOME defaults to `~/.local/state`): the user's, never the project's. */
export function trustStoreFile(env: Readonly<Record<string, string | undefined>>): string {
  return join(userStateDir(env), "trusted-hooks.json");
}

interface TrustEntry {
  sha256: string;
  trustedAt: string;
}

/** True when the user trusted exactly this hook set for this project root. */
export function isTrusted(storeFile: string, root: string, hash: string): boolean {
  return readStore(storeFile)[root]?.sha256 === hash;
}

/** Records the user's consent to this hook set for this project root (replacing an older one). */
export function trustHooks(storeFile: string, root: string, hash: string, now = new Date()): void {
  const store = readStore(storeFile);
  store[root] = { sha256: hash, trustedAt: now.toISOString() };
  writeStore(storeFile, store);
}

/** Withdraws consent for this project root; true when there was one. */
export function untrustHooks(storeFile: string, root: string): boolean {
  const store = readStore(storeFile);
  if (!store[root]) return false;
  delete store[root];
  writeStore(storeFile, store);
  return true;
}

function readStore(file: string): Record<string, TrustEntry> {
  try {
    const value: unknown = JSON.parse(readFileSync(file, "utf8"));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, TrustEntry>) : {};
  } catch {
    // Missing or unreadable: nothing is trusted, which is the safe reading.
    return {};
  }
}

// Written whole to a temp file and renamed, so a crash never leaves half a store (which would read as nothing trusted).
function writeStore(file: string, store: Record<string, TrustEntry>): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}

// One hash of a package's files, names and contents, in the order packageFiles lists them.
function filesHash(files: string[]): string {
  const hash = createHash("sha256");
  for (const file of files)
    hash
      .update(file)
      .update("\0")
      .update(fileHash(file) ?? ABSENT)
      .update("\0");
  return hash.digest("hex");
}

function fileHash(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return null;
    return createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    return null;
  }
}

// JSON with sorted keys: the same config written in another key order is the same hook set.
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
