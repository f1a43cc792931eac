// A program's writes approved by an operator in the console's approvals inbox
// (`approval.via: 'console'`): the program waits while each call of its Promise.all waits
// in the inbox on its own, and goes on with each answer.
import { join } from 'node:path';
import type { ProgramResult } from '@tool-search/code';
import type { GatewayServer } from '@tool-search/mcp';
import { answerPendingApproval } from '@tool-search/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../mcp/src/__fixtures__/servers.js';
import { memoryInProcess } from '../../mcp/src/__fixtures__/worker-server.js';
import { type TestClient, textOf, until } from './__fixtures__/clients.js';
import { type HttpGateway, startHttpGateway } from './__fixtures__/http-gateway.js';

const TOKEN = 'console-program-token-0123456789';

describe('tool_program with approvals in the console inbox', () => {
  const workspace = tempWorkspace();
  let served: HttpGateway;
  let gateway: GatewayServer;
  let client: TestClient;

  beforeAll(async () => {
    served = await startHttpGateway(
      {
        mcpServers: { memory: memoryInProcess(join(workspace.directory, 'memory.jsonl')) },
        programs: { enabled: true, allow: ['create_entities'] },
        approval: { require: ['create_entities'], via: 'console' },
      },
      TOKEN,
    );
    gateway = served.gateway;
    client = await served.connect({ token: TOKEN });
  }, 60_000);

  afterAll(async () => {
    await served?.close();
    workspace.cleanup();
  });

  it('waits for an operator on each write of a Promise.all, and a denial throws inside', async () => {
    const running = client.call('tool_program', {
      source: `
        const settled = await Promise.allSettled(['Grace', 'Trudy'].map((name) =>
          tools.create_entities({ entities: [{ name, entityType: 'person', observations: [] }] }),
        ));
        return settled.map((entry) => entry.status === 'fulfilled' ? 'ok' : entry.reason.status);
      `,
    });
    const pending = await until(async () => {
      const waiting = await gateway.store.listPendingApprovals();
      return waiting.length === 2 && waiting;
    });
    // The inbox says the calls come from one program.
    expect(pending.map((item) => item.via)).toEqual(['program', 'program']);
    expect(pending[0]!.programId).toEqual(expect.any(String));
    expect(pending[1]!.programId).toBe(pending[0]!.programId);
    for (const item of pending) {
      const names = JSON.stringify(item.arguments);
      const decision = names.includes('Grace') ? 'allow-once' : 'deny';
      expect(await answerPendingApproval(gateway.store, item.id, decision)).toBe('delivered');
    }
    const program = JSON.parse(textOf(await running)) as ProgramResult;
    expect(program.error).toBeUndefined();
    expect(program.result).toEqual(['ok', 'denied']);
  });
});
