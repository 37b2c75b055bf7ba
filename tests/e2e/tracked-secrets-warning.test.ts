import { describe, it } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { analystDone, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

// A tracked .env or key is in git's history, where `git show HEAD:.env | base32` reads it past every filter yolo has.
// yolo cannot close that, so it says so at the start of the run, naming the files: one warning event, which every
// renderer shows. The control: a project whose only env file is a template gets no such warning.

const REQ = "Add an add(a, b) function to src/add.js";
const model = () =>
  director({
    analyst: [analystDone],
    pm: [pmDone(false)],
    dev: [
      { toolCalls: [{ name: "write_file", args: { path: "src/add.js", content: GOOD_ADD } }] },
      handoff({ summary: "done", files_changed: ["src/add.js"] }),
    ],
    tea: [teaSays("PASS")],
  });
const SECRETS = { ".env": "API_TOKEN=canary-7f3e\n", "deploy/server.pem": "-----BEGIN PRIVATE KEY-----\nx\n", ".env.example": "API_TOKEN=\n" };

describe.concurrent("the built binary: tracked files that look like secrets", { timeout: 240_000 }, () => {
  it("--json: one warning naming .env and the key (not the template); the plain output says it once too", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, SECRETS);
    const mock = await mockWith(onTestFinished, model());
    const r = await runYolo(["run", "--ci", "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const warned = parseEvents(r.stdout).filter((e) => e.type === "warning" && /look like secrets/.test(e.message));
    expect(warned).toHaveLength(1);
    const message = warned[0].type === "warning" ? warned[0].message : "";
    expect(message).toMatch(/\.env, deploy\/server\.pem\. They are in git's history/);
    expect(message).not.toContain(".env.example");
    expect(message).not.toContain("canary-7f3e");

    const plainRoot = project(onTestFinished, SECRETS);
    const plainMock = await mockWith(onTestFinished, model());
    const plain = await runYolo(["run", "--ci", "--no-tui", REQ], { cwd: plainRoot, baseURL: plainMock.url });
    expect(plain.exitCode, describeResult(plain)).toBe(0);
    expect(plain.stdout.split("look like secrets").length - 1).toBe(1);
  });

  it("control: only a template env file tracked: no warning", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, { ".env.example": "API_TOKEN=\n" });
    const mock = await mockWith(onTestFinished, model());
    const r = await runYolo(["run", "--ci", "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(parseEvents(r.stdout).filter((e) => e.type === "warning" && /look like secrets/.test(e.message))).toEqual([]);
  });
});
