"""The rules version a game records (engine/service/rules_version.py) covers the whole engine
package of its ruleset, group folders included, whichever module `new_game` lives in: a
module moved into a group stays covered, and a change to any of them is a change of rules."""
import shutil

from engine.packs import resolve_pack
from engine.service import rules_version
from engine.service.rulesets import RENEGADES, RULESETS

PACK = {"pack": "content/renegades"}


def test_each_ruleset_is_fingerprinted_over_its_own_package():
    for name, ruleset in RULESETS.items():
        assert rules_version.package_of(ruleset) == rules_version.ENGINE / name


def test_the_renegades_version_covers_every_group_folder(tmp_path):
    assert RENEGADES.new_game.__module__.count(".") > 2  # dealt from a module inside a group folder
    copy = tmp_path / "renegades"
    shutil.copytree(rules_version.ENGINE / "renegades", copy, ignore=shutil.ignore_patterns("__pycache__"))
    pack = resolve_pack(PACK["pack"])
    assert rules_version.of(RENEGADES, PACK) == rules_version._fingerprint(str(copy), pack)

    changed = tmp_path / "changed"
    shutil.copytree(copy, changed)
    deep = changed / "surface" / "landing.py"
    deep.write_text(deep.read_text() + "\n# one more line\n")
    assert rules_version._fingerprint(str(changed), pack) != rules_version.of(RENEGADES, PACK)


def test_moving_a_module_between_groups_is_a_change_of_rules(tmp_path):
    before, after = tmp_path / "before", tmp_path / "after"
    for root in (before, after):
        shutil.copytree(rules_version.ENGINE / "renegades", root, ignore=shutil.ignore_patterns("__pycache__"))
    (after / "surface" / "weather.py").rename(after / "play" / "weather.py")
    assert rules_version._fingerprint(str(before), "") != rules_version._fingerprint(str(after), "")
