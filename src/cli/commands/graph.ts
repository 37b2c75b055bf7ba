import { pipelineMermaid } from "../../engine/inspect.js";
import { loadResolvedConfig } from "../prepare.js";

/** `yolo graph`: the compiled pipeline as Mermaid, generated from the graph itself (never hand-written). */
export async function graphCommand(input: { cwd: string }): Promise<number> {
  const config = await loadResolvedConfig(input.cwd);
  process.stdout.write(`${await pipelineMermaid(config)}\n`);
  return 0;
}
