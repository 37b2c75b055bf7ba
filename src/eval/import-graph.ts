import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, posix } from "node:path";
import type * as TS from "typescript";
import { cacheKey, signedBy, signText } from "../config/cache-key.js";
import { privateCacheDir } from "../config/private-dir.js";

/**
 * The static imports of a tree's JavaScript / TypeScript files, read with TypeScript's own parser (never regular
 * expressions): what a file can load through `import`, `export … from`, `import()` and `require()` with a literal
 * name. What the history build's carried results trust (test-file-keys.ts): a test reads the project's code through
 * these edges and no other way, unless it imports a module that starts processes or reads files (marked).
 */

/** Each file's project files it imports (project-relative), or why the tree's imports cannot be told statically. */
export type ImportGraph = { ok: true; edges: Map<string, string[]>; spawners: Set<string>; readers: Set<string> } | { ok: false; reason: string };

// Modules that start processes or threads: a file importing one may run project code no import names.
const SPAWNING = new Set([
  "child_process",
  "node:child_process",
  "worker_threads",
  "node:worker_threads",
  "cluster",
  "node:cluster",
  "execa",
  "cross-spawn",
  "zx",
]);

// Modules that read files or load code by path: a file importing one may depend on files no import names (a
// fixture, golden data, a module loaded through a hook or a `vm` context).
const READING = new Set(
  ["fs", "fs/promises", "module", "vm"].flatMap((m) => [m, `node:${m}`]).concat(["fs-extra", "graceful-fs", "glob", "fast-glob", "globby", "tinyglobby"]),
);

const CODE = /\.(?:[cm]?js|jsx|[cm]?ts|tsx)$/;
const RESOLVE_SUFFIXES = ["", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx", ".json", "/index.js", "/index.mjs", "/index.ts"];

let ts: typeof TS | undefined;

/** Whether `rel` is a file the graph reads (JavaScript or TypeScript source). */
export function isCodeFile(rel: string): boolean {
  return CODE.test(rel);
}

/**
 * The graph of the code files among `files` (project-relative, their text from `read`). A relative import is
 * resolved as Node and TypeScript do (the name, an added extension, a `.js` name standing for its `.ts` source, a
 * folder's index) against `known` (the files of both ends of a change, so an import of a module only one end has
 * still counts). A bare name is a dependency (the same at both ends) unless it is the project's own
 * (`#imports`, its package name): those and a dynamic `import()` / `require()` of a computed name make the graph
 * unknown.
 */
export function importGraph(files: string[], read: (file: string) => string, known: Set<string>, ownName: string | null): ImportGraph {
  const edges = new Map<string, string[]>();
  const spawners = new Set<string>();
  const readers = new Set<string>();
  for (const file of files.filter(isCodeFile)) {
    const names = cachedImportsOf(file, read(file));
    if (typeof names === "string") return { ok: false, reason: `${file} ${names}` };
    const out: string[] = [];
    for (const name of names) {
      if (name.startsWith("#") || (ownName && (name === ownName || name.startsWith(`${ownName}/`))))
        return { ok: false, reason: `${file} imports the project's own "${name}" by a name resolved by package.json` };
      if (name.startsWith(".")) out.push(...resolveRelative(file, name, known));
      if (SPAWNING.has(name)) spawners.add(file);
      if (READING.has(name)) readers.add(file);
    }
    edges.set(file, out);
  }
  return { ok: true, edges, spawners, readers };
}

// The project files a relative import can mean: the first that exists, or every spelling of it when none does.
function resolveRelative(from: string, name: string, known: Set<string>): string[] {
  const base = posix.normalize(posix.join(dirname(from), name));
  const spellings = RESOLVE_SUFFIXES.map((s) => base + s);
  if (/\.[cm]?js$/.test(base)) spellings.push(base.replace(/\.([cm]?)js$/, ".$1ts"), base.replace(/\.js$/, ".tsx"));
  const found = spellings.find((s) => known.has(s));
  return found ? [found] : [];
}

// A build reads the same files at every candidate, most of them unchanged: each text is parsed once. The key is what
// the parse depends on: the text and the extension (TypeScript picks the script kind from it), not the path.
const parsed = new Map<string, string[] | string>();

function cachedImportsOf(file: string, text: string): string[] | string {
  const key = `${extname(file)}\0${createHash("sha256").update(text).digest("hex")}`;
  let names = parsed.get(key) ?? stored()?.entries.get(key);
  if (names === undefined) names = importsOf(file, text);
  parsed.set(key, names);
  return names;
}

/** Parses kept on disk between processes (keepParsesIn): what was read from the file, and the key that signs it. */
interface ParseStore {
  file: string;
  key: Buffer;
  entries: Map<string, string[] | string>;
}

let store: ParseStore | null | undefined;
let storeAt: { file: string; keyDir: string } | null = null;
// How many parses the file keeps (the newest used): a few versions of a large project's files.
const STORE_CAP = 50_000;

/**
 * Keeps the parses in `file` as well, across processes: the build's parses then serve a later eval's judge, which need
 * not load TypeScript's parser at all (a quarter of a second of CPU) when every file it reads has the bytes of one
 * parsed before. Only this module writes it, with TypeScript's own parse of those bytes, signed with this user's key
 * kept in the private folder `keyDir` (config/cache-key.ts): the judge narrows its run from these parses, so a file
 * anything else wrote or edited (an earlier eval's run without the sandbox could reach the project checkout) is not
 * read, and without a usable key nothing is kept.
 */
export function keepParsesIn(file: string, keyDir: string): void {
  storeAt = { file, keyDir };
  store = undefined;
}

/** Writes the parses this process made or used to keepParsesIn's file (the older ones kept there after them, to a cap). */
export function saveParses(): void {
  const kept = stored();
  if (!kept || !parsed.size) return;
  const entries = new Map(kept.entries);
  for (const [key, names] of parsed) entries.delete(key), entries.set(key, names);
  const newest = [...entries].slice(-STORE_CAP);
  const tmp = `${kept.file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(kept.file), { recursive: true });
    const body = JSON.stringify({ parser: parserVersion(), parses: newest });
    // The signature on the first line, over the rest of the file exactly as written.
    writeFileSync(tmp, `${signText(kept.key, body)}\n${body}`);
    renameSync(tmp, kept.file);
  } catch {
    // A cache: the next process parses again.
  }
}

// The parses keepParsesIn's file holds, read once; none when they came from another version of the parser or are not
// exactly as this user's yolo signed them.
function stored(): ParseStore | null {
  if (store !== undefined || !storeAt) return store ?? null;
  const dir = privateCacheDir(storeAt.keyDir);
  const key = dir ? cacheKey(dir) : null;
  store = key ? { file: storeAt.file, key, entries: new Map() } : null;
  if (!store) return null;
  try {
    const text = readFileSync(store.file, "utf8");
    const newline = text.indexOf("\n");
    const body = text.slice(newline + 1);
    if (newline < 0 || !signedBy(store.key, body, text.slice(0, newline))) return store;
    const data = JSON.parse(body) as { parser?: string; parses?: [string, string[] | string][] };
    if (data.parser === parserVersion() && Array.isArray(data.parses)) store.entries = new Map(data.parses.filter(wellFormed));
  } catch {
    // None yet, or unreadable: parsed afresh.
  }
  return store;
}

// A stored entry as saveParses writes it: a key, and a file's module names or why its imports cannot be told.
function wellFormed(entry: unknown): entry is [string, string[] | string] {
  if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== "string") return false;
  const names: unknown = entry[1];
  return typeof names === "string" || (Array.isArray(names) && names.every((n) => typeof n === "string"));
}

let version: string | undefined;

// TypeScript's version (its package.json, without loading the parser) and this reader's: a stored parse from another is not used.
function parserVersion(): string {
  version ??= `${(createRequire(import.meta.url)("typescript/package.json") as { version: string }).version}/1`;
  return version;
}

// The module names a file imports, or why it has an import whose name is computed at run time.
function importsOf(file: string, text: string): string[] | string {
  ts ??= createRequire(import.meta.url)("typescript") as typeof TS;
  const t = ts;
  const source = t.createSourceFile(file, text, t.ScriptTarget.Latest, false, file.endsWith("x") ? t.ScriptKind.TSX : undefined);
  const names: string[] = [];
  let computed: string | null = null;
  const visit = (node: TS.Node): void => {
    if ((t.isImportDeclaration(node) || t.isExportDeclaration(node)) && node.moduleSpecifier && t.isStringLiteral(node.moduleSpecifier)) {
      names.push(node.moduleSpecifier.text);
    } else if (t.isImportEqualsDeclaration(node) && t.isExternalModuleReference(node.moduleReference)) {
      const e = node.moduleReference.expression;
      if (t.isStringLiteralLike(e)) names.push(e.text);
    } else if (t.isCallExpression(node) && isLoader(t, node)) {
      const arg = node.arguments[0];
      if (arg && t.isStringLiteralLike(arg)) names.push(arg.text);
      else computed ??= `loads a module by a name computed at run time (line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1})`;
    }
    t.forEachChild(node, visit);
  };
  visit(source);
  return computed ?? names;
}

// `import(x)`, `require(x)`, `require.resolve(x)`, `module.require(x)`: the calls that load a module by name.
function isLoader(t: typeof TS, call: TS.CallExpression): boolean {
  const callee = call.expression;
  if (callee.kind === t.SyntaxKind.ImportKeyword) return true;
  if (t.isIdentifier(callee)) return callee.text === "require";
  return (
    t.isPropertyAccessExpression(callee) &&
    ["require", "resolve"].includes(callee.name.text) &&
    t.isIdentifier(callee.expression) &&
    ["require", "module"].includes(callee.expression.text)
  );
}
