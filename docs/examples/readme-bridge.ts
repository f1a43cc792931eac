/**
 * The code block of packages/bridge/README.md (sync:docs writes the `readme` region into
 * it): the loop of a runtime, assembling every turn. The model is scripted (two turns
 * of tool calls) so that the example runs as it is.
 */
import { strict as assert } from 'node:assert';
import type { ToolCall } from '@tool-search/core';
import { createDispatcher } from '@tool-search/hooks';
import { tools as sessionTools } from './tools.js';

const dispatch = createDispatcher({ execute: async (call) => ({ ran: call.name }) });
const script: ToolCall[][] = [
  [{ name: 'tool_search', arguments: { query: 'open a github issue' } }],
  [{ name: 'tool_call', arguments: { name: 'github_create_issue', arguments: { repo: 'a/b' } } }],
  [],
];
const replies: unknown[] = [];
const model = {
  generate: async (_request: { tools: unknown[] }) => ({ toolCalls: script.shift() ?? [] }),
};

// #region readme
import {
  type Assembly,
  assembleTools,
  handleBridgeCall,
  unwrapToolCall,
} from '@tool-search/bridge';

let previous: Assembly | undefined; // the last assembly: remembers tools that went away
for (;;) {
  const assembly = assembleTools({ tools: sessionTools, config: { enabled: 'on' }, previous });
  previous = assembly;
  const reply = await model.generate({ tools: assembly.tools });
  if (reply.toolCalls.length === 0) break;
  for (const call of reply.toolCalls) {
    console.log('tool', unwrapToolCall(call).name); // the real name, even through tool_call
    const bridged = handleBridgeCall(assembly, call, (real, context) => dispatch(real, context));
    replies.push(bridged ? await bridged : await dispatch(call));
  }
}
// #endregion readme

assert.equal(replies.length, 2);
assert.match(JSON.stringify(replies[0]), /github_create_issue/);
