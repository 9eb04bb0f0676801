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
