import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe } from 'vitest';
import { clientOn, profiles, specifyDraftCatalog } from '../__fixtures__/disclosure-spec.js';
import { filesystemServer, memoryServer, tempWorkspace } from '../__fixtures__/servers.js';

const workspace = tempWorkspace();
const mcpServers = {
  filesystem: filesystemServer(workspace.directory),
  memory: memoryServer(join(workspace.directory, 'memory.jsonl')),
};
afterAll(() => workspace.cleanup());

describe('the draft MCP catalog over stdio (the gateway spawned like a client does)', () => {
  const configPath = join(workspace.directory, 'gateway.json');
  writeFileSync(
    configPath,
    JSON.stringify({ mcpServers, toolSearch: { enabled: 'on' }, profiles }),
  );

  specifyDraftCatalog(
    () => (speaks) =>
      clientOn(
        new StdioClientTransport({
          command: process.execPath,
          args: [fileURLToPath(new URL('../__fixtures__/gateway-stdio.mjs', import.meta.url))],
          env: { GATEWAY_CONFIG: configPath, GATEWAY_PROFILE: 'files' },
          stderr: 'pipe',
        }),
        speaks,
      ),
    workspace,
  );
});
