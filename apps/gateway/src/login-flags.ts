import type { FlagTable, FlagValues } from './flag-table.js';

/** The flags of `login` and `logout` (the server is the one positional). */
export const LOGIN_FLAGS = [
  {
    name: 'config',
    key: 'config',
    kind: 'text',
    required: true,
    placeholder: '<file>',
    description: 'the gateway config that names the server and its auth',
  },
  {
    name: 'profile',
    key: 'profile',
    kind: 'text',
    placeholder: 'P',
    description:
      "sign in (or out) for this profile only: its sessions reach the server as that person, never with the gateway's own sign-in",
  },
  {
    name: 'store',
    key: 'store',
    kind: 'text',
    placeholder: 'redis://host:port[/db]',
    description:
      "keep the sign-in in the replicas' Redis store, encrypted with the key in TOOL_SEARCH_SIGN_IN_KEY (default: the config's store; a memory store means the state folder, TOOL_SEARCH_STATE_DIR or .tool-search beside the config)",
  },
] as const satisfies FlagTable;

/** The options of `login` and `logout` besides the server: their flags, parsed. */
export type LoginOptions = FlagValues<typeof LOGIN_FLAGS>;
