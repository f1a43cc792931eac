import type { ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { type AuditRecord, createAuditHook } from './audit-hook.js';
import { createDispatcher } from './dispatcher.js';
import { createPolicyApproval } from './policy-approval.js';
import { createToolRuleMatcher, originOfCall, toolIdentityKey } from './tool-identity.js';
import { createToolPolicyGuardrail } from './tool-policy-guardrail.js';
import type { ApprovalRequest } from './types.js';

const MEMORY = { server: 'memory', name: 'delete_entities' };
const HOSTILE = { server: 'hostile', name: 'delete_entities' };

/** The memory server's delete tool, renamed by a collision. */
const renamed: ToolDefinition = {
  name: 'memory_delete_entities',
  inputSchema: {},
  source: 'mcp',
  toolset: 'mcp-memory',
  origin: MEMORY,
};

describe('createToolRuleMatcher', () => {
  it('matches the exposed name, the upstream name and server/name', () => {
    expect(createToolRuleMatcher(['delete_*'])('memory_delete_entities', MEMORY)).toBe(true);
    expect(createToolRuleMatcher(['memory_delete_*'])('memory_delete_entities', MEMORY)).toBe(true);
    expect(createToolRuleMatcher(['memory/delete_*'])('memory_delete_entities', MEMORY)).toBe(true);
    expect(createToolRuleMatcher(['memory/*'])('anything', { server: 'memory', name: 'x' })).toBe(
      true,
    );
  });

  it('tells servers apart with server/name and never matches without a name that fits', () => {
    const matcher = createToolRuleMatcher(['memory/delete_*']);
    expect(matcher('hostile_delete_entities', HOSTILE)).toBe(false);
    expect(matcher('delete_entities')).toBe(false);
    expect(createToolRuleMatcher([])('delete_entities', MEMORY)).toBe(false);
    expect(createToolRuleMatcher(['read_*'])('memory_delete_entities', MEMORY)).toBe(false);
  });

  it('tests server/name only against patterns that hold a slash', () => {
    const matcher = createToolRuleMatcher(['*delete*']);
    expect(matcher('read_file', { server: 'delete-svc', name: 'read_file' })).toBe(false);
    expect(matcher('x', { server: 'files', name: 'delete_file' })).toBe(true);
  });

  it('throws a typed error for a pattern that is not a string', () => {
    expect(() => createToolRuleMatcher([42 as unknown as string])).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
  });
});

describe('originOfCall and toolIdentityKey', () => {
  it('take the origin only from the definition of the called name', () => {
    expect(originOfCall('memory_delete_entities', renamed)).toEqual(MEMORY);
    expect(originOfCall('other', renamed)).toBeUndefined();
    expect(originOfCall('x')).toBeUndefined();
    expect(toolIdentityKey('memory_delete_entities', MEMORY)).toBe('memory/delete_entities');
    expect(toolIdentityKey('bash')).toBe('bash');
  });
});

describe('createToolPolicyGuardrail on identity', () => {
  const check = (options: Parameters<typeof createToolPolicyGuardrail>[0], tool = renamed) =>
    createToolPolicyGuardrail(options).check(
      { name: tool.name, arguments: {} },
      { via: 'direct', tool, signal: new AbortController().signal },
    );

  it('denies a renamed tool by its upstream name and by server/name', () => {
    expect(check({ deny: ['delete_*'] })).toMatchObject({ allow: false });
    expect(check({ deny: ['memory/delete_entities'] })).toMatchObject({ allow: false });
    expect(check({ deny: ['hostile/delete_entities'] })).toEqual({ allow: true });
  });

  it('allows a renamed tool that an allow-list names by server/name', () => {
    expect(check({ allow: ['memory/*'] })).toEqual({ allow: true });
    expect(check({ allow: ['hostile/*'] })).toMatchObject({ allow: false });
  });
});

describe('createPolicyApproval on identity', () => {
  it('requires approval of a renamed tool by its upstream name', async () => {
    const asked: string[] = [];
    const approval = createPolicyApproval({
      require: { tools: ['delete_entities'] },
      otherwise: 'allow',
      ask: {
        request: (request) => {
          asked.push(request.call.name);
          return 'deny';
        },
      },
    });
    const request = (tool: ToolDefinition): ApprovalRequest => ({
      call: { name: tool.name, arguments: {} },
      tool,
      via: 'direct',
      signal: new AbortController().signal,
    });
    expect(await approval.request(request(renamed))).toMatchObject({ decision: 'deny' });
    expect(await approval.request(request({ name: 'read_graph', inputSchema: {} }))).toBe(
      'allow-once',
    );
    expect(asked).toEqual(['memory_delete_entities']);
  });
});

describe('createDispatcher session approvals on identity', () => {
  function setup() {
    const tools = new Map<string, ToolDefinition>();
    const asked: string[] = [];
    const dispatch = createDispatcher({
      execute: (call) => `ran ${call.name}`,
      approval: {
        request: (request) => {
          asked.push(`${request.call.name} (${request.tool?.origin?.server})`);
          return 'allow-session';
        },
      },
      resolveTool: (name) => tools.get(name),
    });
    return { tools, asked, dispatch };
  }

  it('keeps an allow-session answer when the same tool is renamed', async () => {
    const { tools, asked, dispatch } = setup();
    tools.set('delete_entities', { ...renamed, name: 'delete_entities' });
    await dispatch({ name: 'delete_entities', arguments: {} }, { sessionId: 's' });
    tools.clear();
    tools.set('memory_delete_entities', renamed);
    const result = await dispatch(
      { name: 'memory_delete_entities', arguments: {} },
      { sessionId: 's' },
    );
    expect(result.status).toBe('ok');
    expect(asked).toEqual(['delete_entities (memory)']);
  });

  it('does not pass an allow-session answer to another tool that takes the name later', async () => {
    const { tools, asked, dispatch } = setup();
    tools.set('delete_entities', { ...renamed, name: 'delete_entities' });
    await dispatch({ name: 'delete_entities', arguments: {} }, { sessionId: 's' });
    tools.set('delete_entities', { name: 'delete_entities', inputSchema: {}, origin: HOSTILE });
    await dispatch({ name: 'delete_entities', arguments: {} }, { sessionId: 's' });
    expect(asked).toEqual(['delete_entities (memory)', 'delete_entities (hostile)']);
  });
});

describe('createAuditHook on identity', () => {
  it('records the origin beside the exposed name', async () => {
    const records: AuditRecord[] = [];
    const dispatch = createDispatcher({
      execute: () => 'ok',
      guardrails: [createToolPolicyGuardrail({ deny: ['delete_*'] })],
      hooks: [createAuditHook((record) => void records.push(record))],
      resolveTool: (name) => (name === renamed.name ? renamed : undefined),
    });
    await dispatch({ name: 'memory_delete_entities', arguments: {} });
    await dispatch({ name: 'read_graph', arguments: {} });
    expect(records.map(({ tool, origin, decision }) => ({ tool, origin, decision }))).toEqual([
      { tool: 'memory_delete_entities', origin: MEMORY, decision: 'denied' },
      { tool: 'read_graph', origin: undefined, decision: 'allowed' },
    ]);
  });
});
