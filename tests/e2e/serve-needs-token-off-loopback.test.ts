import { describe, expect, it } from "vitest";
import { spawnYolo, waitFor } from "../helpers/cli.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";
import { makeProject } from "../helpers/project.js";

const cleanups = cleanupsAfterEach("lastFirst");

// `yolo serve` with these flags in a fresh project: what it printed once its URL is out.
async function serve(args: string[], env: Record<string, string> = {}): Promise<string> {
  const project = makeProject();
  const child = spawnYolo(["serve", "--port", "0", ...args], { cwd: project.root, env, timeoutMs: 60_000 });
  cleanups.push(project.cleanup, () => void child.kill("SIGTERM"));
  let out = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  await waitFor(() => out.includes("Ctrl+C"), "yolo serve to print its URL", 20_000);
  return out;
}

const urlIn = (out: string) => new URL(/yolo serve: (http\S+)/.exec(out)?.[1] ?? "");

describe("yolo serve beyond loopback", { timeout: 60_000 }, () => {
  it("generates and prints a token for another --host, and every request needs it; the printed URL moves it into a cookie", async () => {
    const out = await serve(["--host", "0.0.0.0"]);
    const printed = urlIn(out);
    const token = printed.searchParams.get("token") ?? "";
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(out).toContain("The token was generated");
    const base = `http://127.0.0.1:${printed.port}`;
    const bare = await fetch(`${base}/`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect((await fetch(`${base}/?token=wrong`)).status).toBe(401);
    const opened = await fetch(`${base}/?token=${encodeURIComponent(token)}`, { redirect: "manual" });
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe("/");
    const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0];
    expect(opened.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Strict/);
    const withCookie = await fetch(`${base}/`, { headers: { cookie } });
    expect(withCookie.status).toBe(200);
    expect(await withCookie.text()).toContain("0 of 0 threads");
  });

  it("takes YOLO_SERVE_TOKEN instead, on loopback too; the static files need no token", async () => {
    const out = await serve([], { YOLO_SERVE_TOKEN: "a-chosen-token-of-enough-length" });
    const printed = urlIn(out);
    expect(printed.hostname).toBe("127.0.0.1");
    expect(printed.searchParams.get("token")).toBe("a-chosen-token-of-enough-length");
    expect(out).not.toContain("generated");
    const base = `http://127.0.0.1:${printed.port}`;
    expect((await fetch(`${base}/evals`)).status).toBe(401);
    expect((await fetch(`${base}/evals`, { headers: { authorization: "Bearer a-chosen-token-of-enough-length" } })).status).toBe(200);
    expect((await fetch(`${base}/static/serve.js`)).status).toBe(200);
  });
});
