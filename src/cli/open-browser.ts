import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The program that opens a page and its arguments (the page appended, or put where `%s` stands). */
export interface Opener {
  command: string;
  args: string[];
}

/**
 * The opener `--open` starts: `BROWSER` when set (a command line, split on spaces, with `%s` for the page, as other
 * CLIs read it: git web--browse, Python's webbrowser), else the desktop's own (`xdg-open`, `open`, `explorer`).
 */
export function openerFor(target: string, browser: string | undefined, platform: NodeJS.Platform): Opener {
  const words = (browser ?? "").trim().split(/\s+/).filter(Boolean);
  if (words.length) {
    const args = words.slice(1);
    const placed = args.some((a) => a.includes("%s"));
    return { command: words[0], args: placed ? args.map((a) => a.replaceAll("%s", target)) : [...args, target] };
  }
  const command = platform === "darwin" ? "open" : platform === "win32" ? "explorer" : "xdg-open";
  return { command, args: [target] };
}

/**
 * What the opener is given. A URL holding the token would sit in the opener's command line, which every user of the
 * machine can read (`ps`): then the opener gets a private file (0600, in a 0700 folder) that sends the browser on to
 * the URL, as Jupyter does. `remove` deletes it (the server stopping).
 */
export function openTarget(url: string, hasToken: boolean): { target: string; remove(): void } {
  if (!hasToken) return { target: url, remove: () => {} };
  const dir = mkdtempSync(join(tmpdir(), "yolo-serve-open-"));
  const file = join(dir, "open.html");
  const attr = url.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  const body = `<!doctype html>\n<meta charset="utf-8">\n<meta http-equiv="refresh" content="0;url=${attr}">\n<title>yolo serve</title>\n<a href="${attr}">Open yolo serve</a>\n`;
  writeFileSync(file, body, { mode: 0o600 });
  return { target: `file://${file}`, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Starts the opener detached (the browser outlives nothing of ours); if it cannot start, `onError` says so. */
export function startOpener(opener: Opener, onError: (message: string) => void): void {
  const child = spawn(opener.command, opener.args, { detached: true, stdio: "ignore" });
  child.on("error", (error) => onError(`could not start ${opener.command} (${error.message})`));
  child.unref();
}
