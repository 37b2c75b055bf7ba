import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { describeResult, parseEvents, runYolo, spawnYolo, threadIdFrom, waitFor } from "../helpers/cli.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";
import { director, GOOD_ADD, devWrites, handoff, pmDone, teaSays } from "../helpers/director.js";
import { roleOf, startMockOpenAI } from "../helpers/mock-openai.js";
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
function taskResult(task: string, model: string, verdict: string, thread: string | null = null) {
  const resolved = verdict === "resolved";
  return {
    task,
    model,
    verdict,
    reason: resolved ? "targets pass" : "a target still fails",
    thread,
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

// Each model's results as `yolo eval` stores them (<runs>/<eval>/<model folder>/<task>.result.json); model-a's first
// task ran `thread`, whose database is put in that task's worktree (a snapshot of the project's: where the eval's run
// would have written it).
function storeEval(root: string, thread: string): void {
  const runs = join(root, ".yolo", "eval", "runs", "history");
  for (const [model, verdicts] of Object.entries({
    "model-a": ["resolved", "resolved", "unresolved"],
    "model-<b>": ["unresolved", "resolved", "unresolved"],
  })) {
    const dir = join(runs, model.replace(/[^\w.-]/g, "_"));
    mkdirSync(dir, { recursive: true });
    for (const [i, verdict] of verdicts.entries()) {
      const ran = model === "model-a" && i === 0 ? thread : null;
      writeFileSync(join(dir, `t${i}.result.json`), JSON.stringify(taskResult(`t${i}`, model, verdict, ran)));
    }
  }
  mkdirSync(join(runs, "model-a", "t0", ".yolo"), { recursive: true });
  const Database = createRequire(import.meta.url)("better-sqlite3");
  const db = new Database(join(root, ".yolo", "yolo.db"), { readonly: true });
  db.exec(`VACUUM INTO '${join(runs, "model-a", "t0", ".yolo", "yolo.db")}'`);
  db.close();
}

// Watches a page from now on, in the page: when each checkpoint's timeline entry first appeared and when each
// "changed" event came (the browser's clock, the machine's), and a marker a navigation or reload would wipe.
function watchTimeline(page: Page): Promise<void> {
  return page.evaluate<void>(`(() => {
    window.__kept = true;
    window.__since = Date.now();
    window.__seen = {};
    window.__events = [];
    const note = () => {
      for (const t of document.querySelectorAll("#timeline time[datetime]")) window.__seen[t.getAttribute("datetime")] ??= Date.now();
    };
    note();
    new MutationObserver(note).observe(document.body, { childList: true, subtree: true });
    const events = new EventSource("/events?topic=" + encodeURIComponent(document.body.getAttribute("data-live")));
    events.addEventListener("changed", () => window.__events.push(Date.now()));
  })()`);
}

/** For each checkpoint saved while the page watched: ms from its time to the first event after it, and to its entry. */
interface LiveReading {
  kept: boolean;
  checkpoints: { at: string; event: number | null; shown: number }[];
  /** How long the server took to make each page the live script fetched (Server-Timing). */
  builds: number[];
}

function liveReading(page: Page): Promise<LiveReading> {
  return page.evaluate<LiveReading>(`(() => ({
    kept: window.__kept === true,
    checkpoints: Object.entries(window.__seen)
      .filter(([at]) => Date.parse(at) > window.__since)
      .map(([at, seen]) => {
        const after = window.__events.find((e) => e >= Date.parse(at));
        return { at, event: after === undefined ? null : after - Date.parse(at), shown: seen - Date.parse(at) };
      }),
    builds: performance.getEntriesByType("resource").filter((e) => e.initiatorType === "fetch")
      .flatMap((e) => e.serverTiming.filter((t) => t.name === "page").map((t) => Math.round(t.duration))),
  }))()`);
}

const REASON = "Split it into two stories: one for add, one for its tests";
describe("yolo serve in a real browser", { timeout: 180_000 }, () => {
  it("lists a real run's thread; hostile model text executes nothing; a review rejected in the page reaches the agent on yolo resume, approved it goes on to a pass while the open thread page and list update live; eval tasks link to their threads", async (ctx) => {
    const browser = await launch(ctx);
    if (!browser) return;
    const project = makeProject({ "yolo.config.ts": APPROVE_PM });
    const mock = await startMockOpenAI(
      director({
        analyst: [handoff({ requirements: HOSTILE_SUMMARY, acceptance_criteria: ['add(2, 3) returns 5 <svg onload=alert("ac")>'] })],
        pm: [pmDone(false), pmDone(false)],
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

    // Rejected in the page with a reason: `yolo resume` gives the reason to the pm, who plans again and waits again.
    await page.fill("#reason", REASON);
    await page.click("#reject");
    await expect.poll(() => page.locator("#answered").textContent()).toContain(`yolo resume ${thread}`);
    await shot(page, "thread-rejected");
    const replanned = await runYolo(["resume", thread, "--json"], { cwd: project.root, baseURL: mock.url });
    expect(replanned.exitCode, describeResult(replanned)).toBe(3);
    const pmAsked = mock.requests.filter((r) => roleOf(r) === "pm");
    expect(pmAsked).toHaveLength(2);
    expect(JSON.stringify(pmAsked[1].messages)).toContain(REASON);
    expect(JSON.stringify(pmAsked[0].messages)).not.toContain(REASON);

    await page.reload();
    await page.click("#approve");
    await expect.poll(() => page.locator("#answered").textContent()).toContain(`yolo resume ${thread}`);
    await shot(page, "thread-approved");

    // The thread's page and the list stay open while the thread runs on: both show the pass without a reload, the
    // thread's page each new checkpoint within a second of its writing.
    const listPage = await browser.newPage();
    const listSeen = watch(listPage);
    await listPage.goto(url);
    await expect.poll(() => listPage.locator(`tr[data-thread="${thread}"] td.status`).textContent()).toBe("answered");
    await watchTimeline(page);
    const resumed = await runYolo(["resume", thread, "--json"], { cwd: project.root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    expect(parseEvents(resumed.stdout).find((e) => e.type === "run.completed")).toMatchObject({ status: "passed" });
    await expect.poll(() => page.locator("#gates").textContent(), { timeout: 5_000 }).toContain("PASS");
    await expect.poll(() => listPage.locator(`tr[data-thread="${thread}"] td.status`).textContent(), { timeout: 5_000 }).toBe("passed");
    // The checkpoint's time is when LangGraph made it, a little before it is saved: the figures include that.
    const live = await liveReading(page);
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(join(SHOTS, "thread-live.json"), `${JSON.stringify(live, null, 1)}\n`);
    expect(live.kept, "the thread page was reloaded").toBe(true);
    expect(live.checkpoints.length, "no checkpoint reached the open page").toBeGreaterThanOrEqual(3);
    // The event for each new checkpoint reaches the page within a second; its entry is shown one page fetch later,
    // which on a machine whose cores are shared many times over takes seconds by itself (builds, in ms).
    for (const c of live.checkpoints) expect(c.event, `checkpoint ${c.at} to its event: ${JSON.stringify(live)}`).not.toBeNull();
    expect(Math.max(...live.checkpoints.map((c) => c.event ?? Infinity)), JSON.stringify(live)).toBeLessThanOrEqual(1_000);
    expect(Math.max(...live.checkpoints.map((c) => c.shown)), JSON.stringify(live)).toBeLessThanOrEqual(1_000 + 2 * Math.max(...live.builds));
    await shot(listPage, "list-passed");
    expect(listSeen).toEqual([]);

    await page.goto(`${origin}/threads/${thread}`);
    expect(await page.locator("#gates").textContent()).toContain("PASS");
    expect(await page.locator("#diff").textContent()).toContain("+export function add(a, b)");
    expect(await page.locator("#tool-calls").textContent()).toMatch(/dev\s*write_file\s*\{"path":"src\/add.js"[\s\S]*ok/);
    expect(await page.locator("main").textContent()).toContain(`reject — ${REASON}`);
    expect(await injected(page)).toEqual([]);
    await shot(page, "thread-passed");

    // Stored eval results: the page plots each model's rate, and a task's thread is a link to its page.
    storeEval(project.root, thread);
    await page.goto(`${origin}/evals`);
    expect(await page.locator("table.models").textContent()).toContain("model-<b>");
    expect(await page.locator("svg.plot text").allTextContents()).toEqual(expect.arrayContaining(["model-a", "67% [21%–94%]", "model-<b>", "33% [6%–79%]"]));
    expect(await page.locator("svg.plot rect.bar").count()).toBe(2);
    expect(await page.locator("table.tasks a").count()).toBe(1);
    expect(await injected(page)).toEqual([]);
    await shot(page, "evals");
    await page.click(`table.tasks a:text("${thread}")`);
    expect(new URL(page.url()).pathname).toBe("/evals/history/model-a/t0");
    expect(await page.locator("#eval-task").textContent()).toContain("Eval history, task t0, model model-a");
    expect(await page.locator("#gates").textContent()).toContain("PASS");
    expect(await injected(page)).toEqual([]);
    await shot(page, "eval-task-thread");
    expect(seen).toEqual([]);
  });
});
