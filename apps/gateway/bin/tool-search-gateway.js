#!/usr/bin/env node
// The installed `tool-search-gateway` command. It is a checked-in file rather than
// dist/cli.js so that the bin exists before the first build: `pnpm install` links it in
// the workspace without a "Failed to create bin" warning.
import { runCli } from '../dist/cli.js';

void runCli(process.argv.slice(2));
