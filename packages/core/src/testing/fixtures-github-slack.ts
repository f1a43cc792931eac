import type { ToolDefinition } from '../types.js';

// Recorded from @modelcontextprotocol/server-github and -slack (MIT licensed), trimmed;
// tool metadata only, no code. Part of `conformanceTools` (fixtures.ts).

/** The GitHub and Slack tools of `conformanceTools`, in its order. */
export const githubAndSlackTools: readonly ToolDefinition[] = [
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
];
