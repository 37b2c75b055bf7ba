import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { BIN, cleanEnv } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";
import { requireTool } from "../helpers/requires.js";

const cleanups = cleanupsAfterEach("lastFirst");
// An SGR sequence that sets a foreground colour (30–37, 90–97, 38;…): what NO_COLOR rules out.
const COLOUR = /\x1b\[(?:[0-9;]*;)?(?:3[0-8]|9[0-7])(?:;[0-9;]*)?m/;

describe("the live view on a real terminal", { timeout: 240_000 }, () => {
  it("draws in colour, and without any colour when NO_COLOR is set", async (ctx) => {
    requireTool(ctx, "script", "a pseudo-terminal for the live view");
    const project = makeProject();
    const script = () => ({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });
    const mock = await startMockOpenAI(
      director({
        ...script(),
        analyst: [analystDone, analystDone],
        pm: [pmDone(false), pmDone(false)],
        dev: [...devWrites(GOOD_ADD), ...devWrites(GOOD_ADD)],
        tea: [teaSays("PASS"), teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const live = async (env: Record<string, string>) => {
      const command = `stty cols 100 rows 30; ${process.execPath} ${BIN} run 'Add an add(a, b) function'`;
      const r = await execa("script", ["-qec", command, "/dev/null"], {
        cwd: project.root,
        env: { ...cleanEnv({ baseURL: mock.url }), SHELL: "/bin/sh", TERM: "xterm-256color", ...env },
        extendEnv: false,
        reject: false,
        encoding: "utf8",
        timeout: 60_000,
      });
      return String(r.stdout);
    };
    const coloured = await live({});
    expect(coloured).toContain("passed");
    expect(coloured).toMatch(COLOUR);
    const plain = await live({ NO_COLOR: "1" });
    expect(plain).toContain("passed");
    expect(plain).not.toMatch(COLOUR);
  });
});
