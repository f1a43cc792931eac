import { describe, expect, it } from 'vitest';
import { createSessionApprovalStore } from './session-approvals.js';

describe('createSessionApprovalStore', () => {
  it('remembers per session and tool', () => {
    const store = createSessionApprovalStore();
    store.remember('a', 'read_file');
    expect(store.has('a', 'read_file')).toBe(true);
    expect(store.has('a', 'write_file')).toBe(false);
    expect(store.has('b', 'read_file')).toBe(false);
  });

  it('forgets a session, or everything', () => {
    const store = createSessionApprovalStore();
    store.remember('a', 't');
    store.remember('b', 't');
    store.forget('a');
    expect(store.has('a', 't')).toBe(false);
    expect(store.has('b', 't')).toBe(true);
    store.clear();
    expect(store.has('b', 't')).toBe(false);
  });

  it('forgets the least recently approved session beyond maxSessions', () => {
    const store = createSessionApprovalStore({ maxSessions: 2 });
    store.remember('a', 't');
    store.remember('b', 't');
    store.remember('a', 'u');
    store.remember('c', 't');
    expect(store.has('b', 't')).toBe(false);
    expect(store.has('a', 't')).toBe(true);
    expect(store.has('c', 't')).toBe(true);
  });

  it('rejects a maxSessions that is not a positive integer', () => {
    expect(() => createSessionApprovalStore({ maxSessions: 0 })).toThrow(/maxSessions/);
  });
});
