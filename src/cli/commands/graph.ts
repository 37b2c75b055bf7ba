import { workflowMermaid } from "../../engine/inspect.js";
import { loadPipelineAgents, loadResolvedConfig } from "../prepare.js";

/** `yolo graph`: the configured workflow's compiled graph as Mermaid, generated from the graph itself. */
export async function graphCommand(input: { cwd: string }): Promise<number> {
  const config = await loadResolvedConfig(input.cwd);
  loadPipelineAgents(config); // the same validation a run does: an invalid workflow is reported, not drawn
  process.stdout.write(`${await workflowMermaid(config)}\n`);
  return 0;
}
