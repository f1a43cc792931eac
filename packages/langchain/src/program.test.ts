import type { ToolMessage } from '@langchain/core/messages';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createProgramPolicy } from '@tool-search/code';
import type { AuditRecord } from '@tool-search/hooks';
import { createAuditHook } from '@tool-search/hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureTools, type Ran } from './__fixtures__/tools.js';
import { createScriptedChatModel } from './testing/index.js';
import { type ToolSearchSetup, withToolSearch } from './with-tool-search.js';

let setup: ToolSearchSetup | undefined;
afterEach(async () => {
  await setup?.program?.close();
  setup = undefined;
});

describe('withToolSearch with programs', () => {
  it("adds tool_program, whose nested calls meet the program policy and the setup's dispatcher", async () => {
    const ran: Ran = [];
    const audit: AuditRecord[] = [];
    setup = withToolSearch(fixtureTools(ran, 30), {
      core: ['read_file'],
      config: { enabled: 'on' },
      hooks: [createAuditHook((record) => void audit.push(record))],
      program: { policy: createProgramPolicy({ allow: ['get_weather'] }) },
      logger: { warn() {}, info() {} },
    });
    expect(setup.tools.map((tool) => tool.name)).toEqual([
      'read_file',
      'tool_search',
      'tool_describe',
      'tool_call',
      'tool_program',
    ]);
    const source = [
      "const weather = await tools.call('get_weather', { city: 'Oslo', days: 2 });",
      'let refused = null;',
      "try { await tools.call('delete_repo', { repo: 'web' }); } catch (error) { refused = String(error); }",
      'return { weather, refused };',
    ].join('\n');
    const model = createScriptedChatModel([
      { calls: [{ name: 'tool_program', args: { source } }] },
      { text: 'Done.' },
    ]);
    const result = await createReactAgent({ llm: model, tools: setup.tools }).invoke({
      messages: [{ role: 'user', content: 'Weather, then delete' }],
    });
    const answer = JSON.parse(String((result.messages.at(-2) as ToolMessage).content)) as {
      status: string;
      result: { weather: string; refused: string | null };
      calls: { name: string; status: string }[];
    };
    expect(answer.status).toBe('completed');
    expect(answer.calls).toEqual([
      { name: 'get_weather', status: 'ok' },
      {
        name: 'delete_repo',
        status: 'denied',
        reason: expect.stringContaining('programs may not call'),
      },
    ]);
    expect(answer.result.refused).not.toBeNull();
    expect(ran).toEqual([{ name: 'get_weather', args: { city: 'Oslo', days: 2 } }]);
    expect(audit.map((record) => [record.tool, record.via, record.status])).toEqual([
      ['get_weather', 'program', 'ok'],
      ['delete_repo', 'program', 'denied'],
    ]);
  });
});
