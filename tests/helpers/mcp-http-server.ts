import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export interface McpHttpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  /** Authorization headers the server received, in order. */
  authorizations: string[];
  close(): Promise<void>;
}

// The one tool both test servers offer.
function shoutServer(name: string): McpServer {
  const server = new McpServer({ name, version: "1.0.0" });
  server.registerTool(
    "shout",
    { description: "Upper-cases text.", inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text }) => ({ content: [{ type: "text", text: text.toUpperCase() }] }),
  );
  return server;
}

/**
 * A legacy SSE-only MCP server on 127.0.0.1 (GET <url> opens the stream, POSTs go to /messages): a streamable HTTP
 * client's POST to <url> is refused with 405, as an old server would, so the client must fall back to SSE.
 */
export async function startMcpSseServer(): Promise<McpHttpServer> {
  const authorizations: string[] = [];
  const sessions = new Map<string, SSEServerTransport>();
  const http: HttpServer = createServer(async (req, res) => {
    authorizations.push(String(req.headers.authorization ?? ""));
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      sessions.set(transport.sessionId, transport);
      res.on("close", () => sessions.delete(transport.sessionId));
      await shoutServer("sse-test").connect(transport);
      return;
    }
    if (req.method === "POST" && url.pathname === "/messages") {
      const transport = sessions.get(url.searchParams.get("sessionId") ?? "");
      if (transport) return void (await transport.handlePostMessage(req, res));
    }
    res.writeHead(405).end();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
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
    const server = shoutServer("http-test");
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
