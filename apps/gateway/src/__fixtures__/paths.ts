import { fileURLToPath } from 'node:url';
import { BUNDLED_SERVERS, resolveBinScript } from '../servers.js';

/** The built CLI that the tests run as a real process. */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** This folder. */
export const FIXTURES = fileURLToPath(new URL('.', import.meta.url));

/** The gateway config of the tests: the real filesystem server and three recorded ones. */
export const GATEWAY_CONFIG = fileURLToPath(new URL('./gateway.json', import.meta.url));

/** A config whose guardrails and approval hold patterns that match no tool. */
export const UNMATCHED_RULES_CONFIG = fileURLToPath(
  new URL('./unmatched-rules.json', import.meta.url),
);

/** The folder the filesystem server of {@link GATEWAY_CONFIG} may read. */
export const WORKSPACE = fileURLToPath(new URL('./workspace', import.meta.url));

/** The environment that {@link GATEWAY_CONFIG} expands. */
export const FIXTURE_ENV: Record<string, string> = {
  GATEWAY_TEST_NODE: process.execPath,
  GATEWAY_TEST_CLI: CLI,
  GATEWAY_TEST_FILESYSTEM: resolveBinScript(BUNDLED_SERVERS.filesystem),
  GATEWAY_TEST_WORKSPACE: WORKSPACE,
};
