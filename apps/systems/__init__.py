"""Game systems: each in its own folder (ew/, aethoria/), behind the registry of this package."""
