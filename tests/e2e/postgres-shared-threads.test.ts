import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { hostname, tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeResult, parseEvents, rolesOf, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { useTestDatabase } from "../helpers/postgres.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");

const REQ = "Add an add(a, b) function to src/add.js";

describe("a team shares threads through PostgreSQL", () => {
  const db = useTestDatabase("postgres");

  it("a run started in working copy A is resumed by another process in clone B, and ends passed with the change in B", async () => {
    const a = makeProject();
    const bParent = realpathSync(mkdtempSync(join(tmpdir(), "yolo-clone-")));
    const b = join(bParent, "b");
    execFileSync("git", ["clone", "-q", a.root, b]);
    const other = makeProject();
    const mock = await startMockOpenAI(
      director({
        analyst: [handoff({ escalate_to_human: true, question: "Floats too?" }), analystDone],
        pm: [pmDone(false)],
        dev: devWrites(GOOD_ADD),
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(
      a.cleanup,
      other.cleanup,
      () => rmSync(bParent, { recursive: true, force: true }),
      () => mock.close(),
    );
    const env = db.env();

    // A: the analyst asks; the process ends waiting (exit 3), its checkpoints in PostgreSQL.
    const first = await runYolo(["run", "--json", REQ], { cwd: a.root, baseURL: mock.url, env });
    expect(first.exitCode, describeResult(first)).toBe(3);
    const thread = threadIdFrom(first.stdout);
    // No SQLite file: nothing but artifacts on disk.
    expect(existsSync(join(a.root, ".yolo", "yolo.db"))).toBe(false);

    // B lists A's thread as this repository's.
    const listed = await runYolo(["threads", "--json"], { cwd: b, env });
    expect(listed.exitCode, describeResult(listed)).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ id: thread, status: "waiting", root: a.root, host: hostname(), user: userInfo().username, mode: "run" }),
    ]);

    // Another repository neither lists it nor may resume it.
    const elsewhere = await runYolo(["threads", "--json"], { cwd: other.root, env });
    expect(JSON.parse(elsewhere.stdout)).toEqual([]);
    const refused = await runYolo(["resume", thread, "--answer", "Floats too"], { cwd: other.root, baseURL: mock.url, env });
    expect(refused.exitCode, describeResult(refused)).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`Thread ${thread} belongs to repository .* but this working copy is`));

    // B answers: the rest of the pipeline runs in B, with B's root.
    const second = await runYolo(["resume", "--json", thread, "--answer", "Floats too"], { cwd: b, baseURL: mock.url, env });
    expect(second.exitCode, describeResult(second)).toBe(0);
    expect(parseEvents(second.stdout).at(-1)).toMatchObject({ type: "run.completed", status: "passed" });
    expect(readFileSync(join(b, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    expect(existsSync(join(a.root, "src/add.js"))).toBe(false);
    expect(rolesOf(mock)).toEqual(["analyst", "analyst", "pm", "dev", "dev", "tea"]);
    // The gate log is in B's artifacts folder.
    expect(existsSync(join(b, ".yolo", "threads", thread, "gates", "attempt-1-test.log"))).toBe(true);

    // --all lists every thread in the database with who ran it where (now B).
    const all = await runYolo(["threads", "--all"], { cwd: other.root, env });
    expect(all.exitCode, describeResult(all)).toBe(0);
    expect(all.stdout).toMatch(/THREAD\s+MODE\s+STATUS\s+UPDATED\s+HOST\s+USER\s+ROOT\s+REQUIREMENT/);
    expect(all.stdout).toMatch(new RegExp(`^${thread}\\s+run\\s+passed\\s`, "m"));
    expect(all.stdout).toContain(b);

    // A reads the finished thread from the shared database; its history and show work from either copy.
    const show = await runYolo(["show", thread], { cwd: a.root, env });
    expect(show.exitCode, describeResult(show)).toBe(0);
    expect(show.stdout).toContain(`Thread ${thread} — passed`);
    expect(show.stdout).toContain(`in ${b}`);
    const history = await runYolo(["history", "--json", thread], { cwd: a.root, env });
    expect(history.exitCode, describeResult(history)).toBe(0);
    expect((JSON.parse(history.stdout) as { node: string }[]).map((h) => h.node)).toContain("tea");
  });

  it("an unreachable server is a storage error naming host and database, never the password", async () => {
    const project = makeProject();
    cleanups.push(project.cleanup);
    const r = await runYolo(["threads"], { cwd: project.root, env: { YOLO_DATABASE_URL: "postgres://yolo:s3cret-pw@127.0.0.1:9/teamdb" } });
    expect(r.exitCode, describeResult(r)).toBe(70);
    expect(r.stderr).toContain("yolo@127.0.0.1:9/teamdb");
    expect(r.stderr).not.toContain("s3cret-pw");
  });
});
