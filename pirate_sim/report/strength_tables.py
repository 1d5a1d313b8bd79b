"""The measured strength of each game's ``search`` at its default settings: written by
``python docs/search_strength.py --write`` (do not edit by hand), shown by the report's
"how strong is search" page (:mod:`pirate_sim.report.strength`)."""

TABLES = {}
