import { checkMcpServers } from "../mcp/doctor.js";
import type { CheckResult, DoctorCheck } from "./types.js";
import { chooseSandbox } from "../engine/run/facts.js";
import type { ResolvedConfig } from "../config/schema.js";
import type { Sandbox } from "../exec/sandbox.js";

// The sandbox a run would start its servers in; a required one that does not work here: why (no server starts).
function runSandbox(config: ResolvedConfig, env: NodeJS.ProcessEnv): Sandbox | { refused: string } {
  try {
    return chooseSandbox(config, env).sandbox;
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

/** Each configured MCP server started as a run would start it, its tools listed, then stopped. */
export const mcpCheck: DoctorCheck = {
  id: "mcp",
  async run({ config, env }): Promise<CheckResult[]> {
    const facts = await checkMcpServers(config, env as NodeJS.ProcessEnv, runSandbox(config, env as NodeJS.ProcessEnv));
    return facts.map((f): CheckResult => {
      const title = `MCP server ${f.server}`;
      if (f.ok) return { id: `mcp:${f.server}`, title, status: "ok", detail: `${f.tools ?? 0} tools over ${f.transport} (${f.source})` };
      const reason = (f.error ?? "it did not start").split("\n").slice(0, 3).join(" ⏎ ");
      return {
        id: `mcp:${f.server}`,
        title,
        // A run goes on without an optional server (with a warning); a required one stops it with exit 2.
        status: f.optional ? "warn" : "fail",
        detail: `did not start: ${reason}`,
        fix: `Fix its entry in ${f.source} (command, args, url, env), or set "optional": true to run without it.`,
      };
    });
  },
};
