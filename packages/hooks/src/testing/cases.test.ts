import { describe, expect, it } from 'vitest';
import { conformanceCases } from './index.js';

describe('conformanceCases', () => {
  it('gives every case of the kit, each a fresh copy', () => {
    const first = conformanceCases();
    const second = conformanceCases();
    expect(first.length).toBe(11);
    expect(first).toEqual(second);
    first[0]!.call.arguments['changed'] = true;
    expect(second[0]!.call.arguments['changed']).toBeUndefined();
    expect(first.map((testCase) => testCase.call.name)).toContain('delete_file');
  });
});
