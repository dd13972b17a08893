"""The pure rules core: no I/O, no clock, no global random."""
