"""Content packs are validated on load; bad packs are refused with file, path and reason."""
import shutil

import pytest
import yaml

from engine.awaymissions.content import load_pack
from engine.errors import PackError


def test_starter_pack_loads_with_both_affiliations():
    pack = load_pack("content/starter")
    for affiliation in ("federation", "borg"):
        members = [c for c in pack.characters.values() if c.affiliation == affiliation]
        assert len(members) >= 8
        assert any("Specialist" in c.keywords for c in members)
        assert any(c.alternative_commander_for for c in members)
    assert {b.code for b in pack.boards.values() if b.kind == "mission"} == {
        "bridge", "engineering", "armory", "medical-lab", "science-lab", "transporter-room"}


@pytest.fixture
def pack_copy(tmp_path):
    target = tmp_path / "pack"
    shutil.copytree("content/starter", target)
    return target


def edit(path, change):
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data))


def test_every_problem_is_listed_with_file_and_path(pack_copy):
    def break_characters(data):
        data["characters"][0]["ratings"]["attack"] = "lots"
        data["characters"][1]["specializations"] = {"cooking": 1}
        data["characters"][2]["colour"] = "blue"

    edit(pack_copy / "characters.yaml", break_characters)
    with pytest.raises(PackError) as caught:
        load_pack(str(pack_copy))
    problems = caught.value.problems
    assert any(p.startswith("characters.yaml: $.characters[0].ratings.attack: Expected `int`") for p in problems)
    assert any("characters.yaml: $.characters[2]" in p and "colour" in p for p in problems)
    assert len(problems) >= 2


def test_cross_references_are_checked(pack_copy):
    edit(pack_copy / "teams.yaml", lambda data: data["teams"][0]["members"].append("NOBODY"))
    with pytest.raises(PackError, match="unknown character 'NOBODY'"):
        load_pack(str(pack_copy))


def test_boards_must_name_real_neighbouring_cells(pack_copy):
    edit(pack_copy / "boards.yaml", lambda data: data["boards"][2]["walls"].append(["a1", "c3"]))
    with pytest.raises(PackError, match="not neighbours"):
        load_pack(str(pack_copy))


def test_the_validator_reports_deck_building_problems(pack_copy):
    from engine.awaymissions.validate import main, pack_problems

    def break_decks(data):
        fed = data["decks"][0]
        fed["mission"] = fed["mission"][:19]
        fed["support"] = fed["support"][:19] + ["borg-regroup"] + ["fed-aimed-shot"] * 3

    assert pack_problems("content/starter") == []
    edit(pack_copy / "decks.yaml", break_decks)
    problems = pack_problems(str(pack_copy))
    assert any("exactly 20" in p for p in problems)
    assert any("Regroup is not a federation card" in p for p in problems)
    assert any("copies of Aimed Shot; its supply allows 2" in p for p in problems)
    assert main([str(pack_copy)]) == 1


def test_a_game_refuses_an_illegal_deck():
    from engine.awaymissions import rules
    from engine.errors import RuleError
    from tests.conftest import two_player_config

    config = two_player_config()
    config["players"][0]["mission"] = ["fed-open-a-channel"] * 20
    with pytest.raises(RuleError, match="20 copies of Open a Channel; its supply allows 2"):
        rules.new_game(config, 1)


def test_games_name_their_pack_independently_of_where_they_run(tmp_path, monkeypatch):
    from engine.awaymissions import rules
    from tests.conftest import two_player_config

    monkeypatch.chdir(tmp_path)  # the bot may be started from anywhere
    state = rules.new_game(two_player_config(), 1)
    assert state.pack == "content/starter"
    assert load_pack(state.pack).info.name == "Ready Room starter pack"


def test_a_key_given_twice_is_refused_with_its_line(pack_copy):
    path = pack_copy / "pack.yaml"
    path.write_text(path.read_text() + "\npack:\n  name: Twice\n  version: '2'\n")
    with pytest.raises(PackError) as caught:
        load_pack(str(pack_copy))
    assert any(p.startswith("pack.yaml: not valid YAML") and "'pack' is given twice" in p
               for p in caught.value.problems)


def test_a_key_given_twice_inside_an_entry_is_refused(pack_copy):
    path = pack_copy / "characters.yaml"
    text = path.read_text()
    path.write_text(text.replace("    name: Captain Elena Reyes\n",
                                 "    name: Captain Elena Reyes\n    name: Someone Else\n", 1))
    with pytest.raises(PackError, match="'name' is given twice"):
        load_pack(str(pack_copy))


@pytest.mark.parametrize("section", ["teams", "decks", "boards"])
def test_a_pack_without_teams_decks_or_boards_is_refused(pack_copy, section):
    edit(pack_copy / f"{section}.yaml", lambda data: data.__setitem__(section, []))
    with pytest.raises(PackError) as caught:
        load_pack(str(pack_copy))
    assert any(p.startswith(f"{section}.yaml: $.{section}: the pack has no") for p in caught.value.problems)


def test_a_missing_section_is_refused(pack_copy):
    (pack_copy / "decks.yaml").unlink()
    with pytest.raises(PackError, match="no decks section"):
        load_pack(str(pack_copy))


def test_files_that_are_not_utf8_text_are_refused_with_their_name(pack_copy):
    (pack_copy / "extra.yaml").write_bytes(b"cards:\n  - code: caf\xe9\n")
    (pack_copy / "blob.yaml").write_bytes(bytes(range(256)))
    with pytest.raises(PackError) as caught:
        load_pack(str(pack_copy))
    problems = caught.value.problems
    assert any(p.startswith("extra.yaml: not UTF-8 text") for p in problems)
    assert any(p.startswith("blob.yaml: not UTF-8 text") for p in problems)


def test_a_folder_named_like_a_yaml_file_is_refused(pack_copy):
    (pack_copy / "more.yaml").mkdir()
    with pytest.raises(PackError, match="more.yaml: not a file"):
        load_pack(str(pack_copy))


def test_the_validator_prints_problems_and_never_a_traceback(pack_copy, capsys):
    from engine.awaymissions.validate import main
    (pack_copy / "more.yaml").mkdir()
    (pack_copy / "blob.yaml").write_bytes(b"\x00\xff\xfe")
    assert main([str(pack_copy)]) == 1
    out = capsys.readouterr().out
    assert "more.yaml: not a file" in out and "blob.yaml: not UTF-8 text" in out and "Traceback" not in out
