"""A started league event for tests: players registered with a build, round 1 not yet paired."""
from engine.league.event import new_event, open_registration, register, start, submit_build


def started_event(names, build, seed, **options):
    """Event 'e1' opened by 'org', each name registered (lower-case id) with `build`, then started."""
    event = new_event("e1", "Arena", seed=seed, **options)
    open_registration(event, "org", 0)
    for name in names:
        register(event, name.lower(), name)
        submit_build(event, name.lower(), build)
    start(event, "org", 0)
    return event


def fleet(total, ship="Constitution", resource=None):
    """A fleet sheet of `total` squad points (the resource on top) whose surviving fleet can be
    any number of points: upgrades of 1, 2, 4 ... points and the ship with the rest."""
    from engine.league.builds import Build, BuildEntry
    upgrades, size = [], 1
    while total - sum(upgrades) > sum(upgrades) + 1:  # the rest must not leave a gap
        upgrades.append(size)
        size *= 2
    entries = [BuildEntry(ship, points=total - sum(upgrades))] + [BuildEntry(f"Upgrade {p}", points=p) for p in upgrades]
    return Build(kind="fleet", entries=tuple(entries),
                 resource=None if resource is None else BuildEntry(resource[0], points=resource[1]))
