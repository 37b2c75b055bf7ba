import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { looksLikeAgentFile } from "../../agents/frontmatter.js";
import { DEFAULT_AGENTS_DIR } from "../../agents/loader.js";
import type { GateConfig } from "../../config/schema.js";
import { defaultGates } from "../../gates/detect.js";
import { DEFAULT_GATE_TIMEOUT_S } from "../../gates/detect/files.js";
import { narrowable } from "../../gates/detect/scope.js";
import { DEFAULT_WORKFLOW } from "../../workflow/default.js";
import { projectRoot } from "../load-config.js";
import { recordConfigTrust } from "../../config/trust/config-trust.js";

/**
 * `yolo init`: a commented yolo.config.ts holding the default workflow and the gates detected from the repository
 * (so a user sees and can edit them), and copies of the default agents. Never overwrites.
 */
export async function initCommand(input: { cwd: string }): Promise<number> {
  const root = projectRoot(input.cwd);
  const written: string[] = [];
  const kept: string[] = [];
  const place = (path: string, write: () => void) => {
    if (existsSync(path)) kept.push(relative(root, path));
    else {
      write();
      written.push(relative(root, path));
    }
  };
  // A detected monorepo gate keeps its narrowing once written down (a configured gate runs as written otherwise).
  const gates = defaultGates(root).map((g): GateConfig => (narrowable(g, root) ? { ...g, scope: "changed" } : g));
  const agentsDir = agentsFolderFor(root);
  place(join(root, "yolo.config.ts"), () => writeFileSync(join(root, "yolo.config.ts"), configTemplate(gates, agentsDir)));
  mkdirSync(join(root, agentsDir), { recursive: true });
  for (const file of readdirSync(DEFAULT_AGENTS_DIR)
    .filter((f) => f.endsWith(".md"))
    .sort()) {
    place(join(root, agentsDir, file), () => copyFileSync(join(DEFAULT_AGENTS_DIR, file), join(root, agentsDir, file)));
  }
  if (agentsDir !== "agents" && kept.includes("yolo.config.ts"))
    process.stdout.write(
      `note: agents/ holds your project's own documents, so the agents went to ${agentsDir}/: add agentsDir: "${agentsDir}" to yolo.config.ts\n`,
    );
  for (const f of written) process.stdout.write(`created ${f}\n`);
  for (const f of kept) process.stdout.write(`kept    ${f} (already exists; not overwritten)\n`);
  if (written.includes("yolo.config.ts")) {
    // The config yolo just wrote is the user's: read-only commands may run it (config-trust.ts). A .mcp.json beside it
    // is yolo's to check, not init's to vouch for.
    if (!existsSync(join(root, ".mcp.json"))) await recordConfigTrust(root, process.env);
    process.stdout.write(
      gates.length > 0
        ? `\ngates detected and written to yolo.config.ts:\n${gates.map((g) => `  ${g.name}: ${g.command}${g.required ? "" : " (optional)"}\n`).join("")}`
        : "\nno test command detected: without a gate, tea's verdict alone decides; add one under `gates` in yolo.config.ts.\n",
    );
  }
  process.stdout.write('\nEdit them, check the graph with `yolo graph`, then: yolo run "what to build"\n');
  return 0;
}

/** Where yolo init puts the agents it copies: `agents/`, unless the project keeps documents of its own there. */
const OWN_AGENTS_DIR = "yolo-agents";

/** `agents`, or OWN_AGENTS_DIR when the project's `agents/` holds Markdown that is not a yolo agent (its own docs). */
export function agentsFolderFor(root: string): string {
  let names: string[];
  try {
    names = readdirSync(join(root, "agents")).filter((n) => n.endsWith(".md"));
  } catch {
    return "agents";
  }
  const theirs = names.some((n) => {
    try {
      return !looksLikeAgentFile(readFileSync(join(root, "agents", n), "utf8"));
    } catch {
      return false;
    }
  });
  return theirs ? OWN_AGENTS_DIR : "agents";
}

/** The default workflow written out as code, with a comment on every part a team is likely to change. */
function configTemplate(gates: GateConfig[], agentsDir: string): string {
  const nodes = Object.entries(DEFAULT_WORKFLOW.nodes)
    .map(([id, spec]) => `      ${id}: ${literal(spec)},`)
    .join("\n");
  const edges = DEFAULT_WORKFLOW.edges.map((e) => `      ${literal(e)},`).join("\n");
  return `// yolo's configuration. Precedence: defaults < this file < environment (OPENAI_*, YOLO_*) < flags.
// Reference: yolo's docs/configuration.md and docs/workflows-and-agents.md.
import { defineConfig } from "yolo";

export default defineConfig({
  // model: { name: "gpt-4o-mini", baseURL: "http://localhost:11434/v1" },
  maxFixAttempts: 3,
${agentsDir === "agents" ? "" : `  // The agents' folder: agents/ holds the project's own documents.\n  agentsDir: ${JSON.stringify(agentsDir)},\n`}${gatesBlock(gates)}

  // A human approves, edits or rejects these agents' output before the run moves on:
  // approve: ["architect"],

  // The graph. Node kinds: agent (agents/<id>.md; \`gates: true\` runs the gates first and lets it judge them;
  // \`sets: ["flag"]\` lets it decide a flag edges branch on), gate (commands only), switch (the model picks one
  // of \`cases\` with switch_decision; a bad answer takes the \`default\` edge), human (a pause for a review).
  // Edges are tried in order; \`when\` is a condition on flags (needs_architecture, gate_blocked,
  // fix_attempts_remain, or your own), joined with && and negated with !; an edge without \`when\` is the fallback.
  // Every loop needs a bound: fix_attempts_remain with a gate check in the loop, or maxVisits on a node.
  workflow: {
    nodes: {
${nodes}
      // reviewer: { kind: "agent", sets: ["changes_requested"], maxVisits: 3 }, // needs agents/reviewer.md
    },
    edges: [
${edges}
    ],
  },
});
`;
}

/** The detected gates as a live `gates` entry, or the commented example when nothing was detected. */
function gatesBlock(gates: GateConfig[]): string {
  if (gates.length === 0) {
    return `  // No test command was detected, so a run has no gate and tea's verdict alone decides. Add yours:
  // gates: [{ name: "test", command: "npm test" }, { name: "lint", command: "npm run lint", required: false }],`;
  }
  const lines = gates.map((g) => {
    // The default timeout is left out so the entries stay short; the schema fills it in.
    const { timeoutS, ...rest } = g;
    return `    ${literal(timeoutS === DEFAULT_GATE_TIMEOUT_S ? rest : g)},`;
  });
  return `  // The gates yolo runs itself, detected from this repository's files by \`yolo init\` (yolo's docs/gates.md, "Gates detected
  // from the repository"). Edit freely: this list replaces detection. A required gate that fails blocks the change;
  // an optional one is reported only. \`baseline: "findings"\` (lint, type checks): a finding the baseline did not
  // have blocks, one already there is reported. \`reports\`: JUnit XML files read for per-test results.
  gates: [
${lines.join("\n")}
  ],`;
}

/** A flat object as TypeScript source: `{ kind: "agent", gates: true }`. */
function literal(value: object): string {
  return `{ ${Object.entries(value)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(", ")} }`;
}
