import { spawn } from "node:child_process";
import { join } from "node:path";
import { ConfigError } from "../errors.js";
import { packageRoot } from "../package-root.js";
import type { CanarySite } from "./canary-sites.js";
import type { MutationKind, MutationSite } from "./mutation-sites.js";

/** The helper shipped in the package (`python/` is in package.json's files): ast and tokenize, run by python3. */
export function pythonHelperPath(): string {
  return join(packageRoot(), "python", "mutation_sites.py");
}

const KINDS = new Set<MutationKind>(["flip-comparison", "flip-arithmetic", "off-by-one", "negate-condition", "drop-statement", "swap-arguments"]);

/** A Python source the parser could not read (a syntax error, say): it has no sites, and the reviewer is told why. */
export interface SkippedSource {
  file: string;
  reason: string;
}

/**
 * Every mutation site of some Python sources, found by the interpreter's own `ast` module (never a regular
 * expression): the helper gets the texts on stdin and answers with spans in code points, turned here into string
 * offsets so `applySite` replaces exactly the span. A missing python3 is a ConfigError that says what to do.
 */
export async function pythonMutationSites(
  sources: { file: string; text: string }[],
  opts: { env: NodeJS.ProcessEnv; python?: string },
): Promise<{ sites: MutationSite[]; skipped: SkippedSource[] }> {
  if (!sources.length) return { sites: [], skipped: [] };
  const python = opts.python ?? "python3";
  const out = await runHelper(python, JSON.stringify(sources), opts.env, MUTATION);
  const parsed = JSON.parse(out) as { sites: MutationSite[]; skipped: SkippedSource[] };
  const texts = new Map(sources.map((s) => [s.file, s.text]));
  const sites = parsed.sites.filter((s) => KINDS.has(s.kind) && texts.has(s.file)).map((s) => toStringOffsets(s, texts.get(s.file) as string));
  return { sites, skipped: parsed.skipped };
}

// Python counts code points, JavaScript strings UTF-16 units: the two differ after a character outside the BMP.
function toStringOffsets(site: MutationSite, text: string): MutationSite {
  const index = (codePoints: number) => {
    let units = 0;
    for (let n = 0; n < codePoints && units < text.length; n++) units += (text.codePointAt(units) as number) > 0xffff ? 2 : 1;
    return units;
  };
  return { ...site, start: index(site.start), end: index(site.end) };
}

/**
 * Canary sites of Python test files (`assert x == <literal>`, `self.assertEqual(x, <literal>)`), found by the same
 * helper with the interpreter's `ast`, spans turned into string offsets; a file that does not parse has none.
 */
export async function pythonCanarySites(sources: { file: string; text: string }[], opts: { env: NodeJS.ProcessEnv; python?: string }): Promise<CanarySite[]> {
  if (!sources.length) return [];
  const python = opts.python ?? "python3";
  const parsed = JSON.parse(await runHelper(python, JSON.stringify(sources), opts.env, CANARY)) as { sites: MutationSite[] };
  const texts = new Map(sources.map((s) => [s.file, s.text]));
  return parsed.sites
    .filter((s) => s.kind === ("canary" as MutationKind) && texts.has(s.file))
    .map((s) => toStringOffsets(s, texts.get(s.file) as string))
    .map(({ file, start, end, replacement, description }) => ({ file, start, end, replacement, description }));
}

/** What the helper is asked for: its arguments and the words for an error. */
interface HelperMode {
  args: string[];
  what: string;
  without: string;
}
const MUTATION: HelperMode = { args: [], what: "Mutating Python source", without: "mutate a project without Python sources" };
const CANARY: HelperMode = { args: ["--canaries"], what: "Building canaries from Python tests", without: "build canaries in a project without Python tests" };

// The helper under `-I -B` (isolated: no PYTHON* variables, no user site, no script folder on the path; no .pyc).
function runHelper(python: string, input: string, env: NodeJS.ProcessEnv, mode: HelperMode): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, ["-I", "-B", pythonHelperPath(), ...mode.args], { env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    child.stdin.on("error", () => {});
    child.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") {
        reject(
          new ConfigError(
            `${mode.what} needs ${python} on PATH (its ast module finds the sites), and there is none. ` +
              `Install Python 3.8 or newer, or ${mode.without}; nothing was built.`,
          ),
        );
      } else reject(new ConfigError(`Cannot start ${python} to find Python ${mode.args.length ? "canary" : "mutation"} sites: ${error.message}`));
    });
    child.once("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString("utf8"));
      else
        reject(
          new ConfigError(
            `${python} could not list Python ${mode.args.length ? "canary" : "mutation"} sites (exit ${code}): ${Buffer.concat(err).toString("utf8").trim().slice(-800)}`,
          ),
        );
    });
    child.stdin.end(input);
  });
}
