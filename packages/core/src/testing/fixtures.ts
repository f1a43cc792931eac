import type { ToolDefinition } from '../types.js';
import { githubAndSlackTools } from './fixtures-github-slack.js';

// Tool definitions recorded from published MCP servers (@modelcontextprotocol/server-github,
// -slack, -filesystem, -memory, -brave-search, -google-maps; MIT licensed), trimmed and
// prefixed with their server where the server did not. Tool metadata only, no code.

/**
 * 31 realistic tools from six MCP servers (GitHub, Slack, filesystem, memory, Brave
 * search, Google Maps): the default catalog of `testRanker`, handy in your own tests.
 */
export const conformanceTools: readonly ToolDefinition[] = Object.freeze([
  ...githubAndSlackTools,
  {
    name: 'read_file',
    description:
      'Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.',
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
        },
        tail: {
          type: 'number',
          description: 'If provided, returns only the last N lines of the file',
        },
        head: {
          type: 'number',
          description: 'If provided, returns only the first N lines of the file',
        },
      },
      required: ['path'],
    },
    source: 'mcp',
    toolset: 'mcp-filesystem',
  },
  {
    name: 'write_file',
    description:
      'Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning. Handles text content with proper encoding. Only works within allowed directories.',
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
        },
        content: {
          type: 'string',
        },
      },
      required: ['path', 'content'],
    },
    source: 'mcp',
    toolset: 'mcp-filesystem',
  },
  {
    name: 'create_directory',
    description:
      'Create a new directory or ensure a directory exists. Can create multiple nested directories in one operation. If the directory already exists, this operation will succeed silently. Perfect for setting up directory structures for projects or ensuring required paths exist. Only works within allowed directories.',
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
        },
      },
      required: ['path'],
    },
    source: 'mcp',
    toolset: 'mcp-filesystem',
  },
  {
    name: 'list_directory',
    description:
      'Get a detailed listing of all files and directories in a specified path. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is essential for understanding directory structure and finding specific files within a directory. Only works within allowed directories.',
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
        },
      },
      required: ['path'],
    },
    source: 'mcp',
    toolset: 'mcp-filesystem',
  },
  {
    name: 'move_file',
    description:
      'Move or rename files and directories. Can move files between directories and rename them in a single operation. If the destination exists, the operation will fail. Works across different directories and can be used for simple renaming within the same directory. Both source and destination must be within allowed directories.',
    inputSchema: {
      type: 'object',
      properties: {
        source: {
          type: 'string',
        },
        destination: {
          type: 'string',
        },
      },
      required: ['source', 'destination'],
    },
    source: 'mcp',
    toolset: 'mcp-filesystem',
  },
  {
    name: 'search_files',
    description:
      "Recursively search for files and directories matching a pattern. The patterns should be glob-style patterns that match paths relative to the working directory. Use pattern like '*.ext' to match files in current directory, and '**/*.ext' to match files in all subdirectories. Returns full paths to all matching items. Great for finding files when you don't know their exact location. Only searches wit",
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
        },
        pattern: {
          type: 'string',
        },
        excludePatterns: {
          type: 'array',
        },
      },
      required: ['path', 'pattern'],
    },
    source: 'mcp',
    toolset: 'mcp-filesystem',
  },
  {
    name: 'get_file_info',
    description:
      'Retrieve detailed metadata about a file or directory. Returns comprehensive information including size, creation time, last modified time, permissions, and type. This tool is perfect for understanding file characteristics without reading the actual content. Only works within allowed directories.',
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
        },
      },
      required: ['path'],
    },
    source: 'mcp',
    toolset: 'mcp-filesystem',
  },
  {
    name: 'memory_create_entities',
    description: 'Create multiple new entities in the knowledge graph',
    inputSchema: {
      type: 'object',
      properties: {
        entities: {
          type: 'array',
        },
      },
      required: ['entities'],
    },
    source: 'mcp',
    toolset: 'mcp-memory',
  },
  {
    name: 'memory_read_graph',
    description: 'Read the entire knowledge graph',
    inputSchema: {
      type: 'object',
      properties: {},
    },
    source: 'mcp',
    toolset: 'mcp-memory',
  },
  {
    name: 'memory_search_nodes',
    description: 'Search for nodes in the knowledge graph based on a query',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description:
            'The search query to match against entity names, types, and observation content',
        },
      },
      required: ['query'],
    },
    source: 'mcp',
    toolset: 'mcp-memory',
  },
  {
    name: 'brave_web_search',
    description:
      'Performs a web search using the Brave Search API, ideal for general queries, news, articles, and online content. Use this for broad information gathering, recent events, or when you need diverse web sources. Supports pagination, content filtering, and freshness controls. Maximum 20 results per request, with offset for pagination. ',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: 'Search query (max 400 chars, 50 words)',
        },
        count: {
          type: 'number',
          description: 'Number of results (1-20, default 10)',
        },
        offset: {
          type: 'number',
          description: 'Pagination offset (max 9, default 0)',
        },
      },
      required: ['query'],
    },
    source: 'mcp',
    toolset: 'mcp-brave-search',
  },
  {
    name: 'brave_local_search',
    description:
      "Searches for local businesses and places using Brave's Local Search API. Best for queries related to physical locations, businesses, restaurants, services, etc. Returns detailed information including:\n- Business names and addresses\n- Ratings and review counts\n- Phone numbers and opening hours\nUse this when the query implies 'near me' or mentions specific locations. Automatically falls back to web ",
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: "Local search query (e.g. 'pizza near Central Park')",
        },
        count: {
          type: 'number',
          description: 'Number of results (1-20, default 5)',
        },
      },
      required: ['query'],
    },
    source: 'mcp',
    toolset: 'mcp-brave-search',
  },
  {
    name: 'maps_geocode',
    description: 'Convert an address into geographic coordinates',
    inputSchema: {
      type: 'object',
      properties: {
        address: {
          type: 'string',
          description: 'The address to geocode',
        },
      },
      required: ['address'],
    },
    source: 'mcp',
    toolset: 'mcp-google-maps',
  },
  {
    name: 'maps_directions',
    description: 'Get directions between two points',
    inputSchema: {
      type: 'object',
      properties: {
        origin: {
          type: 'string',
          description: 'Starting point address or coordinates',
        },
        destination: {
          type: 'string',
          description: 'Ending point address or coordinates',
        },
        mode: {
          type: 'string',
          description: 'Travel mode (driving, walking, bicycling, transit)',
        },
      },
      required: ['origin', 'destination'],
    },
    source: 'mcp',
    toolset: 'mcp-google-maps',
  },
] as ToolDefinition[]);
