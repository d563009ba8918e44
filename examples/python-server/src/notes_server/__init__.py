"""A notes server over stdio, built with the official Python SDK (mcp 1.x or 2.x)."""

from typing import Annotated

from pydantic import Field

try:  # mcp 2.x
    from mcp.server.mcpserver import MCPServer as _Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as _Server

server = _Server("notes")
_notes: dict[str, str] = {}


@server.tool()
def add_note(
    title: Annotated[str, Field(description="A short title that names the note")],
    body: Annotated[str, Field(description="The text of the note")],
) -> str:
    """Save a new note under a title. Use this when the user wants to write something down
    or remember it. Not for changing an existing note: use update_note."""
    _notes[title] = body
    return f"Saved {title!r}."


@server.tool()
def update_note(
    title: Annotated[str, Field(description="The title of the note to change")],
    body: Annotated[str, Field(description="The new text of the note")],
) -> str:
    """Replace the text of a note that already exists. Use this when the user wants to change
    or correct a saved note. Not for new notes: use add_note."""
    _notes[title] = body
    return f"Updated {title!r}."


def main() -> None:
    server.run()
