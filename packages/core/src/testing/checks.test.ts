import { describe, expect, it } from 'vitest';
import { createBm25Ranker } from '../rankers/bm25/index.js';
import type { RankerIndex } from '../rankers/ranker.js';
import { checkFinds, checkHits, checkLimit } from './checks.js';
import { conformanceTools } from './fixtures.js';

const names = new Set(conformanceTools.map((tool) => tool.name));

/** A planted bug: the BM25 index's answers, with `limit` ignored. */
async function ignoresLimit(): Promise<RankerIndex> {
  const index = await createBm25Ranker().index(conformanceTools);
  return { search: (query) => index.search(query, 50) };
}

describe('the checks of testRanker', () => {
  it('fail a ranker that ignores limit, naming the query, the limit and the rule', async () => {
    const index = await ignoresLimit();
    await expect(checkLimit(index, 'file', [1])).rejects.toThrow(
      /query "file", limit 1: must return exactly min\(limit, hits at limit 50\) = 1 hits \(rule: honour limit\), got \d+/,
    );
  });

  it('fail "finds X within the top k" when the ranker ignores limit', async () => {
    const index = await ignoresLimit();
    await expect(
      checkFinds(
        index,
        { query: 'read the contents of a file', tool: 'read_file', within: 1 },
        names,
      ),
    ).rejects.toThrow(/query "read the contents of a file", limit 1: at most limit hits/);
  });

  it('name the query, the limit and the expected tool when a tool is not found', async () => {
    const index = await createBm25Ranker().index(conformanceTools);
    await expect(
      checkFinds(index, { query: 'send a slack message', tool: 'read_file', within: 2 }, names),
    ).rejects.toThrow(
      /query "send a slack message", limit 2: must find read_file within the top 2 \(rule: expectation\); got \[slack_post_message/,
    );
  });

  it('name the hit and the rule for a bad hit', () => {
    expect(() =>
      checkHits([{ name: 'no_such_tool', score: 1 }], { query: 'q', limit: 5 }, names),
    ).toThrow(/query "q", limit 5, hit 1 \(no_such_tool\): name must be one of the indexed tools/);
    expect(() =>
      checkHits(
        [
          { name: 'read_file', score: 1 },
          { name: 'write_file', score: 2 },
        ],
        { query: 'q', limit: 5 },
        names,
      ),
    ).toThrow(/hit 2 \(write_file\): scores must not increase \(best first\)/);
  });

  it('pass the default ranker', async () => {
    const index = await createBm25Ranker().index(conformanceTools);
    await checkLimit(index, 'create issue', [1, 2, 5, 10, 50]);
    await checkFinds(
      index,
      { query: 'create a github issue', tool: 'github_create_issue', within: 3 },
      names,
    );
  });
});
