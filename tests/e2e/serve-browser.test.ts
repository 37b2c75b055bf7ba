import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { describeResult, parseEvents, runYolo, spawnYolo, threadIdFrom, waitFor } from "../helpers/cli.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";
import { director, GOOD_ADD, devWrites, handoff, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { underCI } from "../helpers/requires.js";

const cleanups = cleanupsAfterEach("lastFirst");
const CHROMIUM = "/usr/bin/chromium";
const SHOTS = fileURLToPath(new URL("../.artifacts/serve/", import.meta.url));
const APPROVE_PM = 'import { defineConfig } from "yolo";\nexport default defineConfig({ approve: ["pm"] });\n';

// Model and user text built to run code if any of it reached the page as markup, or a terminal as escapes.
const HOSTILE = '<script>alert("req")</script><img src=x onerror=alert("img")> [go](javascript:alert("md")) \x1b]52;c;aGk=\x07\x1b[2J';
const HOSTILE_SUMMARY =
  '# Add\n<img src=x onerror="alert(\'analyst\')"><a href="javascript:alert(\'link\')" onclick="alert(1)">click</a><script>alert("s")</script>\x1b]8;;http://evil\x07';

// The browser, or a skip with its reason outside CI (under CI a missing browser fails: .ci/run installs it).
async function launch(ctx: { skip(note: string): void }): Promise<Browser | null> {
  if (!existsSync(CHROMIUM)) {
    const why = `the browser test needs Debian's chromium at ${CHROMIUM} (apt-get install chromium)`;
    if (underCI()) throw new Error(`CI is set, so this test must run, but ${why}.`);
    ctx.skip(why);
    return null;
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  cleanups.push(() => browser.close());
  return browser;
}

// `yolo serve --port 0` in the project: resolves with the URL it prints.
async function serve(root: string, env: Record<string, string> = {}): Promise<string> {
  const child = spawnYolo(["serve", "--port", "0"], { cwd: root, env, timeoutMs: 170_000 });
  cleanups.push(() => void child.kill("SIGTERM"));
  let out = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  await waitFor(() => /yolo serve: (http\S+)/.test(out), "yolo serve to print its URL", 20_000);
  return /yolo serve: (http\S+)/.exec(out)?.[1] ?? "";
}

// What ran or tried to run in a page: dialogs (alert), console messages (CSP violations land here), page errors.
function watch(page: Page): string[] {
  const seen: string[] = [];
  page.on("dialog", (d) => {
    seen.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on("console", (m) => seen.push(`console ${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => seen.push(`error: ${e.message}`));
  return seen;
}

// Markup that data could only have made if escaping failed: on* attributes, javascript: links, scripts not ours.
function injected(page: Page): Promise<string[]> {
  // A string, run in the page: the tests are type-checked without the DOM's types.
  return page.evaluate<string[]>(`(() => {
    const found = [];
    for (const el of document.querySelectorAll("*")) {
      for (const a of el.attributes) if (a.name.startsWith("on")) found.push(el.tagName + " " + a.name);
      if ((el.getAttribute("href") || "").trim().toLowerCase().startsWith("javascript:")) found.push(el.tagName + " href");
      if (el.tagName === "SCRIPT" && el.getAttribute("src") !== "/static/serve.js") found.push("script");
      if (el.tagName === "IMG") found.push("img");
    }
    return found;
  })()`);
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

// One task's judged result, in the shape src/eval/types.ts TaskResult gives it.
function taskResult(task: string, model: string, verdict: string) {
  const resolved = verdict === "resolved";
  return {
    task,
    model,
    verdict,
    reason: resolved ? "targets pass" : "a target still fails",
    thread: null,
    exitCode: resolved ? 0 : 1,
    tokens: 1000,
    cost: 0.01,
    wallMs: 20_000,
    fixAttempts: 0,
    tamperAttempts: 0,
    tamper: [],
    failingTargets: [],
    failingGuards: [],
    tests: "hidden",
  };
}

describe("yolo serve in a real browser", { timeout: 180_000 }, () => {
  it("lists a real run's thread; hostile model text executes nothing; a review approved in the page goes on with yolo resume to a pass, and the open list updates live", async (ctx) => {
    const browser = await launch(ctx);
    if (!browser) return;
    const project = makeProject({ "yolo.config.ts": APPROVE_PM });
    const mock = await startMockOpenAI(
      director({
        analyst: [handoff({ requirements: HOSTILE_SUMMARY, acceptance_criteria: ['add(2, 3) returns 5 <svg onload=alert("ac")>'] })],
        pm: [pmDone(false)],
        dev: devWrites(GOOD_ADD),
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const waiting = await runYolo(["run", "--json", HOSTILE], { cwd: project.root, baseURL: mock.url });
    expect(waiting.exitCode, describeResult(waiting)).toBe(3);
    const thread = threadIdFrom(waiting.stdout);
    const url = await serve(project.root);
    const origin = new URL(url).origin;

    const page = await browser.newPage();
    const seen = watch(page);
    const list = await page.goto(url);
    expect(list?.headers()["content-security-policy"]).toContain("default-src 'none'");
    await expect.poll(() => page.locator(`tr[data-thread="${thread}"] td.status`).textContent()).toBe("waiting");
    expect(await page.locator(`tr[data-thread="${thread}"] td.req`).textContent()).toBe(
      HOSTILE.replace("\x1b", "\\x1b").replace("\x07", "\\x07").replace("\x1b", "\\x1b"),
    );
    await shot(page, "list-waiting");

    await page.click(`a[href="/threads/${thread}"]`);
    await expect.poll(() => page.locator("#question").textContent()).toContain("pm");
    expect(await page.locator("main").textContent()).toContain('<a href="javascript:alert(\'link\')" onclick="alert(1)">click</a>');
    expect(await page.locator("main").textContent()).toContain("\\x1b]8;;http://evil\\x07");
    expect(await injected(page)).toEqual([]);
    await shot(page, "thread-waiting");

    // A cross-site post is refused before anything is read: wrong origin, then the right origin without the form's token.
    const forged = await fetch(`${origin}/threads/${thread}/reply`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.example" },
      body: "action=approve&csrf=x",
    });
    expect(forged.status).toBe(403);
    const noToken = await fetch(`${origin}/threads/${thread}/reply`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: "action=approve&csrf=x",
    });
    expect(noToken.status).toBe(403);

    await page.click("#approve");
    await expect.poll(() => page.locator("#answered").textContent()).toContain(`yolo resume ${thread}`);
    await shot(page, "thread-approved");

    // The list stays open while the thread runs on: it shows the pass without a reload.
    await page.goto(url);
    await expect.poll(() => page.locator(`tr[data-thread="${thread}"] td.status`).textContent()).toBe("answered");
    const resumed = await runYolo(["resume", thread, "--json"], { cwd: project.root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    expect(parseEvents(resumed.stdout).find((e) => e.type === "run.completed")).toMatchObject({ status: "passed" });
    await expect.poll(() => page.locator(`tr[data-thread="${thread}"] td.status`).textContent(), { timeout: 5_000 }).toBe("passed");
    expect(await page.locator("body").getAttribute("data-updated")).not.toBeNull();
    await shot(page, "list-passed");

    await page.goto(`${origin}/threads/${thread}`);
    expect(await page.locator("#gates").textContent()).toContain("PASS");
    expect(await page.locator("#diff").textContent()).toContain("+export function add(a, b)");
    expect(await page.locator("#tool-calls").textContent()).toMatch(/dev\s*write_file\s*\{"path":"src\/add.js"[\s\S]*ok/);
    expect(await injected(page)).toEqual([]);
    await shot(page, "thread-passed");

    // Stored eval results as `yolo eval` writes them (<task>.result.json per model): the page plots each model's rate.
    for (const [model, verdicts] of Object.entries({
      "model-a": ["resolved", "resolved", "unresolved"],
      "model-<b>": ["unresolved", "resolved", "unresolved"],
    })) {
      const dir = join(project.root, ".yolo", "eval", "runs", "history", model.replace(/[^\w.-]/g, "_"));
      mkdirSync(dir, { recursive: true });
      for (const [i, verdict] of verdicts.entries()) writeFileSync(join(dir, `t${i}.result.json`), JSON.stringify(taskResult(`t${i}`, model, verdict)));
    }
    await page.goto(`${origin}/evals`);
    expect(await page.locator("table.models").textContent()).toContain("model-<b>");
    expect(await page.locator("svg.plot text").allTextContents()).toEqual(expect.arrayContaining(["model-a", "67% [21%–94%]", "model-<b>", "33% [6%–79%]"]));
    expect(await page.locator("svg.plot rect.bar").count()).toBe(2);
    expect(await injected(page)).toEqual([]);
    await shot(page, "evals");
    expect(seen).toEqual([]);
  });
});
