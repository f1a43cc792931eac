// The crash server (SDK 1.x, 2025 era only) that writes one line to $SPAWN_LOG each time
// it starts, to count the processes started for it.
import { appendFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createCrashServer } from './crash-server.mjs';

if (process.env.SPAWN_LOG) appendFileSync(process.env.SPAWN_LOG, `${process.pid}\n`);
await createCrashServer().connect(new StdioServerTransport());
