import fs from "node:fs";
import path from "node:path";
import { isSecretName } from "./env.js";
import { MIN_SECRET_LENGTH } from "./scrub.js";

/** How much is read: at most this many secret files, each at most this large; a secret folder this deep. */
const MAX_FILES = 200;
const MAX_BYTES = 64 * 1024;
const MAX_DEPTH = 4;

/**
 * The project's secret files and folders as the sandbox's walk finds them (`findProtectedPaths` in
 * exec/protected-paths.ts, which asks sensitive.ts): one walk decides both what bubblewrap shows empty and whose
 * values are scrubbed, so the two cannot disagree about a file.
 */
export interface SecretFiles {
  maskedFiles: readonly string[];
  maskedDirs: readonly string[];
}

// Folders masked from the model that hold no secrets of the user's: yolo's own state (its logs and transcripts
// would otherwise turn every line of an earlier gate run into a "secret" and scrub the next run's output blank).
const NOT_SECRET_SOURCES = new Set([".yolo", ".git"]);

/**
 * Secret values found in the project's own sensitive files (`.env*`, `.npmrc`, private keys, `.aws/`, …). The file
 * tools refuse those files and the sandbox shows them empty, but a command run without the sandbox can still print
 * them: their values are scrubbed from whatever yolo writes or sends.
 */
export function collectProjectSecrets(secretFiles: SecretFiles): string[] {
  const files = [...secretFiles.maskedFiles];
  for (const dir of secretFiles.maskedDirs) if (!NOT_SECRET_SOURCES.has(path.basename(dir))) filesIn(dir, 0, files);
  const found = new Set<string>();
  for (const file of files.slice(0, MAX_FILES)) for (const value of secretValuesOf(file)) found.add(value);
  return [...found];
}

// Every file inside a secret folder (`.ssh`, `.aws`, `.gnupg`), into `out`, until the file limit.
function filesIn(dir: string, depth: number, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (out.length >= MAX_FILES) return;
    const abs = path.join(dir, entry.name);
    if (entry.isFile()) out.push(abs);
    else if (entry.isDirectory() && depth < MAX_DEPTH) filesIn(abs, depth + 1, out);
  }
}

// `KEY=value` and `key = value` assignments (dotenv, npmrc, netrc's `password x`), and the body lines of PEM keys.
function secretValuesOf(file: string): string[] {
  let text: string;
  try {
    if (fs.statSync(file).size > MAX_BYTES) return [];
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const values: string[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#") || line.startsWith("-----")) continue;
    const assignment = /^(?:export\s+)?([^=\s]+)\s*=\s*(.*)$/.exec(line);
    const netrc = /\bpassword\s+(\S+)/.exec(line);
    // Only secret-looking keys count (NODE_ENV=development must not censor the word everywhere); a line that is
    // no assignment (the body of a key file, a bare token) counts whole.
    if (assignment && !isSecretName(assignment[1])) continue;
    const value = (assignment?.[2] ?? netrc?.[1] ?? line).replace(/^(["'])(.*)\1$/, "$2").trim();
    if (value.length >= MIN_SECRET_LENGTH) values.push(value);
  }
  return values;
}
