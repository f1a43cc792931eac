import { describe, expect, it } from 'vitest';
import { forcedOn, sessionTools } from './__fixtures__/tools.js';
import { assembleTools } from './assemble.js';
import { resolveUnderlyingCall } from './resolve.js';

const assembly = assembleTools({ tools: sessionTools, config: forcedOn });
const viaCall = (args: unknown) => ({ name: 'tool_call', arguments: args });
const issue = { owner: 'acme', repo: 'app', title: 'Bug' };

describe('resolveUnderlyingCall', () => {
  it('unwraps object arguments into the real call, keeping the id', () => {
    const resolved = resolveUnderlyingCall(assembly, {
      id: 'call_1',
      name: 'tool_call',
      arguments: { name: 'github_create_issue', arguments: issue },
    });
    expect(resolved).toMatchObject({
      ok: true,
      call: { id: 'call_1', name: 'github_create_issue', arguments: issue },
      tool: { name: 'github_create_issue' },
    });
  });

  it('parses JSON-string arguments, inner and outer', () => {
    const inner = resolveUnderlyingCall(
      assembly,
      viaCall({ name: 'github_create_issue', arguments: JSON.stringify(issue) }),
    );
    expect(inner).toMatchObject({ ok: true, call: { arguments: issue } });
    const outer = resolveUnderlyingCall(
      assembly,
      viaCall(JSON.stringify({ name: 'github_create_issue', arguments: issue })),
    );
    expect(outer).toMatchObject({ ok: true, call: { arguments: issue } });
  });

  it('answers bad JSON with the parser detail', () => {
    const resolved = resolveUnderlyingCall(
      assembly,
      viaCall({ name: 'github_create_issue', arguments: '{"owner": ' }),
    );
    expect(resolved.ok).toBe(false);
    if (resolved.ok) return;
    expect(resolved.code).toBe('invalid_json');
    expect(resolved.error).toMatch(/^tool_call 'arguments' is not valid JSON: \S/);
    let detail = '';
    try {
      JSON.parse('{"owner": ');
    } catch (error) {
      detail = (error as Error).message;
    }
    expect(resolved.error).toBe(`tool_call 'arguments' is not valid JSON: ${detail}`);
  });

  it.each([null, undefined, '', '   \n'])('treats arguments %j as {}', (value) => {
    const resolved = resolveUnderlyingCall(
      assembly,
      viaCall({ name: 'slack_list_channels', arguments: value }),
    );
    expect(resolved).toMatchObject({ ok: true, call: { arguments: {} } });
    const absent = resolveUnderlyingCall(assembly, viaCall({ name: 'slack_list_channels' }));
    expect(absent).toMatchObject({ ok: true, call: { arguments: {} } });
  });

  it.each([42, '[1,2]', [1], true, '"text"'])('refuses non-object arguments %j', (value) => {
    expect(
      resolveUnderlyingCall(assembly, viaCall({ name: 'slack_list_channels', arguments: value })),
    ).toEqual({
      ok: false,
      error: "tool_call 'arguments' must be an object",
      code: 'arguments_not_object',
      name: 'slack_list_channels',
    });
  });

  it.each([{}, { name: '' }, { name: '  ' }, { name: 7 }, null, '', '{}'])(
    'requires a name (%j)',
    (args) => {
      expect(resolveUnderlyingCall(assembly, viaCall(args))).toMatchObject({
        ok: false,
        error: "tool_call requires a 'name' argument",
        code: 'name_required',
      });
    },
  );

  it('refuses to call a bridge tool through tool_call', () => {
    for (const name of ['tool_call', 'tool_search', 'tool_describe']) {
      expect(resolveUnderlyingCall(assembly, viaCall({ name, arguments: {} }))).toMatchObject({
        ok: false,
        error: `tool_call cannot invoke '${name}' (it is itself a bridge tool)`,
        code: 'bridge_tool',
      });
    }
  });

  it('refuses a core tool: not a deferrable tool, call it directly', () => {
    expect(resolveUnderlyingCall(assembly, viaCall({ name: 'bash', arguments: {} }))).toEqual({
      ok: false,
      error:
        "'bash' is not a deferrable tool. If you see it in the tools list already, call it directly; otherwise check the spelling against tool_search.",
      code: 'not_deferrable',
      name: 'bash',
    });
  });

  it('refuses a name outside this session', () => {
    expect(resolveUnderlyingCall(assembly, viaCall({ name: 'jira_create_ticket' }))).toEqual({
      ok: false,
      error:
        "'jira_create_ticket' is not available in this session. Use tool_search to find tools you can call.",
      code: 'not_in_session',
      name: 'jira_create_ticket',
    });
  });

  it('tells a tool that is gone since an earlier assembly: not currently available', () => {
    const withoutSlack = sessionTools.filter((tool) => tool.toolset !== 'mcp-slack');
    const later = assembleTools({ tools: withoutSlack, config: forcedOn, previous: assembly });
    expect(resolveUnderlyingCall(later, viaCall({ name: 'slack_post_message' }))).toEqual({
      ok: false,
      error: "'slack_post_message' is not currently available. Re-run tool_search to refresh.",
      code: 'not_currently_available',
      name: 'slack_post_message',
    });
  });

  it('does not invoke a call that misses required arguments, and carries the schema', () => {
    const resolved = resolveUnderlyingCall(
      assembly,
      viaCall({ name: 'github_create_issue', arguments: { owner: 'acme' } }),
    );
    expect(resolved).toEqual({
      ok: false,
      error:
        "'github_create_issue' was not invoked: missing required arguments 'repo', 'title'. Its full schema is in 'parameters'; call it again with every required argument.",
      code: 'missing_arguments',
      name: 'github_create_issue',
      parameters: assembly.catalog.get('github_create_issue')!.inputSchema,
      missing: ['repo', 'title'],
      violations: [
        { path: 'arguments.repo', constraint: 'required', message: 'is required' },
        { path: 'arguments.title', constraint: 'required', message: 'is required' },
      ],
    });
  });

  it('resolves a direct call of a deferred tool with the same checks', () => {
    expect(
      resolveUnderlyingCall(assembly, { name: 'github_create_issue', arguments: issue }),
    ).toMatchObject({ ok: true, call: { name: 'github_create_issue', arguments: issue } });
    expect(
      resolveUnderlyingCall(assembly, { name: 'github_create_issue', arguments: '{' }),
    ).toMatchObject({ ok: false, code: 'invalid_json' });
  });
});
