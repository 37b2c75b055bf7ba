// `npm run bench`: figures are ratios against a baseline measured in the same run (machines are shared and noisy).
import { existsSync } from "node:fs";
import { benchBaselineOverlap, benchDeadEndpoint } from "./baseline-overlap.mjs";
import { benchCheckpointSavers } from "./checkpoint-savers.mjs";
import { benchEvalBuild } from "./eval-build.mjs";
import { benchEvalOverhead } from "./eval-overhead.mjs";
import { benchMcpToolCost } from "./mcp-tool-cost.mjs";
import { benchNarrowedAttempt } from "./narrowed-attempt.mjs";
import { benchHookCost } from "./hook-cost.mjs";
import { benchLargeRepo } from "./large-repo.mjs";
import { benchParallelStories } from "./parallel-stories.mjs";
import { benchPipelineOverhead } from "./pipeline-overhead.mjs";
import { benchPromptTokens } from "./prompt-tokens.mjs";
import { benchSandboxCost, benchSandboxShapes } from "./sandbox-cost.mjs";
import { benchServe } from "./serve.mjs";
import { benchStartup } from "./startup.mjs";
import { benchTuiRenderCost } from "./tui-render-cost.mjs";

if (!existsSync(new URL("../dist/engine/run/launch.js", import.meta.url))) {
  console.error("dist/ is missing: run `npm run build` first.");
  process.exitCode = 2;
} else {
  await benchPipelineOverhead((line) => console.log(line));
  await benchCheckpointSavers((line) => console.log(line));
  await benchTuiRenderCost((line) => console.log(line));
  await benchPromptTokens((line) => console.log(line));
  await benchSandboxCost((line) => console.log(line));
  await benchSandboxShapes((line) => console.log(line));
  await benchStartup((line) => console.log(line));
  await benchMcpToolCost((line) => console.log(line));
  await benchHookCost((line) => console.log(line));
  await benchLargeRepo((line) => console.log(line));
  await benchBaselineOverlap((line) => console.log(line));
  await benchDeadEndpoint((line) => console.log(line));
  await benchNarrowedAttempt((line) => console.log(line));
  await benchEvalOverhead((line) => console.log(line));
  await benchEvalBuild((line) => console.log(line));
  await benchServe((line) => console.log(line));
  // Last: it fails the bench loudly (non-zero) when the build has no `yolo run --parallel`.
  await benchParallelStories((line) => console.log(line));
}
