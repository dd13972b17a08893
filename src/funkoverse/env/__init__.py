"""The game for reinforcement learning: a PettingZoo AEC environment (`aec`), a Gymnasium
single-agent wrapper (`gym`) and the observation and action codec they share (`encode`).
Needs the `rl` extra: `pip install 'funkoverse[rl]'`."""
