import type { ApprovalAnswer, ApprovalRequest } from '@tool-search/hooks';
import { describe, expect, it } from 'vitest';
import { approvalSchema } from '../config/schemas.js';
import { createElicitationApproval } from './approval.js';

/** A client that records each question and answers `decision`. */
function client(decision = 'deny') {
  const messages: string[] = [];
  return {
    messages,
    server: {
      elicitInput: async (params: { message: string }) => {
        messages.push(params.message);
        return { action: 'accept' as const, content: { decision } };
      },
    },
  };
}

function request(name: string, args: Record<string, unknown>): ApprovalRequest {
  return {
    call: { name, arguments: args },
    via: 'direct',
    signal: new AbortController().signal,
  };
}

describe('createElicitationApproval', () => {
  it('shows the whole arguments with a run of whitespace by its length', async () => {
    const { server, messages } = client();
    const command = `status report${' '.repeat(600)}rm -rf /`;
    await createElicitationApproval(server as never).request(request('shell', { command }));
    expect(messages[0]).toContain('{"command":"status report⟨600 spaces⟩rm -rf /"}');
  });

  it('shows a bidi override escaped', async () => {
    const { server, messages } = client();
    await createElicitationApproval(server as never).request(
      request('send\u202e', { file: 'invoice\u202egpj.exe' }),
    );
    expect(messages[0]).not.toContain('\u202e');
    expect(messages[0]).toContain("'send\\u202e'");
    expect(messages[0]).toContain('"file":"invoice\\u202egpj.exe"');
  });

  it('denies arguments over the size without asking, naming the field and how much is cut', async () => {
    const { server, messages } = client('allow-once');
    const answer = (await createElicitationApproval(server as never, {
      maxArgumentChars: 100,
    }).request(request('write_file', { content: 'x'.repeat(1000) }))) as ApprovalAnswer;
    expect(messages).toEqual([]);
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toMatch(/field 'content' would be cut by 9\d\d of 1,000 characters/);
  });

  it("asks about a cut question that names the cut when oversize is 'ask'", async () => {
    const { server, messages } = client('allow-once');
    const answer = await createElicitationApproval(server as never, {
      maxArgumentChars: 100,
      oversize: 'ask',
    }).request(request('write_file', { content: 'x'.repeat(1000) }));
    expect(answer).toEqual({ decision: 'allow-once' });
    expect(messages[0]).toMatch(/field 'content' is cut by 9\d\d of 1,000 characters/);
  });
});

describe('the approval config', () => {
  it('documents the size and the oversize fallback, deny by default', () => {
    expect(approvalSchema.parse({})).toMatchObject({ maxArgumentChars: 4000, oversize: 'deny' });
    expect(approvalSchema.parse({ maxArgumentChars: 100, oversize: 'ask' })).toMatchObject({
      maxArgumentChars: 100,
      oversize: 'ask',
    });
  });
});
