import { describe, expect, it } from "vitest";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../../helpers/director.js";
import { runEngine } from "../../helpers/engine.js";
import { lastToolResults, startMockOpenAI } from "../../helpers/mock-openai.js";
import { makeProject } from "../../helpers/project.js";
import { cleanupsAfterEach } from "../../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

describe("the node binds only the selected tools", () => {
  it("offers the model the selected tools only, and refuses a call outside them as a tool error", async () => {
    const project = makeProject();
    let refusal = "";
    const dir = director({
      analyst: [analystDone],
      pm: [pmDone(false)],
      dev: [
        call("run_command", { command: "echo hi" }),
        (req) => {
          refusal = String(lastToolResults(req)[0]?.content ?? "");
          return devWrites(GOOD_ADD)[0] as never;
        },
        devWrites(GOOD_ADD)[1] as never,
      ],
      tea: [teaSays("PASS")],
    });
    const mock = await startMockOpenAI(dir);
    cleanups.push(project.cleanup, () => mock.close());
    const { result } = await runEngine({
      root: project.root,
      baseURL: mock.url,
      threadId: "t-tools",
      requirement: "Add add()",
      config: { context: { disabledTools: ["run_command"], rolePermissions: { tea: ["read_file"] } } },
    });
    expect(result.status).toBe("passed");
    const toolsOf = (role: string) =>
      mock.requests.find((r) => JSON.stringify(r.messages[0]).includes(`You are the ${role} agent`))!.tools.map((t) => t.function.name);
    expect(toolsOf("dev")).not.toContain("run_command");
    expect(toolsOf("dev")).toContain("write_file");
    expect(toolsOf("tea")).toEqual(["read_file", "handoff"]);
    expect(refusal).toMatch(/^Error: there is no tool named "run_command" available to you/);
  });
});
