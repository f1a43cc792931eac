// A plain MCP SDK 1.x client of the client scenario `elicitation-sep1034-client-defaults`:
// the suite's own example (vendor/elicitation-defaults-test.ts) declares
// `elicitation: { applyDefaults: true }`, the shape of an older SDK, which SDK 1.32 reads
// as no defaults; this one declares `elicitation: { form: { applyDefaults: true } }` and
// answers every elicitation with empty content, for the SDK to fill in the defaults.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const url = process.argv.at(-1);
if (url === undefined) throw new Error('usage: sdk-defaults-client <server-url>');
const client = new Client(
  { name: 'sdk-defaults-client', version: '1.0.0' },
  { capabilities: { elicitation: { form: { applyDefaults: true } } } },
);
client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: {} }));
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);
await client.callTool({ name: 'test_client_elicitation_defaults', arguments: {} });
await transport.close();
process.exit(0);
