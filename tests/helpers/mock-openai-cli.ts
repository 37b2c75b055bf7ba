// Runs the mock server by hand: `npx jiti tests/helpers/mock-openai-cli.ts script.json`
// where script.json is an array of ScriptedReply (without `hold`). Prints the base URL, then logs each request.
import { readFileSync } from "node:fs";
import { roleOf, startMockOpenAI, type ScriptedReply } from "./mock-openai.js";

const file = process.argv[2];
if (!file) {
  process.stderr.write("usage: mock-openai-cli <script.json>\n");
  process.exit(2);
}
const script = JSON.parse(readFileSync(file, "utf8")) as ScriptedReply[];
const mock = await startMockOpenAI((req, index) => {
  process.stderr.write(`request ${index + 1}: model=${req.model} role=${roleOf(req) ?? "?"} messages=${req.messages.length}\n`);
  return index < script.length
    ? script[index]
    : { status: 500, content: `mock script exhausted at request ${index + 1} (the script has ${script.length} replies)` };
});
process.stdout.write(`${mock.url}\n`);
const stop = () => void mock.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
