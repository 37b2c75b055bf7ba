import { describe, it } from "vitest";
import { describeResult, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

// show, report and doctor say per gate how its results were read: a verdict that rests on the exit code alone says so.
const CONFIG = `export default { gates: [
  { name: "test", command: "npm test" },
  { name: "smoke", command: "node -e 0", required: false },
] };
`;

describe("how a gate's results were read", { timeout: 240_000 }, () => {
  it("is said per gate by show, report and doctor (from the latest baseline)", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, { "yolo.config.ts": CONFIG });
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const r = await runYolo(["run", "--json", "Add add()"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const thread = threadIdFrom(r.stdout);

    const show = await runYolo(["show", thread], { cwd: root });
    expect(show.stdout).toMatch(/^- attempt 1 test \(npm test\): passed.* — results: structured report — log /m);
    expect(show.stdout).toMatch(/^- attempt 1 smoke \(node -e 0\): passed.* — results: exit code only/m);
    // The baseline ran before add() existed: its one test file failed to load.
    expect(show.stdout).toMatch(/^- test: failed — .* — results: (structured report|parsed output)$/m);
    expect(show.stdout).toMatch(/^- smoke: passed — results: exit code only$/m);

    const report = await runYolo(["report", thread], { cwd: root });
    expect(report.stdout).toMatch(/\| 1 \| test \| `npm test` \| [^|]+ \| 2 passed, 0 failed · structured report \|/);
    expect(report.stdout).toMatch(/\| 1 \| smoke \(optional\) \| `node -e 0` \| [^|]+ \| exit code only \|/);

    const doctor = await runYolo(["doctor", "--json"], { cwd: root, baseURL: mock.url, env: { YOLO_MODEL: "mock-model", YOLO_SANDBOX: "off" } });
    const checks = (JSON.parse(doctor.stdout) as { checks: Array<{ id: string; status: string; detail: string }> }).checks;
    expect(checks.find((c) => c.id === "gates:reading:test")).toMatchObject({
      status: "ok",
      detail: expect.stringMatching(new RegExp(`^read from (structured report|parsed output) at thread ${thread}'s baseline$`)),
    });
    expect(checks.find((c) => c.id === "gates:reading:smoke")).toMatchObject({ status: "warn", detail: expect.stringContaining("exit code only") });
  });
});
