import { describe, expect, it } from 'vitest';
import { conformanceTools } from '../testing/index.js';
import { createEmbeddingRanker } from './embedding-ranker.js';
import { createWinkEmbedding, type WinkEmbeddingLoadStats } from './wink-embeddings.js';

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
};

// Loading the 300 MB of vectors takes seconds: one load for the whole file.
describe('createWinkEmbedding', () => {
  const loads: WinkEmbeddingLoadStats[] = [];
  const embed = createWinkEmbedding({ onLoad: (stats) => loads.push(stats) });

  it('loads the word vectors once, lazily, and reports what that cost', async () => {
    expect(loads).toEqual([]);
    const [vector] = await embed(['send an email']);
    expect(vector).toHaveLength(100);
    await embed(['again']);
    expect(loads).toHaveLength(1);
    expect(loads[0]!.words).toBeGreaterThan(300_000);
    expect(loads[0]!.dimensions).toBe(100);
    expect(loads[0]!.loadMs).toBeGreaterThan(0);
  }, 120_000);

  it('puts texts of related meaning closer than unrelated ones', async () => {
    const [mail, email, fruit] = await embed([
      'send mail to a colleague',
      'compose an email message',
      'banana and apple smoothie',
    ]);
    expect(cosine(mail!, email!)).toBeGreaterThan(cosine(mail!, fruit!));
  }, 120_000);

  it('returns a zero vector for a text without known words', async () => {
    const [vector] = await embed(['the of and 数据']);
    expect(Array.from(vector!).every((value) => value === 0)).toBe(true);
  }, 120_000);

  it('drives an embedding ranker that finds tools without shared words', async () => {
    const index = await createEmbeddingRanker({ embed }).index(conformanceTools);
    const hits = await index.search('chat with my team', 5);
    expect(hits.map((hit) => hit.name).some((name) => name.startsWith('slack_'))).toBe(true);
  }, 120_000);
});
