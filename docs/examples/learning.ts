/**
 * Learning from use: a session searches, calls the tool it found, and the next search
 * (of any session of the profile) ranks with what was learned.
 */
import { strict as assert } from 'node:assert';
import { assembleTools, handleBridgeCall } from '@tool-search/bridge';
import { createCatalog, createLearningSession, createSearchLearner } from '@tool-search/core';
import { tools } from './tools.js';

// #region learner
// One learner per process (or gateway): off until you create one and hand it on.
const learner = createSearchLearner();
// One learning session per conversation, for the profile its results belong to.
const learning = createLearningSession({ learner, profile: 'team-a', token: 'user-42' });
const assembly = assembleTools({ tools, config: { enabled: 'on' }, learning });
// #endregion learner

// #region record
const dispatch = async () => ({ status: 'ok' as const, result: 'sent' });
// The model searches in its own words, then calls a tool the search returned.
await handleBridgeCall(
  assembly,
  { name: 'tool_search', arguments: { query: 'ping the team channel about the release' } },
  dispatch,
);
await handleBridgeCall(
  assembly,
  {
    name: 'tool_call',
    arguments: { name: 'slack_post_message', arguments: { channel: 'C1', text: 'out' } },
  },
  dispatch,
);
await learning.flush();
// Only analysed terms and counts are kept: no query text, no arguments.
console.log((await learner.export('team-a')).profiles['team-a']);
// #endregion record

// #region rank
const catalog = createCatalog(tools, { learner, profile: 'team-a' });
const [best] = await catalog.search('ping the team');
console.log(best?.name); // slack_post_message
// #endregion rank

// #region manage
const saved = JSON.stringify(await learner.export()); // every profile, as JSON
await learner.clear('team-a'); // forget one profile (or all: clear())
await learner.import(JSON.parse(saved)); // and bring it back
// #endregion manage

assert.equal(best?.name, 'slack_post_message');
assert.ok((await learner.learnedTerms('team-a')).has('slack_post_message'));
assert.equal((await learner.learnedTerms('team-b')).size, 0);
