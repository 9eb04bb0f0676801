"""Letting discord.py's objects go once the bot is done with them.

discord.py leaves reference cycles behind every interaction: the interaction and its
response refer to each other (and hold the clicked message with all its components, the
member, the channel), and the view it rebuilds from the clicked message to find one of our
dynamic items refers to its items and they to it. Only a full garbage collection frees a
cycle, and a full collection holds the event loop for as long as it walks (collector.py,
docs/performance.md). Cut once the bot has answered, reference counting frees them at once.
"""
from __future__ import annotations

from typing import Callable

import discord


def let_go(interaction: discord.Interaction) -> None:
    """Cut the interaction's cycle with its response: call only once nothing will answer it
    any more (a later `interaction.response` would not know it was answered)."""
    try:
        del interaction._cs_response  # the response refers back to the interaction
    except AttributeError:  # nothing asked for the response
        pass


def sent_view(store: Callable) -> Callable:
    """discord.py's `store_view`, then: a view sent whose every item is one of our dynamic
    items (found again by its custom id, never by the view) has done its work, so its items
    are let go (a panel's selects and their options, some 100 objects a panel)."""
    def stored(view, message_id=None):
        store(view, message_id)
        children = list(view.walk_children()) if hasattr(view, "walk_children") else []
        if children and all(isinstance(item, discord.ui.DynamicItem) for item in children):
            view.clear_items()
    return stored


class _Noted:
    """A dynamic item class that notes each item it makes (discord.py only calls its
    `from_custom_id`)."""

    __slots__ = ("factory", "made")

    def __init__(self, factory):
        self.factory, self.made = factory, []

    async def from_custom_id(self, interaction, item, match):
        found = await self.factory.from_custom_id(interaction, item, match)
        self.made.append(found)
        return found

    def __repr__(self) -> str:
        return repr(self.factory)


def dynamic_call(call: Callable) -> Callable:
    """discord.py's `schedule_dynamic_item_call` (a click on one of our dynamic items), then:
    the view discord.py rebuilt from the clicked message lets its items go, and the
    interaction its response. Nothing answers a click after its item's callback returned:
    no callback of ours leaves a task behind that holds its interaction."""
    async def called(component_type, factory, interaction, custom_id, match):
        noted = _Noted(factory)
        try:
            await call(component_type, noted, interaction, custom_id, match)
        finally:
            for item in noted.made:
                if item.view is not None:
                    item.view.clear_items()
            let_go(interaction)
    return called


def command_call(call: Callable) -> Callable:
    """The command tree's `_call` (a slash command or its autocomplete), then: the
    interaction lets its response go. Not when the command raised: the tree's error
    handler may still answer through the response."""
    async def called(interaction):
        await call(interaction)
        let_go(interaction)
    return called
