import { z } from 'zod/v4';

/**
 * A `tools/call` request as the gateway registers its handler: only the method is
 * checked at this step. The MCP SDK's server then checks the request against the
 * full `CallToolRequestSchema` and answers a bad one with -32602 (Invalid params);
 * registered with the full schema, a bad one failed earlier, as -32603 (Internal error).
 */
export const LENIENT_CALL_TOOL_REQUEST_SCHEMA = z
  .object({ method: z.literal('tools/call'), params: z.unknown() })
  .passthrough();
