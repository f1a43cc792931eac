import type { BaseMessage } from '@langchain/core/messages';
import { ToolMessage } from '@langchain/core/messages';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import type { AuditRecord } from '@tool-search/hooks';
import { createAuditHook, createPolicyApproval } from '@tool-search/hooks';
import { describe, expect, it } from 'vitest';
import { fixtureTools, type Ran } from './__fixtures__/tools.js';
import { createInterruptApproval } from './interrupt-approval.js';
import { createScriptedChatModel } from './testing/index.js';
import { withToolSearch } from './with-tool-search.js';

const quiet = { warn() {}, info() {} };

function lastToolMessage(messages: BaseMessage[]): ToolMessage | undefined {
  return messages
    .filter((message): message is ToolMessage => ToolMessage.isInstance(message))
    .at(-1);
}

async function pausedAgent(resumeWith: unknown) {
  const ran: Ran = [];
  const audit: AuditRecord[] = [];
  const search = withToolSearch(fixtureTools(ran, 30), {
    core: ['read_file'],
    config: { enabled: 'on' },
    hooks: [createAuditHook((record) => void audit.push(record))],
    // Ask a person only about deleting; everything else runs.
    approval: createPolicyApproval({
      require: { tools: ['delete_*'] },
      otherwise: 'allow',
      ask: createInterruptApproval(),
    }),
    logger: quiet,
  });
  const model = createScriptedChatModel([
    { calls: [{ name: 'tool_call', args: { name: 'delete_repo', arguments: '{"repo":"web"}' } }] },
    { text: 'Done.' },
  ]);
  const agent = createReactAgent({
    llm: model,
    tools: search.tools,
    checkpointSaver: new MemorySaver(),
  });
  const thread = { configurable: { thread_id: 'thread-1' } };
  const paused = await agent.invoke(
    { messages: [{ role: 'user', content: 'Delete web' }] },
    thread,
  );
  const resumed = await agent.invoke(new Command({ resume: resumeWith }), thread);
  return { ran, audit, paused, resumed };
}

describe('createInterruptApproval', () => {
  it("pauses the graph with the call as it will run, and runs it once on the person's allow", async () => {
    const { ran, audit, paused, resumed } = await pausedAgent('allow-once');
    const interrupts = (paused as { __interrupt__?: { value: unknown }[] }).__interrupt__;
    expect(interrupts?.[0]?.value).toMatchObject({
      type: 'tool_approval',
      tool: 'delete_repo',
      arguments: '{"repo":"web"}',
      via: 'bridge',
    });
    expect(ran).toEqual([{ name: 'delete_repo', args: { repo: 'web' } }]);
    expect(String(lastToolMessage(resumed.messages)?.content)).toContain('"tool":"delete_repo"');
    // The pause is recorded as cancelled (no decision yet), the resumed call as run.
    expect(audit.map((record) => record.status)).toEqual(['cancelled', 'ok']);
  });

  it("denies on the person's deny, with the reason given, and nothing runs", async () => {
    const { ran, resumed } = await pausedAgent({ decision: 'deny', reason: 'Not on Fridays.' });
    expect(ran).toEqual([]);
    expect(JSON.parse(String(lastToolMessage(resumed.messages)?.content))).toMatchObject({
      error: 'Not on Fridays.',
    });
  });

  it('denies an answer it does not know (fail closed)', async () => {
    const { ran, resumed } = await pausedAgent('sure, go ahead');
    expect(ran).toEqual([]);
    expect(String(lastToolMessage(resumed.messages)?.content)).toContain('did not approve');
  });

  it('denies outside a graph: it cannot ask anyone there', async () => {
    const ran: Ran = [];
    const search = withToolSearch(fixtureTools(ran, 30), {
      core: ['read_file'],
      config: { enabled: 'on' },
      approval: createInterruptApproval(),
      logger: quiet,
    });
    const readFile = search.tools.find((tool) => tool.name === 'read_file');
    const output = await readFile?.invoke({ path: 'a' });
    expect(ran).toEqual([]);
    expect(JSON.stringify(output)).toContain('approval');
  });
});
