import type { ToolDefinition } from '../types.js';

// Tool definitions recorded from published MCP servers (@modelcontextprotocol/server-github,
// -slack, -filesystem, -memory, -brave-search, -google-maps; MIT licensed), trimmed and
// prefixed with their server where the server did not. Tool metadata only, no code.

/**
 * 31 realistic tools from six MCP servers (GitHub, Slack, filesystem, memory, Brave
 * search, Google Maps): the default catalog of `testRanker`, handy in your own tests.
 */
export const conformanceTools: readonly ToolDefinition[] = Object.freeze([
  {
    name: 'github_search_repositories',
    description: 'Search for GitHub repositories',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: 'Search query (see GitHub search syntax)',
        },
        page: {
          type: 'number',
          description: 'Page number for pagination (default: 1)',
        },
        perPage: {
          type: 'number',
          description: 'Number of results per page (default: 30, max: 100)',
        },
      },
      required: ['query'],
    },
    source: 'mcp',
    toolset: 'mcp-github',
  },
  {
    name: 'github_get_file_contents',
    description: 'Get the contents of a file or directory from a GitHub repository',
    inputSchema: {
      type: 'object',
      properties: {
        owner: {
          type: 'string',
          description: 'Repository owner (username or organization)',
        },
        repo: {
          type: 'string',
          description: 'Repository name',
        },
        path: {
          type: 'string',
          description: 'Path to the file or directory',
        },
        branch: {
          type: 'string',
          description: 'Branch to get contents from',
        },
      },
      required: ['owner', 'repo', 'path'],
    },
    source: 'mcp',
    toolset: 'mcp-github',
  },
  {
    name: 'github_create_issue',
    description: 'Create a new issue in a GitHub repository',
    inputSchema: {
      type: 'object',
      properties: {
        owner: {
          type: 'string',
        },
        repo: {
          type: 'string',
        },
        title: {
          type: 'string',
        },
        body: {
          type: 'string',
        },
        assignees: {
          type: 'array',
        },
        milestone: {
          type: 'number',
        },
        labels: {
          type: 'array',
        },
      },
      required: ['owner', 'repo', 'title'],
    },
    source: 'mcp',
    toolset: 'mcp-github',
  },
  {
    name: 'github_create_pull_request',
    description: 'Create a new pull request in a GitHub repository',
    inputSchema: {
      type: 'object',
      properties: {
        owner: {
          type: 'string',
          description: 'Repository owner (username or organization)',
        },
        repo: {
          type: 'string',
          description: 'Repository name',
        },
        title: {
          type: 'string',
          description: 'Pull request title',
        },
        body: {
          type: 'string',
          description: 'Pull request body/description',
        },
        head: {
          type: 'string',
          description: 'The name of the branch where your changes are implemented',
        },
        base: {
          type: 'string',
          description: 'The name of the branch you want the changes pulled into',
        },
        draft: {
          type: 'boolean',
          description: 'Whether to create the pull request as a draft',
        },
        maintainer_can_modify: {
          type: 'boolean',
          description: 'Whether maintainers can modify the pull request',
        },
      },
      required: ['owner', 'repo', 'title', 'head', 'base'],
    },
    source: 'mcp',
    toolset: 'mcp-github',
  },
  {
    name: 'github_create_branch',
    description: 'Create a new branch in a GitHub repository',
    inputSchema: {
      type: 'object',
      properties: {
        owner: {
          type: 'string',
          description: 'Repository owner (username or organization)',
        },
        repo: {
          type: 'string',
          description: 'Repository name',
        },
        branch: {
          type: 'string',
          description: 'Name for the new branch',
        },
        from_branch: {
          type: 'string',
          description:
            "Optional: source branch to create from (defaults to the repository's default branch)",
        },
      },
      required: ['owner', 'repo', 'branch'],
    },
    source: 'mcp',
    toolset: 'mcp-github',
  },
  {
    name: 'github_list_commits',
    description: 'Get list of commits of a branch in a GitHub repository',
    inputSchema: {
      type: 'object',
      properties: {
        owner: {
          type: 'string',
        },
        repo: {
          type: 'string',
        },
        sha: {
          type: 'string',
        },
        page: {
          type: 'number',
        },
        perPage: {
          type: 'number',
        },
      },
      required: ['owner', 'repo'],
    },
    source: 'mcp',
    toolset: 'mcp-github',
  },
  {
    name: 'github_list_issues',
    description: 'List issues in a GitHub repository with filtering options',
    inputSchema: {
      type: 'object',
      properties: {
        owner: {
          type: 'string',
        },
        repo: {
          type: 'string',
        },
        direction: {
          type: 'string',
        },
        labels: {
          type: 'array',
        },
        page: {
          type: 'number',
        },
        per_page: {
          type: 'number',
        },
        since: {
          type: 'string',
        },
        sort: {
          type: 'string',
        },
        state: {
          type: 'string',
        },
      },
      required: ['owner', 'repo'],
    },
    source: 'mcp',
    toolset: 'mcp-github',
  },
  {
    name: 'github_add_issue_comment',
    description: 'Add a comment to an existing issue',
    inputSchema: {
      type: 'object',
      properties: {
        owner: {
          type: 'string',
        },
        repo: {
          type: 'string',
        },
        issue_number: {
          type: 'number',
        },
        body: {
          type: 'string',
        },
      },
      required: ['owner', 'repo', 'issue_number', 'body'],
    },
    source: 'mcp',
    toolset: 'mcp-github',
  },
  {
    name: 'github_search_code',
    description: 'Search for code across GitHub repositories',
    inputSchema: {
      type: 'object',
      properties: {
        q: {
          type: 'string',
        },
        order: {
          type: 'string',
        },
        page: {
          type: 'number',
        },
        per_page: {
          type: 'number',
        },
      },
      required: ['q'],
    },
    source: 'mcp',
    toolset: 'mcp-github',
  },
  {
    name: 'slack_list_channels',
    description: 'List public or pre-defined channels in the workspace with pagination',
    inputSchema: {
      type: 'object',
      properties: {
        limit: {
          type: 'number',
          description: 'Maximum number of channels to return (default 100, max 200)',
        },
        cursor: {
          type: 'string',
          description: 'Pagination cursor for next page of results',
        },
      },
    },
    source: 'mcp',
    toolset: 'mcp-slack',
  },
  {
    name: 'slack_post_message',
    description: 'Post a new message to a Slack channel',
    inputSchema: {
      type: 'object',
      properties: {
        channel_id: {
          type: 'string',
          description: 'The ID of the channel to post to',
        },
        text: {
          type: 'string',
          description: 'The message text to post',
        },
      },
      required: ['channel_id', 'text'],
    },
    source: 'mcp',
    toolset: 'mcp-slack',
  },
  {
    name: 'slack_reply_to_thread',
    description: 'Reply to a specific message thread in Slack',
    inputSchema: {
      type: 'object',
      properties: {
        channel_id: {
          type: 'string',
          description: 'The ID of the channel containing the thread',
        },
        thread_ts: {
          type: 'string',
          description:
            "The timestamp of the parent message in the format '1234567890.123456'. Timestamps in the format without the period can be converted by adding the period such that 6 numbers come after it.",
        },
        text: {
          type: 'string',
          description: 'The reply text',
        },
      },
      required: ['channel_id', 'thread_ts', 'text'],
    },
    source: 'mcp',
    toolset: 'mcp-slack',
  },
  {
    name: 'slack_add_reaction',
    description: 'Add a reaction emoji to a message',
    inputSchema: {
      type: 'object',
      properties: {
        channel_id: {
          type: 'string',
          description: 'The ID of the channel containing the message',
        },
        timestamp: {
          type: 'string',
          description: 'The timestamp of the message to react to',
        },
        reaction: {
          type: 'string',
          description: 'The name of the emoji reaction (without ::)',
        },
      },
      required: ['channel_id', 'timestamp', 'reaction'],
    },
    source: 'mcp',
    toolset: 'mcp-slack',
  },
  {
    name: 'slack_get_channel_history',
    description: 'Get recent messages from a channel',
    inputSchema: {
      type: 'object',
      properties: {
        channel_id: {
          type: 'string',
          description: 'The ID of the channel',
        },
        limit: {
          type: 'number',
          description: 'Number of messages to retrieve (default 10)',
        },
      },
      required: ['channel_id'],
    },
    source: 'mcp',
    toolset: 'mcp-slack',
  },
  {
    name: 'slack_get_thread_replies',
    description: 'Get all replies in a message thread',
    inputSchema: {
      type: 'object',
      properties: {
        channel_id: {
          type: 'string',
          description: 'The ID of the channel containing the thread',
        },
        thread_ts: {
          type: 'string',
          description:
            "The timestamp of the parent message in the format '1234567890.123456'. Timestamps in the format without the period can be converted by adding the period such that 6 numbers come after it.",
        },
      },
      required: ['channel_id', 'thread_ts'],
    },
    source: 'mcp',
    toolset: 'mcp-slack',
  },
  {
    name: 'slack_get_users',
    description: 'Get a list of all users in the workspace with their basic profile information',
    inputSchema: {
      type: 'object',
      properties: {
        cursor: {
          type: 'string',
          description: 'Pagination cursor for next page of results',
        },
        limit: {
          type: 'number',
          description: 'Maximum number of users to return (default 100, max 200)',
        },
      },
    },
    source: 'mcp',
    toolset: 'mcp-slack',
  },
  {
    name: 'slack_get_user_profile',
    description: 'Get detailed profile information for a specific user',
    inputSchema: {
      type: 'object',
      properties: {
        user_id: {
          type: 'string',
          description: 'The ID of the user',
        },
      },
      required: ['user_id'],
    },
    source: 'mcp',
    toolset: 'mcp-slack',
  },
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
