import { describe, it } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { project } from "../helpers/per-test.js";
import { closedPort } from "../helpers/closed-port.js";

const REQ = "Add an add(a, b) function to src/add.js";

const warnings = (stdout: string) => parseEvents(stdout).flatMap((e) => (e.type === "warning" && /model call failed/.test(e.message) ? [e.message] : []));

describe.concurrent("a model endpoint that cannot be used", { timeout: 180_000 }, () => {
  it("nothing listening: two retries counted down honestly, then exit 5 'could not connect'", async ({ expect, onTestFinished }) => {
    const r = await runYolo(["run", "--json", REQ], { cwd: project(onTestFinished), baseURL: `http://127.0.0.1:${await closedPort()}/v1` });
    expect(r.exitCode, describeResult(r)).toBe(5);
    expect(warnings(r.stdout)).toEqual([
      "analyst: the model call failed (ECONNREFUSED); retry 1 of 2",
      "analyst: the model call failed (ECONNREFUSED); retry 2 of 2",
    ]);
    expect(r.stderr).toMatch(/Could not connect to the model provider at http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\)/);
  });

  it("a port Node refuses ('bad port'): no retry, exit 5, worded as local configuration naming the port", async ({ expect, onTestFinished }) => {
    const r = await runYolo(["run", "--json", REQ], { cwd: project(onTestFinished), baseURL: "http://127.0.0.1:6000/v1" });
    expect(r.exitCode, describeResult(r)).toBe(5);
    expect(warnings(r.stdout)).toEqual([]);
    expect(r.stderr).toMatch(/uses port 6000, which Node's HTTP client refuses to connect to/);
    expect(r.stderr).not.toMatch(/Could not connect/);
  });
});
