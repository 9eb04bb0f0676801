"""The recap and the summary of a finished game (issue 28 items 2-4): a frame per activation
(Renegades: the orbit per round, the surface per activation), at most 20 s and 8 MB, for a
complete seeded random game of every table; the summary's numbers counted again from the log;
hidden cards never shown."""
import io
import itertools
import json
import random
from collections import Counter
from fractions import Fraction
from types import SimpleNamespace

import pytest
from PIL import Image

from engine.awaymissions import autoplay as away_autoplay
from engine.awaymissions import combat
from engine.awaymissions.story import expected_hits
from engine.renegades import autoplay as renegades_autoplay
from engine.service import recaps, steps, story
from engine.service.rulesets import RULESETS
from engine.playout import play_out
from engine.story import turn_times
from images import recap
from images import summary as summary_rows
from tests.conftest import multi_config, two_player_config

TABLES = {
    "away missions, 2 players": ("awaymissions", two_player_config(), away_autoplay.random_command),
    "away missions, 3 players": ("awaymissions", multi_config(3, layout="six"), away_autoplay.random_command),
    "away missions, 4 players": ("awaymissions", multi_config(4, layout="six"), away_autoplay.random_command),
    "away missions, 2 vs 2": ("awaymissions", multi_config(4, teams=True, layout="six"), away_autoplay.random_command),
    "renegades, coalition vs renegades": ("renegades", {"players": [{"seat": "p1"}, {"seat": "p2"}]},
                                          renegades_autoplay.random_command),
    "renegades, co-op of 2": ("renegades", {"mode": "coop", "players": [{"seat": "p1"}, {"seat": "p2"}]},
                              renegades_autoplay.random_command),
    "renegades, solo": ("renegades", {"mode": "coop", "players": [{"seat": "p1"}]}, renegades_autoplay.random_command),
    "renegades, 4 players": ("renegades", {"players": [{"seat": f"p{i}"} for i in range(1, 5)], "world_cards": 10},
                             renegades_autoplay.random_command),
}
NAMES = {"p1": "Ann", "p2": "Bo", "p3": "Cy", "p4": "Di"}
SEED = 7


def played(name: str, seed: int = SEED):
    """(ruleset, config, log entries, a command every 7 seconds) of a complete random game."""
    ruleset_name, config, choose = TABLES[name]
    ruleset, log = RULESETS[ruleset_name], []

    def apply(state, seat, command):
        state, events = ruleset.apply(state, seat, command)
        log.append(SimpleNamespace(seat=seat, command=command, events=json.dumps(events), at=1000.0 + 7 * len(log)))
        return state, events
    play_out(ruleset.new_game(config, seed), random.Random(seed), choose, apply, 10_000)
    return ruleset, config, log


@pytest.fixture(scope="module", params=list(TABLES))
def game(request):
    ruleset, config, log = played(request.param)
    return SimpleNamespace(ruleset=ruleset, config=config, log=log, told=story.tell(ruleset, config, SEED, log, NAMES))


def logged(log, *kinds):
    return [e for entry in log for e in json.loads(entry.events) if e["type"] in kinds]


def test_a_frame_per_activation_and_for_renegades_the_orbit_per_round(game):
    walked = list(steps.walk(game.ruleset, game.config, SEED, [(e.seat, e.command, e.events) for e in game.log]))
    starts = steps.marks_of(walked).activations
    pictures = Counter(c.picture for c in game.told.chapters)
    if game.ruleset.name == "awaymissions":
        assert pictures == {"board": len(starts)}
        moves = logged(game.log, "moved", "attack")
    else:
        phases = [walked[n].state.phase for n in starts]
        orbit_rounds = {walked[n].round for n in starts if walked[n].state.phase == "orbital"}
        assert pictures == {"orbit": len(orbit_rounds), "surface": phases.count("surface")}
        assert [c.round for c in game.told.chapters if c.picture == "orbit"] == sorted(orbit_rounds)
        moves = logged(game.log, "ship_moved", "crew_moved", "ship_attack", "crew_attack")
    # every move and attack of the game is marked on the frame of its activation, once
    marked = [e for c in game.told.chapters for e in c.events if e in moves]
    assert len(marked) == len(moves) and moves


def test_the_recap_is_a_gif_of_those_frames_within_20_seconds_and_8_mb(game):
    made = recap.render_recap(game.told.chapters)
    gif = Image.open(io.BytesIO(made.data))
    assert gif.format == "GIF" and gif.n_frames == made.frames == len(game.told.chapters)
    shown = 0
    for frame in range(gif.n_frames):
        gif.seek(frame)
        shown += gif.info["duration"]
    assert shown == made.playing_ms <= recap.LONGEST_MS and gif.info["loop"] == 0  # how long the GIF plays, not a timing
    assert len(made.data) <= 8 << 20 and made.scale == 1.0


def test_hidden_cards_are_never_shown(game):
    """Every frame is drawn from the public view of a step of the game (no hand in it) and
    from events without their private parts."""
    walked = steps.walk(game.ruleset, game.config, SEED, [(e.seat, e.command, e.events) for e in game.log])
    public = [game.ruleset.view_for(step.state, None) for step in walked]
    for chapter in game.told.chapters:
        assert chapter.view in public
        assert not [p for p in chapter.view.get("players", []) if "hand" in p]
        assert all("private" not in e for e in chapter.events)


def test_the_summary_numbers_are_the_log_counted_again(game):
    tally, result = game.told.tally, game.told.result
    if game.ruleset.name == "awaymissions":
        assert tally.totals == result["scores"] and tally.missions == result["missions"]
        assert {team: (score, missions) for team, (_, score, missions) in tally.teams.items()} == {
            team: (score, result["team_missions"][team]) for team, score in result.get("teams", {}).items()}
        for team, (seats, score, _) in tally.teams.items():
            assert sum(result["scores"][seat] for seat in seats) == score
        for seat, lines in tally.points.items():
            assert sum(points for _, points in lines) == result["scores"][seat]
            scored = [e for e in logged(game.log, "scored", "bonus_points") if e["seat"] == seat]
            assert len([how for how, _ in lines if how != "core mission, at the end" and "(at the end)" not in how]) \
                == len(scored)
        attacks = [e for e in logged(game.log, "resolved") if e["kind"] == "attack"]
        dealt = Counter()
        for e in attacks:
            dealt[e["actor"]] += e.get("damage", 0)
        assert {k: v for k, v in dealt.items() if v} == tally.dealt
        assert sum(tally.taken.values()) == sum(dealt.values())
        assert sum(tally.rolls.values()) == len(logged(game.log, "rolled"))
    else:
        assert tally.totals == {f: result.get("reward", {}).get(f, 0) + result["digits"].get(f, 0)
                                for f in tally.totals}
        for faction, lines in tally.points.items():
            assert sum(amount for _, amount in lines) == tally.totals[faction]
        assert sum(tally.missions.values()) == (result["outcome"] == "won")
        attacks = logged(game.log, "crew_attack", "ship_attack")
        assert sum(tally.dealt.values()) == sum(e.get("wounds", e.get("damage")) for e in attacks)
        assert sum(tally.hits.values()) == sum(face >= 4 for e in attacks for face in e["dice"])
        assert sum(tally.expected.values()) == Fraction(sum(len(e["dice"]) for e in attacks), 2)
    assert {seat: t.answers for seat, t in game.told.turns.items()} == Counter(e.seat for e in game.log[1:])
    assert all(t.average == t.longest == 7.0 for t in game.told.turns.values())


def test_the_summary_and_recap_are_drawn_for_the_end_message(game):
    drawn = recaps.draw(game.ruleset, 3, game.config, SEED, game.log, NAMES, None)
    assert [name for name, _ in drawn] == ["recap.gif", "summary.png"]
    summary = Image.open(io.BytesIO(drawn[1][1]))
    assert summary.format == "PNG" and summary.width == 760
    # what the picture writes: every side's score and missions, every roll's side, every seat's times
    tally, rows = game.told.tally, summary_rows.lines_of(game.told.tally, game.told.turns, NAMES)
    said = {(kind, content[0]): content[1] for kind, content in rows if kind in ("side", "luck", "turns")}
    for side, total in tally.totals.items():
        assert said["side", tally.sides[side]] == summary_rows.score_words(total, tally.unit, tally.missions[side])
    for side, hits in tally.hits.items():
        assert said["luck", tally.sides[side]].startswith(f"{hits} hits, {float(tally.expected[side]):.1f} expected")
    for seat, took in game.told.turns.items():
        assert said["turns", NAMES[seat]] == f"average 7 s · longest 7 s · {took.answers} answers"


@pytest.mark.parametrize("dice, opposing", [(1, 0), (2, 0), (3, 0), (1, 1), (2, 1), (2, 2), (3, 2), (1, 3)])
def test_the_expected_hits_are_those_of_every_roll_counted_out(dice, opposing):
    """Ruling R114: luck is set against the exact mean of the dice as thrown."""
    total = Fraction(0)
    rolls = list(itertools.product(range(1, 7), repeat=dice + opposing))
    for faces in rolls:
        total += combat.compare(sorted(faces[:dice], reverse=True), sorted(faces[dice:], reverse=True)).count("hit")
    assert expected_hits(dice, opposing) == total / len(rolls)


def test_turn_times_run_from_the_previous_accepted_command():
    times = turn_times([("p1", 0.0), ("p2", 30.0), ("p1", 40.0), ("p2", 160.0), (None, 161.0), ("p1", 200.0)])
    assert times["p1"].answers == 2 and times["p1"].average == 24.5 and times["p1"].longest == 39.0
    assert times["p2"].answers == 2 and times["p2"].average == 75.0 and times["p2"].longest == 120.0


def test_frames_show_shorter_in_a_longer_game_and_never_below_what_gif_players_keep():
    assert recap.frame_ms(10) == recap.FRAME_MS
    assert recap.frame_ms(38) * 38 <= recap.LONGEST_MS and recap.frame_ms(38) % 10 == 0
    assert recap.frame_ms(1000) == recap.SHORTEST_MS


def test_a_recap_over_the_limit_is_drawn_smaller_and_one_that_cannot_fit_is_refused():
    ruleset, config, log = played("away missions, 2 players")
    chapters = story.tell(ruleset, config, SEED, log, NAMES).chapters
    full = recap.render_recap(chapters)
    smaller = recap.render_recap(chapters, limit=len(full.data) - 1)
    assert smaller.scale < 1.0 and len(smaller.data) < len(full.data) and smaller.frames == full.frames
    with pytest.raises(ValueError, match="does not fit"):
        recap.render_recap(chapters, limit=1000)
    with pytest.raises(ValueError, match="at least one"):
        recap.render_recap([])
