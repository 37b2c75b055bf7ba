import { type Dirent, opendirSync } from "node:fs";
import { join } from "node:path";
import { readProjectText } from "../secrets/project-read.js";
import { isIgnored, parseGitignore, type IgnoreRules } from "../fs/gitignore.js";
import { fence } from "../text/fence.js";
import { cutWords, DEFAULT_INSTRUCTION_FILES, type InstructionSource, type Instructions, OVERRIDE_FILE, readInstructions } from "./instructions.js";
import { fileStamp, nowNs, settled } from "../fs/file-stamp.js";

const SKIP = new Set([".git", ".yolo", "node_modules", "dist", "build", "coverage", ".next", "target", "__pycache__"]);
const MAX_ENTRIES = 60;
/** Entries read from one folder before sorting: a folder of 100,000 files costs no more than one of 5,000. */
const MAX_DIR_READ = 5000;
const MAX_GITIGNORE_BYTES = 256 * 1024;

const DOC_BYTES = 1500;

/**
 * A bounded summary of the repository for the prompt: top-level tree, the package manifest, and the opening of
 * the instruction files (root down to the start folder) and README.md (fenced: the project's text, not yolo's).
 * Missing pieces are fine.
 */
export function projectSummary(root: string, instructions: Omit<InstructionSource, "root"> = { names: DEFAULT_INSTRUCTION_FILES }): string | null {
  const key = JSON.stringify([root, instructions.startDir ?? root, instructions.names]);
  const cached = summaries.get(key);
  if (cached?.sources.every((source) => (fileStamp(source.path)?.key ?? null) === source.key)) return cached.summary;
  const startedNs = nowNs();
  const read: string[] = [];
  const summary = summarize({ root, ...instructions }, read);
  const sources = read.map((path) => ({ path, stamp: fileStamp(path) }));
  // Racy-git's rule: a source changed just before (or while) it was read could change again within the same
  // timestamp tick and keep its stamp, so such a summary is not reused.
  if (sources.every(({ stamp }) => !stamp || settled(stamp, startedNs))) {
    summaries.set(key, { summary, sources: sources.map(({ path, stamp }) => ({ path, key: stamp?.key ?? null })) });
  } else {
    summaries.delete(key);
  }
  return summary;
}

/**
 * The last summary of each root, with the stamp of every folder and file it was read from. Every agent step asks
 * for it and the project rarely changes between two steps: a few stats replace the folder listings and reads.
 * A folder's mtime changes when an entry is added, removed or renamed in it, which is all the tree shows.
 */
const summaries = new Map<string, { summary: string | null; sources: { path: string; key: string | null }[] }>();

// The summary itself; `read` collects every folder and file it consulted (present or not).
function summarize(source: InstructionSource, read: string[]): string | null {
  const root = source.root;
  const parts: string[] = [];
  const tree = listTree(root, read);
  if (tree.length) parts.push(`Files (top two levels):\n${tree.join("\n")}`);
  read.push(join(root, "package.json"));
  const manifest = readManifest(root);
  if (manifest) parts.push(fence("package.json (excerpt)", manifest));
  const instructions = readInstructions(source);
  read.push(...instructionCandidates(source));
  if (instructions.text)
    parts.push(
      `Project instructions (${instructions.files.join(", ")}; nearer folders later, they win where they differ${cutNote(instructions)}):\n${instructions.text}`,
    );
  for (const { file, reason } of instructions.refused) parts.push(`${file}: not shown (${reason}).`);
  read.push(join(root, "README.md"));
  const readme = readExcerpt(root, "README.md");
  if (readme) parts.push("refused" in readme ? `README.md: not shown (${readme.refused}).` : fence("README.md (excerpt)", readme.text));
  return parts.length ? parts.join("\n\n") : null;
}

// What the cap did, in the header that names the files: the prompt never claims a file it did not give whole.
function cutNote(instructions: Instructions): string {
  return instructions.cut.length ? `; cut at 32 KiB: ${cutWords(instructions.cut)}` : "";
}

// Every path an instruction file could be read from (each folder's override and names), for the cache's stamps.
function instructionCandidates(source: InstructionSource): string[] {
  const out: string[] = [];
  let dir = source.startDir ?? source.root;
  for (;;) {
    for (const name of [OVERRIDE_FILE, ...source.names]) out.push(join(dir, name));
    out.push(dir);
    if (dir === source.root || !dir.startsWith(source.root)) break;
    dir = join(dir, "..");
  }
  return out;
}

// The top two levels, minus what .gitignore (the root's and each first-level folder's) excludes.
function listTree(root: string, read: string[]): string[] {
  const out: string[] = [];
  const walk = (rel: string, prefix: string, depth: number, rules: IgnoreRules[]) => {
    read.push(join(root, rel));
    const entries = readEntries(join(root, rel));
    const ignoreFile = entries.some((e) => e.name === ".gitignore" && e.isFile());
    if (ignoreFile) read.push(join(root, rel, ".gitignore"));
    const own = ignoreFile ? gitignoreAt(root, rel) : null;
    const active = own ? [...rules, own] : rules;
    for (const e of entries) {
      if (out.length >= MAX_ENTRIES) return;
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (SKIP.has(e.name) || isIgnored(active, childRel, e.isDirectory())) continue;
      out.push(`${prefix}${e.name}${e.isDirectory() ? "/" : ""}`);
      if (e.isDirectory() && depth < 1) walk(childRel, `${prefix}${e.name}/`, depth + 1, active);
    }
  };
  walk("", "", 0, []);
  if (out.length >= MAX_ENTRIES) out.push("… (more files: use list_files)");
  return out;
}

// At most MAX_DIR_READ entries of a folder, sorted; none when it cannot be read.
function readEntries(dir: string): Dirent[] {
  const entries: Dirent[] = [];
  try {
    const handle = opendirSync(dir);
    try {
      for (let e = handle.readSync(); e !== null && entries.length < MAX_DIR_READ; e = handle.readSync()) entries.push(e);
    } finally {
      handle.closeSync();
    }
  } catch {
    return entries;
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

function gitignoreAt(root: string, rel: string): IgnoreRules | null {
  const read = readProjectText(root, join(rel, ".gitignore"), MAX_GITIGNORE_BYTES);
  return read.ok && !read.truncated ? parseGitignore(read.text, rel) : null;
}

/** Bytes of package.json read for the excerpt; a larger manifest is skipped. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

function readManifest(root: string): string | null {
  const read = readProjectText(root, "package.json", MAX_MANIFEST_BYTES);
  if (!read.ok || read.truncated) return null;
  try {
    const pkg = JSON.parse(read.text) as Record<string, unknown>;
    const picked = { name: pkg.name, type: pkg.type, scripts: pkg.scripts, dependencies: pkg.dependencies, devDependencies: pkg.devDependencies };
    return JSON.stringify(picked, null, 2).slice(0, 2000);
  } catch {
    return null;
  }
}

/**
 * The first DOC_BYTES characters of a text file of the project (read as read_file would: no link out of the project,
 * no secret file, scrubbed), why it was not read, or null when it is missing or empty.
 */
function readExcerpt(root: string, rel: string): { text: string } | { refused: string } | null {
  const read = readProjectText(root, rel, DOC_BYTES * 4);
  if (!read.ok) return read.missing ? null : { refused: read.reason };
  const text = read.text.trim();
  if (!text) return null;
  return { text: text.length > DOC_BYTES || read.truncated ? `${text.slice(0, DOC_BYTES)}\n… (truncated: read_file for the rest)` : text };
}
