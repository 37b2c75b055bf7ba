/**
 * The source of a minimal stdio MCP server in plain Node (no package: it runs from wherever a test writes it, also
 * where the checkout's node_modules cannot be seen). Line-delimited JSON-RPC: initialize, tools/list, tools/call with
 * `read_text_file {path}` and `write_file {path, content}`; a failure is the call's error text.
 */
export function rawMcpServerSource(preamble = ""): string {
  return `${preamble}
import { readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
const tools = [
  { name: "read_text_file", description: "read a file", inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  { name: "write_file", description: "write a file", inputSchema: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] } },
];
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\\n");
function call(name, args) {
  try {
    if (name === "read_text_file") return { content: [{ type: "text", text: readFileSync(args.path, "utf8") }] };
    if (name === "write_file") { writeFileSync(args.path, args.content); return { content: [{ type: "text", text: "written" }] }; }
    return { isError: true, content: [{ type: "text", text: "unknown tool " + name }] };
  } catch (error) {
    return { isError: true, content: [{ type: "text", text: String(error && error.message) }] };
  }
}
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "raw", version: "1" } } });
  else if (m.method === "tools/list") send({ id: m.id, result: { tools } });
  else if (m.method === "tools/call") send({ id: m.id, result: call(m.params.name, m.params.arguments ?? {}) });
  else if (m.id !== undefined) send({ id: m.id, error: { code: -32601, message: "no method " + m.method } });
});
`;
}
