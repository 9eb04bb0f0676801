"""Whom a team decision calls (engine.service.team_calls; rulings P51, P52, P53, P64), from a public view."""
from engine.service.reactions import ABLE, EVERY, NEVER
from engine.service.team_calls import called_seats, chooser


def table(activated: dict[str, list[bool]], tokens: dict[str, int] = {}, pending: list[dict] = ()) -> dict:
    """A public view of a 2 vs 2 game: each seat's characters in play (activated or not)."""
    characters = {f"{seat}-{n}": {"controller": seat, "status": "in_play", **({"activated": True} if done else {})}
                  for seat, flags in activated.items() for n, done in enumerate(flags)}
    return {"characters": characters, "players": [{"seat": s, "bonus_actions": tokens.get(s, 0)} for s in activated],
            "pending": list(pending)}


TEAM_CHOICE = {"kind": "activate", "player": "p1", "also": ["p3"]}
PEOPLE = {"p1", "p2", "p3", "p4"}


def asks(seat: str) -> str:
    """Every player keeps the default reaction preference (P23)."""
    return ABLE


def test_the_teammate_with_most_left_to_activate_is_called_never_one_with_nothing_left():
    view = table({"p1": [True, True, False], "p3": [False, False], "p2": [], "p4": []}, pending=[TEAM_CHOICE])
    assert called_seats(view, PEOPLE, lambda seat: [], asks) == ["p3"]
    assert called_seats(view, PEOPLE, lambda seat: [], asks, chose_last="p3") == ["p3"], "most left comes first"
    view = table({"p1": [True, True], "p3": [True]}, tokens={"p1": 1})
    assert chooser(view, TEAM_CHOICE, ["p1", "p3"]) == "p1", "a bonus token is something left to activate"
    view = table({"p1": [True, False], "p3": []}, tokens={"p3": 2})
    assert chooser(view, TEAM_CHOICE, ["p1", "p3"]) == "p1", "tokens without a character in play are nothing left"


def test_a_tie_goes_to_the_teammate_who_did_not_choose_last():
    view = table({"p1": [True, False], "p3": [True, False]})
    assert [chooser(view, TEAM_CHOICE, ["p1", "p3"], last) for last in ("p1", "p3", None, "p2")] == \
        ["p3", "p1", "p1", "p1"]


def test_placing_calls_the_teammate_with_most_characters_left_to_place():
    arriving = {"kind": "place", "player": "p1", "also": ["p3"], "info": {"why": "escalation"}}
    view = {"round": 2, "players": [{"seat": "p1"}, {"seat": "p3"}], "pending": [arriving], "characters": {
        "a": {"controller": "p1", "status": "waiting", "escalation": 2},
        "b": {"controller": "p3", "status": "waiting", "escalation": 2},
        "c": {"controller": "p3", "status": "waiting", "escalation": 2},
        "d": {"controller": "p1", "status": "waiting", "escalation": 3},
        "e": {"controller": "p1", "status": "waiting", "escalation": 3}}}
    assert called_seats(view, PEOPLE, lambda seat: [], asks) == ["p3"], "arriving this round only"
    beaming = {**arriving, "info": {"why": "beam down"}}
    view = {**view, "pending": [beaming], "characters": {"a": {"controller": "p1"}, "b": {"controller": "p1"},
                                                           "c": {"controller": "p3", "status": "in_play"}}}
    assert called_seats(view, PEOPLE, lambda seat: [], asks) == ["p1"]


def test_a_teams_set_up_choice_calls_who_made_its_previous_one_else_its_first_seat():
    """P64: the side of the Main Corridor, a mission board, a board of the starting area."""
    for kind in ("corridor", "board", "start_area"):
        view = {"pending": [{"kind": kind, "player": "p2", "also": ["p4"]}]}
        assert called_seats(view, PEOPLE, lambda seat: [], asks) == ["p2"], "the team's first seat before any"
        assert called_seats(view, PEOPLE, lambda seat: [], asks, chose_last="p4") == ["p4"]
        assert called_seats(view, PEOPLE, lambda seat: [], asks, chose_last="p2") == ["p2"]
        assert called_seats(view, PEOPLE, lambda seat: [], asks, chose_last="p1") == ["p2"], "not of the team"
        assert called_seats(view, {"p1", "p4"}, lambda seat: [], asks) == ["p4"], "the person beside a computer"


def test_a_person_beside_a_computer_is_called():
    view = table({"p1": [True, True, True, False], "p3": [False, False, False]}, pending=[TEAM_CHOICE])
    assert called_seats(view, {"p1", "p2"}, lambda seat: [], asks) == ["p1"]


def test_a_team_window_calls_the_teammates_who_could_play():
    window = {"kind": "interrupt", "player": "p2", "also": ["p4"]}
    legal = {"p2": ["pass"], "p4": ["play fed-int-1", "pass"]}
    view = table({"p2": [False], "p4": [False]}, pending=[window])
    assert called_seats(view, PEOPLE, legal.get, asks) == ["p4"]
    assert called_seats(view, PEOPLE, legal.get, lambda seat: EVERY if seat == "p2" else ABLE) == ["p2", "p4"], \
        "asked at every window by their own choice (P23)"
    never = {"p2": ["play bo-int-1", "pass"], "p4": ["play fed-int-1", "pass"]}
    assert called_seats(view, PEOPLE, never.get, lambda seat: NEVER if seat == "p2" else ABLE) == ["p4"], \
        "a teammate who chose never to be asked is not called while the other could play"
    assert called_seats(view, {"p2"}, legal.get, asks) == ["p2"], \
        "the person beside a computer that could play is still called: the computer waits for them (R62)"


def test_a_decision_of_one_seat_calls_that_seat():
    view = table({"p1": [False], "p2": [False]}, pending=[{"kind": "reroll", "player": "p2"},
                                                          {"kind": "action", "player": "p1"}])
    assert called_seats(view, PEOPLE, lambda seat: ["pass"], asks) == ["p2", "p1"]


def test_a_teams_reroll_window_calls_the_player_whose_dice_they_are_when_they_could_reroll():
    window = {"kind": "reroll", "player": "p2", "also": ["p4"]}
    view = {**table({"p2": [False], "p4": [False]}, pending=[window]),
            "roll": {"actor_player": "p1", "target_player": "p4"}}
    cards = {"p2": ["reroll bo-1 all", "pass"], "p4": ["reroll di-1 all", "pass"]}
    assert called_seats(view, PEOPLE, cards.get, asks) == ["p4"], "the defender's player, not the teammate"
    assert called_seats(view, PEOPLE, cards.get, lambda seat: EVERY if seat == "p2" else ABLE) == ["p2", "p4"], \
        "asked at every window by their own choice (P23)"
    assert called_seats({**view, "roll": {"actor_player": "p1", "target_player": "p3"}}, PEOPLE, cards.get,
                        asks) == ["p2", "p4"], "the player who rolled cannot re-roll: whoever can"
