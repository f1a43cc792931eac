import { describe, expect, it } from 'vitest';
import { unwrapToolCall } from './unwrap.js';

describe('unwrapToolCall', () => {
  it('gives the real name and arguments of a tool_call, and says the bridge was used', () => {
    expect(
      unwrapToolCall({
        id: 'c1',
        name: 'tool_call',
        arguments: { name: 'slack_post_message', arguments: { text: 'hi' } },
      }),
    ).toEqual({ id: 'c1', name: 'slack_post_message', arguments: { text: 'hi' }, viaBridge: true });
  });

  it('looks through JSON text at both levels', () => {
    expect(
      unwrapToolCall({
        name: 'tool_call',
        arguments: '{"name":"slack_post_message","arguments":"{\\"text\\":\\"hi\\"}"}',
      }),
    ).toEqual({ name: 'slack_post_message', arguments: { text: 'hi' }, viaBridge: true });
  });

  it('gives the real name and arguments of every call of a batch, in order', () => {
    expect(
      unwrapToolCall({
        id: 'c2',
        name: 'tool_call',
        arguments: JSON.stringify({
          name: null,
          calls: [
            { name: 'slack_post_message', arguments: '{"text":"hi"}' },
            { name: 'github_get_me' },
            'garbage',
          ],
        }),
      }),
    ).toEqual({
      id: 'c2',
      name: 'tool_call',
      arguments: { name: null, calls: expect.any(Array) },
      viaBridge: true,
      calls: [
        { id: 'c2#0', name: 'slack_post_message', arguments: { text: 'hi' }, viaBridge: true },
        { id: 'c2#1', name: 'github_get_me', arguments: {}, viaBridge: true },
        { id: 'c2#2', name: '', arguments: 'garbage', viaBridge: true },
      ],
    });
  });

  it('leaves a direct call as it is', () => {
    expect(unwrapToolCall({ name: 'bash', arguments: '{"command":"ls"}' })).toEqual({
      name: 'bash',
      arguments: { command: 'ls' },
      viaBridge: false,
    });
    expect(unwrapToolCall({ name: 'tool_search', arguments: { query: 'x' } })).toEqual({
      name: 'tool_search',
      arguments: { query: 'x' },
      viaBridge: false,
    });
  });

  it('keeps unparseable or missing parts for display, never throwing', () => {
    expect(unwrapToolCall({ name: 'tool_call', arguments: '{oops' })).toEqual({
      name: 'tool_call',
      arguments: '{oops',
      viaBridge: false,
    });
    expect(unwrapToolCall({ name: 'tool_call', arguments: { name: 'x', arguments: '{' } })).toEqual(
      { name: 'x', arguments: '{', viaBridge: true },
    );
    expect(unwrapToolCall({ name: 'tool_call' })).toEqual({
      name: 'tool_call',
      arguments: {},
      viaBridge: false,
    });
    expect(unwrapToolCall(null)).toEqual({ name: '', arguments: {}, viaBridge: false });
    const hostile = Object.defineProperty({}, 'name', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(unwrapToolCall(hostile)).toEqual({ name: '', arguments: {}, viaBridge: false });
  });

  it('reads calls that are class instances with getters', () => {
    class SdkCall {
      get name() {
        return 'tool_call';
      }
      get arguments() {
        return { name: 'slack_post_message', arguments: { text: 'hi' } };
      }
    }
    expect(unwrapToolCall(new SdkCall())).toMatchObject({
      name: 'slack_post_message',
      viaBridge: true,
    });
  });
});
