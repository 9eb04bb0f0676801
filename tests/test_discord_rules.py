"""/rules and /card through the fake Discord: private answers, Share, see-also buttons,
A-Z pagination, fuzzy autocomplete, and refusals that open their rule."""
from engine.glossary import load_glossary
from engine.glossary.cards import card_index
from tests.discord_harness import CHANNEL_ID, EPHEMERAL, FakeDiscord, thread_of
from tests.test_discord_game import ANN, BO, new_game


def buttons(fake, message) -> dict[str, str]:
    """custom id -> label of every button of a message."""
    return {c["custom_id"]: c.get("label", "") for c in fake.components(message)}


async def test_a_term_is_answered_privately_with_its_links_and_can_be_shared(monkeypatch, tmp_path):
    glossary = load_glossary()
    move = glossary.get("awaymissions/move")
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        asked = fake.slash(ANN, "rules", term="awaymissions/move")
        await fake.dispatch(asked)
        answer = fake.original(asked)
        assert answer["flags"] & EPHEMERAL and f"**{move.term}**" in answer["content"]
        assert move.short in answer["content"]
        links = {glossary.resolve(link, "awaymissions").key for link in move.see}
        shown = buttons(fake, answer)
        assert {key.removeprefix("rr:rule:") for key in shown if key.startswith("rr:rule:")} == links
        assert "rr:share:rule:awaymissions/move" in shown
        assert fake.public() == [], "nothing public until shared"

        see = next(key for key in shown if key.startswith("rr:rule:"))
        followed = fake.click(ANN, int(answer["id"]), see)
        await fake.dispatch(followed)
        target = glossary.get(see.removeprefix("rr:rule:"))
        assert fake.original(followed)["flags"] & EPHEMERAL and f"**{target.term}**" in fake.original(followed)["content"]

        share = fake.click(ANN, int(answer["id"]), "rr:share:rule:awaymissions/move")
        await fake.dispatch(share)
        posted = fake.original(share)
        assert not posted["flags"] & EPHEMERAL and int(posted["channel_id"]) == CHANNEL_ID
        assert f"**{move.term}**" in posted["content"] and posted["components"] == []

        await fake.shutdown()
        await fake.boot()  # buttons of an answer given before a restart still work
        again = fake.click(BO, int(answer["id"]), see)
        await fake.dispatch(again)
        assert f"**{target.term}**" in fake.original(again)["content"]


async def test_typed_terms_forgive_typos_and_plurals_and_unknown_terms_get_a_hint(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        assert (await fake.autocomplete(ANN, "rules", "term", CHANNEL_ID, term="atack"))[0] == "awaymissions/attack"
        assert (await fake.autocomplete(ANN, "rules", "term", CHANNEL_ID, term="skill tests"))[0] \
            == "awaymissions/skill-test"
        offered = await fake.autocomplete(ANN, "rules", "term", CHANNEL_ID, term="")
        assert 0 < len(offered) <= 25
        typed = fake.slash(ANN, "rules", term="skill tests")  # sent without picking a suggestion
        await fake.dispatch(typed)
        assert "**Skill test**" in fake.original(typed)["content"]
        nonsense = fake.slash(ANN, "rules", term="qqqqzzzz")
        await fake.dispatch(nonsense)
        assert "No rule or term like 'qqqqzzzz'" in fake.original(nonsense)["content"]
        assert fake.original(nonsense)["flags"] & EPHEMERAL


async def test_browsing_a_to_z_visits_every_letter_and_every_term_once(monkeypatch, tmp_path):
    glossary = load_glossary()
    letters = glossary.letters()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        browse = fake.slash(ANN, "rules")
        await fake.dispatch(browse)
        page = fake.original(browse)
        assert page["flags"] & EPHEMERAL
        seen_letters, seen_terms = [], []
        for _ in range(len(letters) + 5):
            heading = page["content"].splitlines()[0]
            letter = heading.split(": ")[1][0]
            if seen_letters and letter == "A" and "page 2" not in heading:
                break  # Next went round to the start
            seen_letters.append(letter)
            seen_terms += [line.split("**")[1] for line in page["content"].splitlines()[1:] if line.startswith("•")]
            assert len(page["content"]) <= 2000
            current = [c for c in fake.components(page) if c.get("disabled")]
            assert [c["label"] for c in current] == [letter]
            after = next(c["custom_id"] for c in fake.components(page) if c["label"] == "Next")
            await fake.dispatch(fake.click(ANN, int(page["id"]), after))
            page = fake.messages[int(page["id"])]  # edited in place
        assert list(dict.fromkeys(seen_letters)) == letters and len(seen_letters) > len(letters), \
            "a long letter is split over pages"
        assert page["content"].startswith("**Rules glossary: A**")
        assert sorted(seen_terms) == sorted(e.term for e in glossary.entries)
        before = next(c["custom_id"] for c in fake.components(page) if c["label"] == "Previous")
        await fake.dispatch(fake.click(ANN, int(page["id"]), before))
        page = fake.messages[int(page["id"])]
        assert page["content"].startswith(f"**Rules glossary: {letters[-1]}**")
        jump = next(c["custom_id"] for c in fake.components(page) if c.get("label") == "M")
        await fake.dispatch(fake.click(ANN, int(page["id"]), jump))
        assert fake.messages[int(page["id"])]["content"].startswith("**Rules glossary: M**")
        assert len(fake.components(page)) == 2 + len(letters), "Previous, Next and a button per letter"
        assert fake.public() == []


async def test_a_card_comes_with_its_picture_privately_and_can_be_shared(monkeypatch, tmp_path):
    card = card_index().get("REYES")
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        assert "REYES" in await fake.autocomplete(ANN, "card", "name", CHANNEL_ID, name="Reyse")
        asked = fake.slash(ANN, "card", name="REYES")
        await fake.dispatch(asked)
        answer = fake.messages[max(fake.messages)]
        assert answer["flags"] & EPHEMERAL and f"**{card.name}**" in answer["content"]
        assert [a["filename"] for a in answer["attachments"]] == ["REYES.png"]
        picture = next(s for s in fake.sent if s.files and s.message_id == int(answer["id"])).files[0][1]
        assert picture.startswith(b"\x89PNG")
        share = fake.click(ANN, int(answer["id"]), "rr:share:card:REYES")
        await fake.dispatch(share)
        posted = fake.messages[max(fake.messages)]
        assert not posted["flags"] & EPHEMERAL and f"**{card.name}**" in posted["content"]
        assert [a["filename"] for a in posted["attachments"]] == ["REYES.png"] and posted["components"] == []
        unknown = fake.slash(ANN, "card", name="zzzzqqqq")
        await fake.dispatch(unknown)
        assert "No card like" in fake.original(unknown)["content"]


async def test_a_refused_command_offers_the_rule_that_refused_it(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        version = (await fake.bot.service.get(game_id)).version
        bad = fake.slash(ANN, "play", thread, command="core NO-SUCH-MISSION")
        await fake.dispatch(bad)
        refusal = fake.original(bad)
        assert refusal["flags"] & EPHEMERAL
        assert buttons(fake, refusal) == {"rr:rule:awaymissions/core-mission": "Show the rule"}
        assert (await fake.bot.service.get(game_id)).version == version
        opened = fake.click(ANN, int(refusal["id"]), "rr:rule:awaymissions/core-mission")
        await fake.dispatch(opened)
        entry = load_glossary().get("awaymissions/core-mission")
        assert fake.original(opened)["flags"] & EPHEMERAL and f"**{entry.term}**" in fake.original(opened)["content"]
        assert thread == thread_of(fake)


async def test_rules_and_card_prefer_the_game_of_the_thread_and_speak_in_names(monkeypatch, tmp_path):
    """Issue 29: the game in the thread decides between rulesets; cards are named, not coded;
    a card asked for as a rule is shown; a term like nothing offers the nearest terms."""
    async def answered(fake, channel, command, **values):
        asked = fake.slash(ANN, command, channel, **values)
        await fake.dispatch(asked)
        return fake.messages[max(fake.messages)]["content"]

    async with FakeDiscord(monkeypatch, str(tmp_path / "am.db")) as fake:
        thread, _ = await new_game(fake)
        assert (await answered(fake, thread, "rules", term="movement")).startswith("**Move**")
        assert (await fake.autocomplete(ANN, "rules", "term", thread, term="first player"))[0] \
            == "awaymissions/first-activation"
        cover = await answered(fake, CHANNEL_ID, "rules", term="cover")
        assert "Cards: Dive for Cover" in cover and "fed-dive-for-cover" not in cover
        nothing = await answered(fake, CHANNEL_ID, "rules", term="xyzzy")
        assert "No rule or term like 'xyzzy'. Nearest: " in nothing
    async with FakeDiscord(monkeypatch, str(tmp_path / "renegades.db")) as fake:
        await fake.dispatch(fake.slash(ANN, "game new", ruleset="renegades", mode="solo"))
        thread = thread_of(fake)
        assert (await answered(fake, thread, "rules", term="movement")).startswith("**Crew movement**")
        assert (await answered(fake, thread, "rules", term="wounds")).startswith("**Wounds**")
        assert (await fake.autocomplete(ANN, "rules", "term", thread, term="first player"))[0] \
            == "renegades/initiative"
        assert (await answered(fake, thread, "rules", term="Hard Burn")).startswith("**Hard Burn** (tactical card")
        vesk = await answered(fake, thread, "card", name="Captain Orla Vesk")
        assert vesk.startswith("**Captain Orla Vesk** (crewmember, Renegades") and "Rally" in vesk
        assert "VESK" in await fake.autocomplete(ANN, "card", "name", thread, name="orla vesk")
