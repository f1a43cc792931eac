// What the gateway's sessions share to serve tool_program: the config, the program
// policy (a guardrail in every session's dispatcher) and one pool of sandbox workers,
// made when the gateway is created and closed when it closes.
import {
  createProgramPolicy,
  createProgramWorkerPool,
  type ProgramLimits,
  type ProgramPolicy,
  type ProgramWorkerPool,
} from '@tool-search/code';
import {
  DEFAULT_PROGRAMS_CONFIG,
  gatewayProgramLimits,
  type ProgramsConfig,
} from '../config/program-schema.js';
import type { ApprovalConfig, GatewayProfile } from '../config/schemas.js';
import { operatorReadOnly, type ReadOnlyConfig } from './program-read-only.js';

/** The gateway's programs: on for which sessions, under which policy, in which workers. */
export interface GatewayPrograms {
  readonly config: ProgramsConfig;
  /** The limits of every program: the config's, with the call time fitted to approvals. */
  readonly limits: Partial<ProgramLimits>;
  /** The program policy; it is also one of every session's guardrails. */
  readonly policy: ProgramPolicy;
  /** The gateway's one pool of sandbox workers. */
  readonly workers: ProgramWorkerPool;
  /** Whether sessions of this profile are served `tool_program`. */
  enabledFor(profile: GatewayProfile | undefined): boolean;
  /** Terminates the workers (programs still running end as `program_sandbox_failed`). */
  close(): Promise<void>;
}

/**
 * The gateway's programs, when its config serves `tool_program` to any session (the
 * `programs` section, or a profile's `programs: true`); undefined when none. The worker
 * pool starts nothing until the first program.
 *
 * @param config - the `programs` section, when the config has one
 * @param profiles - the config's profiles
 * @param approval - the approval section (a nested call may wait for it)
 * @param word - the servers and review: who vouches for a tool's read-only annotation
 * @returns the programs, or undefined
 * @throws `ToolSearchError` `invalid_argument` for a limit `createProgramTool` refuses
 */
export function createGatewayPrograms(
  config: ProgramsConfig | undefined,
  profiles: Record<string, GatewayProfile>,
  approval: ApprovalConfig,
  word: Omit<ReadOnlyConfig, 'programs'> = {},
): GatewayPrograms | undefined {
  const programs = config ?? DEFAULT_PROGRAMS_CONFIG;
  const enabledFor = (profile: GatewayProfile | undefined) => profile?.programs ?? programs.enabled;
  const anyProfile = Object.values(profiles).some((profile) => profile.programs === true);
  if (!programs.enabled && !anyProfile) return undefined;
  const workers = createProgramWorkerPool(programs.workers);
  return {
    config: programs,
    limits: gatewayProgramLimits(programs, approval),
    policy: createProgramPolicy({
      allow: programs.allow,
      deny: programs.deny,
      readOnly: programs.readOnly,
      isReadOnly: operatorReadOnly({ ...word, programs }),
    }),
    workers,
    enabledFor,
    close: () => workers.close(),
  };
}
