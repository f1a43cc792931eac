import type { ToolDefinition } from '@tool-search/core';
import { describe, expect, it, vi } from 'vitest';
import { createPolicyApproval } from './policy-approval.js';
import type { ApprovalAdapter, ApprovalRequest } from './types.js';

function tool(
  name: string,
  annotations?: ToolDefinition['annotations'],
  toolset?: string,
): ToolDefinition {
  return {
    name,
    inputSchema: {},
    ...(annotations ? { annotations } : {}),
    ...(toolset ? { toolset } : {}),
  };
}

function requestFor(
  definition: ToolDefinition | undefined,
  name = definition?.name ?? 'x',
): ApprovalRequest {
  return {
    call: { name, arguments: {} },
    ...(definition ? { tool: definition } : {}),
    via: 'direct',
    signal: new AbortController().signal,
  };
}

function asker(answer: 'allow-once' | 'allow-session' | 'deny' = 'allow-session') {
  const request = vi.fn((_request: ApprovalRequest) => answer);
  const adapter: ApprovalAdapter = { name: 'person', request };
  return { adapter, request };
}

const readOnly = tool('read_file', { readOnlyHint: true });
const destructive = tool('delete_file', { readOnlyHint: false, destructiveHint: true });
const additive = tool('create_file', { readOnlyHint: false, destructiveHint: false });
const silent = tool('mystery');

describe('createPolicyApproval', () => {
  const cautious = (ask?: ApprovalAdapter, otherwise?: 'ask' | 'allow' | 'deny') =>
    createPolicyApproval({
      require: { annotations: { destructiveHint: true } },
      autoApprove: { annotations: { readOnlyHint: true } },
      ...(ask ? { ask } : {}),
      ...(otherwise ? { otherwise } : {}),
    });

  it('approves read-only tools without asking', async () => {
    const { adapter, request } = asker();
    expect(await cautious(adapter).request(requestFor(readOnly))).toBe('allow-once');
    expect(request).not.toHaveBeenCalled();
  });

  it('asks about destructive tools and passes the answer on', async () => {
    const { adapter, request } = asker('allow-session');
    const req = requestFor(destructive);
    expect(await cautious(adapter).request(req)).toBe('allow-session');
    expect(request).toHaveBeenCalledWith(req);
  });

  it('reads missing annotations with the MCP defaults: possibly destructive, never read-only', async () => {
    const { adapter, request } = asker('deny');
    // A denial by the asked adapter comes back naming it (see call-route.test.ts).
    const denied = { decision: 'deny', decidedBy: 'person' };
    expect(await cautious(adapter, 'allow').request(requestFor(silent))).toEqual(denied);
    expect(await cautious(adapter, 'allow').request(requestFor(undefined, 'unknown_tool'))).toEqual(
      denied,
    );
    expect(request).toHaveBeenCalledTimes(2);
    expect(await cautious(adapter, 'allow').request(requestFor(additive))).toBe('allow-once');
  });

  it('lets require win over autoApprove', async () => {
    const { adapter, request } = asker('deny');
    const policy = createPolicyApproval({
      require: { tools: ['read_*'] },
      autoApprove: { annotations: { readOnlyHint: true } },
      ask: adapter,
    });
    expect(await policy.request(requestFor(readOnly))).toEqual({
      decision: 'deny',
      decidedBy: 'person',
    });
    expect(request).toHaveBeenCalledOnce();
  });

  it('follows otherwise for calls neither rule matches', async () => {
    const rules = { require: { tools: ['shell_*'] }, autoApprove: { toolsets: ['mcp-docs'] } };
    const plain = requestFor(tool('github_get_issue', { readOnlyHint: false }, 'mcp-github'));
    const { adapter, request } = asker('allow-once');
    expect(await createPolicyApproval({ ...rules, ask: adapter }).request(plain)).toBe(
      'allow-once',
    );
    expect(request).toHaveBeenCalledOnce();
    expect(await createPolicyApproval({ ...rules, otherwise: 'allow' }).request(plain)).toBe(
      'allow-once',
    );
    expect(await createPolicyApproval({ ...rules, otherwise: 'deny' }).request(plain)).toEqual({
      decision: 'deny',
      reason: "The call to 'github_get_issue' is not approved by policy.",
    });
    const docs = requestFor(tool('docs_search', undefined, 'mcp-docs'));
    expect(await createPolicyApproval({ ...rules, otherwise: 'deny' }).request(docs)).toBe(
      'allow-once',
    );
  });

  it('denies a call that must be asked about when no one is configured to ask', async () => {
    expect(await cautious().request(requestFor(destructive))).toEqual({
      decision: 'deny',
      reason: "The call to 'delete_file' needs approval, and no one is configured to approve it.",
    });
  });

  it('takes predicates as rules', async () => {
    const policy = createPolicyApproval({
      require: (req) => JSON.stringify(req.call.arguments).includes('prod'),
      autoApprove: () => true,
    });
    expect(await policy.request(requestFor(readOnly))).toBe('allow-once');
    expect(
      await policy.request({
        ...requestFor(readOnly),
        call: { name: 'read_file', arguments: { env: 'prod' } },
      }),
    ).toMatchObject({ decision: 'deny' });
  });

  it('ignores a tool definition of another name', async () => {
    const policy = createPolicyApproval({
      autoApprove: { annotations: { readOnlyHint: true } },
      otherwise: 'deny',
    });
    expect(
      await policy.request({ ...requestFor(readOnly), call: { name: 'other', arguments: {} } }),
    ).toMatchObject({
      decision: 'deny',
    });
  });

  it('throws on a pattern that is not a string', () => {
    expect(() => createPolicyApproval({ require: { tools: [7 as unknown as string] } })).toThrow(
      /must be a string/,
    );
  });

  it('has a name', () => {
    expect(createPolicyApproval({}).name).toBe('policy');
    expect(createPolicyApproval({ name: 'prod' }).name).toBe('prod');
  });
});
