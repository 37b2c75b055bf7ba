import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, runYolo } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project, tempDir } from "../helpers/per-test.js";

// Configuration the model wrote does not run: after a run, a yolo.config.ts or .mcp.json that changed (by a model
// that got past the write tools and the sandbox, say) is not executed by any command until the user trusts it with
// `yolo config trust`. Routes: config → threads, show, doctor, history; .mcp.json → chat.

const CONFIG = (marker: string) => `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default {};\n`;

describe("a changed project config is not run by read-only commands", { timeout: 240_000 }, () => {
  it("refuses a changed yolo.config.ts and .mcp.json until trusted; runs the trusted one", async ({ expect, onTestFinished }) => {
    const state = tempDir(onTestFinished, "yolo-state-");
    const root = project(onTestFinished, { "yolo.config.ts": "export default {};\n" });
    const env = { XDG_STATE_HOME: state };
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const run = await runYolo(["run", "--ci", "Add add()"], { cwd: root, baseURL: mock.url, env });
    expect(run.exitCode, describeResult(run)).toBe(0);
    expect(readdirSync(join(state, "yolo", "trusted-config")), "one record, for this project").toHaveLength(1);

    const marker = join(root, "config-ran");
    writeFileSync(join(root, "yolo.config.ts"), CONFIG(marker));
    for (const args of [["threads"], ["doctor"], ["show", "some-thread"], ["history", "some-thread"], ["graph"]]) {
      const r = await runYolo(args, { cwd: root, env });
      expect(r.exitCode, `${args.join(" ")}: ${describeResult(r)}`).toBe(2);
      expect(r.stderr).toContain("yolo.config.ts changed since you trusted it");
      expect(r.stderr).toContain("yolo config trust");
      expect(existsSync(marker)).toBe(false);
    }

    const mcpMarker = join(root, "mcp-ran");
    writeFileSync(join(root, "yolo.config.ts"), "export default {};\n");
    writeFileSync(join(root, ".mcp.json"), JSON.stringify({ mcpServers: { x: { command: "sh", args: ["-c", `touch ${mcpMarker}`] } } }));
    const chat = await runYolo(["chat", "--ci", "hi"], { cwd: root, baseURL: mock.url, env });
    expect(chat.exitCode, describeResult(chat)).toBe(2);
    expect(chat.stderr).toContain(".mcp.json changed since you trusted it");
    expect(existsSync(mcpMarker)).toBe(false);

    writeFileSync(join(root, "yolo.config.ts"), CONFIG(marker));
    const trust = await runYolo(["config", "trust"], { cwd: root, env });
    expect(trust.exitCode, describeResult(trust)).toBe(0);
    expect(trust.stdout).toContain("Trusted");
    const threads = await runYolo(["threads"], { cwd: root, env });
    expect(threads.exitCode, describeResult(threads)).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  it("a project yolo never saw is trusted as it is, and a config that appears after a run is a change", async ({ expect, onTestFinished }) => {
    const state = tempDir(onTestFinished, "yolo-state-");
    const root = project(onTestFinished, {});
    const env = { XDG_STATE_HOME: state };
    const marker = join(root, "config-ran");
    writeFileSync(join(root, "yolo.config.ts"), CONFIG(marker));
    const first = await runYolo(["threads"], { cwd: root, env });
    expect(first.exitCode, describeResult(first)).toBe(0);
    expect(existsSync(marker)).toBe(true);

    const bare = project(onTestFinished, {});
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const run = await runYolo(["run", "--ci", "Add add()"], { cwd: bare, baseURL: mock.url, env });
    expect(run.exitCode, describeResult(run)).toBe(0);
    writeFileSync(join(bare, "yolo.config.mjs"), CONFIG(join(bare, "config-ran")));
    const after = await runYolo(["threads"], { cwd: bare, env });
    expect(after.exitCode, describeResult(after)).toBe(2);
    expect(existsSync(join(bare, "config-ran"))).toBe(false);
  });
});
