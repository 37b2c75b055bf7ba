import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { runEngine } from "../helpers/engine.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

// The files yolo reads itself for the model (the project summary's README.md, AGENTS.md and package.json), outside
// any sandbox: dev replaces them with links to yolo's own environment (/proc/self/environ) and to credentials in the
// home folder (~/.aws/credentials, ~/.config/gh/hosts.yml). Routes: 4 links over 2 runs on the same project. The
// canaries (a variable of yolo's own environment under a name no scrubber knows, and the two credential files) must
// never appear in any request the scripted model server receives, in this run or the next.

const cleanups = cleanupsAfterEach();
const canary = (tag: string) => `cnry${tag}x${randomBytes(10).toString("hex")}`;

function forms(secret: string): string[] {
  const b = Buffer.from(secret);
  return [secret, b.toString("base64"), b.toString("base64url"), b.toString("hex")];
}

describe("links to outside the project in the files yolo reads for the model", () => {
  it("4 routes over 2 runs: 0 canaries in the model's requests", { timeout: 240_000 }, async () => {
    const environCanary = canary("ENV");
    // A name no secret rule matches: only refusing the link keeps it out, not the scrubber.
    vi.stubEnv("YOLO_TEST_PLAIN_VALUE", environCanary);
    cleanups.push(() => vi.unstubAllEnvs());
    const home = realpathSync(mkdtempSync(join(tmpdir(), "yolo-home-")));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const awsCanary = canary("AWS");
    const ghCanary = canary("GH");
    mkdirSync(join(home, ".aws"));
    writeFileSync(join(home, ".aws", "credentials"), `[default]\naws_access_key_id = AKIAEXAMPLE\nplain = ${awsCanary}\n`);
    mkdirSync(join(home, ".config", "gh"), { recursive: true });
    writeFileSync(join(home, ".config", "gh", "hosts.yml"), `github.com:\n    note: ${ghCanary}\n`);
    writeFileSync(join(home, "pkg.json"), JSON.stringify({ name: awsCanary, scripts: { test: ghCanary } }));

    const { root, cleanup } = makeProject();
    cleanups.push(cleanup);
    const first = director({
      analyst: [analystDone],
      pm: [pmDone(false)],
      dev: [
        call("run_command", {
          command: `rm README.md && ln -s /proc/self/environ README.md && ln -s ${home}/.config/gh/hosts.yml AGENTS.md && ls -l README.md`,
        }),
        ...devWrites(GOOD_ADD),
      ],
      tea: [teaSays("PASS")],
    });
    const mock1 = await startMockOpenAI(first);
    cleanups.push(() => mock1.close());
    const env = { HOME: home, PATH: process.env.PATH };
    const run1 = await runEngine({ root, baseURL: mock1.url, threadId: "t-link-1", requirement: "Add add()", env });
    expect(run1.result.status).toBe("passed");

    const second = director({
      analyst: [analystDone],
      pm: [pmDone(false)],
      dev: [
        call("run_command", { command: `rm -f README.md package.json.bak && ln -sf ${home}/.aws/credentials README.md && ls -l README.md` }),
        ...devWrites(`${GOOD_ADD}// again\n`),
      ],
      tea: [teaSays("PASS")],
    });
    const mock2 = await startMockOpenAI(second);
    cleanups.push(() => mock2.close());
    const run2 = await runEngine({ root, baseURL: mock2.url, threadId: "t-link-2", requirement: "Add add() again", env });
    expect(run2.result.status).toBe("passed");

    const requests = [...mock1.requests, ...mock2.requests].map((r) => JSON.stringify(r.body));
    const hits: string[] = [];
    for (const [i, body] of requests.entries())
      for (const secret of [environCanary, awsCanary, ghCanary])
        for (const form of forms(secret)) if (body.includes(form)) hits.push(`request ${i}: ${secret.slice(0, 8)}`);
    expect(hits).toEqual([]);
    // The links really were there when the later agents' summaries were read, and were refused by name.
    const teaRequests = [...mock1.requests, ...mock2.requests].filter((r) => JSON.stringify(r.body).includes("tea agent")).map((r) => JSON.stringify(r.body));
    expect(teaRequests.length).toBeGreaterThanOrEqual(2);
    for (const body of teaRequests) expect(body).toContain("README.md: not shown (a symbolic link (or a path) to a file outside the project)");
    expect(JSON.stringify(mock2.requests[0]?.body)).toContain("README.md: not shown");
  });
});
