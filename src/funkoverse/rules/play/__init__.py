"""The turn machine of the Python engine: the setup steps, the legal choices of a position
(`menus`) and why any other is refused (`explain`), applying a choice (`engine`), a seat
leaving a free-for-all (`leaving`), and the invariants every position keeps."""
