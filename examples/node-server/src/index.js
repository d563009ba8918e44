#!/usr/bin/env node
// A notes server over stdio, built with the official TypeScript SDK.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const notes = new Map();
const server = new McpServer({ name: "notes", version: "1.0.0" });

server.registerTool(
  "add_note",
  {
    description:
      "Save a new note under a title. Use this when the user wants to write something down or remember it. Not for changing an existing note: use update_note.",
    inputSchema: {
      title: z.string().describe("A short title that names the note"),
      body: z.string().describe("The text of the note"),
    },
  },
  async ({ title, body }) => {
    notes.set(title, body);
    return { content: [{ type: "text", text: `Saved "${title}".` }] };
  },
);

server.registerTool(
  "update_note",
  {
    description:
      "Replace the text of a note that already exists. Use this when the user wants to change or correct a saved note. Not for new notes: use add_note.",
    inputSchema: {
      title: z.string().describe("The title of the note to change"),
      body: z.string().describe("The new text of the note"),
    },
  },
  async ({ title, body }) => {
    notes.set(title, body);
    return { content: [{ type: "text", text: `Updated "${title}".` }] };
  },
);

server.registerTool(
  "search_notes",
  {
    description:
      "Find saved notes whose title or text contains the given words. Use this when the user asks what they wrote about something.",
    inputSchema: { query: z.string().describe("Words to look for in titles and text") },
    annotations: { readOnlyHint: true },
  },
  async ({ query }) => {
    const hits = [...notes].filter(([t, b]) => (t + " " + b).includes(query)).map(([t]) => t);
    return { content: [{ type: "text", text: hits.join("\n") || "No notes match." }] };
  },
);

await server.connect(new StdioServerTransport());
