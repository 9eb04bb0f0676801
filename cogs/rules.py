"""/rules and /card: the glossary and card lookup, privately by default with a Share button.

Every button is a dynamic item keyed by what it shows (a term, a card, a letter), so a
lookup posted before a restart still works. Lookups read data loaded once; pictures are
drawn in a worker thread.
"""
from __future__ import annotations

import asyncio
from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from cogs import replies
from cogs.options import Code
from cogs.pictures import as_file
from engine.command_text import quote
from engine.glossary import RULESET_NAMES, Entry, load_glossary
from engine.glossary.cards import CardInfo, answer, card_index, card_names
from engine.service import ServiceError
from images.card import render_card

MAX_CHOICES = 25
ROWS, PER_ROW = 5, 5  # Discord's limits on a message's buttons
PAGE_HEADROOM = 100  # characters of a browser page kept for its heading
LINK_ROWS = ROWS - 1  # an entry's "see" buttons; the last row is for Share


def entry_text(entry: Entry) -> str:
    """An entry as a message: the term (and its ruleset when another ruleset has the same
    term), its meaning, the rule in our words and the rulings."""
    glossary = load_glossary()
    where = RULESET_NAMES.get(entry.ruleset, entry.ruleset)
    both = len(glossary.rulesets_of(entry)) > 1
    lines = [f"**{entry.term}**" + (f" ({where})" if both else f" · {where}"), entry.short]
    if entry.rule:
        lines.append(entry.rule.strip())
    if entry.rulings:
        lines.append("Our rulings: " + ", ".join(entry.rulings) + " (docs/rulings.md, docs/leagues.md)")
    cards = card_names(entry)
    if cards:
        lines.append("Cards: " + ", ".join(cards))
    return replies.clip("\n".join(lines))


def entry_view(entry: Entry) -> discord.ui.View:
    """A button per "see" link (at most 4 rows) and Share."""
    glossary = load_glossary()
    view = discord.ui.View(timeout=None)
    for n, link in enumerate(entry.see[:LINK_ROWS * PER_ROW]):
        target = glossary.resolve(link, entry.ruleset)
        if target is not None:
            view.add_item(RuleButton(target.key, f"See {target.term}"[:80], row=n // PER_ROW))
    view.add_item(ShareButton("rule", entry.key, row=LINK_ROWS))
    return view


def _line(entry: Entry) -> str:
    return f"• **{entry.term}** ({RULESET_NAMES.get(entry.ruleset, entry.ruleset)}): {entry.short}"


def browse_pages() -> list[tuple[str, list[Entry]]]:
    """The A-Z browser's pages in order: (letter, its terms), a letter split over as many
    pages as its lines need to stay within one message."""
    glossary = load_glossary()
    pages: list[tuple[str, list[Entry]]] = []
    for letter in glossary.letters():
        page: list[Entry] = []
        size = 0
        for entry in glossary.letter(letter):
            if page and size + len(_line(entry)) + 1 > replies.MAX_CONTENT - PAGE_HEADROOM:
                pages.append((letter, page))
                page, size = [], 0
            page.append(entry)
            size += len(_line(entry)) + 1
        pages.append((letter, page))
    return pages


def letter_page(letter: str, part: int = 1) -> tuple[str, discord.ui.View]:
    """Page `part` of a letter in the A-Z browser: its terms, Previous/Next through every
    page, and a button per letter."""
    pages = browse_pages()
    letters = list(dict.fromkeys(initial for initial, _ in pages))
    letter = letter.upper() if letter.upper() in letters else letters[0]
    own = [n for n, (initial, _) in enumerate(pages) if initial == letter]
    index = own[min(max(part, 1), len(own)) - 1]
    entries = pages[index][1]
    count = f"{len(entries)} terms" + (f", page {own.index(index) + 1} of {len(own)}" if len(own) > 1 else "")
    lines = [f"**Rules glossary: {letter}** ({count})"] + [_line(e) for e in entries]
    view = discord.ui.View(timeout=None)
    for label, to in (("Previous", index - 1), ("Next", (index + 1) % len(pages))):
        initial = pages[to][0]
        first = next(n for n, (other, _) in enumerate(pages) if other == initial)
        view.add_item(LetterButton(initial, label, part=to % len(pages) - first + 1, row=0))
    for n, other in enumerate(letters[:ROWS * PER_ROW - 2]):  # past 23 letters, Next reaches the rest
        view.add_item(LetterButton(other, other, row=(n + 2) // PER_ROW, current=other == letter))
    return "\n".join(lines), view


def card_text(card: CardInfo) -> str:
    """A card as a message (its picture goes with it)."""
    lines = [f"**{card.name}** ({card.kind}, {RULESET_NAMES.get(card.ruleset, card.ruleset)}; in commands "
             f"`{card.code}`)", card.text]
    lines += list(card.facts)
    if card.timing:
        lines.append(f"When: {card.timing}")
    if card.rulings:
        lines.append("Rulings: " + ", ".join(card.rulings))
    return replies.clip("\n".join(line for line in lines if line))


async def _card_files(card: CardInfo) -> list[discord.File]:
    picture = await asyncio.to_thread(render_card, card)
    return [as_file(f"{card.code}.png", picture)]


async def show_entry(interaction: discord.Interaction, entry: Entry, *, public: bool = False) -> None:
    """Answer with the entry (privately unless shared)."""
    view = discord.utils.MISSING if public else entry_view(entry)
    await interaction.response.send_message(entry_text(entry), view=view, ephemeral=not public,
                                            allowed_mentions=replies.NO_MENTIONS)
    replies.unlisten(view)


async def show_card(interaction: discord.Interaction, card: CardInfo, *, public: bool = False) -> None:
    """Answer with the card and its picture (privately unless shared)."""
    await interaction.response.defer(ephemeral=not public, thinking=True)
    view = discord.ui.View(timeout=None)
    if not public:
        view.add_item(ShareButton("card", card.code))
    await interaction.followup.send(card_text(card), files=await _card_files(card), view=view,
                                    ephemeral=not public, allowed_mentions=replies.NO_MENTIONS)
    replies.unlisten(view)


class RuleButton(discord.ui.DynamicItem[discord.ui.Button], template=r"rr:rule:(?P<key>[a-z]+/[a-z0-9-]+)"):
    """Opens a glossary entry privately (a "see" link, or the rule a refusal cites)."""

    def __init__(self, key: str, label: str = "The rule", row: Optional[int] = None):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, row=row,
                                           custom_id=f"rr:rule:{key}"))
        self.key = key

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["key"], item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        entry = load_glossary().get(self.key)
        if entry is None:
            await replies.reply(interaction, "That glossary entry no longer exists; try /rules.")
            return
        await show_entry(interaction, entry)


class LetterButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=r"rr:az:(?P<letter>[A-Z])(?P<part>[0-9]{0,2})(?P<tag>:\w+)?"):
    """Turns the A-Z browser to a letter, or one page of it (edits the private message in place)."""

    def __init__(self, letter: str, label: str, part: int = 1, row: Optional[int] = None, current: bool = False):
        tag = "" if label == letter else f":{label.lower()}"
        super().__init__(discord.ui.Button(
            label=label, row=row, disabled=current,
            style=discord.ButtonStyle.primary if current else discord.ButtonStyle.secondary,
            custom_id=f"rr:az:{letter}{part if part > 1 else ''}{tag}"))
        self.letter, self.part = letter, part

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["letter"], item.label, part=int(match["part"] or 1), current=item.disabled)

    async def callback(self, interaction: discord.Interaction) -> None:
        content, view = letter_page(self.letter, self.part)
        await interaction.response.edit_message(content=content, view=view)


class ShareButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"rr:share:(?P<what>rule|card):(?P<key>[A-Za-z0-9/-]+)"):
    """Posts the private answer in the channel for everyone."""

    def __init__(self, what: str, key: str, row: Optional[int] = None):
        super().__init__(discord.ui.Button(label="Share in channel", style=discord.ButtonStyle.success, row=row,
                                           custom_id=f"rr:share:{what}:{key}"))
        self.what, self.key = what, key

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match["what"], match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.what == "rule":
            entry = load_glossary().get(self.key)
            if entry is not None:
                await show_entry(interaction, entry, public=True)
                return
        else:
            card = card_index().get(self.key)
            if card is not None:
                await show_card(interaction, card, public=True)
                return
        await replies.reply(interaction, "That is no longer in the glossary.")


ITEMS = (RuleButton, LetterButton, ShareButton)


async def table_ruleset(interaction: discord.Interaction) -> Optional[str]:
    """The ruleset of the game in this channel or thread, if there is one: its terms and
    cards are preferred."""
    try:
        return (await replies.game_here(interaction.client, interaction)).ruleset
    except ServiceError:
        return None


async def complete_term(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Terms that match what is typed (typos and plurals forgiven), the channel's game's first."""
    glossary = load_glossary()
    found = (glossary.lookup(current, limit=MAX_CHOICES, prefer=await table_ruleset(interaction))
             if current.strip() else glossary.entries[:MAX_CHOICES])
    return [app_commands.Choice(name=f"{e.term} ({RULESET_NAMES.get(e.ruleset, e.ruleset)})"[:100], value=e.key)
            for e in found]


async def complete_card(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Cards that match what is typed, the channel's game's first."""
    index = card_index()
    found = (index.find(current, limit=MAX_CHOICES, prefer=await table_ruleset(interaction))
             if current.strip() else index.cards[:MAX_CHOICES])
    return [app_commands.Choice(name=f"{c.name} ({c.kind})"[:100], value=c.code) for c in found]


class Rules(commands.Cog):
    """The rules at players' fingertips."""

    def __init__(self, bot):
        self.bot = bot

    async def cog_load(self) -> None:
        await asyncio.to_thread(card_index)  # packs and glossary parsed off the event loop
        self.bot.add_dynamic_items(*ITEMS)

    @app_commands.command(name="rules", description="Look up a rule or game term (no term: browse A-Z)")
    @app_commands.autocomplete(term=complete_term)
    async def rules(self, interaction: discord.Interaction, term: Optional[Code] = None) -> None:
        if not term:
            content, view = letter_page("A")
            await interaction.response.send_message(content, view=view, ephemeral=True)
            replies.unlisten(view)
            return
        found = answer(term, await table_ruleset(interaction))
        if found.card is not None:
            await show_card(interaction, found.card)
        elif found.entry is not None:
            await show_entry(interaction, found.entry)
        else:
            nearest = ", ".join(f"{e.term} ({RULESET_NAMES.get(e.ruleset, e.ruleset)})" for e in found.nearest)
            await replies.reply(interaction, f"No rule or term like '{quote(term)}'. Nearest: {nearest}. "
                                             "Or try /rules with no term to browse A-Z.")

    @app_commands.command(name="card", description="Look up a card or character, with its picture")
    @app_commands.autocomplete(name=complete_card)
    async def card(self, interaction: discord.Interaction, name: Code) -> None:
        index = card_index()
        prefer = await table_ruleset(interaction)
        found = index.get(name) or next(iter(index.find(name, prefer=prefer)), None)
        if found is None:
            nearest = ", ".join(c.name for c in index.nearest(name, prefer))
            await replies.reply(interaction, f"No card like '{quote(name)}'. Nearest: {nearest}.")
            return
        await show_card(interaction, found)


async def setup(bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Rules(bot))
