/**
 * The graph LangGraph's server loads (`langgraph.json` → `./src/server/graph.ts:graph`): the workflow of the
 * project named by `YOLO_PROJECT` (default: the server's working directory), built once when the server starts.
 * Start a run on a new thread with the input `{ "requirement": "…" }`; answer a question or a review with
 * `{ "command": { "resume": … } }`. See docs/langgraph-server.md.
 */
import { createServerGraph } from "./create-graph.js";

export const graph = await createServerGraph({ env: process.env, cwd: process.cwd() });
