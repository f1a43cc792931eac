import { PassThrough } from 'node:stream';
import type { ToolCall } from '@tool-search/core';
import { describe, expect, it, vi } from 'vitest';
import { createDispatcher } from './dispatcher.js';
import { createTerminalApproval, type TerminalApprovalOptions } from './terminal-approval.js';
import type { ApprovalAdapter, ApprovalRequest } from './types.js';

// Generous: the machine running the tests may be busy; a pass never waits this long.
const WAIT = { timeout: 10_000 };

/** An injected terminal: what the adapter wrote, and a way to type. */
function terminal(options: { inputTTY?: boolean; outputTTY?: boolean } = {}) {
  const input = Object.assign(new PassThrough(), { isTTY: options.inputTTY ?? true });
  const output = Object.assign(new PassThrough(), { isTTY: options.outputTTY ?? true });
  let screen = '';
  output.on('data', (chunk: Buffer) => {
    screen += chunk.toString('utf8');
  });
  return {
    input,
    output,
    screen: () => screen,
    type: (text: string) => input.write(text),
    prompts: () => screen.split('Tool call needs approval: ').length - 1,
  };
}

function request(name: string, extra: Partial<ApprovalRequest> = {}): ApprovalRequest {
  const call: ToolCall = { name, arguments: { path: '/tmp/x' } };
  return { call, via: 'direct', signal: new AbortController().signal, ...extra };
}

function adapter(
  term: ReturnType<typeof terminal>,
  options: TerminalApprovalOptions = {},
): ApprovalAdapter {
  return createTerminalApproval({ input: term.input, output: term.output, ...options });
}

async function untilPrompts(term: ReturnType<typeof terminal>, count: number): Promise<void> {
  await vi.waitFor(() => expect(term.prompts()).toBe(count), WAIT);
}

describe('createTerminalApproval', () => {
  it("answers 'allow-once' to y, and shows the tool, the route and the arguments", async () => {
    const term = terminal();
    const answer = adapter(term).request(
      request('delete_file', { via: 'bridge', sessionId: 's1' }),
    );
    await untilPrompts(term, 1);
    expect(term.screen()).toContain(
      'Tool call needs approval: delete_file (via tool_call, session s1)',
    );
    expect(term.screen()).toContain('arguments: {"path":"/tmp/x"}');
    expect(term.screen()).toContain('[y] yes, once  [a] yes, for this session  [n] no (default): ');
    term.type('y\n');
    expect(await answer).toEqual({ decision: 'allow-once' });
  });

  it("answers 'allow-session' to a when there is a session", async () => {
    const term = terminal();
    const answer = adapter(term).request(request('delete_file', { sessionId: 's1' }));
    await untilPrompts(term, 1);
    term.type('A\n');
    expect(await answer).toEqual({ decision: 'allow-session' });
  });

  it('does not offer a without a session, and asks again on an answer it does not know', async () => {
    const term = terminal();
    const answer = adapter(term).request(request('delete_file'));
    await untilPrompts(term, 1);
    expect(term.screen()).toContain('[y] yes  [n] no (default): ');
    term.type('a\n');
    await vi.waitFor(() => expect(term.screen()).toContain('Please answer y or n: '), WAIT);
    term.type('maybe\n');
    term.type('no\n');
    expect(await answer).toEqual({
      decision: 'deny',
      reason: "The user did not approve the call to 'delete_file'.",
    });
  });

  it('denies on an empty line', async () => {
    const term = terminal();
    const answer = adapter(term).request(request('delete_file'));
    await untilPrompts(term, 1);
    term.type('\n');
    expect(await answer).toMatchObject({ decision: 'deny' });
  });

  it('queues concurrent requests so that prompts never interleave', async () => {
    const term = terminal();
    const approval = adapter(term);
    const first = approval.request(request('first_tool'));
    const second = approval.request(request('second_tool'));
    await untilPrompts(term, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(term.prompts()).toBe(1);
    expect(term.screen()).not.toContain('second_tool');
    term.type('n\n');
    await untilPrompts(term, 2);
    expect(term.screen().indexOf('second_tool')).toBeGreaterThan(
      term.screen().indexOf('first_tool'),
    );
    term.type('y\n');
    expect(await first).toMatchObject({ decision: 'deny' });
    expect(await second).toEqual({ decision: 'allow-once' });
  });

  it('drops lines typed while no prompt is showing', async () => {
    const term = terminal();
    const approval = adapter(term);
    const first = approval.request(request('first_tool'));
    await untilPrompts(term, 1);
    term.type('y\n');
    expect(await first).toEqual({ decision: 'allow-once' });
    term.type('y\n');
    const second = approval.request(request('second_tool'));
    await untilPrompts(term, 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    term.type('n\n');
    expect(await second).toMatchObject({ decision: 'deny' });
  });

  it('withdraws a prompt when its signal aborts, and moves on to the next', async () => {
    const term = terminal();
    const approval = adapter(term);
    const controller = new AbortController();
    const first = approval.request(request('first_tool', { signal: controller.signal }));
    const second = approval.request(request('second_tool'));
    await untilPrompts(term, 1);
    controller.abort();
    expect(await first).toEqual({
      decision: 'deny',
      reason: "The approval of 'first_tool' was cancelled.",
    });
    expect(term.screen()).toContain('(approval withdrawn: the call was cancelled or timed out)');
    await untilPrompts(term, 2);
    term.type('y\n');
    expect(await second).toEqual({ decision: 'allow-once' });
  });

  it('skips a queued request whose signal aborted before its turn', async () => {
    const term = terminal();
    const approval = adapter(term);
    const controller = new AbortController();
    const first = approval.request(request('first_tool'));
    const second = approval.request(request('second_tool', { signal: controller.signal }));
    await untilPrompts(term, 1);
    controller.abort();
    term.type('y\n');
    expect(await first).toEqual({ decision: 'allow-once' });
    expect(await second).toMatchObject({ decision: 'deny' });
    expect(term.screen()).not.toContain('second_tool');
  });

  it('denies and says why when there is no TTY', async () => {
    const noInput = terminal({ inputTTY: false });
    expect(await adapter(noInput).request(request('delete_file'))).toEqual({
      decision: 'deny',
      reason:
        "No one can approve the call to 'delete_file': the input is not a terminal (TTY). Run in a terminal, or configure another approval adapter.",
    });
    const noOutput = terminal({ outputTTY: false });
    expect(await adapter(noOutput).request(request('delete_file'))).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining('the output is not a terminal'),
    });
    expect(noInput.screen()).toBe('');
  });

  it('asks on streams that are not TTYs when told a person is there', async () => {
    const term = terminal({ inputTTY: false, outputTTY: false });
    const answer = adapter(term, { tty: true }).request(request('delete_file'));
    await untilPrompts(term, 1);
    term.type('y\n');
    expect(await answer).toEqual({ decision: 'allow-once' });
  });

  it('denies the waiting and every later request once the input ends', async () => {
    const term = terminal();
    const approval = adapter(term);
    const answer = approval.request(request('delete_file'));
    await untilPrompts(term, 1);
    term.input.end();
    expect(await answer).toEqual({
      decision: 'deny',
      reason: "The terminal input closed before anyone approved the call to 'delete_file'.",
    });
    expect(await approval.request(request('other'))).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining('terminal input is closed'),
    });
  });

  it('escapes control characters so that a name or arguments cannot rewrite the screen', async () => {
    const term = terminal();
    const answer = adapter(term).request({
      ...request('evil\u001b[2J\rtool'),
      call: { name: 'evil\u001b[2J\rtool', arguments: { text: 'a\u009b31mb\u202e' } },
    });
    await untilPrompts(term, 1);
    expect(term.screen()).not.toMatch(/[\u001b\u009b\u202e\r]/);
    expect(term.screen()).toContain('evil\\u001b[2J\\rtool');
    term.type('n\n');
    await answer;
  });

  it('shows a run of whitespace by its length, so that what follows it is in view', async () => {
    const term = terminal();
    const command = `status report${' '.repeat(600)}rm -rf /`;
    const answer = adapter(term).request({
      ...request('shell'),
      call: { name: 'shell', arguments: { command } },
    });
    await untilPrompts(term, 1);
    expect(term.screen()).toContain('arguments: {"command":"status report⟨600 spaces⟩rm -rf /"}');
    term.type('n\n');
    await answer;
  });

  it('shows bidi controls and invisible characters escaped', async () => {
    const term = terminal();
    const answer = adapter(term).request({
      ...request('send'),
      call: {
        name: 'send',
        arguments: { file: 'invoice\u202egpj.exe', note: 'a\u061cb\u200bc\u00a0d' },
      },
    });
    await untilPrompts(term, 1);
    expect(term.screen()).not.toMatch(/[\u202e\u061c\u200b\u00a0]/);
    expect(term.screen()).toContain('"file":"invoice\\u202egpj.exe"');
    expect(term.screen()).toContain('"note":"a\\u061cb\\u200bc\\u00a0d"');
    term.type('n\n');
    await answer;
  });

  it('denies without asking when the arguments are over the size, naming the field and how much would be cut', async () => {
    const term = terminal();
    const answer = await adapter(term, { maxArgumentChars: 100 }).request({
      ...request('write_file'),
      call: { name: 'write_file', arguments: { path: '/etc/hosts', content: 'x'.repeat(300) } },
    });
    expect(term.prompts()).toBe(0);
    expect(answer).toMatchObject({ decision: 'deny' });
    const reason = (answer as { reason: string }).reason;
    expect(reason).toContain("'write_file'");
    expect(reason).toMatch(/field 'content' would be cut by 2\d\d of 300 characters/);
  });

  it("asks about a cut question that says what is cut when oversize is 'ask'", async () => {
    const term = terminal();
    const answer = adapter(term, { maxArgumentChars: 100, oversize: 'ask' }).request({
      ...request('write_file'),
      call: { name: 'write_file', arguments: { path: '/etc/hosts', content: 'x'.repeat(300) } },
    });
    await untilPrompts(term, 1);
    expect(term.screen()).toMatch(/field 'content' is cut by 2\d\d of 300 characters/);
    expect(term.screen()).toMatch(/"content":"x+⟨2\d\d characters cut⟩"/);
    term.type('n\n');
    await answer;
  });

  it('rejects a maxArgumentChars that is not a positive integer', () => {
    expect(() => createTerminalApproval({ maxArgumentChars: 0 })).toThrow(/maxArgumentChars/);
  });

  it('stops reading between prompts', async () => {
    const term = terminal();
    const answer = adapter(term).request(request('t'));
    await untilPrompts(term, 1);
    expect(term.input.listenerCount('data')).toBeGreaterThan(0);
    term.type('y\n');
    await answer;
    expect(term.input.listenerCount('data')).toBe(0);
  });

  it("lets the dispatcher remember 'a' for the rest of the session", async () => {
    const term = terminal();
    const execute = vi.fn(() => 'done');
    const dispatch = createDispatcher({ execute, approval: adapter(term) });
    const first = dispatch({ name: 'write_file', arguments: {} }, { sessionId: 's1' });
    await untilPrompts(term, 1);
    term.type('a\n');
    expect(await first).toMatchObject({ status: 'ok' });
    expect(
      await dispatch({ name: 'write_file', arguments: {} }, { sessionId: 's1' }),
    ).toMatchObject({
      status: 'ok',
    });
    expect(term.prompts()).toBe(1);
    const other = dispatch({ name: 'write_file', arguments: {} }, { sessionId: 's2' });
    await untilPrompts(term, 2);
    term.type('n\n');
    expect(await other).toMatchObject({
      status: 'denied',
      by: { kind: 'approval', name: 'terminal' },
      reason: "The user did not approve the call to 'write_file'.",
    });
  });
});
