// A hostile model: whatever it writes into a tool call, nothing runs that the policy did
// not see, and the answer is data the model can read.
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import type { AuditRecord } from '@tool-search/hooks';
import { createAuditHook } from '@tool-search/hooks';
import { describe, expect, it } from 'vitest';
import { fixtureTools, type Ran } from './__fixtures__/tools.js';
import { withToolSearch } from './with-tool-search.js';

const quiet = { warn() {}, info() {} };

function setup() {
  const ran: Ran = [];
  const audit: AuditRecord[] = [];
  const search = withToolSearch(fixtureTools(ran, 30), {
    core: ['read_file'],
    config: { enabled: 'on' },
    hooks: [createAuditHook((record) => void audit.push(record))],
    program: true,
    logger: quiet,
  });
  const node = new ToolNode([...search.tools, ...search.fallbackTools]);
  const call = async (name: string, args: unknown) => {
    const output = (await node.invoke({
      messages: [
        new AIMessage({
          content: '',
          tool_calls: [
            { id: 'c1', name, args: args as Record<string, unknown>, type: 'tool_call' },
          ],
        }),
      ],
    })) as { messages: ToolMessage[] };
    const message = output.messages[0];
    expect(ToolMessage.isInstance(message)).toBe(true);
    return String(message?.content);
  };
  return { ran, audit, search, call };
}

describe('a hostile model through the LangChain bridge', () => {
  it('answers tool_call arguments that are not JSON, or not an object, with the bridge texts', async () => {
    const { ran, call } = setup();
    expect(await call('tool_call', { name: 'get_weather', arguments: '{not json' })).toContain(
      "tool_call 'arguments' is not valid JSON",
    );
    expect(await call('tool_call', { name: 'get_weather', arguments: '"Oslo"' })).toContain(
      "tool_call 'arguments' must be an object",
    );
    expect(await call('tool_call', { arguments: { city: 'Oslo' } })).toContain(
      "tool_call requires a 'name' argument",
    );
    // Missing required arguments: the schema comes back, the tool is not invoked.
    expect(await call('tool_call', { name: 'get_weather', arguments: {} })).toContain('city');
    expect(ran).toEqual([]);
  });

  it('refuses a bridge tool (or tool_program) named inside tool_call', async () => {
    const { ran, call } = setup();
    for (const name of ['tool_call', 'tool_search', 'tool_program']) {
      const args = name === 'tool_program' ? { source: 'return 1' } : {};
      expect(await call('tool_call', { name, arguments: args })).toContain(
        `tool_call cannot invoke '${name}' (it is itself a bridge tool)`,
      );
    }
    expect(ran).toEqual([]);
  });

  it('refuses a name outside the session, and the audit records the refusal', async () => {
    const { ran, audit, call } = setup();
    expect(await call('tool_call', { name: 'rm_rf', arguments: {} })).toContain(
      "'rm_rf' is not available in this session",
    );
    expect(ran).toEqual([]);
    expect(audit).toEqual([
      expect.objectContaining({
        tool: 'rm_rf',
        status: 'denied',
        deniedBy: { kind: 'scope', name: 'session-scope' },
      }),
    ]);
  });

  it('bounds huge strings: a name, a query and arguments of megabytes', async () => {
    const { ran, call } = setup();
    const huge = 'x'.repeat(2_000_000);
    const byName = await call('tool_call', { name: huge, arguments: {} });
    expect(byName).toContain('is not available in this session');
    expect(byName.length).toBeLessThan(2_000);
    const searched = JSON.parse(await call('tool_search', { query: `weather ${huge}` })) as object;
    expect(JSON.stringify(searched).length).toBeLessThan(20_000);
    const tooBig = await call('tool_call', { name: 'get_weather', arguments: { city: huge } });
    expect(tooBig.length).toBeLessThan(5_000);
    expect(ran).toEqual([]);
  });

  it('routes a deferred tool called by its own name through the same resolution and dispatcher', async () => {
    const { ran, audit, call } = setup();
    expect(await call('get_weather', { city: 'Oslo', days: '2' })).toContain(
      '"tool":"get_weather"',
    );
    expect(ran).toEqual([{ name: 'get_weather', args: { city: 'Oslo', days: 2 } }]);
    expect(audit).toEqual([
      expect.objectContaining({ tool: 'get_weather', via: 'direct', status: 'ok' }),
    ]);
  });
});
