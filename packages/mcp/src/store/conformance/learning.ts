// The kit's checks of a store's learning from use: the rules of core's
// `createLearningRules` (counting, token caps, bounds, decay, export and import), kept
// alike by every store and, on a shared store, across its replicas.

import type { LearningStore } from '@tool-search/core';
import { expect, it } from 'vitest';
import type { GatewayStore, LearningStoreOptions } from '../types.js';
import type { StoreHarness } from './harness.js';

const DAY = 24 * 60 * 60 * 1000;

/** A profile's learned terms as plain objects. */
async function terms(store: LearningStore, profile: string) {
  const learned = await store.learnedTerms(profile);
  return Object.fromEntries([...learned].map(([tool, view]) => [tool, { ...view }]));
}

function learningOf(store: GatewayStore, options?: LearningStoreOptions): LearningStore {
  if (store.learningStore === undefined) {
    throw new Error(
      `The ${store.kind} store has no learningStore(): pass { learning: false } to testGatewayStore for a store without one.`,
    );
  }
  return store.learningStore(options);
}

/** Registers the checks of the store's learning. */
export function learningChecks(kit: StoreHarness): void {
  const open = async (options?: LearningStoreOptions) => learningOf(await kit.open(), options);
  /** The learning of the test's store and of a second replica of it. */
  const openTwo = async (options?: LearningStoreOptions) => {
    const store = await kit.open();
    return [learningOf(store, options), learningOf(await kit.replica(store), options)] as const;
  };

  it('counts terms per tool and profile, and keeps one profile out of another', async () => {
    const store = await open();
    expect(await store.add({ profile: 'a', tool: 'send', terms: ['post', 'chan'] })).toBe(true);
    await store.add({ profile: 'a', tool: 'send', terms: ['post'] });
    await store.add({ profile: 'b', tool: 'read', terms: ['inbox'] });
    expect(await terms(store, 'a')).toEqual({ send: { post: 2, chan: 1 } });
    expect(await terms(store, 'b')).toEqual({ read: { inbox: 1 } });
    expect(await terms(store, 'c')).toEqual({});
  });

  it('counts the distinct terms of a pair once, its first maxTermsPerQuery, and nothing without terms or tool', async () => {
    const store = await open({ limits: { maxTermsPerQuery: 2 } });
    expect(await store.add({ profile: 'a', tool: 't', terms: [] })).toBe(false);
    expect(await store.add({ profile: 'a', tool: '', terms: ['post'] })).toBe(false);
    expect(await store.add({ profile: 'a', tool: 't', terms: ['', 'x'.repeat(65)] })).toBe(false);
    expect(
      await store.add({ profile: 'a', tool: 't', terms: ['one', 'one', 'two', 'three'] }),
    ).toBe(true);
    expect(await terms(store, 'a')).toEqual({ t: { one: 1, two: 1 } });
  });

  it('hands out the same frozen views, heaviest first, until the profile changes', async () => {
    const store = await open();
    await store.add({ profile: 'a', tool: 'send', terms: ['post', 'chan'] });
    await store.add({ profile: 'a', tool: 'send', terms: ['chan'] });
    await store.add({ profile: 'a', tool: 'read', terms: ['inbox'] });
    const first = await store.learnedTerms('a');
    expect(Object.keys(first.get('send')!)).toEqual(['chan', 'post']);
    expect(Object.isFrozen(first.get('send'))).toBe(true);
    expect(await store.learnedTerms('a')).toBe(first);
    await store.add({ profile: 'a', tool: 'send', terms: ['more'] });
    const second = await store.learnedTerms('a');
    expect(second).not.toBe(first);
    // The tool that did not change keeps its object: a catalog patches only the other.
    expect(second.get('read')).toBe(first.get('read'));
    expect(second.get('send')).not.toBe(first.get('send'));
  });

  it("caps one token's share per tool and term, and per tool", async () => {
    const store = await open({ limits: { tokenCap: 1, tokenToolCap: 3 } });
    for (let i = 0; i < 5; i++) {
      await store.add({ profile: 'a', tool: 'wrong', terms: ['post'], token: 'mallory' });
    }
    expect(await terms(store, 'a')).toEqual({ wrong: { post: 1 } });
    for (const word of ['alpha', 'beta', 'gamma', 'delta', 'epsilon']) {
      await store.add({ profile: 'a', tool: 'wrong', terms: [word], token: 'mallory' });
    }
    expect(Object.keys((await terms(store, 'a'))['wrong']!)).toHaveLength(3);
    expect(
      await store.add({ profile: 'a', tool: 'wrong', terms: ['zeta'], token: 'mallory' }),
    ).toBe(false);
    // Another token still counts.
    expect(await store.add({ profile: 'a', tool: 'wrong', terms: ['post'], token: 'alice' })).toBe(
      true,
    );
    expect((await terms(store, 'a'))['wrong']!['post']).toBe(2);
    // The token's share is forgotten with the profile.
    await store.clear('a');
    expect(
      await store.add({ profile: 'a', tool: 'wrong', terms: ['post'], token: 'mallory' }),
    ).toBe(true);
  });

  it("holds a token's cap when it records many pairs at once (on every replica)", async () => {
    const [one, two] = await openTwo();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? one : two).add({
          profile: 'p',
          tool: 'wrong',
          terms: ['post'],
          token: 'mallory',
        }),
      ),
    );
    expect(await terms(two, 'p')).toEqual({ wrong: { post: 1 } });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? one : two).add({ profile: 'p', tool: 'send', terms: [`w${i}`] }),
      ),
    );
    expect(Object.keys((await terms(one, 'p'))['send']!)).toHaveLength(20);
    await two.clear('p');
    expect(await terms(one, 'p')).toEqual({});
  });

  it('keeps the heaviest terms of a tool within its bound', async () => {
    const store = await open({ limits: { maxTermsPerTool: 2 } });
    await store.add({ profile: 'a', tool: 't', terms: ['one'] });
    await store.add({ profile: 'a', tool: 't', terms: ['one'] });
    await store.add({ profile: 'a', tool: 't', terms: ['two'] });
    await store.add({ profile: 'a', tool: 't', terms: ['two'] });
    await store.add({ profile: 'a', tool: 't', terms: ['three'] });
    const learned = (await terms(store, 'a'))['t']!;
    expect(Object.keys(learned)).toHaveLength(2);
    expect(learned['three']).toBe(1);
  });

  it('forgets the lightest terms in all once past its bound', async () => {
    const store = await open({ limits: { maxEntries: 10 } });
    await store.add({ profile: 'p', tool: 'heavy', terms: ['big'] });
    await store.add({ profile: 'p', tool: 'heavy', terms: ['big'] });
    for (let i = 0; i < 10; i++) await store.add({ profile: 'p', tool: 'light', terms: [`w${i}`] });
    // The eleventh term passed the bound: the lightest went, the heavy one stayed.
    expect(await terms(store, 'p')).toEqual({ heavy: { big: 2 } });
    await store.add({ profile: 'p', tool: 'light', terms: ['again'] });
    expect(await terms(store, 'p')).toEqual({ heavy: { big: 2 }, light: { again: 1 } });
  });

  it('halves the counts every half-life, in steps, and forgets what falls away', async () => {
    let now = 1_000 * DAY;
    const store = await open({ limits: { halfLifeMs: DAY, decayStepMs: DAY }, now: () => now });
    await store.add({ profile: 'a', tool: 't', terms: ['post', 'chan'] });
    await store.add({ profile: 'a', tool: 't', terms: ['post'] });
    now += DAY - 1;
    expect(await terms(store, 'a')).toEqual({ t: { post: 2, chan: 1 } });
    now += 1;
    expect(await terms(store, 'a')).toEqual({ t: { post: 1, chan: 0.5 } });
    await store.add({ profile: 'a', tool: 't', terms: ['chan'] });
    expect(await terms(store, 'a')).toEqual({ t: { post: 1, chan: 1.5 } });
    now += 10 * DAY;
    expect(await terms(store, 'a')).toEqual({});
    expect((await store.export()).profiles).toEqual({});
  });

  it('decays by the half-life, not by the step, when they differ', async () => {
    let now = 1_000 * DAY;
    const store = await open({ limits: { halfLifeMs: 2 * DAY, decayStepMs: DAY }, now: () => now });
    await store.add({ profile: 'a', tool: 't', terms: ['post'] });
    now += DAY;
    expect((await terms(store, 'a'))['t']!['post']).toBeCloseTo(Math.SQRT1_2, 12);
    await store.add({ profile: 'a', tool: 't', terms: ['post'] });
    now += 2 * DAY;
    expect((await terms(store, 'a'))['t']!['post']).toBeCloseTo((Math.SQRT1_2 + 1) / 2, 12);
  });

  it('exports the profiles that hold terms, imports them back on top, and clears one or all', async () => {
    const store = await open();
    await store.add({ profile: 'a', tool: 'send', terms: ['post'] });
    await store.add({ profile: 'b', tool: 'read', terms: ['inbox'] });
    const saved = await store.export();
    expect(saved).toEqual({
      format: 'tool-search-learning',
      version: 1,
      profiles: { a: { send: { post: 1 } }, b: { read: { inbox: 1 } } },
    });
    expect(Object.keys(saved.profiles)).toEqual(['a', 'b']);
    expect((await store.export('b')).profiles).toEqual({ b: { read: { inbox: 1 } } });
    expect((await store.export('nobody')).profiles).toEqual({});
    await store.clear('a');
    expect(await terms(store, 'a')).toEqual({});
    expect(await terms(store, 'b')).toEqual({ read: { inbox: 1 } });
    await store.clear();
    expect((await store.export()).profiles).toEqual({});
    await store.import(saved);
    expect(await store.export()).toEqual(saved);
    await store.import(saved);
    expect(await terms(store, 'a')).toEqual({ send: { post: 2 } });
    await expect(Promise.resolve().then(() => store.import({ format: 'x' }))).rejects.toMatchObject(
      { code: 'invalid_argument' },
    );
  });

  it('imports within its bounds: the heaviest terms of a tool', async () => {
    const store = await open({ limits: { maxTermsPerTool: 2 } });
    await store.import({
      format: 'tool-search-learning',
      version: 1,
      profiles: { a: { t: { light: 1, heavy: 5, middle: 3 } } },
    });
    expect(await terms(store, 'a')).toEqual({ t: { heavy: 5, middle: 3 } });
  });

  it('stores a profile or tool name of any characters under its own keys', async () => {
    const store = await open();
    await store.add({ profile: 'a:b', tool: 'x:y', terms: ['one'] });
    await store.add({ profile: 'a', tool: 'b:x:y', terms: ['two'] });
    await store.add({ profile: '漢字 é', tool: '*', terms: ['three'] });
    expect(await terms(store, 'a:b')).toEqual({ 'x:y': { one: 1 } });
    expect(await terms(store, 'a')).toEqual({ 'b:x:y': { two: 1 } });
    expect(await terms(store, '漢字 é')).toEqual({ '*': { three: 1 } });
  });

  it('keeps one body of learned terms per store, whichever learningStore() reads it', async () => {
    const store = await kit.open();
    await learningOf(store).add({ profile: 'a', tool: 't', terms: ['one'] });
    expect(await terms(learningOf(store), 'a')).toEqual({ t: { one: 1 } });
    expect(await terms(learningOf(await kit.replica(store)), 'a')).toEqual({ t: { one: 1 } });
  });
}
