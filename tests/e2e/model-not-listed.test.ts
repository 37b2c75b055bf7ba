import { describe, it } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { devWrites, director, GOOD_ADD, teaSays } from "../helpers/director.js";
import { roleOf, startMockOpenAI, type RecordedRequest } from "../helpers/mock-openai.js";
import { project } from "../helpers/per-test.js";

// GET /models is advice: Azure OpenAI deployment names, LiteLLM wildcard routes and router aliases are served but not
// listed. A run with such a model used to end with exit 5 before any work.
const DEV_FIRST = `export default { workflow: { nodes: { dev: { kind: "agent" }, tea: { kind: "agent", gates: true } },
  edges: [{ from: "start", to: "dev" }, { from: "dev", to: "tea" }, { from: "tea", to: "end" }] } };
`;

describe("a model GET /models does not list", { timeout: 180_000 }, () => {
  it("runs when the server serves it: one warning naming what the list holds, exit 0", async ({ expect, onTestFinished }) => {
    const agents = director({ dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });
    // The server answers every request for the deployment name; requests that are no agent's are the early probe's.
    const mock = await startMockOpenAI((req: RecordedRequest, index: number) => (roleOf(req) ? agents(req, index) : { content: "OK" }), {
      models: ["gpt-4o", "gpt-4o-mini"],
    });
    onTestFinished(() => mock.close());
    const root = project(onTestFinished, { "yolo.config.ts": DEV_FIRST });
    const r = await runYolo(["run", "--json", "Add add()"], { cwd: root, baseURL: mock.url, env: { YOLO_MODEL: "prod-gpt4o-deployment" } });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const warnings = parseEvents(r.stdout).flatMap((e) => (e.type === "warning" && /GET \/models/.test(e.message) ? [e.message] : []));
    expect(warnings).toEqual([expect.stringContaining('GET /models lists 2 models, not "prod-gpt4o-deployment": gpt-4o, gpt-4o-mini')]);
    expect(mock.requests.every((q) => q.model === "prod-gpt4o-deployment")).toBe(true);
  });
});
