import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../mcp/src/__fixtures__/servers.js';
import { filesystemInProcess } from '../../mcp/src/__fixtures__/worker-server.js';
import { connectHttpClient, textOf } from './__fixtures__/clients.js';
import { type StartedGateway, startGateway } from './start.js';

describe('approval questions over Streamable HTTP', () => {
  let workspace: ReturnType<typeof tempWorkspace>;
  let gateway: StartedGateway;
  beforeAll(async () => {
    workspace = tempWorkspace();
    gateway = await startGateway({
      config: parseGatewayConfig({
        mcpServers: { filesystem: filesystemInProcess(workspace.directory) },
        toolSearch: { enabled: 'off' },
        approval: { require: ['write_file'], fallback: 'deny', timeoutMs: 20_000 },
      }),
      http: true,
    });
    await gateway.ready();
  }, 30_000);
  afterAll(async () => {
    await gateway?.close();
    workspace?.cleanup();
  });

  it('reach a client that keeps no GET stream open, on the stream of the call they are about', async () => {
    let asked = 0;
    const client = await connectHttpClient(gateway.url!, {
      token: gateway.token!,
      listen: false,
      elicit: () => {
        asked += 1;
        return { action: 'accept', content: { decision: 'allow-once' } };
      },
    });
    const file = join(workspace.directory, 'approved.txt');
    const result = await client.call('write_file', { path: file, content: 'yes' });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(asked).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe('yes');
    await client.close();
  }, 30_000);
});
