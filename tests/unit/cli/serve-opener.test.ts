import { describe, expect, it } from "vitest";
import { openerFor, openTarget } from "../../../src/cli/open-browser.js";

describe("the program yolo serve --open starts", () => {
  it("is BROWSER when set: its words, the page where %s stands or else appended", () => {
    expect(openerFor("http://127.0.0.1:1/", "firefox", "linux")).toEqual({ command: "firefox", args: ["http://127.0.0.1:1/"] });
    expect(openerFor("http://127.0.0.1:1/", " chromium --app=%s  --incognito ", "linux")).toEqual({
      command: "chromium",
      args: ["--app=http://127.0.0.1:1/", "--incognito"],
    });
  });

  it("is the desktop's opener without BROWSER (or with an empty one)", () => {
    expect(openerFor("u", undefined, "linux")).toEqual({ command: "xdg-open", args: ["u"] });
    expect(openerFor("u", "  ", "darwin")).toEqual({ command: "open", args: ["u"] });
    expect(openerFor("u", undefined, "win32")).toEqual({ command: "explorer", args: ["u"] });
  });

  it("is given the URL itself when it holds no token", () => {
    const target = openTarget("http://127.0.0.1:4317/", false);
    expect(target.target).toBe("http://127.0.0.1:4317/");
    target.remove();
  });
});
