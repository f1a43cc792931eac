// A new user's first MCP client of the installed gateway (run by check-packages.ts in an
// empty folder where only the packed tarballs are installed): the MCP SDK client spawns
// `npx -y @tool-search/gateway serve --config gateway.json` over stdio, exactly as the
// guide's client configs do, lists the tools, searches, and stops.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const transport = new StdioClientTransport({
  command: 'npx',
  args: ['-y', '@tool-search/gateway', 'serve', '--config', 'gateway.json'],
  env: { ...process.env, NO_COLOR: '1' },
  stderr: 'pipe',
});
let stderr = '';
transport.stderr?.on('data', (chunk) => {
  stderr += chunk;
});
const client = new Client({ name: 'new-user', version: '0.0.0' });
try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  for (const bridge of ['tool_search', 'tool_describe', 'tool_call']) {
    assert.ok(names.includes(bridge), `${bridge} is not listed: ${names.join(', ')}`);
  }
  const search = await client.callTool({
    name: 'tool_search',
    arguments: { query: 'create an issue in a repository' },
  });
  const text = search.content.map((part) => part.text ?? '').join('\n');
  assert.match(text, /create_issue/, `tool_search found no create_issue tool: ${text}`);
  console.log(
    `  served ${names.length} tools (${names.join(', ')}); tool_search found create_issue`,
  );
} catch (error) {
  console.error(`gateway stderr:\n${stderr}`);
  throw error;
} finally {
  await client.close();
}
