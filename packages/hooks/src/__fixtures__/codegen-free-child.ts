// Run by schema-guardrail.no-codegen.int.test.ts under
// `node --disallow-code-generation-from-strings`: prints this runtime's answers.
import { judgeCalls } from './codegen-free-calls.js';

process.stdout.write(JSON.stringify(await judgeCalls()));
