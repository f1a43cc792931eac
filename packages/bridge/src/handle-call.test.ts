import { describe, expect, it, vi } from 'vitest';
import { describeCall, fresh, recorder, search } from './__fixtures__/bridge-calls.js';
import { forcedOn, sessionTools } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import { handleBridgeCall } from './handle.js';

describe('handleBridgeCall', () => {
  describe('tool_call', () => {
    it('dispatches the real call with via: bridge and returns its result', async () => {
      const { calls, dispatch } = recorder();
      const assembly = fresh();
      const result = await handleBridgeCall(
        assembly,
        {
          id: 'c1',
          name: 'tool_call',
          arguments: { name: 'slack_post_message', arguments: { channel_id: 'C1', text: 'hi' } },
        },
        dispatch,
        { context: { sessionId: 's1' } },
      );
      expect(result).toEqual({ ok: true, ran: 'slack_post_message' });
      expect(calls).toHaveLength(1);
      expect(calls[0]!.call).toEqual({
        id: 'c1',
        name: 'slack_post_message',
        arguments: { channel_id: 'C1', text: 'hi' },
      });
      expect(calls[0]!.context).toMatchObject({
        sessionId: 's1',
        via: 'bridge',
        tool: { name: 'slack_post_message' },
      });
      expect(assembly.telemetry).toMatchObject({ calls: 1, dispatched: 1, errors: 0 });
    });

    it('refuses tool_call on tool_call without dispatching', async () => {
      const { dispatch } = recorder();
      expect(
        await handleBridgeCall(
          fresh(),
          { name: 'tool_call', arguments: { name: 'tool_call', arguments: {} } },
          dispatch,
        ),
      ).toEqual({
        error: "tool_call cannot invoke 'tool_call' (it is itself a bridge tool)",
        code: 'bridge_tool',
        name: 'tool_call',
      });
      expect(dispatch).not.toHaveBeenCalled();
    });

    it('answers missing required arguments with the schema and does not dispatch', async () => {
      const { dispatch } = recorder();
      const answer = await handleBridgeCall(
        fresh(),
        { name: 'tool_call', arguments: { name: 'slack_post_message', arguments: {} } },
        dispatch,
      );
      expect(answer).toMatchObject({
        error: expect.stringContaining('was not invoked'),
        name: 'slack_post_message',
        missing: ['channel_id', 'text'],
        parameters: { type: 'object' },
      });
      expect(dispatch).not.toHaveBeenCalled();
    });

    it('suggests names for a tool outside the session', async () => {
      const answer = await handleBridgeCall(
        fresh(),
        { name: 'tool_call', arguments: { name: 'slack_post_mesage', arguments: {} } },
        vi.fn(),
      );
      expect(answer).toMatchObject({
        error: expect.stringContaining('is not available in this session'),
        code: 'not_in_session',
        did_you_mean: expect.arrayContaining(['slack_post_message']),
      });
    });
  });

  describe('direct calls of a deferred tool', () => {
    const direct = {
      id: 'd1',
      name: 'slack_post_message',
      arguments: '{"channel_id":"C1","text":"hi"}',
    };

    it('are routed like tool_call: same checks, same dispatch', async () => {
      const { calls, dispatch } = recorder();
      const assembly = fresh();
      const answer = handleBridgeCall(assembly, direct, dispatch);
      expect(answer).toBeDefined();
      expect(await answer).toEqual({ ok: true, ran: 'slack_post_message' });
      expect(calls[0]!.call).toEqual({
        id: 'd1',
        name: 'slack_post_message',
        arguments: { channel_id: 'C1', text: 'hi' },
      });
      expect(calls[0]!.context).toMatchObject({ via: 'direct' });
      expect(assembly.telemetry.directCalls).toBe(1);

      const missing = await handleBridgeCall(assembly, { ...direct, arguments: {} }, dispatch);
      expect(missing).toMatchObject({ missing: ['channel_id', 'text'] });
      expect(calls).toHaveLength(1);
    });

    it('are left to the runtime when routing is turned off or nothing is deferred', () => {
      const { dispatch } = recorder();
      expect(
        handleBridgeCall(fresh(), direct, dispatch, { routeDirectCalls: false }),
      ).toBeUndefined();
      expect(handleBridgeCall(fresh({ enabled: 'off' }), direct, dispatch)).toBeUndefined();
    });

    it('of a name the model was never given are refused with refuseUnknownNames', async () => {
      const { dispatch } = recorder();
      const assembly = fresh();
      const unknown = { name: 'jira_create_ticket', arguments: {} };
      expect(handleBridgeCall(assembly, unknown, dispatch)).toBeUndefined();
      expect(
        await handleBridgeCall(assembly, unknown, dispatch, { refuseUnknownNames: true }),
      ).toMatchObject({
        error:
          "'jira_create_ticket' is not available in this session. Use tool_search to find tools you can call.",
        code: 'not_in_session',
        name: 'jira_create_ticket',
      });
      expect(
        handleBridgeCall(assembly, { name: 'bash', arguments: {} }, dispatch, {
          refuseUnknownNames: true,
        }),
      ).toBeUndefined();
      const passthrough = fresh({ enabled: 'off' });
      expect(
        await handleBridgeCall(passthrough, unknown, dispatch, { refuseUnknownNames: true }),
      ).toMatchObject({
        error: expect.stringContaining('not available in this session'),
        code: 'not_in_session',
      });
      expect(dispatch).not.toHaveBeenCalled();
    });

    it('are told to onRefused when refused as outside the session, through tool_call, a batch or directly', async () => {
      const { dispatch } = recorder();
      const assembly = fresh();
      const refusals: unknown[] = [];
      const options = { refuseUnknownNames: true, onRefused: (r: unknown) => refusals.push(r) };
      await handleBridgeCall(
        assembly,
        { name: 'jira_create_ticket', arguments: {} },
        dispatch,
        options,
      );
      await handleBridgeCall(
        assembly,
        { id: 'c1', name: 'tool_call', arguments: { name: 'jira_create_ticket', arguments: {} } },
        dispatch,
        options,
      );
      await handleBridgeCall(
        assembly,
        { id: 'c2', name: 'tool_call', arguments: { calls: [{ name: 'jira_create_ticket' }] } },
        dispatch,
        {
          ...options,
          onRefused: (r: unknown) => {
            refusals.push(r);
            throw new Error('ignored');
          },
        },
      );
      // A refusal for another reason (no name) is not an out-of-scope refusal.
      await handleBridgeCall(assembly, { name: 'tool_call', arguments: {} }, dispatch, options);
      const error =
        "'jira_create_ticket' is not available in this session. Use tool_search to find tools you can call.";
      expect(refusals).toEqual([
        { name: 'jira_create_ticket', code: 'not_in_session', error, via: 'direct' },
        {
          name: 'jira_create_ticket',
          code: 'not_in_session',
          error,
          via: 'bridge',
          id: 'c1',
        },
        {
          name: 'jira_create_ticket',
          code: 'not_in_session',
          error,
          via: 'bridge',
          id: 'c2#0',
        },
      ]);
      expect(dispatch).not.toHaveBeenCalled();
    });

    it('of a tool gone since the previous assembly answer not currently available', async () => {
      const first = fresh();
      const later = assembleTools({
        tools: sessionTools.filter((tool) => tool.toolset !== 'mcp-slack'),
        config: forcedOn,
        previous: first,
      });
      const { dispatch } = recorder();
      expect(await handleBridgeCall(later, direct, dispatch)).toEqual({
        error: "'slack_post_message' is not currently available. Re-run tool_search to refresh.",
        code: 'not_currently_available',
        name: 'slack_post_message',
      });
      expect(dispatch).not.toHaveBeenCalled();
    });
  });

  it('counts searches, describes, calls, misses and errors', async () => {
    const assembly = fresh();
    const { dispatch } = recorder();
    await handleBridgeCall(assembly, search({ query: 'issue' }), dispatch);
    await handleBridgeCall(assembly, search({ query: 'asdf qwerty foobar' }), dispatch);
    await handleBridgeCall(assembly, describeCall({ name: 'github_create_issue' }), dispatch);
    await handleBridgeCall(assembly, describeCall({ name: 'nope' }), dispatch);
    await handleBridgeCall(
      assembly,
      { name: 'tool_call', arguments: { name: 'slack_list_channels', arguments: {} } },
      dispatch,
    );
    expect(assembly.telemetry).toEqual({
      assemblies: 1,
      activations: 1,
      searches: 2,
      describes: 2,
      calls: 1,
      directCalls: 0,
      dispatched: 1,
      argumentsRepaired: 0,
      argumentsUnchecked: 0,
      argumentsPartlyChecked: 0,
      misses: 2,
      errors: 1,
      tokensSaved: assembly.stats.tokensSaved,
      successfulCalls: 1,
      visibleCalls: 0,
      repeatedSearches: 0,
      searchNudges: 0,
      searchRefusals: 0,
      longestSearchStreak: 2,
    });
  });
});
