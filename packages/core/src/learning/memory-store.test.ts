import { describe, expect, it } from 'vitest';
import { ToolSearchError } from '../errors.js';
import { createMemoryLearningStore } from './memory-store.js';
import { createSearchLearner } from './search-learner.js';

const DAY = 24 * 60 * 60 * 1000;

function clock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('createMemoryLearningStore', () => {
  it('counts the terms of a pair for its tool and profile', async () => {
    const store = createMemoryLearningStore();
    store.add({ profile: 'p', tool: 'send_mail', terms: ['email', 'boss', 'email'] });
    store.add({ profile: 'p', tool: 'send_mail', terms: ['email'] });
    const learned = await store.learnedTerms('p');
    expect(learned.get('send_mail')).toEqual({ email: 2, boss: 1 });
  });

  it('caps what one token gives to one tool and term, whatever it records', async () => {
    const store = createMemoryLearningStore({ limits: { tokenCap: 2 } });
    for (let i = 0; i < 1000; i++) {
      store.add({ profile: 'p', tool: 'wrong_tool', terms: ['weather'], token: 'attacker' });
    }
    expect((await store.learnedTerms('p')).get('wrong_tool')).toEqual({ weather: 2 });
    expect(
      store.add({ profile: 'p', tool: 'wrong_tool', terms: ['weather'], token: 'attacker' }),
    ).toBe(false);
    store.add({ profile: 'p', tool: 'wrong_tool', terms: ['weather'], token: 'someone-else' });
    expect((await store.learnedTerms('p')).get('wrong_tool')).toEqual({ weather: 3 });
  });

  it('caps what one token gives to one tool over all its terms', async () => {
    const store = createMemoryLearningStore({ limits: { tokenCap: 1, tokenToolCap: 8 } });
    for (let i = 0; i < 1000; i++) {
      store.add({
        profile: 'p',
        tool: 'wrong_tool',
        terms: [`word${i}`, `other${i}`],
        token: 'attacker',
      });
    }
    const terms = (await store.learnedTerms('p')).get('wrong_tool')!;
    expect(Object.values(terms).reduce((sum, count) => sum + count, 0)).toBe(8);
  });

  it('keeps a hash of each token, never the token', async () => {
    const store = createMemoryLearningStore();
    store.add({ profile: 'p', tool: 't', terms: ['term'], token: 'secret-token-value' });
    expect(JSON.stringify(await store.export())).not.toContain('secret-token-value');
  });

  it('keeps at most maxTermsPerTool terms per tool, the lightest going first', async () => {
    const store = createMemoryLearningStore({ limits: { maxTermsPerTool: 3 } });
    store.add({ profile: 'p', tool: 't', terms: ['a', 'b', 'c'] });
    store.add({ profile: 'p', tool: 't', terms: ['a', 'b'] });
    store.add({ profile: 'p', tool: 't', terms: ['d'] });
    const terms = (await store.learnedTerms('p')).get('t')!;
    expect(Object.keys(terms).sort()).toEqual(['a', 'b', 'd']);
  });

  it('keeps at most maxEntries terms in all, over every profile', async () => {
    const store = createMemoryLearningStore({ limits: { maxEntries: 50 } });
    for (let i = 0; i < 200; i++) {
      store.add({ profile: `p${i % 3}`, tool: `tool_${i % 7}`, terms: [`term${i}`] });
    }
    const exported = await store.export();
    let count = 0;
    for (const tools of Object.values(exported.profiles)) {
      for (const terms of Object.values(tools)) count += Object.keys(terms).length;
    }
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(50);
  });

  it('halves counts every half-life, in steps, and forgets what decays away', async () => {
    const time = clock();
    const store = createMemoryLearningStore({
      now: time.now,
      limits: { halfLifeMs: 10 * DAY, decayStepMs: DAY },
    });
    store.add({ profile: 'p', tool: 't', terms: ['old'] });
    const before = await store.learnedTerms('p');
    time.advance(DAY / 2);
    expect(await store.learnedTerms('p')).toBe(before);
    time.advance(10 * DAY - DAY / 2);
    expect((await store.learnedTerms('p')).get('t')!['old']).toBeCloseTo(0.5, 10);
    time.advance(100 * DAY);
    expect((await store.learnedTerms('p')).get('t')).toBeUndefined();
  });

  it('keeps profiles apart, and clears one or all', async () => {
    const store = createMemoryLearningStore();
    store.add({ profile: 'a', tool: 't', terms: ['alpha'] });
    store.add({ profile: 'b', tool: 't', terms: ['beta'] });
    expect((await store.learnedTerms('a')).get('t')).toEqual({ alpha: 1 });
    expect((await store.learnedTerms('b')).get('t')).toEqual({ beta: 1 });
    store.clear('a');
    expect((await store.learnedTerms('a')).size).toBe(0);
    expect((await store.learnedTerms('b')).size).toBe(1);
    store.clear();
    expect((await store.learnedTerms('b')).size).toBe(0);
  });

  it('gives the same map and per-tool objects back until a tool changes', async () => {
    const store = createMemoryLearningStore();
    store.add({ profile: 'p', tool: 'one', terms: ['a'] });
    store.add({ profile: 'p', tool: 'two', terms: ['b'] });
    const first = await store.learnedTerms('p');
    expect(await store.learnedTerms('p')).toBe(first);
    store.add({ profile: 'p', tool: 'two', terms: ['c'] });
    const second = await store.learnedTerms('p');
    expect(second).not.toBe(first);
    expect(second.get('one')).toBe(first.get('one'));
    expect(second.get('two')).not.toBe(first.get('two'));
  });

  it('exports JSON that imports into another store as the same terms', async () => {
    const store = createMemoryLearningStore();
    store.add({ profile: 'a', tool: 't', terms: ['alpha', 'beta'] });
    store.add({ profile: 'b', tool: 'u', terms: ['gamma'] });
    const json = JSON.parse(JSON.stringify(await store.export()));
    const other = createMemoryLearningStore();
    other.import(json);
    expect(await other.export()).toEqual(await store.export());
    expect(Object.keys((await store.export('a')).profiles)).toEqual(['a']);
  });

  it('refuses an import that is not an export, with invalid_argument', () => {
    const store = createMemoryLearningStore();
    for (const bad of [
      null,
      {},
      { format: 'tool-search-learning', version: 1, profiles: { p: { t: { x: -1 } } } },
    ]) {
      let error: unknown;
      try {
        store.import(bad);
      } catch (caught) {
        error = caught;
      }
      expect(ToolSearchError.isInstance(error) && error.code).toBe('invalid_argument');
    }
  });

  it('refuses limits that are not positive numbers', () => {
    expect(() => createMemoryLearningStore({ limits: { tokenCap: 0 } })).toThrow(/tokenCap/);
  });
});

describe('createSearchLearner', () => {
  it('records the analysed terms of a query, never its text', async () => {
    const learner = createSearchLearner();
    expect(await learner.record({ query: 'Sending E-mails to my Boss', tool: 'send_mail' })).toBe(
      true,
    );
    const terms = (await learner.learnedTerms()).get('send_mail')!;
    expect(Object.keys(terms).sort()).toEqual(learner.analyze('Sending E-mails to my Boss').sort());
    expect(JSON.stringify(await learner.export())).not.toContain('Sending');
    expect(learner.stats).toEqual({ recorded: 1, ignored: 0 });
  });

  it('ignores a pair with no terms, and a store that fails', async () => {
    const failing = createMemoryLearningStore();
    failing.add = () => {
      throw new Error('down');
    };
    const learner = createSearchLearner({ store: failing });
    expect(await learner.record({ query: 'the', tool: 't' })).toBe(false);
    expect(await learner.record({ query: 'weather', tool: 't' })).toBe(false);
    expect(learner.stats).toEqual({ recorded: 0, ignored: 2 });
  });

  it('refuses a store without the store methods', () => {
    expect(() => createSearchLearner({ store: {} as never })).toThrow(/LearningStore/);
  });
});
