"""The balance lab: play every matchup many times, store the results, report who beats whom.

`plan` lists the games of a sweep (each with its spec and seed), `store` keeps them in
SQLite as they finish, `run` plays them in local worker processes or as Ray tasks (with
`progress` on a terminal or in a log), `bars` holds restricted play (a side barred from one
ability, item or action), `stats` and `model` compute the figures (rates; the ratings of a
team as the sum of its cards, and where that fails), `compare` sets two stores side by
side, and `report` turns a store into an offline HTML page and CSV files.
"""
