// The program tool of one gateway session: over the session's own scoped tools, its
// nested calls through the session's own dispatcher, in the gateway's shared workers.
import { admitSearch } from '@tool-search/bridge';
import { createProgramTool, type ProgramTool } from '@tool-search/code';
import type { GatewayProfile } from '../config/schemas.js';
import type { SessionState } from './session-state.js';

/**
 * The session's `tool_program`, when the gateway serves programs to its profile.
 * Creating it starts nothing: the workers are the gateway's.
 *
 * @param state - the session (its scope, dispatcher and audit)
 * @param profile - the session's profile
 * @returns the program tool, or undefined when programs are off for this session
 * @throws nothing (the limits were checked when the gateway was created)
 */
export function createSessionProgram(
  state: SessionState,
  profile: GatewayProfile | undefined,
): ProgramTool | undefined {
  const { programs, auditHook, options } = state.context;
  if (programs === undefined || !programs.enabledFor(profile)) return undefined;
  return createProgramTool({
    // The session's scope, as it is at each run: no other profile's names.
    tools: () => [...state.scoped.values()],
    dispatch: (call, ctx) => state.dispatcher(call, { ...ctx, sessionId: state.id }),
    limits: programs.limits,
    policy: programs.policy,
    audit: {
      recordRefusal: (refusal) => auditHook.recordRefusal({ ...refusal, sessionId: state.id }),
    },
    pool: programs.workers,
    // The session's one runaway-search budget, spent by a program's searches too.
    admitSearch: () => (state.assembly === undefined ? undefined : admitSearch(state.assembly)),
    ...(options.ranker === undefined ? {} : { ranker: options.ranker }),
  });
}
