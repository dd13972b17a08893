"""The game drawn as text for a terminal: the map with its pieces (`board`). Neither the
command line nor the environments: both draw with it, and it asks only the rules."""
