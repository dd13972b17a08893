"""The rules in words and data for people: labels of choices (`describe`), what a page
draws for each choice (`present`, `foresee`, `preview`), the line above a seat's choices
(`prompt`), notes a log adds (`notes`), and a seat's view as JSON (`serialize`). Nothing
here is a rule of its own: every answer is asked of the core and the engine."""
