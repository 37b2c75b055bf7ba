import { parseDocument } from "yaml";
import { z } from "zod";
import { TOOL_NAMES, type ToolName } from "../tools/types.js";
import { MCP_ENTRY } from "../mcp/names.js";
import { AGENT_CAPABILITIES, type AgentCapability } from "../roles/catalog.js";
import { checkFieldSpecs, type HandoffFieldSpecs } from "../roles/field-spec.js";

/** The validated frontmatter of an agent file. */
export interface AgentFrontmatter {
  name: string;
  description: string;
  tools: ToolName[];
  /** The MCP entries of `tools:` (`mcp__<server>` for all its tools, or `mcp__<server>__<tool>`), when there are any. */
  mcp?: string[];
  model?: string;
  temperature?: number;
  maxTurns?: number;
  /** The agent's own handoff fields (a user role): name → type, description, required. */
  handoff?: HandoffFieldSpecs;
  /** What the engine must know its role does: build pm's stories in parallel, judge the gates. */
  capabilities?: AgentCapability[];
}

/** An agent file split and checked: the frontmatter fields and the Markdown body (the persona). */
export interface ParsedAgentFile {
  frontmatter: AgentFrontmatter;
  body: string;
}

/** Either the parsed file or every problem found, each naming its field by dot-path (`tools[2]: …`). */
export type ParseAgentFileResult = { ok: true; value: ParsedAgentFile } | { ok: false; problems: string[] };

const KNOWN_KEYS = ["name", "description", "tools", "model", "temperature", "maxTurns", "handoff", "capabilities"] as const;
const CAPABILITY_LIST = Object.keys(AGENT_CAPABILITIES).join(", ");
const TOOL_LIST = TOOL_NAMES.join(", ");
const FENCE = /^---[ \t]*$/;

// Zod's own messages ("Invalid input: expected string, received undefined") are replaced by ones a user can act on.
const text = (what: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? "required" : `expected ${what}, got ${describe(iss.input)}`) })
    .refine((s) => s.trim() !== "", "must not be empty");

// Elements are checked by hand rather than by an element schema, so a duplicate is still reported next to a typo.
const toolsSchema = z
  .array(z.unknown(), {
    error: (iss) =>
      iss.input === undefined
        ? `required (use [] for no tools; known tools: ${TOOL_LIST})`
        : typeof iss.input === "string"
          ? "expected a list such as [read_file, list_files], got a string"
          : `expected a list of tool names, got ${describe(iss.input)}`,
  })
  .superRefine((tools, ctx) => {
    tools.forEach((tool, i) => {
      const problem = toolProblem(tool, tools.indexOf(tool) !== i);
      if (problem) ctx.addIssue({ code: "custom", path: [i], message: problem });
    });
  })
  .transform((tools) => tools as ToolName[]);

const frontmatterSchema = z.strictObject({
  name: text("a string"),
  description: text("a string"),
  tools: toolsSchema,
  model: text("a model name").optional(),
  temperature: z.number({ error: "expected a number from 0 to 2" }).min(0, "expected a number from 0 to 2").max(2, "expected a number from 0 to 2").optional(),
  maxTurns: z.number({ error: "expected a positive integer" }).int("expected a positive integer").positive("expected a positive integer").optional(),
  handoff: z
    .unknown()
    .transform((value, ctx) => {
      const checked = checkFieldSpecs(value);
      if (checked.ok) return checked.specs;
      for (const p of checked.problems) ctx.addIssue({ code: "custom", path: p.path, message: p.message });
      return z.NEVER;
    })
    .optional(),
  capabilities: z
    .array(z.unknown(), { error: (iss) => `expected a list such as [fans-out-stories], got ${describe(iss.input)}; known capabilities: ${CAPABILITY_LIST}` })
    .superRefine((caps, ctx) => {
      caps.forEach((cap, i) => {
        const known = typeof cap === "string" && Object.hasOwn(AGENT_CAPABILITIES, cap);
        const problem = !known
          ? `${JSON.stringify(cap)} is not a capability; known capabilities: ${CAPABILITY_LIST}`
          : caps.indexOf(cap) !== i
            ? `"${cap}" is listed twice`
            : null;
        if (problem) ctx.addIssue({ code: "custom", path: [i], message: problem });
      });
      if (caps.includes("fans-out-stories") && caps.includes("judges-gates"))
        ctx.addIssue({ code: "custom", path: [], message: "an agent either builds stories or judges gates, not both; keep one" });
    })
    .transform((caps) => caps as AgentCapability[])
    .optional(),
});

/**
 * Split an agent file into YAML frontmatter and Markdown body and validate the frontmatter strictly.
 * Accepts a BOM and CRLF line endings. Never throws: every problem is returned, YAML errors with their file line.
 */
export function parseAgentFile(source: string): ParseAgentFileResult {
  const split = splitFrontmatter(source);
  if (!split.ok) return split;

  const doc = parseDocument(split.yaml, { prettyErrors: true });
  if (doc.errors.length > 0) {
    return { ok: false, problems: doc.errors.map((e) => yamlProblem(e.message, e.linePos?.[0], split.yamlLine)) };
  }
  let data: unknown;
  try {
    data = doc.toJS();
  } catch (e) {
    return { ok: false, problems: [`frontmatter: invalid YAML: ${(e as Error).message}`] };
  }
  // An empty block means "no fields": report the missing required ones rather than a type error.
  if (data === null || data === undefined) data = {};
  if (typeof data !== "object" || Array.isArray(data)) {
    return { ok: false, problems: [`frontmatter: expected fields such as "name: …", got ${describe(data)}`] };
  }

  const result = frontmatterSchema.safeParse(data);
  // A value can fail two checks with one message (-1.5 for maxTurns): report it once.
  if (!result.success) return { ok: false, problems: [...new Set(result.error.issues.flatMap(issueProblems))] };
  const mcp = result.data.tools.filter((t: string) => t.startsWith("mcp__"));
  const frontmatter = mcp.length ? { ...result.data, tools: result.data.tools.filter((t: string) => !t.startsWith("mcp__")), mcp } : result.data;
  return { ok: true, value: { frontmatter, body: split.body } };
}

/**
 * Whether a Markdown file is meant as a yolo agent: its frontmatter names `tools`, or both `name` and `description`
 * (the fields every agent file has). A project's own documents (no frontmatter, or a docs site's `title:`) are not.
 * Broken YAML counts as an agent when the block holds one of those keys, so a typo is reported rather than skipped.
 */
export function looksLikeAgentFile(source: string): boolean {
  const split = splitFrontmatter(source);
  if (!split.ok) return false;
  const doc = parseDocument(split.yaml);
  if (doc.errors.length > 0) return /^(tools|name|description)\s*:/m.test(split.yaml);
  let data: unknown;
  try {
    data = doc.toJS();
  } catch {
    return false;
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) return false;
  const keys = new Set(Object.keys(data));
  return keys.has("tools") || (keys.has("name") && keys.has("description"));
}

type Split = { ok: true; yaml: string; yamlLine: number; body: string } | { ok: false; problems: string[] };

// The block must open on the very first line; anything else is read as "no frontmatter", as Claude Code does.
function splitFrontmatter(source: string): Split {
  const lines = source.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (!FENCE.test(lines[0])) {
    return {
      ok: false,
      problems: ["frontmatter: missing; the file must start with a `---` line, then the YAML fields (name, description, tools), then a closing `---` line"],
    };
  }
  const end = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (end === -1) {
    return { ok: false, problems: ["frontmatter: not closed; add a `---` line after the YAML fields, before the persona"] };
  }
  return {
    ok: true,
    yaml: lines.slice(1, end).join("\n"),
    yamlLine: 2,
    body: lines
      .slice(end + 1)
      .join("\n")
      .replace(/^\s*\n/, "")
      .trimEnd(),
  };
}

// yaml's messages end in "at line N, column M:" plus a code frame, both relative to the block; report file lines instead.
function yamlProblem(message: string, pos: { line: number; col: number } | undefined, firstLine: number): string {
  const head = message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
  return pos ? `line ${pos.line + firstLine - 1}, column ${pos.col}: invalid YAML: ${head}` : `frontmatter: invalid YAML: ${head}`;
}

function issueProblems(issue: z.core.$ZodIssue): string[] {
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => {
      const path = formatPath([...issue.path, key]);
      const near = KNOWN_KEYS.find((k) => normalize(k) === normalize(key));
      return near ? `${path}: unknown key; did you mean "${near}"?` : `${path}: unknown key; known keys: ${KNOWN_KEYS.join(", ")}`;
    });
  }
  return [`${formatPath(issue.path)}: ${issue.message}`];
}

/** `["tools", 2]` → `tools[2]`; `["a", "b"]` → `a.b`. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : out ? `.${String(part)}` : String(part);
  return out || "frontmatter";
}

function toolProblem(tool: unknown, duplicate: boolean): string | null {
  if (typeof tool !== "string") return `expected a tool name, got ${describe(tool)}`;
  if (tool === "handoff") return '"handoff" is always available to every agent; remove it from the list';
  if (tool.startsWith("mcp__") && !MCP_ENTRY.test(tool))
    return `${JSON.stringify(tool)} is not an MCP tool name; write mcp__<server> (all its tools) or mcp__<server>__<tool>`;
  if (!(TOOL_NAMES as readonly string[]).includes(tool) && !tool.startsWith("mcp__")) return `${JSON.stringify(tool)} is not a tool; known tools: ${TOOL_LIST}`;
  return duplicate ? `"${tool}" is listed twice` : null;
}

function normalize(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, "");
}

function describe(value: unknown): string {
  if (value === null) return "an empty value";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return `the number ${value}`;
  return typeof value === "boolean" ? `${value}` : typeof value;
}
