"""`python -m funkoverse` runs the command line."""

from funkoverse.cli import main

raise SystemExit(main())
