import { ToolSearchError } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { approvalToolSet } from './__fixtures__/approval-tools.js';
import { createBridgeToolApproval } from './tool-approval.js';
import { withToolSearch } from './with-tool-search.js';

const request = (toolName: string, input: unknown) => ({
  toolCall: { toolCallId: 'call-1', toolName, input },
  messages: [],
});

describe('createBridgeToolApproval', () => {
  it('refuses a configuration that is neither a function nor an object, with a typed error', () => {
    for (const config of [null, 42, 'user-approval', ['a']]) {
      expect(() => createBridgeToolApproval(approvalToolSet(), config as never)).toThrow(
        expect.objectContaining({ code: 'invalid_argument' }),
      );
    }
    expect(() => withToolSearch(approvalToolSet(), { toolApproval: 42 as never })).toThrow(
      ToolSearchError,
    );
  });

  it('refuses a finalCalls that is not a function, with a typed error', () => {
    expect(() =>
      createBridgeToolApproval(approvalToolSet(), {}, { finalCalls: 'yes' as never }),
    ).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });

  it('without finalCalls, decides each call of a batch as written, by its real name', async () => {
    const approval = createBridgeToolApproval(approvalToolSet(), { list_repos: 'approved' });
    const batch = {
      calls: [
        { name: 'list_repos', arguments: {} },
        { name: 'delete_repo', arguments: '{"repo":"acme/site"}' },
      ],
    };
    expect(await approval(request('tool_call', batch))).toEqual({ type: 'user-approval' });
    expect(await approval(request('tool_call', { calls: [batch.calls[0]] }))).toBe('approved');
    expect(await approval(request('read_file', { path: 'a' }))).toBe('not-applicable');
  });
});
