import { workflowMermaid } from "../../engine/inspect.js";
import { loadPipelineAgents, loadResolvedConfig } from "../prepare.js";

/** `yolo graph`: the configured workflow as Mermaid, labelled from its conditions and checked against the compiled graph. */
export async function graphCommand(input: { cwd: string }): Promise<number> {
  const config = await loadResolvedConfig(input.cwd);
  loadPipelineAgents(config); // the same validation a run does: an invalid workflow is reported, not drawn
  process.stdout.write(`${await workflowMermaid(config)}\n`);
  return 0;
}
