"""A table over many rounds: seats, the shoe and its shuffles, deck procedures, table
events, provable deals, scenarios and their replay, game recall."""
