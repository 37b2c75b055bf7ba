import { describe, expect, it } from "vitest";
import { escapeText, html, trusted } from "../../../src/serve/html.js";

describe("the one HTML template", () => {
  it("escapes every interpolated value, in text and in attributes, and shows terminal escapes as yolo show does", () => {
    const hostile = `<script>alert(1)</script>" onmouseover='x' \x1b]52;c;aGk=\x07\u202e`;
    const out = html`<p title="${hostile}">${hostile}</p>`.text;
    expect(out).toBe(
      '<p title="&lt;script&gt;alert(1)&lt;/script&gt;&quot; onmouseover=&#39;x&#39; \\x1b]52;c;aGk=\\x07\\u202e">&lt;script&gt;alert(1)&lt;/script&gt;&quot; onmouseover=&#39;x&#39; \\x1b]52;c;aGk=\\x07\\u202e</p>',
    );
  });

  it("nests templates and arrays without escaping them twice; null, undefined and false render nothing", () => {
    const items = ["a&b", "<i>"].map((t) => html`<li>${t}</li>`);
    expect(html`<ul>${items}${null}${undefined}${false}</ul>`.text).toBe("<ul><li>a&amp;b</li><li>&lt;i&gt;</li></ul>");
    expect(html`${0} ${true}`.text).toBe("0 true");
  });

  it("lets through only markup marked trusted, never a plain string", () => {
    expect(html`${trusted("<br>")}${"<br>"}`.text).toBe("<br>&lt;br&gt;");
    expect(escapeText("&amp;")).toBe("&amp;amp;");
  });
});
