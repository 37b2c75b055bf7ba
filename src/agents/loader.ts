import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve } from "node:path";
import { ConfigError } from "../errors.js";
import { packageRoot } from "../package-root.js";
import { isPipelineRole } from "../roles/catalog.js";
import { readProjectText } from "../secrets/project-read.js";
import { looksLikeAgentFile, parseAgentFile } from "./frontmatter.js";
import type { AgentDefinition } from "./types.js";

/** The package's own `agents/` folder. */
export const DEFAULT_AGENTS_DIR = join(packageRoot(), "agents");

const ID_PATTERN = /^[a-z][a-z0-9-]*$/;

export interface LoadAgentsOptions {
  /** The project's agents folder; null or a folder that does not exist means defaults only. */
  projectAgentsDir: string | null;
  /** Where the shipped defaults live; defaults to the package's `agents/` folder. */
  defaultsDir?: string;
  /** Base for relative paths and for shortening paths in messages; defaults to `process.cwd()`. */
  cwd?: string;
  /**
   * The project folder is the default one (`agentsDir` is not set in yolo.config.ts): read it only when it holds
   * yolo agents (looksLikeAgentFile), so a project's own `agents/` of plain documents does not stop every run.
   */
  detect?: boolean;
}

export interface LoadAgentsResult {
  /** Every valid definition by id. A project file overrides the default with the same id; an invalid file replaces nothing. */
  agents: Map<string, AgentDefinition>;
  /** Every problem in every file, each prefixed with the file's path. Empty when all files are valid. */
  errors: string[];
  /** When a problem concerns the project's folder: a sentence naming `agentsDir`, for the message's heading. */
  note: string | null;
  /** The project folder, when `detect` found no yolo agent in it and it was not read. */
  skipped?: string;
}

/**
 * Load the shipped default agents, then the project's `*.md` agents over them.
 * Never throws for bad files: all problems across all files are collected in `errors`.
 */
export function loadAgents(opts: LoadAgentsOptions): LoadAgentsResult {
  const cwd = opts.cwd ?? process.cwd();
  const agents = new Map<string, AgentDefinition>();
  const errors: string[] = [];
  const show = (path: string) => displayPath(path, cwd);

  const defaultsDir = resolve(cwd, opts.defaultsDir ?? DEFAULT_AGENTS_DIR);
  const sources: Array<{ dir: string; source: AgentDefinition["source"]; optional: boolean }> = [{ dir: defaultsDir, source: "default", optional: false }];
  if (opts.projectAgentsDir !== null) {
    sources.push({ dir: resolve(cwd, opts.projectAgentsDir), source: "project", optional: true });
  }

  let projectErrors = 0;
  let skipped: string | undefined;
  for (const { dir, source, optional } of sources) {
    const listed = listMarkdown(dir, optional);
    const before = errors.length;
    if (typeof listed === "string") errors.push(`${show(dir)}: ${listed}`);
    else if (source === "project" && opts.detect && listed.length > 0 && !listed.some(isAgentFile)) skipped = dir;
    else {
      for (const file of listed) {
        const loaded = loadFile(file, source, dir);
        if (loaded.ok) agents.set(loaded.agent.id, loaded.agent);
        else errors.push(...loaded.problems.map((p) => `${show(file)}: ${p}`));
      }
    }
    if (source === "project") projectErrors = errors.length - before;
  }
  const note = projectErrors > 0 && opts.projectAgentsDir !== null ? agentsDirNote(show(resolve(cwd, opts.projectAgentsDir)), !opts.detect) : null;
  return { agents, errors, note, ...(skipped ? { skipped } : {}) };
}

/** Names `agentsDir` in a message about the project's agent files, and the way out when the folder is not yolo's. */
export function agentsDirNote(dir: string, configured: boolean): string {
  const folder = dir.endsWith("/") ? dir : `${dir}/`;
  return configured
    ? `yolo reads the project's agents from ${folder} (agentsDir in yolo.config.ts).`
    : `yolo reads the project's agents from ${folder} (the default agentsDir) because files there look like yolo agents; if the folder is your project's own, set agentsDir in yolo.config.ts to another folder (e.g. agentsDir: ".yolo-agents") and move yolo's agents there.`;
}

// A file that cannot be read counts as an agent: reading it again reports why.
function isAgentFile(file: string): boolean {
  try {
    return looksLikeAgentFile(readFileSync(file, "utf8"));
  } catch {
    return true;
  }
}

/**
 * The agents a workflow needs, or one ConfigError listing every problem: the loader's errors and each missing id.
 * Any invalid file fails the run, even one the workflow does not use, so a typo never goes unnoticed.
 */
export function requireAgents(result: LoadAgentsResult, ids: string[]): Map<string, AgentDefinition> {
  const missing = ids.filter((id) => !result.agents.has(id));
  const problems = [
    ...result.errors,
    ...missing.map((id) => `agent "${id}" is needed but not defined; add ${id}.md to the project's agents folder (agentsDir in yolo.config.ts)`),
  ];
  if (problems.length > 0) {
    const note = result.note ? ` ${result.note}` : "";
    throw new ConfigError(
      `Agent definitions are invalid (${problems.length} ${problems.length === 1 ? "problem" : "problems"}); nothing was run.${note} Fix these and try again:`,
      problems,
    );
  }
  return result.agents;
}

// Sorted so errors come out in the same order on every machine. Returns a message when the folder cannot be listed.
function listMarkdown(dir: string, optional: boolean): string[] | string {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && optional) return [];
    if (code === "ENOENT") return "agents folder not found; the yolo installation looks incomplete";
    if (code === "ENOTDIR") return "expected a folder of agent files, found a file";
    return `cannot read the agents folder: ${(e as Error).message}`;
  }
  return names
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => join(dir, name))
    .filter((path) => {
      try {
        return statSync(path).isFile();
      } catch {
        return true; // a dangling link: let the read report it
      }
    });
}

type Loaded = { ok: true; agent: AgentDefinition } | { ok: false; problems: string[] };

/** The largest agent file read: a persona is a page or two, never megabytes. */
const MAX_AGENT_FILE_BYTES = 256 * 1024;

// A project's agent file is read as read_file would (its persona goes to the model): no link out of the agents
// folder, no secret file, no hard link; yolo's own shipped agents are read as they are.
function readAgentFile(file: string, source: AgentDefinition["source"], dir: string): string {
  if (source !== "project") return readFileSync(file, "utf8");
  const read = readProjectText(dir, basename(file), MAX_AGENT_FILE_BYTES);
  if (!read.ok) throw new Error(read.missing ? "the file is gone" : `not read: ${read.reason}`);
  if (read.truncated) throw new Error(`larger than ${MAX_AGENT_FILE_BYTES / 1024} KiB; an agent file is a persona of a page or two`);
  return read.text;
}

// Checks the id and the body as well as the frontmatter, and reports all of them together.
function loadFile(file: string, source: AgentDefinition["source"], dir: string): Loaded {
  const id = basename(file, ".md");
  const problems: string[] = [];
  if (!ID_PATTERN.test(id)) {
    problems.push(
      `"${id}" is not a valid agent id: the file name (without .md) must be lowercase letters, digits and hyphens, starting with a letter; rename the file`,
    );
  }

  let text: string;
  try {
    text = readAgentFile(file, source, dir);
  } catch (e) {
    return { ok: false, problems: [...problems, `cannot read: ${(e as Error).message}`] };
  }

  const parsed = parseAgentFile(text);
  if (!parsed.ok) return { ok: false, problems: [...problems, ...parsed.problems] };
  const { frontmatter, body } = parsed.value;
  if (frontmatter.handoff && isPipelineRole(id)) {
    problems.push(
      `handoff: "${id}" is a built-in role whose handoff fields are fixed (src/roles/${id}.ts); remove \`handoff:\` or give the agent another file name`,
    );
  }
  if (frontmatter.handoff && frontmatter.capabilities?.includes("judges-gates")) {
    problems.push("capabilities: an agent that judges gates hands off a verdict and findings; remove `handoff:` or the `judges-gates` capability");
  }
  if (body.trim() === "") {
    problems.push("body: empty; the body is the persona (the agent's system prompt): write it below the closing `---`");
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, agent: { id, ...frontmatter, persona: body, file, source } };
}

/** The path relative to `cwd` when that is shorter, else the absolute path. */
function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== "" && !isAbsolute(rel) && rel.length < path.length ? rel : path;
}
