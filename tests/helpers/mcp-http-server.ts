import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export interface McpHttpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  /** Authorization headers the server received, in order. */
  authorizations: string[];
  close(): Promise<void>;
}

/**
 * A streamable HTTP MCP server on 127.0.0.1 (stateless: a fresh server per request, as the SDK's example does),
 * written with the SDK, with one tool `shout` (read-only) that upper-cases its text.
 */
export async function startMcpHttpServer(): Promise<McpHttpServer> {
  const authorizations: string[] = [];
  const http: HttpServer = createServer(async (req, res) => {
    authorizations.push(String(req.headers.authorization ?? ""));
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const server = new McpServer({ name: "http-test", version: "1.0.0" });
    server.registerTool(
      "shout",
      { description: "Upper-cases text.", inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
      async ({ text }) => ({ content: [{ type: "text", text: text.toUpperCase() }] }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
