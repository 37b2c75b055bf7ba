import { drawWorkflowMermaid } from "../../workflow/mermaid.js";
import { loadResolvedConfig, validationCache } from "../load-config.js";
import { checkWorkflow } from "../workflow-check.js";

/**
 * `yolo graph`: the configured workflow as Mermaid, labelled from its conditions. It is drawn from the workflow
 * alone, without compiling the LangGraph graph (which would cost most of the command's time): that every drawn
 * arrow exists in the compiled graph is a property of our code, checked for every workflow we ship or test by
 * tests/unit/engine/drawn-edges-are-compiled.test.ts.
 */
export async function graphCommand(input: { cwd: string }): Promise<number> {
  const config = await loadResolvedConfig(input.cwd);
  // The same validation a run does: an invalid workflow is reported, not drawn.
  await checkWorkflow(config, validationCache(process.env));
  process.stdout.write(`${drawWorkflowMermaid(config.workflow)}\n`);
  return 0;
}
