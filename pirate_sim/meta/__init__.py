"""The meta-game: how much skill a game rewards (the skill ladder) and which strategy
dominates (the tournament), built on ordinary runs of matches (plan.py), analysed from
their stored games (stats.py, skill.py, tournament.py) and gated by ``check`` (gate.py)."""
