import fs from "node:fs";
import path from "node:path";
import { isSecretName } from "./env.js";
import { sensitiveReason } from "./sensitive.js";
import { MIN_SECRET_LENGTH } from "./scrub.js";

/** How deep and how much of the project is searched for secret files at the start of a run. */
const MAX_DEPTH = 4;
const MAX_FILES = 200;
const MAX_BYTES = 64 * 1024;
const SKIP_DIRS = new Set(["node_modules", ".git", ".yolo", "dist", "build", "vendor"]);

/**
 * Secret values found in the project's own sensitive files (`.env*`, `.npmrc`, private keys, …). The file tools
 * refuse those files, but a command can still print them: their values are scrubbed from whatever yolo writes or sends.
 */
export function collectProjectSecrets(root: string): string[] {
  const found = new Set<string>();
  let files = 0;
  const visit = (dir: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (files >= MAX_FILES) return;
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH && !SKIP_DIRS.has(entry.name)) visit(abs, depth + 1);
      } else if (entry.isFile() && sensitiveReason(path.relative(root, abs)) !== null) {
        files++;
        for (const value of secretValuesOf(abs)) found.add(value);
      }
    }
  };
  visit(root, 0);
  return [...found];
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
