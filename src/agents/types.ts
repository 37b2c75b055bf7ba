import type { AgentCapability } from "../roles/catalog.js";
import type { HandoffFieldSpecs } from "../roles/field-spec.js";
import type { ToolName } from "../tools/types.js";

/** An agent loaded from `agents/<id>.md`: validated frontmatter plus the Markdown body as its persona. */
export interface AgentDefinition {
  /** The file's base name (`dev` for `agents/dev.md`); the id nodes and workflows refer to. */
  id: string;
  name: string;
  description: string;
  /** Allow-list of tools; `handoff` is always available and never listed. */
  tools: ToolName[];
  /** MCP tools the agent may use: `mcp__<server>` (all its tools) or `mcp__<server>__<tool>`, from `tools:`. */
  mcp?: string[];
  model?: string;
  temperature?: number;
  maxTurns?: number;
  /** The handoff fields a user role declares (`handoff:` in the frontmatter); absent for a plain custom agent. */
  handoff?: HandoffFieldSpecs;
  /** What the engine must know its role does (`capabilities:` in the frontmatter): fans out stories, judges gates. */
  capabilities?: AgentCapability[];
  persona: string;
  /** Absolute path of the file it came from. */
  file: string;
  source: "project" | "default";
}
