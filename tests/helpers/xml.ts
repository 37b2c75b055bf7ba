import { execFileSync } from "node:child_process";

/** An XML element as a real parser read it. */
export interface XmlNode {
  tag: string;
  attrs: Record<string, string>;
  text: string;
  children: XmlNode[];
}

// Python's expat-based ElementTree is a conforming, non-validating XML parser: anything not well-formed
// (bad escaping, forbidden control characters, unbalanced tags) raises. python3 is already required to build
// better-sqlite3, so this adds no dependency.
const PARSE = `
import json, sys, xml.etree.ElementTree as ET
def node(e):
    return {"tag": e.tag, "attrs": dict(e.attrib), "text": e.text or "", "children": [node(c) for c in e]}
try:
    root = ET.fromstring(sys.stdin.buffer.read())
except ET.ParseError as err:
    sys.stderr.write("not well-formed XML: %s\\n" % err)
    sys.exit(1)
json.dump(node(root), sys.stdout)
`;

/** Parses XML with a real parser; throws with the parser's message when it is not well-formed. */
export function parseXml(xml: string): XmlNode {
  return JSON.parse(execFileSync("python3", ["-c", PARSE], { input: xml, encoding: "utf8" })) as XmlNode;
}

/** Every descendant element with this tag, depth first. */
export function findAll(node: XmlNode, tag: string): XmlNode[] {
  return node.children.flatMap((c) => [...(c.tag === tag ? [c] : []), ...findAll(c, tag)]);
}
