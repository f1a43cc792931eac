import type { LearningStore } from '@tool-search/core';
import { startRedis, type TestRedis } from '@tool-search/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilReady } from '../__fixtures__/stores.js';
import { createMemoryStore } from './memory-store.js';
import { createRedisStore } from './redis-store.js';
import type { GatewayStore, LearningStoreOptions } from './types.js';

let redis: TestRedis;
const opened: GatewayStore[] = [];

beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await redis?.dispose();
});

const DAY = 24 * 60 * 60 * 1000;

async function redisStore(prefix: string): Promise<GatewayStore> {
  const store = createRedisStore({ url: redis.url, prefix });
  opened.push(store);
  return untilReady(store);
}

type Open = (options?: LearningStoreOptions) => Promise<LearningStore>;
const kinds: [string, Open][] = [
  ['memory', async (options) => createMemoryStore().learningStore!(options)],
  ['redis', async (options) => (await redisStore(`l${Math.random()}:`)).learningStore!(options)],
];

const terms = (store: LearningStore, profile: string) =>
  Promise.resolve(store.learnedTerms(profile)).then((map) =>
    Object.fromEntries([...map].map(([tool, learned]) => [tool, { ...learned }])),
  );

describe.each(kinds)('the %s learning store', (_kind, open) => {
  it('counts terms per tool and profile, and keeps one profile out of another', async () => {
    const store = await open();
    expect(await store.add({ profile: 'a', tool: 'send', terms: ['post', 'chan'] })).toBe(true);
    await store.add({ profile: 'a', tool: 'send', terms: ['post'] });
    await store.add({ profile: 'b', tool: 'read', terms: ['inbox'] });
    expect(await terms(store, 'a')).toEqual({ send: { post: 2, chan: 1 } });
    expect(await terms(store, 'b')).toEqual({ read: { inbox: 1 } });
    expect(await terms(store, 'c')).toEqual({});
  });

  it('hands out the same map until the profile changes', async () => {
    const store = await open();
    await store.add({ profile: 'a', tool: 'send', terms: ['post'] });
    await store.add({ profile: 'a', tool: 'read', terms: ['inbox'] });
    const first = await store.learnedTerms('a');
    expect(await store.learnedTerms('a')).toBe(first);
    await store.add({ profile: 'a', tool: 'send', terms: ['chan'] });
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
    const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    for (const word of words) {
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

  it('halves the counts every half-life and forgets what falls away', async () => {
    let now = 1_000 * DAY;
    const store = await open({ limits: { halfLifeMs: DAY, decayStepMs: DAY }, now: () => now });
    await store.add({ profile: 'a', tool: 't', terms: ['post', 'chan'] });
    await store.add({ profile: 'a', tool: 't', terms: ['post'] });
    now += DAY;
    expect(await terms(store, 'a')).toEqual({ t: { post: 1, chan: 0.5 } });
    await store.add({ profile: 'a', tool: 't', terms: ['chan'] });
    expect(await terms(store, 'a')).toEqual({ t: { post: 1, chan: 1.5 } });
    now += 10 * DAY;
    expect(await terms(store, 'a')).toEqual({});
  });

  it('exports, imports and clears', async () => {
    const store = await open();
    await store.add({ profile: 'a', tool: 'send', terms: ['post'] });
    await store.add({ profile: 'b', tool: 'read', terms: ['inbox'] });
    const saved = await store.export();
    expect(saved).toEqual({
      format: 'tool-search-learning',
      version: 1,
      profiles: { a: { send: { post: 1 } }, b: { read: { inbox: 1 } } },
    });
    expect((await store.export('b')).profiles).toEqual({ b: { read: { inbox: 1 } } });
    await store.clear('a');
    expect(await terms(store, 'a')).toEqual({});
    expect(await terms(store, 'b')).toEqual({ read: { inbox: 1 } });
    await store.clear();
    expect((await store.export()).profiles).toEqual({});
    await store.import(saved);
    expect(await store.export()).toEqual(saved);
    await expect(Promise.resolve().then(() => store.import({ format: 'x' }))).rejects.toMatchObject(
      { code: 'invalid_argument' },
    );
  });

  it('stores a profile or tool name of any characters under its own keys', async () => {
    const store = await open();
    await store.add({ profile: 'a:b', tool: 'x:y', terms: ['one'] });
    await store.add({ profile: 'a', tool: 'b:x:y', terms: ['two'] });
    expect(await terms(store, 'a:b')).toEqual({ 'x:y': { one: 1 } });
    expect(await terms(store, 'a')).toEqual({ 'b:x:y': { two: 1 } });
  });
});

describe('the Redis learning store', () => {
  it('is shared by every store on the same prefix, and caps a token across them', async () => {
    const prefix = `shared${Math.random()}:`;
    const one = (await redisStore(prefix)).learningStore!();
    const two = (await redisStore(prefix)).learningStore!();
    // Two replicas record at once for one token: its cap holds across them.
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
    await one.add({ profile: 'p', tool: 'send', terms: ['chan'] });
    expect(await terms(two, 'p')).toEqual({ wrong: { post: 1 }, send: { chan: 1 } });
    await two.clear('p');
    expect(await terms(one, 'p')).toEqual({});
  });

  it('forgets the lightest terms in all once past its bound', async () => {
    const store = (await redisStore(`bound${Math.random()}:`)).learningStore!({
      limits: { maxEntries: 10 },
    });
    await store.add({ profile: 'p', tool: 'heavy', terms: ['big'] });
    await store.add({ profile: 'p', tool: 'heavy', terms: ['big'] });
    for (let i = 0; i < 10; i++) await store.add({ profile: 'p', tool: 'light', terms: [`w${i}`] });
    // The eleventh term passed the bound: the lightest went, the heavy one stayed.
    expect(await terms(store, 'p')).toEqual({ heavy: { big: 2 } });
    await store.add({ profile: 'p', tool: 'light', terms: ['again'] });
    expect(await terms(store, 'p')).toEqual({ heavy: { big: 2 }, light: { again: 1 } });
  });
});
