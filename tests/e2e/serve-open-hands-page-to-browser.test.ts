import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { spawnYolo, waitFor } from "../helpers/cli.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";
import { makeProject } from "../helpers/project.js";

const cleanups = cleanupsAfterEach("lastFirst");
const TOKEN = "a-chosen-token-of-enough-length";

// `yolo serve --open` with BROWSER set to a program that writes the arguments it was started with, one a line.
describe("yolo serve --open", { timeout: 60_000 }, () => {
  it("starts BROWSER with the page where %s stands; a URL holding the token goes in a private redirect file, never in the opener's command line", async () => {
    const project = makeProject();
    const argsFile = join(project.root, "opener-args.txt");
    const opener = join(project.root, "opener.sh");
    writeFileSync(opener, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\n`);
    chmodSync(opener, 0o755);
    const child = spawnYolo(["serve", "--port", "0", "--open"], {
      cwd: project.root,
      env: { YOLO_SERVE_TOKEN: TOKEN, BROWSER: `${opener} --new-window %s` },
      timeoutMs: 60_000,
    });
    cleanups.push(project.cleanup, () => void child.kill("SIGTERM"));
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
    });
    await waitFor(() => existsSync(argsFile) && readFileSync(argsFile, "utf8").endsWith("\n"), "the opener to be started", 20_000);
    const printed = /yolo serve: (http\S+)/.exec(out)?.[1] ?? "";
    expect(printed).toContain(`token=${TOKEN}`);

    const args = readFileSync(argsFile, "utf8").trimEnd().split("\n");
    expect(args).toHaveLength(2);
    expect(args[0]).toBe("--new-window");
    expect(args[1]).toMatch(/^file:\/\/\/.+\.html$/);
    expect(args.join(" ")).not.toContain(TOKEN);
    const redirect = fileURLToPath(args[1]);
    expect(statSync(redirect).mode & 0o777).toBe(0o600);
    const target = /http-equiv="refresh" content="0;url=([^"]+)"/.exec(readFileSync(redirect, "utf8"))?.[1] ?? "";
    expect(target.replaceAll("&amp;", "&")).toBe(printed);
    // The page it leads to takes the token (moved into the cookie: a redirect to the bare page).
    const opened = await fetch(target.replaceAll("&amp;", "&"), { redirect: "manual" });
    expect(opened.status).toBe(303);
    expect(opened.headers.get("set-cookie")).toContain("yolo_serve_token=");

    child.kill("SIGTERM");
    await child;
    expect(existsSync(redirect), "the redirect file outlived the server").toBe(false);
  });
});
