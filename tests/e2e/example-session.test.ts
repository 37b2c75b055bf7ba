import { execa } from "execa";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { loadSession } from "../../src/llm/recording-replay.js";
import { canonicalJson, comparable } from "../../src/llm/recording-match.js";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { tempDir } from "../helpers/per-test.js";

const EXAMPLE = fileURLToPath(new URL("../../examples/add-numbers/", import.meta.url));
const SESSION = join(EXAMPLE, "session.jsonl");
const REQUIREMENT = readFileSync(join(EXAMPLE, "requirement.txt"), "utf8").trim();
const STALE =
  "The shipped example session no longer matches yolo's requests (prompts, agents or tools changed): regenerate it with `npm run build && npm run example:record` and commit examples/add-numbers/session.jsonl.";

const scratch = (prefix: string): string => tempDir(onTestFinished, prefix);

describe("the shipped example session (README: yolo run --replay examples/add-numbers/session.jsonl …)", { timeout: 240_000 }, () => {
  it("replays a whole run in a copy of the example project, offline, with no key and no base URL", async () => {
    const root = scratch("yolo-example-copy-");
    cpSync(join(EXAMPLE, "project"), root, { recursive: true });
    const r = await runYolo(["run", "--json", "--replay", SESSION, REQUIREMENT], { cwd: root });
    expect(r.exitCode, `${STALE}\n${describeResult(r)}`).toBe(0);
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toContain("return a + b;");
    const nodes = parseEvents(r.stdout).flatMap((e) => (e.type === "node.completed" ? [e.node] : []));
    expect(nodes).toEqual(["analyst", "pm", "architect", "dev", "tea"]);
  });

  it("is what examples/add-numbers/record.mjs records today", async () => {
    const out = join(scratch("yolo-example-record-"), "session.jsonl");
    const r = await execa(process.execPath, [join(EXAMPLE, "record.mjs"), "--out", out], { reject: false, encoding: "utf8", timeout: 60_000 });
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
    // Requests carry every earlier response, so equal requests mean an equal session (up to the mock's timestamps).
    const key = (file: string) => loadSession(file).map((e) => ({ agent: e.agent, request: canonicalJson(comparable(e.request)) }));
    expect(key(out), STALE).toEqual(key(SESSION));
  });
});
