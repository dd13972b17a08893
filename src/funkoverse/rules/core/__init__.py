"""The core of the rules: the values a game is made of (cards, pieces, dice, the board and
its geometry, choices, events, frames), the state of one game, and the small procedures
every other part asks of it (the stack of frames, the cooldown track, challenges, what a
seat may see). Nothing here knows the turn machine, the vocabulary or the words."""
