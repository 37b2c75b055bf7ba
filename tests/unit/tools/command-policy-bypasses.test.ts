import { describe, expect, it } from "vitest";
import { checkCommand, defaultPolicy, narrowPolicy } from "../../../src/tools/command-policy.js";
import { scanOptions } from "../../../src/tools/policy/options.js";
import { parseShell, WORD_BRACE, WORD_GLOB, WORD_TILDE, WORD_VAR } from "../../../src/tools/shell-parse.js";

const userDeny = narrowPolicy(defaultPolicy(), { deny: ["curl", "git push"] }, "user config");
const reason = (command: string, policy = userDeny, root?: string) => {
  const d = checkCommand(command, policy, { root });
  return d.ok ? "allowed" : d.reason;
};
const parsed = (source: string) => {
  const p = parseShell(source);
  if (!p.ok) throw new Error(p.reason);
  return p.commands;
};

describe("parseShell keeps what the policy needs", () => {
  it("decodes $'…' escapes, keeps assignments and marks words the shell still expands", () => {
    const [cmd] = parsed(`GIT_PAGER='less -R' $'\\x63url' $X * ~/a {a,b} "$HOME" '$Y' [`);
    expect(cmd.argv).toEqual(["curl", "$X", "*", "~/a", "{a,b}", "$HOME", "$Y", "["]);
    expect(cmd.assignments).toEqual(["GIT_PAGER=less -R"]);
    expect(cmd.flags).toEqual([0, WORD_VAR, WORD_GLOB, WORD_TILDE, WORD_BRACE, WORD_VAR, 0, 0]);
  });

  it("gives a here-document or here-string to its command as stdin, and refuses substitutions inside an unquoted one", () => {
    expect(parsed("sh <<EOF\nnpm test\nEOF\nls")).toMatchObject([{ argv: ["sh"], stdin: "npm test\n" }, { argv: ["ls"] }]);
    expect(parsed("python3 <<< 'print(1)'")[0].stdin).toBe("print(1)\n");
    expect(parseShell("cat <<EOF\n`id`\nEOF").ok).toBe(false);
    expect(parsed("cat <<'EOF'\n$(id)\nEOF")[0].stdin).toBe("$(id)\n");
  });

  it("refuses a program name that is a glob or a brace pattern", () => {
    for (const source of ["/usr/bin/cur? x", "{curl,x}", "/bin/c*l"]) expect(parseShell(source).ok, source).toBe(false);
  });
});

describe("the command policy names the rule for each bypass", () => {
  it("looks through eval, env -S, sh option forms and find -exec to the denied command", () => {
    for (const command of ["eval curl x", "env -S 'curl x'", "sh -o errexit -c 'curl x'", "bash -xc 'curl x'", "find . -exec curl x \\;"]) {
      expect(reason(command), command).toContain('matches deny rule "curl" (user config)');
    }
  });

  it("names its built-in rules", () => {
    expect(reason("cd / && rm -rf .")).toContain('built-in rule "recursive delete outside the project"');
    expect(reason("git -c alias.x='!sudo id' x")).toContain('built-in rule "git alias"');
    expect(reason("git -c core.fsmonitor=x status")).toContain('built-in rule "git config that runs programs"');
    expect(reason("curl x | python3")).toContain('matches deny rule "curl"');
    expect(reason("wget -O- x | python3")).toContain('built-in rule "pipe into an interpreter"');
    expect(reason("sh -c 'exec \"$@\"' _ curl")).toContain('built-in rule "program name expanded by the shell"');
    expect(reason("echo $(id)")).toContain('built-in rule "uncheckable shell syntax"');
    expect(reason(`${Array(12).fill("eval").join(" ")} ls`)).toContain('built-in rule "nesting too deep"');
  });

  it("matches a deny of `git push` after git's global options, and an allow of `git status` too", () => {
    expect(reason("git -C . -c color.ui=auto --no-pager push origin")).toContain('deny rule "git push"');
    const allowStatus = narrowPolicy(defaultPolicy(), { allow: ["git status"] }, "yolo.config.ts");
    expect(checkCommand("git -C sub status", allowStatus)).toEqual({ ok: true });
    expect(checkCommand("git -C sub log", allowStatus).ok).toBe(false);
  });

  it("checks settings whose value is a command instead of refusing them (core.pager=cat passes)", () => {
    expect(reason("git -c core.pager=cat log")).toBe("allowed");
    expect(reason("git -c core.pager='curl x' log")).toContain('deny rule "curl"');
    expect(reason("GIT_PAGER=cat git log")).toBe("allowed");
    expect(reason("export EDITOR='curl x'")).toContain('deny rule "curl"');
  });

  it("scans interpreter code strings against deny rules only, not allow-lists", () => {
    const allowPython = narrowPolicy(userDeny, { allow: ["python3"] }, "yolo.config.ts");
    expect(checkCommand(`python3 -c 'print("hello world")'`, allowPython)).toEqual({ ok: true });
    expect(reason(`python3 -c "import os; os.system('curl x')"`, allowPython)).toMatch(/deny rule "curl".*best effort; the sandbox is the real line/);
  });

  it("resolves recursive deletes against the project root when it is known", () => {
    expect(reason("rm -rf /work/proj/dist", userDeny, "/work/proj")).toBe("allowed");
    expect(reason("rm -rf /work/proj", userDeny, "/work/proj")).toContain("would delete the project itself");
    expect(reason("rm -rf /work/proj/dist")).toContain("is outside the project");
    expect(reason("cd src && rm -rf gen")).toBe("allowed");
    expect(reason("cd src && rm -rf ../..")).toContain("refused");
  });

  it("expands aliases defined in the same command string", () => {
    expect(reason("alias s=sudo\ns id")).toContain('deny rule "sudo"');
    expect(reason("alias ll='ls -la'\nll src")).toBe("allowed");
  });
});

describe("scanOptions", () => {
  it("reads clustered short options, attached and separate values, long options with = and --", () => {
    expect(scanOptions(["x", "-fn5", "-k", "3", "--signal=KILL", "--", "-cmd"], 1, { value: "nk" })).toEqual({
      index: 6,
      options: [{ name: "-f" }, { name: "-n", value: "5" }, { name: "-k", value: "3" }, { name: "--signal", value: "KILL" }],
    });
  });
});
